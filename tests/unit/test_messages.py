"""Every user mistake is a message: metadata schema, YAML, encodings, images, templates.

Issue 8 listed 12 tracebacks that users met instead of messages; each
validation here turns one kind of mistake into a KobookError with a code, the
file and the line (the command-line side is tests/e2e/test_messages.py).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from kobook import cli
from kobook.cache import Cache
from kobook.check import settings_from
from kobook.check.model import Settings
from kobook.check.runner import check_text, fix_text
from kobook.errors import KobookError
from kobook.files.reading import read_text
from kobook.files.yamlread import parse_yaml
from kobook.load import load_book, load_config
from kobook.model import Config, Doc
from kobook.parse import parse_book
from kobook.parse.ast import copy_tree, iter_nodes
from kobook.transform import transform_book
from kobook.transform.image_files import unreadable_image
from kobook.write.html import writer as html_writer
from kobook.write.shared.imagefiles import convert_image
from kobook.write.shared.passes import without_separators
from kobook.write.shared.templates import environment
from tests.conftest import BookMaker, spy

# --- the metadata schema: one case per section, with the line it must name ----------

SCHEMA_CASES = [
    # (metadata.yaml, code, line, words the message must hold)
    ("title: 책\ncheck: {ignore: 5}\n", "CFG003", 2, "check.ignore"),
    ("check:\n  quotes: curly\n  ignore: KO010\n", "CFG003", 3, "check.ignore"),
    ("check:\n  select: [KO001, 5]\n", "CFG003", 2, "check.select"),
    ("normalize: {ignore: 5}\n", "CFG003", 1, "normalize.ignore"),
    ("normalize:\n  ignroe: [KO007]\n", "CFG013", 2, "did you mean 'normalize.ignore'"),
    ("title: 책\n\ncheck:\n  untranslated-min-words: abc\n", "CFG009", 4, "abc"),
    ("check: {untranslated-min-words: 0}\n", "CFG009", 1, "untranslated-min-words"),
    ("check: {untranslated-min-words: true}\n", "CFG009", 1, "untranslated-min-words"),
    ("check: {quotes: fancy}\n", "CFG009", 1, "check.quotes"),
    ("check:\n  fix-emphasis: yes please\n", "CFG003", 2, "check.fix-emphasis"),
    ("check:\n  quote: curly\n", "CFG008", 2, "did you mean 'check.quotes'"),
    ("particles: {words: [a]}\n", "CFG003", 1, "particles.words"),
    ("particles:\n  words:\n    Megatron: [메가트론]\n", "CFG003", 2, "particles.words"),
    ("particles: {word: {a: 에이}}\n", "CFG005", 1, "did you mean 'particles.words'"),
    ("pdf: {filename: 5}\n", "CFG003", 1, "pdf.filename"),
    ("pdf:\n  filenme: book\n", "CFG005", 2, "did you mean 'pdf.filename'"),
    ("original:\n  title: {a: b}\n", "CFG003", 2, "original.title"),
    ("original: {authors: [A, [B]]}\n", "CFG003", 1, "original.authors"),
    ("captions: {figure: }\n", "CFG003", 1, "captions.figure"),
    ("captions:\n  table: [표]\n", "CFG003", 2, "captions.table"),
    ("chapters: [a.md, '']\n", "CFG005", 1, "file names"),
    ("linestretch: abc\n", "CFG005", 1, "linestretch 'abc'"),
    ("linestretch: -1\n", "CFG005", 1, "linestretch"),
    ("title: x\nlinestretch: '0'\n", "CFG005", 2, "linestretch"),
    ("fontsize: big\n", "CFG005", 1, "fontsize 'big'"),
    ("fontsize: 0pt\n", "CFG005", 1, "fontsize"),
    ("toc-depth: 9\n", "CFG005", 1, "toc-depth"),
    ("papersize: a44\n", "CFG007", 1, "did you mean 'a4'"),
    ("papersize: 152mm\n", "CFG007", 1, "papersize"),
    ("geometry: [top: 2cm]\n", "CFG003", 1, "top=2cm"),
    ("geometry: margin=two\n", "CFG006", 1, "'two'"),
    ("date: 2024-13-45\n", "CFG005", 1, "2024-13-45"),
    ("title: 책\ndate: 2023-02-30\n", "CFG005", 2, "not a real day"),
]


@pytest.mark.parametrize(("text", "code", "line", "words"), SCHEMA_CASES)
def test_metadata_mistake_is_an_error_at_its_line(
    tmp_path: Path, text: str, code: str, line: int, words: str
) -> None:
    path = tmp_path / "metadata.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(KobookError) as info:
        load_config(path)
    error = info.value
    assert (error.code, error.location.file, error.location.line) == (code, path, line)
    assert words in str(error)
    assert error.diagnostic.hint  # always says what to write instead


@pytest.mark.parametrize(
    "text",
    [
        "check: {quotes: off, ellipsis: off, fail-on: never, ignore: [KO010]}\n",
        "check: {untranslated-min-words: 3, glossary-first-use: false}\n",
        "normalize: false\n",
        "normalize: {ignore: [KO007], select: [KO001]}\n",
        "particles: {words: {Megatron: 메가트론, 3D: 쓰리디}}\n",
        "pdf: {filename: my-book, toc: false}\n",  # other pdf keys are kept
        "original: {title: X, authors: [A, B], year: 2024, url: 'https://x.org'}\n",
        "captions: {figure: 그림, chapter: '{n}장'}\n",
        "linestretch: 1.6\nfontsize: 11pt\ntoc-depth: 3\n",
        "linestretch: '1.5'\nfontsize: 10\npapersize: A5paper\n",
        "papersize: 152mm 225mm\ngeometry: [top=2cm, inner=25mm, includeheadfoot]\n",
        "date: 2024-12-31\n",
        "date: 2024년 겨울\n",
        "date: \\today\n",
    ],
)
def test_valid_metadata_still_loads(tmp_path: Path, text: str) -> None:
    path = tmp_path / "metadata.yaml"
    path.write_text(text, encoding="utf-8")
    assert load_config(path).path == path


def test_keys_without_values_mean_the_defaults(make_book: BookMaker) -> None:
    # ``toc-depth:`` with nothing after it is None, which crashed int() and iteration.
    root = make_book({"book/01.md": "# 장\n\n본문\n"})
    (root / "metadata.yaml").write_text(
        "title: 책\ntoc-depth:\nchapters:\noriginal:\ncaptions:\nchapter-level:\n",
        encoding="utf-8",
    )
    book = load_book(root)
    assert book.config.toc_depth == 2 and book.config.original == {}
    assert [c.title for c in book.chapters] == ["장"]


def test_quotes_off_is_off_not_false(tmp_path: Path) -> None:
    # YAML reads a bare ``off`` as false; README documents ``quotes: off``.
    path = tmp_path / "metadata.yaml"
    path.write_text("check: {quotes: off, ellipsis: off}\n", encoding="utf-8")
    settings = settings_from(load_config(path), tmp_path)
    assert (settings.quotes, settings.ellipsis) == ("off", "off")


def test_front_matter_of_a_one_file_book_is_validated(make_book: BookMaker) -> None:
    root = make_book({"book/only.md": "---\ntitle: 책\nlinestretch: abc\n---\n\n# 장\n\n본문\n"})
    with pytest.raises(KobookError) as info:
        load_book(root)
    assert info.value.code == "CFG005"
    assert info.value.location.file == root / "book" / "only.md"
    assert info.value.location.line == 3


# --- duplicate keys and chapters -----------------------------------------------------


def test_duplicate_key_names_both_lines() -> None:
    with pytest.raises(KobookError) as info:
        parse_yaml("title: a\nlang: ko\ntitle: b\n", Path("m.yaml"), "metadata", "CFG001")
    error = info.value
    assert (error.code, error.location.line) == ("CFG014", 3)
    assert "'title' twice" in str(error) and "lines 1 and 3" in str(error)


def test_duplicate_nested_key_with_line_offset() -> None:
    text = "check:\n  ignore: [KO001]\n  quotes: curly\n  ignore: [KO002]\n"
    with pytest.raises(KobookError) as info:
        parse_yaml(text, None, "front matter", "FM001", line_offset=1)
    assert info.value.code == "CFG014"
    assert "lines 3 and 5" in str(info.value) and info.value.location.line == 5


def test_same_key_in_different_mappings_and_merge_keys_are_fine() -> None:
    text = "a: {x: 1}\nb: {x: 2}\nbase: &b {y: 1}\nc:\n  <<: *b\n  y: 2\n"
    assert parse_yaml(text, None, "m", "C") == {
        "a": {"x": 1},
        "b": {"x": 2},
        "base": {"y": 1},
        "c": {"y": 2},
    }


def test_impossible_date_is_text_not_a_yaml_crash() -> None:
    data = parse_yaml("date: 2024-13-45\nreal: 2024-01-02\n", None, "m", "C")
    assert data["date"] == "2024-13-45"
    assert str(data["real"]) == "2024-01-02"


def test_duplicate_key_in_front_matter_is_reported(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "---\ntitle: 하나\nlang: ko\ntitle: 둘\n---\n\n본문\n"})
    with pytest.raises(KobookError) as info:
        load_book(root)
    assert info.value.code == "CFG014"
    assert info.value.location == info.value.location.__class__(root / "book" / "01.md", 4, 1)


@pytest.mark.parametrize(
    ("chapters", "lines"),
    [
        ("chapters:\n  - book/01.md\n  - book/02.md\n  - book/01.md\n", (2, 4)),
        ("chapters:\n  - book/01.md\n  - ./book/01.md\n", (2, 3)),
        ("chapters: [book/01.md, book//01.md]\n", None),
    ],
)
def test_chapter_listed_twice(
    make_book: BookMaker, chapters: str, lines: tuple[int, int] | None
) -> None:
    root = make_book({"book/01.md": "# 하나\n", "book/02.md": "# 둘\n"})
    (root / "metadata.yaml").write_text(chapters, encoding="utf-8")
    with pytest.raises(KobookError) as info:
        load_book(root)
    error = info.value
    assert error.code == "CFG015" and "twice" in str(error)
    if lines:
        assert f"lines {lines[0]} and {lines[1]}" in str(error)
        assert error.location.line == lines[1]
    else:
        assert error.location.line == 1


# --- encodings: the hint fits the bytes ----------------------------------------------

KOREAN = "# 제목\n\n한국어 문장입니다. 조금 더 길게 씁니다.\n둘째 줄입니다.\n"


def encoding_error(tmp_path: Path, data: bytes) -> KobookError:
    path = tmp_path / "01.md"
    path.write_bytes(data)
    with pytest.raises(KobookError) as info:
        read_text(path)
    assert info.value.code == "ENC001" and info.value.location.file == path
    return info.value


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (KOREAN.encode("utf-16"), "UTF-16"),  # with its byte order mark
        (b"\xfe\xff" + KOREAN.encode("utf-16-be"), "UTF-16"),
        ("# Title\n\nplain ASCII text\n".encode("utf-16-le"), "UTF-16LE"),
        ("# Title\n\nplain ASCII text\n".encode("utf-16-be"), "UTF-16BE"),
    ],
)
def test_utf16_is_named_and_never_read(tmp_path: Path, data: bytes, name: str) -> None:
    error = encoding_error(tmp_path, data)
    assert name in str(error) and f"iconv -f {name} " in error.diagnostic.hint
    assert "CP949" not in str(error)


def test_nul_byte_in_utf8_file_is_refused(tmp_path: Path) -> None:
    error = encoding_error(tmp_path, "# 제목\n\n본문\x00입니다\n".encode())
    assert "NUL" in str(error) and error.location.line == 3
    assert "iconv" not in error.diagnostic.hint


def test_broken_utf8_is_located_not_called_cp949(tmp_path: Path) -> None:
    good = ("가나다라 " * 10 + "\n").encode()
    cut = "마".encode()[:2]  # a character cut in two
    error = encoding_error(tmp_path, good * 3 + b"x " + cut + b" y\n" + good)
    assert "broken UTF-8" in str(error) and error.location.line == 4
    assert "CP949" not in str(error) and "iconv" not in error.diagnostic.hint


def test_cp949_is_suggested_for_korean_cp949(tmp_path: Path) -> None:
    error = encoding_error(tmp_path, KOREAN.encode("cp949"))
    assert "CP949" in str(error) and "iconv -f CP949" in error.diagnostic.hint


def test_latin1_is_not_called_cp949(tmp_path: Path) -> None:
    error = encoding_error(tmp_path, "café au lait\nnaïve résumé\n".encode("latin-1"))
    assert "CP949" not in str(error) and "CP949" not in error.diagnostic.hint
    assert error.location.line == 1


def test_utf8_with_bom_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "01.md"
    path.write_bytes(b"\xef\xbb\xbf" + KOREAN.encode())
    assert read_text(path) == KOREAN


# --- deep nesting: the writers' copy does not recurse --------------------------------


def nested_quotes(depth: int) -> list[dict[str, Any]]:
    inner: list[dict[str, Any]] = [{"t": "Para", "c": [{"t": "Str", "c": "깊다"}]}]
    for _ in range(depth):
        inner = [{"t": "BlockQuote", "c": inner}]
    return inner


def test_copy_tree_is_a_deep_independent_copy() -> None:
    value = {"b": [1, 2.5, None, True, "x", {"c": [[], {}]}], "a": {"d": "e"}}
    copied = copy_tree(value)
    assert copied == value and list(copied) == ["b", "a"]
    copied["b"][5]["c"][0].append(1)
    copied["a"]["d"] = "changed"
    assert value == {"b": [1, 2.5, None, True, "x", {"c": [[], {}]}], "a": {"d": "e"}}


def test_copy_tree_has_no_depth_limit() -> None:
    blocks = nested_quotes(sys.getrecursionlimit() * 2)
    copied = copy_tree(blocks)
    assert copied is not blocks
    assert sum(1 for n in iter_nodes(copied) if n["t"] == "BlockQuote") == len(
        [n for n in iter_nodes(blocks) if n["t"] == "BlockQuote"]
    )


def test_html_prepare_copies_a_deep_chapter(make_book: BookMaker) -> None:
    # '> ' * 250 raised RecursionError in copy.deepcopy (write/html/writer.py prepare).
    root = make_book({"book/01.md": "# 장\n\n본문\n"})
    book = load_book(root)
    doc = Doc(chapter=book.chapters[0], blocks=nested_quotes(300))
    blocks = html_writer.prepare(doc, book, {})
    blocks = blocks[0] if isinstance(blocks, tuple) else blocks
    words = [n["c"] for n in iter_nodes(blocks) if n["t"] == "Str"]
    assert words == ["깊다"]
    assert blocks is not doc.blocks
    assert doc.blocks == nested_quotes(300)  # the original is untouched


# --- the CLI's last resort: no traceback for the machine's own limits -----------------


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: Any, raised: BaseException) -> str:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise raised

    monkeypatch.setattr("kobook.api.build", fail)
    monkeypatch.setattr(sys, "argv", ["kobook", "build", "html", "-q"])
    with pytest.raises(SystemExit) as info:
        cli.run()
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    return err


def test_recursion_error_is_a_message(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    err = run_cli(monkeypatch, capsys, RecursionError("maximum recursion depth exceeded"))
    assert "nests too deeply" in err and "--chapter" in err


def test_memory_error_is_a_message(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    assert "too large" in run_cli(monkeypatch, capsys, MemoryError())


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (PermissionError(13, "Permission denied", "/book/dist/book.pdf"), "permissions"),
        (FileNotFoundError(2, "No such file or directory", "/proc/x"), "exist"),
        (OSError(30, "Read-only file system", "/book/dist"), "read-only"),
    ],
)
def test_os_error_names_the_path_and_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, error: OSError, words: str
) -> None:
    err = run_cli(monkeypatch, capsys, error)
    assert f"{error.filename}: {error.strerror}" in err
    assert words in err


# --- IMG003: an image that is not one -------------------------------------------------


def image_bytes(kind: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), "red").save(buffer, kind)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("bad.gif", b"GIF89a\x01\x00garbage", "damaged"),
        ("cut.gif", image_bytes("GIF")[:60], "truncated"),
        ("cut.png", image_bytes("PNG")[:60], "runcated"),
        ("empty.png", b"", "damaged"),
        ("photo.heic", b"\x00\x00\x00\x18ftypheic" + bytes(64), "convert it to PNG"),
        ("text.svg", b"hello", "SVG"),
        ("text.pdf", b"hello", "PDF"),
    ],
)
def test_unreadable_images_say_why(tmp_path: Path, name: str, data: bytes, words: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    assert words in unreadable_image(path)


def test_truncated_gif_is_found_after_weasyprint_relaxed_pillow(tmp_path: Path) -> None:
    import weasyprint  # noqa: F401  (sets PIL.ImageFile.LOAD_TRUNCATED_IMAGES for the process)
    from PIL import ImageFile

    path = tmp_path / "cut.gif"
    path.write_bytes(image_bytes("GIF")[:60])
    assert ImageFile.LOAD_TRUNCATED_IMAGES
    assert "truncated" in unreadable_image(path)
    assert ImageFile.LOAD_TRUNCATED_IMAGES  # put back as it was


@pytest.mark.parametrize("kind", ["PNG", "GIF", "JPEG", "WEBP"])
def test_good_images_pass(tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"ok.{kind.lower()}"
    path.write_bytes(image_bytes(kind))
    assert unreadable_image(path) == ""


def test_an_image_saved_again_is_examined_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer is kept per file, size and time (preview asks on every save): a file
    damaged after a good answer is reported, and an unchanged one is not read again."""
    import os

    from kobook.transform import image_files

    path = tmp_path / "fig.png"
    path.write_bytes(image_bytes("PNG"))
    assert unreadable_image(path) == ""
    read = spy(monkeypatch, image_files, "examine", lambda path: path)
    assert unreadable_image(path) == ""
    assert read == []
    damaged = bytearray(path.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF  # same size: only the time tells
    stamp = path.stat().st_mtime_ns
    path.write_bytes(bytes(damaged))
    os.utime(path, ns=(stamp + 1_000_000, stamp + 1_000_000))
    assert unreadable_image(path) != ""
    assert read == [path]
    path.unlink()
    assert unreadable_image(path) != ""


CORRUPT_GIF = "# 장\n\n본문이다.\n\n![그림](images/bad.gif)\n"


def transformed(make_book: BookMaker, keep_going: bool) -> tuple[Any, list[Doc], Any]:
    root = make_book({"book/01.md": CORRUPT_GIF, "images/bad.gif": b"GIF89a\x01\x00garbage"})
    book = load_book(root)
    docs = parse_book(book, Cache(None))
    docs, ctx = transform_book(book, docs, keep_going=keep_going)
    return book, docs, ctx


def test_corrupt_image_is_img003_at_the_line_using_it(make_book: BookMaker) -> None:
    with pytest.raises(KobookError) as info:
        transformed(make_book, keep_going=False)
    error = info.value
    assert error.code == "IMG003" and "images/bad.gif" in str(error)
    assert error.location.file is not None and error.location.file.name == "01.md"
    assert error.location.line == 5


def test_corrupt_image_with_keep_going_is_a_placeholder(make_book: BookMaker) -> None:
    _book, docs, ctx = transformed(make_book, keep_going=True)
    assert [d.code for d in ctx.diagnostics] == ["IMG003"]
    assert not [n for n in iter_nodes(docs[0].blocks) if n["t"] == "Image"]
    words = " ".join(n["c"] for n in iter_nodes(docs[0].blocks) if n["t"] == "Str")
    assert "images/bad.gif" in words


def test_xelatex_conversion_of_a_corrupt_gif_is_img003(tmp_path: Path) -> None:
    # The build's check comes first; this is the writer's own guard (it raised
    # PIL.UnidentifiedImageError).
    path = tmp_path / "bad.gif"
    path.write_bytes(b"GIF89a\x01\x00garbage")
    with pytest.raises(KobookError) as info:
        convert_image(path, Cache(None))
    assert info.value.code == "IMG003" and info.value.location.file == path


# --- KO014: line and paragraph separators ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("가 \u2029 나\n", "가 나\n"),
        ("첫 문장.\u2029둘째 문장.\n", "첫 문장. 둘째 문장.\n"),
        ("a\u2028\u2028b\n", "a b\n"),
        ("줄 끝 \u2028\n다음 줄\n", "줄 끝\n다음 줄\n"),
        ("# 제목\u2029\n\n본문\n", "# 제목\n\n본문\n"),
        ("말 `co\u2029de` 끝\u2029말\n", "말 `co\u2029de` 끝 말\n"),  # code is not prose
    ],
)
def test_ko014_replaces_separators_with_a_space(text: str, fixed: str) -> None:
    settings = Settings(language="en")  # not a Korean-only rule
    assert any(f.rule == "KO014" for f in check_text(text, None, settings))
    assert fix_text(text, None, settings)[0] == fixed


def test_ko014_is_silent_without_separators() -> None:
    assert not [f for f in check_text("가 나\n\n다 라\n", None, Settings()) if f.rule == "KO014"]


def test_print_writers_never_see_separators() -> None:
    assert without_separators("a\u2028b\u2029c") == "a b c"
    text = "no separators"
    assert without_separators(text) is text


# --- templates: original without some keys, and a book's own template mistakes --------


@pytest.mark.parametrize(
    ("original", "shown"),
    [
        ({"title": "Only Title"}, "Only Title"),
        ({"url": "https://example.org/only-url"}, "https://example.org/only-url"),
        ({"authors": ["Only Author", "Second"]}, "Only Author"),
    ],
)
def test_original_with_missing_keys_renders_everywhere(
    make_book: BookMaker, original: dict[str, Any], shown: str
) -> None:
    from kobook.write.latex.template import render_latex
    from kobook.write.weasyprint.writer import render_html

    root = make_book(
        {"book/01.md": "# 장\n\n본문이다.\n"}, metadata={"title": "책", "original": original}
    )
    book = load_book(root)
    docs, _ctx = transform_book(book, parse_book(book, Cache(None)))
    site = html_writer.write_html(book, docs, root / "dist" / "html")
    assert shown in site.read_text(encoding="utf-8")
    assert shown in render_html(book, docs, Cache(None))[0]
    assert shown.replace("_", "\\_") in render_latex(book, docs, Cache(None))[0]


@pytest.mark.parametrize(
    ("template", "line", "words"),
    [
        ("line 1\n{% if x %}\n", 2, "syntax error"),
        ("line 1\nline 2\n{{ nothing.here }}\n", 3, "'nothing' is undefined"),
        ("{{ 1 + 'a' }}\n", 1, "TypeError"),
    ],
)
def test_book_template_mistake_is_tpl001_at_its_line(
    tmp_path: Path, template: str, line: int, words: str
) -> None:
    own = tmp_path / "templates" / "html" / "index.html.j2"
    own.parent.mkdir(parents=True)
    own.write_text(template, encoding="utf-8")
    with pytest.raises(KobookError) as info:
        environment(tmp_path, trusted=True).get_template("html/index.html.j2").render()
    error = info.value
    assert (error.code, error.location.line) == ("TPL001", line)
    assert error.location.file is not None and error.location.file.resolve() == own.resolve()
    assert words in str(error) and "templates/" in error.diagnostic.hint


def test_builtin_template_with_missing_value_says_report_it(tmp_path: Path) -> None:
    with pytest.raises(KobookError) as info:
        environment(tmp_path).get_template("html/index.html.j2").render()
    assert info.value.code == "TPL001" and "report" in info.value.diagnostic.hint


def test_config_original_fills_missing_keys() -> None:
    original = Config(raw={"original": {"title": "X"}}).original
    assert original["title"] == "X"
    assert original["authors"] == original["url"] == original["licence"] == ""


@pytest.mark.parametrize("key", ["emoji-font", "mainfont", "CJKmonofont"])
def test_font_names_cannot_carry_css_or_tex(key: str) -> None:
    from kobook.load.config import validate

    validate({key: "Noto Sans CJK KR"}, None, "")
    with pytest.raises(KobookError) as info:
        validate({key: 'x"; } body { display:none } @page {'}, None, f"{key}: x\n")
    assert info.value.code == "CFG005" and key in str(info.value)
