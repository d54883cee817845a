"""The EPUB's images handed to pandoc as copies in its working folder (write/epub/media.py)."""

from __future__ import annotations

import json
from pathlib import Path

from kobook.model import Chapter, Doc
from kobook.write.epub.media import Media, inline_images, raw_media

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


def image(url: str) -> dict[str, object]:
    return {"t": "Image", "c": [["", [], []], [{"t": "Str", "c": "그림"}], [url, ""]]}


def doc_in(folder: Path) -> Doc:
    chapter = Chapter(id="ch1", path=folder / "ch1.md", text="![그림](images/a.png)\n")
    return Doc(chapter=chapter, blocks=[], meta={})


def test_each_image_is_a_named_copy_not_a_data_url(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "a.png").write_bytes(PNG)
    (tmp_path / "images" / "b.png").write_bytes(PNG)  # the same bytes: one copy
    media, problems = Media(), []
    blocks = [{"t": "Para", "c": [image("images/a.png"), image("images/b.png")]}]
    out = inline_images(blocks, doc_in(tmp_path), [tmp_path.resolve()], media, problems)
    urls = [node["c"][2][0] for node in out[0]["c"]]
    assert problems == []
    assert urls[0] == urls[1]
    assert urls[0].startswith("media-") and urls[0].endswith(".png")
    assert media.files == {urls[0]: PNG}
    assert "base64" not in json.dumps(out)  # what made pandoc's heap hundreds of MB
    work = tmp_path / "work"
    work.mkdir()
    media.write(work)  # a stand-in that names it, put back in the container by finish()
    assert media.restore((work / urls[0]).read_bytes()) == PNG


def test_raw_img_gets_the_copy_and_an_outside_file_is_left_out(tmp_path: Path) -> None:
    book = tmp_path / "book"
    (book / "images").mkdir(parents=True)
    (book / "images" / "a.png").write_bytes(PNG)
    (tmp_path / "secret.png").write_bytes(PNG)
    media, problems = Media(), []
    blocks = [
        {"t": "RawBlock", "c": ["html", '<img src="images/a.png" alt="그림">']},
        {"t": "Para", "c": [image("../secret.png")]},
    ]
    out = raw_media(blocks, doc_in(book), [book.resolve()], media, problems)
    name = next(iter(media.files))
    assert out[0]["c"][1] == f'<img src="{name}" alt="그림">'
    out = inline_images(out, doc_in(book), [book.resolve()], media, problems)
    assert out[1]["c"][0]["t"] == "Span"  # its alt text stays; the file is not read
    assert [p.code for p in problems] == ["EPUB001"]
    assert len(media.files) == 1


def test_images_are_stored_not_deflated_again(tmp_path: Path) -> None:
    """finish() writes the container again: a PNG is compressed already, so it is stored;
    the pages are deflated."""
    import zipfile
    import zlib

    from kobook.lang.words import Words
    from kobook.write.epub.writer import finish

    epub = tmp_path / "book.epub"
    with zipfile.ZipFile(epub, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        out.writestr("EPUB/media/a.png", PNG * 50)
        out.writestr("EPUB/text/ch001.xhtml", "<html><title>ch001.xhtml</title>" + "가" * 500)
    finish(epub, Words("ko"))
    with zipfile.ZipFile(epub) as done:
        kinds = {info.filename: info.compress_type for info in done.infolist()}
        assert done.read("EPUB/media/a.png") == PNG * 50
        page = done.getinfo("EPUB/text/ch001.xhtml")
        text = done.read(page)
    assert kinds["EPUB/media/a.png"] == zipfile.ZIP_STORED
    assert kinds["EPUB/text/ch001.xhtml"] == zipfile.ZIP_DEFLATED
    # zlib's fastest level (a quarter of the default's time): what it makes of the page
    fastest = zlib.compressobj(1, zlib.DEFLATED, -15)
    assert page.compress_size == len(fastest.compress(text) + fastest.flush())
