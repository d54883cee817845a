"""Print-ready images: what WeasyPrint would encode again is flattened once, in the cache."""

from __future__ import annotations

import io
import traceback
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from kobook.cache import Cache
from kobook.write.weasyprint.printready import needs_conversion, print_ready


def png(mode: str = "RGB", size: tuple[int, int] = (4, 2), orientation: int | None = None) -> bytes:
    image = Image.new(mode, size, "red")
    image.putpixel((0, 0), (0, 0, 255) if mode == "RGB" else (0, 0, 255, 255))
    buffer = io.BytesIO()
    if orientation is None:
        image.save(buffer, format="PNG")
    else:
        exif = Image.Exif()
        if orientation:
            exif[0x0112] = orientation
        image.save(buffer, format="PNG", exif=exif)
    return buffer.getvalue()


def test_exif_makes_a_png_need_conversion() -> None:
    assert not needs_conversion(png())
    assert needs_conversion(png(orientation=1))  # a macOS screenshot: EXIF, not turned
    assert needs_conversion(png("RGBA"))


def test_the_copy_is_turned_as_its_exif_says_and_has_no_exif(tmp_path: Path) -> None:
    source = tmp_path / "turned.png"
    source.write_bytes(png(orientation=6))  # 6: shown turned 90° clockwise
    ready = print_ready(source, Cache(tmp_path / "cache"))
    assert ready != source
    with Image.open(ready) as image:
        assert image.size == (2, 4) and "exif" not in image.info
        assert not needs_conversion(ready.read_bytes())


@pytest.mark.parametrize("ready", [False, True])
def test_weasyprint_does_not_encode_a_print_ready_image_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ready: bool
) -> None:
    import weasyprint

    source = tmp_path / "shot.png"
    source.write_bytes(png(orientation=1))
    path = print_ready(source, Cache(tmp_path / "cache")) if ready else source
    saved: list[Any] = []
    original = Image.Image.save

    def save(self: Image.Image, *args: Any, **kwargs: Any) -> None:
        # Encoded again when the image is read (not when the PDF takes its rows).
        frames = traceback.extract_stack()
        if any(
            f.filename.endswith("weasyprint/images.py") and f.name == "__init__" for f in frames
        ):
            saved.append(args)
        original(self, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "save", save)
    weasyprint.HTML(string=f'<img src="{path.as_uri()}">').write_pdf()
    assert bool(saved) is not ready  # the screenshot itself is encoded again


def test_exif_that_does_not_turn_is_left_out_without_decoding(tmp_path: Path) -> None:
    """The rows are kept byte for byte (flattening 31 screenshots cost more than WeasyPrint
    encoding them again)."""
    from kobook.write.weasyprint.images import idat_chunks_any

    data = png(orientation=1)
    source = tmp_path / "shot.png"
    source.write_bytes(data)
    ready = print_ready(source, Cache(tmp_path / "cache"))
    assert idat_chunks_any(ready.read_bytes()) == idat_chunks_any(data)
    assert b"eXIf" not in ready.read_bytes() and len(ready.read_bytes()) < len(data)
    with Image.open(ready) as image:
        assert image.getpixel((0, 0)) == (0, 0, 255) and "exif" not in image.info
