"""limits.py and where each limit is enforced: tiny inputs get a LIMIT error, not a hang.

Each reproducer of issue 8 ("Denial of service from tiny inputs") is refused
here in well under a second, with the file and line; each limit is tried
exactly at its value (accepted) and one past it (refused).
"""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kobook import cache as cache_module
from kobook import limits, tools
from kobook.cache import Cache, digest
from kobook.errors import KobookError
from kobook.files.reading import read_bytes
from kobook.files.yamlread import parse_yaml
from kobook.load import load_book
from kobook.model import Chapter, TextIndex
from kobook.parse import guard, pandoc
from kobook.parse.pandoc import load_json, markdown_to_ast
from kobook.write.html.writer import sidebar
from tests.conftest import BookMaker

ALIAS_BOMB = "\n".join(
    [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        *(
            f"{name}: &{name} [{','.join([f'*{prev}'] * 9)}]"
            for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
        ),
    ]
)


def refused(code: str, run: Any, *args: Any, **kwargs: Any) -> KobookError:
    """``run(*args)`` raises the KobookError ``code``; returns it.  How fast is measured in
    scripts/bench.py, not here: a shared machine makes a timed test fail for the wrong
    reason.  A limit that did not hold would run the test into the bomb itself."""
    with pytest.raises(KobookError) as info:
        run(*args, **kwargs)
    assert info.value.code == code, str(info.value)
    return info.value


def nest(kind: str, depth: int) -> str:
    """A chapter body nesting ``kind`` ``depth`` deep."""
    if kind == "quote":
        return "> " * depth + "깊다\n"
    if kind == "list":
        return "- " * depth + "항목\n"
    if kind == "ordered":
        return "1. " * depth + "항목\n"
    if kind == "indented":
        return "".join("  " * level + "- 항목\n" for level in range(depth))
    if kind == "mixed":
        return "> - " * (depth // 2) + "> " * (depth % 2) + "항목\n"
    if kind == "divs":
        return "".join(f"::: d{n}\n" for n in range(depth)) + "본문\n" + ":::\n" * depth
    raise AssertionError(kind)


# --- LIMIT001: nesting, before pandoc ----------------------------------------------


def test_the_issue_depth_bomb_is_refused_at_its_line() -> None:
    text = "# 장\n\n본문\n\n" + "> " * 250 + "깊다\n"
    error = refused("LIMIT001", guard.check_text, text, Path("book/01.md"), 3)
    assert error.location.file == Path("book/01.md")
    assert error.location.line == 3 + 5
    # The column of the first '>' past the limit.
    assert error.location.col == 2 * limits.MAX_NESTING + 1
    assert f"at most {limits.MAX_NESTING}" in str(error)


@pytest.mark.parametrize("marker", ["> ", "- ", "1. "])
def test_a_hundred_thousand_levels_are_refused_in_well_under_a_second(marker: str) -> None:
    refused("LIMIT001", guard.check_text, marker * 100_000 + "x", Path("a.md"))


@pytest.mark.parametrize("kind", ["quote", "list", "ordered", "indented", "mixed", "divs"])
def test_nesting_at_the_limit_passes_and_one_more_is_refused(kind: str) -> None:
    guard.check_text(nest(kind, limits.MAX_NESTING), Path("a.md"))
    error = refused("LIMIT001", guard.check_text, nest(kind, limits.MAX_NESTING + 1), Path("a.md"))
    assert f"nest {limits.MAX_NESTING + 1} deep" in str(error)


def test_rules_code_and_ordinary_text_are_not_nesting() -> None:
    deep = "> " * 100
    guard.check_text("- " * 40 + "\n", Path("a.md"))  # a thematic break
    rule = "> " * (limits.MAX_NESTING - 1) + "- * * *\n"  # a rule in a list in quotes
    guard.check_text(rule, Path("a.md"))
    guard.check_text(f"```\n{deep}\n```\n\n~~~~ md\n{deep}\n~~~~\n", Path("a.md"))
    guard.check_text("1. 하나\n2. 둘\n\n- 셋\n  - 넷\n", Path("a.md"))
    # An opening fence that pandoc does not take as one does not hide what follows.
    refused("LIMIT001", guard.check_text, f"``` a`b\n{deep}\n", Path("a.md"))


def test_markers_are_counted_in_linear_time() -> None:
    count, rest, starts = guard.markers("> " * 3 + "- " * 2 + "본문")
    assert (count, rest.strip(), starts) == (5, "본문", [0, 2, 4, 6, 8])
    count, _, starts = guard.markers("    - 셋째")
    assert (count, starts) == (3, [4])  # indentation: two columns a level


# --- LIMIT002: brackets pandoc backtracks over --------------------------------------


def test_brackets_open_at_the_limit_pass_and_one_more_is_refused() -> None:
    most = limits.MAX_BRACKET_DEPTH
    guard.check_text("[" * most + "x" + "]" * most, Path("a.md"))
    guard.check_text("구간 [0, 1) " * most, Path("a.md"))
    error = refused(
        "LIMIT002", guard.check_text, "앞\n\n" + "구간 [0, 1) " * (most + 1), Path("a.md")
    )
    assert (error.location.line, error.location.col) == (3, most * len("구간 [0, 1) ") + 4)
    refused("LIMIT002", guard.check_text, "[" * 20 + "x", Path("a.md"))  # pandoc: 100 s


def test_unclosed_brackets_count_to_the_end_of_the_paragraph_only() -> None:
    most = limits.MAX_BRACKET_DEPTH
    lines = ["[열림 " for _ in range(most + 1)]
    refused("LIMIT002", guard.check_text, "\n".join(lines), Path("a.md"))
    guard.check_text("\n\n".join(lines), Path("a.md"))  # one per paragraph
    guard.check_text("\n".join(f"| [{n}, {n + 1}) | 값 |" for n in range(20)), Path("a.md"))
    guard.check_text("\n".join(f"- [{n}, {n + 1})" for n in range(20)), Path("a.md"))


def test_brackets_in_code_math_and_escapes_do_not_count() -> None:
    many = "[" * 30
    escaped = "\\[" * 30
    guard.check_text(f"`{many}` and ``a ` {many}`` $x{many}$ {escaped}\n", Path("a.md"))
    guard.check_text(f"$$\n{many}\n$$\n", Path("a.md"))
    guard.check_text("[a](b) [^1] [@c] [d]{.e} " * 200, Path("a.md"))


# --- LIMIT005: footnotes -----------------------------------------------------------------


def chapters_with_notes(tmp_path: Path, counts: list[int]) -> list[Chapter]:
    out = []
    for number, count in enumerate(counts, 1):
        body = "".join(f"문장 {n}.[^n{n}]\n" for n in range(count))
        body += "".join(f"[^n{n}]: 각주.\n" for n in range(count))  # definitions do not count
        out.append(Chapter(id=f"c{number}", path=tmp_path / f"{number}.md", text=body))
    return out


def test_footnotes_at_the_limit_pass_and_the_first_past_it_is_named() -> None:
    chapters = chapters_with_notes(Path("book"), [limits.MAX_FOOTNOTES - 1, 1])
    guard.check_footnotes(chapters)
    chapters = chapters_with_notes(Path("book"), [limits.MAX_FOOTNOTES - 1, 3])
    error = refused("LIMIT005", guard.check_footnotes, chapters)
    assert error.location.file == Path("book/2.md") and error.location.line == 2


def test_twenty_thousand_footnotes_are_refused_fast() -> None:
    refused("LIMIT005", guard.check_footnotes, chapters_with_notes(Path("b"), [20_000]))


def test_inline_notes_count_and_code_does_not() -> None:
    text = "`[^x]` ^[인라인 각주] [^a]\n"
    chapter = Chapter(id="c", path=Path("c.md"), text=text * (limits.MAX_FOOTNOTES // 2))
    guard.check_footnotes([chapter])
    chapter.text += "^[하나 더]\n"
    refused("LIMIT005", guard.check_footnotes, [chapter])


# --- LIMIT001 after parsing: the AST's real depth --------------------------------------


def test_raw_html_nesting_counts_towards_the_depth() -> None:
    chapter = Chapter(id="c", path=Path("c.md"), text="# 장\n\n" + "<b>" * 300 + "굵게\n")
    blocks = markdown_to_ast(chapter.text)["blocks"]
    error = refused("LIMIT001", guard.check_depth, blocks, chapter)
    assert error.location.line == 3
    depth, _ = guard.depth_of(markdown_to_ast("<b>" * 10 + "x" + "</b>" * 10)["blocks"])
    assert depth == 2 + 10  # Para, Str and the ten raw elements


@pytest.mark.parametrize(
    "markdown",
    [
        "> " * 6 + "깊다\n",
        "<b>" * 10 + "x" + "</b>" * 10 + "\n\n" + "- " * 4 + "목록\n",
        "<div>\n\n" * 5 + "| 가 | 나 |\n|---|---|\n| *기울임* | `코드` |\n" + "</div>\n\n" * 5,
        "문단[^1]\n\n[^1]: > 인용 안의 **굵은 [링크](#a)**\n",
    ],
)
def test_the_quick_depth_test_agrees_with_the_depth(markdown: str) -> None:
    """``deeper_than`` (the check on every chapter) answers as ``depth_of`` counts."""
    blocks = markdown_to_ast(markdown)["blocks"]
    depth, _ = guard.depth_of(blocks)
    assert depth > 3
    assert guard.deeper_than(blocks, depth - 1) and not guard.deeper_than(blocks, depth)


def test_a_chapter_at_the_ast_limit_passes_and_one_deeper_is_refused() -> None:
    def chapter(levels: int) -> Chapter:
        return Chapter(id="c", path=Path("c.md"), text="> " * (levels - 2) + "깊다\n")

    at_limit = chapter(limits.MAX_AST_DEPTH)
    guard.check_depth(markdown_to_ast(at_limit.text)["blocks"], at_limit)
    past = chapter(limits.MAX_AST_DEPTH + 1)
    error = refused("LIMIT001", guard.check_depth, markdown_to_ast(past.text)["blocks"], past)
    assert error.location.line == 1


def test_json_too_deep_for_python_is_a_limit_error() -> None:
    deep = '{"blocks": ' + "[" * 100_000 + "]" * 100_000 + "}"
    refused("LIMIT001", load_json, deep, Path("c.md"))


# --- LIMIT003: file size -------------------------------------------------------------------


def test_a_50_mb_chapter_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    with path.open("wb") as handle:
        handle.truncate(50 * 2**20)  # sparse: 50 MB on paper, nothing on disk
    error = refused("LIMIT003", read_bytes, path)
    assert "50.0 MiB" in str(error) and error.location.file == path


def test_a_file_at_the_size_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "edge.md"
    path.write_bytes(b"a" * limits.MAX_FILE_BYTES)
    assert len(read_bytes(path)) == limits.MAX_FILE_BYTES
    path.write_bytes(b"a" * (limits.MAX_FILE_BYTES + 1))
    refused("LIMIT003", read_bytes, path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_not_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "pipe.md"
    os.mkfifo(path)
    assert stat.S_ISFIFO(path.stat().st_mode)
    refused("LIMIT003", read_bytes, path)


# --- LIMIT004: chapters ----------------------------------------------------------------------


def headings(count: int) -> str:
    return "".join(f"# 장 {n}\n" for n in range(count))


def test_auto_split_at_the_limit_loads_one_more_is_refused(make_book: BookMaker) -> None:
    root = make_book({"book/all.md": headings(limits.MAX_AUTO_CHAPTERS)})
    assert len(load_book(root).chapters) == limits.MAX_AUTO_CHAPTERS
    (root / "book/all.md").write_text(headings(16_000), encoding="utf-8")  # 128 KB
    error = refused("LIMIT004", load_book, root)
    assert error.location.line == limits.MAX_AUTO_CHAPTERS + 1
    assert "chapter-level" in error.diagnostic.hint


def test_chapter_level_in_the_metadata_allows_the_split(make_book: BookMaker) -> None:
    root = make_book(
        {"book/all.md": headings(limits.MAX_AUTO_CHAPTERS + 1)}, metadata={"chapter-level": 1}
    )
    assert len(load_book(root).chapters) == limits.MAX_AUTO_CHAPTERS + 1


def test_the_book_has_at_most_max_chapters(make_book: BookMaker) -> None:
    root = make_book({"book/all.md": headings(limits.MAX_CHAPTERS)}, metadata={"chapter-level": 1})
    assert len(load_book(root).chapters) == limits.MAX_CHAPTERS
    (root / "book/all.md").write_text(headings(limits.MAX_CHAPTERS + 1), encoding="utf-8")
    error = refused("LIMIT004", load_book, root)
    assert error.location.line == limits.MAX_CHAPTERS + 1


# --- LIMIT008: YAML ---------------------------------------------------------------------------


def test_the_alias_bomb_is_refused() -> None:
    assert len(ALIAS_BOMB.encode()) < 400
    error = refused("LIMIT008", parse_yaml, ALIAS_BOMB, Path("metadata.yaml"), "metadata", "CFG001")
    assert error.location.file == Path("metadata.yaml")
    assert error.location.line in range(2, 10)
    assert "aliases" in str(error)


def test_aliases_within_the_limit_still_work() -> None:
    text = "base: &b {x: 1, y: [1, 2]}\nc: {<<: *b, z: 3}\nd: *b\n"
    data = parse_yaml(text, None, "metadata", "CFG001")
    assert data["c"] == {"x": 1, "y": [1, 2], "z": 3} and data["d"] == data["base"]
    values = "[" + ", ".join(["1"] * (limits.MAX_YAML_ALIAS_NODES - 1)) + "]"
    assert len(parse_yaml(f"a: &a {values}\nb: *a\n", None, "m", "CFG001")["b"]) > 0
    refused("LIMIT008", parse_yaml, f"a: &a {values}\nb: *a\nc: *a\n", None, "m", "CFG001")


def test_a_large_glossary_without_aliases_is_not_limited() -> None:
    count = limits.MAX_YAML_ALIAS_NODES + 1000  # twice as many values: keys and terms
    text = "".join(f"term{n}: 용어{n}\n" for n in range(count))
    assert len(parse_yaml(text, None, "glossary", "CFG010")) == count


def test_recursive_and_deep_yaml_is_refused() -> None:
    refused("LIMIT008", parse_yaml, "a: &a [1, *a]\n", None, "m", "CFG001")
    refused("LIMIT008", parse_yaml, "[" * 10_000, None, "m", "CFG001")
    deepest = "[" * limits.MAX_YAML_DEPTH + "]" * limits.MAX_YAML_DEPTH
    assert parse_yaml(deepest, None, "m", "CFG001") is not None
    refused("LIMIT008", parse_yaml, "[" + deepest + "]", None, "m", "CFG001")


def test_front_matter_alias_bomb_names_the_chapter(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": f"---\n{ALIAS_BOMB}\n---\n\n# 장\n"})
    error = refused("LIMIT008", load_book, root)
    assert error.location.file == root / "book/01.md" and error.location.line > 1


# --- LIMIT006 / LIMIT007: external programs ---------------------------------------------------


def test_a_program_past_its_timeout_is_stopped_with_its_children(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    script = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(60)\n"
    )
    error = refused(
        "LIMIT006",
        tools.run,
        [sys.executable, "-c", script],
        timeout=1.0,
        what="a sleeper",
        file="x.md",
    )
    assert "a sleeper took longer than 1 s" in str(error)
    grandchild = int(pid_file.read_text())
    for _ in range(50):
        if not alive(grandchild):
            break
        time.sleep(0.1)
    assert not alive(grandchild), "the program's own children must be stopped too"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:  # a zombie is not running
        return handle.read().split(") ", 1)[1][0] != "Z"


def test_pandoc_past_its_timeout_names_the_chapter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = tmp_path / "pandoc"
    slow.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(60)\n", encoding="utf-8")
    slow.chmod(0o755)
    monkeypatch.setattr(pandoc, "pandoc_path", lambda: str(slow))
    monkeypatch.setattr(pandoc, "memory_options", lambda: ())
    monkeypatch.setattr(limits, "PANDOC_TIMEOUT", 0.5)
    chapter = tmp_path / "01.md"
    error = refused("LIMIT006", markdown_to_ast, "# 장\n", what="parsing 01.md", file=chapter)
    assert error.location.file == chapter
    assert "pandoc (parsing 01.md) took longer than 0.5 s" in str(error)


def test_pandoc_past_its_memory_limit_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    # pypandoc-binary's pandoc takes RTS options: the cap must be on, not skipped.
    assert pandoc.memory_options(), "this pandoc takes no +RTS -M"
    pandoc.memory_options.cache_clear()
    monkeypatch.setattr(limits, "PANDOC_MEMORY", "100m")
    try:
        error = refused("LIMIT007", markdown_to_ast, "[^" * 3000 + "x")
    finally:
        pandoc.memory_options.cache_clear()
    assert "memory limit (100m)" in str(error)


# --- no quadratic work in the number of chapters ---------------------------------------------


def test_locating_every_occurrence_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    count = 20_000
    chapter = Chapter(id="c", path=Path("c.md"), text="본문 LEAK\n" * count, line_offset=2)
    built: list[str] = []
    original = TextIndex.__init__

    def counted(self: TextIndex, text: str) -> None:
        built.append(text)
        original(self, text)

    monkeypatch.setattr(TextIndex, "__init__", counted)
    found = [chapter.locate("LEAK", n) for n in range(count)]
    # One index of the text and one list of the needle's places, whatever the count: the
    # work is linear (it was a search from the start for every occurrence).
    assert len(built) == 1
    index = chapter._text_index
    assert index is not None and list(index._places) == ["LEAK"]
    assert found[0] is not None and found[-1] is not None
    assert (found[0].line, found[0].col, found[-1].line) == (3, 4, count + 2)
    chapter.text = "새 본문\nLEAK"
    assert chapter.locate("LEAK", 5) is not None and chapter.locate("LEAK", 5).line == 4  # type: ignore[union-attr]


def entries(count: int) -> list[dict[str, Any]]:
    return [
        {
            "level": 1,
            "href": f"c{n}.html",
            "number": str(n),
            "title": f"장 {n}",
            "chapter_id": f"c{n}",
        }
        for n in range(count)
    ]


def test_the_sidebar_lists_every_chapter_of_a_normal_book() -> None:
    chapters = entries(30)
    section = {"level": 2, "href": "c3.html#s", "number": "", "title": "절", "chapter_id": "c3"}
    nav = sidebar(chapters, [section], 3, "c3")
    assert [item["chapter_id"] for item in nav][:5] == ["c0", "c1", "c2", "c3", "c3"]
    assert len(nav) == 31 and [item["current"] for item in nav].count(True) == 2


@pytest.mark.parametrize("position", [0, 1, 500, 998, 999])
def test_a_long_book_sidebar_is_bounded_and_holds_the_current_chapter(position: int) -> None:
    chapters = entries(1000)
    nav = sidebar(chapters, [], position, f"c{position}")
    assert len(nav) <= limits.SIDEBAR_CHAPTERS + 2
    assert any(item["current"] and item["chapter_id"] == f"c{position}" for item in nav)
    assert "index.html" in [item["href"] for item in nav]  # the rest are one click away


# --- cache trust --------------------------------------------------------------------------------


@pytest.fixture
def secret_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh user cache folder (so a fresh machine secret) for one test."""
    home = tmp_path / "user-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    cache_module.machine_secret.cache_clear()
    yield home
    cache_module.machine_secret.cache_clear()


def test_the_machine_secret_is_private_and_kept(secret_home: Path) -> None:
    secret = cache_module.machine_secret()
    path = secret_home / "kobook" / "key"
    assert path.read_bytes() == secret and len(secret) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    cache_module.machine_secret.cache_clear()
    assert cache_module.machine_secret() == secret  # the same on the next run


def test_entry_names_cannot_be_computed_from_the_key(secret_home: Path, tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    key = digest("ast", "x")
    path = cache.path("ast", key, ".json")
    assert path is not None and key not in str(path)
    # Another machine (another secret) looks somewhere else.
    cache_module.machine_secret.cache_clear()
    (secret_home / "kobook" / "key").write_bytes(os.urandom(32))
    assert cache.path("ast", key, ".json") != path


def test_an_entry_from_another_machine_is_not_found(secret_home: Path, tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    assert cache.put("ast", "k1", b"theirs", ".json") is not None
    cache_module.machine_secret.cache_clear()
    (secret_home / "kobook" / "key").write_bytes(os.urandom(32))
    assert cache.get("ast", "k1", ".json") is None
    assert cache.lookup("ast", "k1", ".json") is None


def test_an_edited_entry_is_a_miss_and_is_written_anew(secret_home: Path, tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    path = cache.put("print-image", "k", b"honest", ".png")
    assert path is not None and cache.lookup("print-image", "k", ".png") == path
    path.write_bytes(b"crafted")
    assert cache.get("print-image", "k", ".png") is None
    assert cache.lookup("print-image", "k", ".png") is None
    cache.put("print-image", "k", b"honest", ".png")
    assert cache.get("print-image", "k", ".png") == b"honest"


def test_a_file_at_the_old_unsecret_path_is_never_read(secret_home: Path, tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    key = digest("x")
    old = tmp_path / "c" / "ast" / key[:2] / f"{key}.json"
    old.parent.mkdir(parents=True)
    old.write_bytes(b'{"crafted": true}')
    assert cache.get("ast", key, ".json") is None


def test_an_unwritable_user_cache_still_gives_a_working_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    cache_module.machine_secret.cache_clear()
    try:
        cache = Cache(tmp_path / "c")
        cache.put("ast", "k", b"data")
        assert cache.get("ast", "k") == b"data"
    finally:
        cache_module.machine_secret.cache_clear()
