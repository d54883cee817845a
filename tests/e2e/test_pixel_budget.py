"""Pixels are a limit like bytes (issue 27): an image of more pixels than the budget is
refused from its header, before any engine decodes it, in every engine and format."""

from __future__ import annotations

import io
import struct
import subprocess
import zipfile
import zlib
from pathlib import Path

import pytest
from PIL import Image

import kobook
from kobook import limits
from kobook.transform import image_files
from tests.conftest import BookMaker


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def bomb_png(width: int, height: int) -> bytes:
    """A valid one-bit PNG of ``width`` × ``height`` blank pixels: a few KB on disk."""
    row = b"\x00" + bytes((width + 7) // 8)
    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


def test_the_budget_is_read_from_the_header(tmp_path: Path) -> None:
    path = tmp_path / "bomb.png"
    path.write_bytes(bomb_png(9000, 5000))
    assert path.stat().st_size < 100_000
    assert "45,000,000" not in image_files.unreadable_image(path)
    assert "9,000 × 5,000 pixels" in image_files.unreadable_image(path)
    small = tmp_path / "small.png"
    small.write_bytes(bomb_png(300, 200))
    assert image_files.unreadable_image(small) == ""


def test_pillow_warnings_are_kept_for_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import warnings

    path = tmp_path / "odd.png"
    path.write_bytes(bomb_png(30, 20))

    def warning_pillow(found: Path) -> str:
        warnings.warn("Palette images with Transparency expressed in bytes", stacklevel=1)
        return ""

    monkeypatch.setattr(image_files, "pillow_problem", warning_pillow)
    monkeypatch.setattr(image_files, "_ANSWERS", {})
    assert image_files.image_warnings(path) == (
        "Palette images with Transparency expressed in bytes",
    )


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["weasyprint", "typst", "xelatex"])
def test_no_engine_decodes_an_image_past_the_budget(
    make_book: BookMaker, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_IMAGE_PIXELS", 1_000_000)
    monkeypatch.setattr(image_files, "_ANSWERS", {})
    root = make_book(
        {"book/01.md": "# 그림\n\n본문.\n\n![큰 그림](../images/bomb.png)\n"},
        metadata={"title": "그림 책"},
    )
    (root / "images").mkdir()
    (root / "images" / "bomb.png").write_bytes(bomb_png(2000, 1000))
    with pytest.raises(kobook.KobookError) as info:
        kobook.build(root, ["pdf"], engine=engine)
    assert info.value.code == "IMG003" and info.value.location.line == 5
    result = kobook.build(root, ["pdf", "html", "epub"], engine=engine, keep_going=True)
    listing = subprocess.run(
        ["pdfimages", "-list", str(result.outputs["pdf"])], capture_output=True, text=True
    ).stdout
    assert len(listing.splitlines()[2:]) == 0
    site = result.outputs["html"].parent
    assert not list(site.rglob("bomb.png"))
    with zipfile.ZipFile(result.outputs["epub"]) as epub:
        sizes = [
            Image.open(io.BytesIO(epub.read(n))).size for n in epub.namelist() if n.endswith(".png")
        ]
    assert (2000, 1000) not in sizes  # the cover kobook draws is the only picture
