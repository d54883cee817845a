"""Many chapters parsed in one pandoc process (parse/pandoc.py: markdown_to_json)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kobook.errors import KobookError
from kobook.parse import pandoc
from kobook.parse.pandoc import decoded, markdown_to_ast, markdown_to_json


def markdown_to_asts(texts: list[str], reader: str = pandoc.READER) -> list[object]:
    return [decoded(data) for data in markdown_to_json(texts, reader)]


TEXTS = [
    "# 가\n\n본문 *강조*와 `코드`.\n",
    "[참조]: https://example.com\n\n[링크][참조]와 각주.[^1]\n\n[^1]: 각주.\n",
    '수식 $x^2$과 "따옴표"\\\n다음 줄.\n\n```python\nx = 1\n```\n',
    "---\ntitle: 머리\n---\n\n# 제목 {#id}\n\n- 하나\n- 둘\n",
]


def test_each_text_is_what_its_own_pandoc_run_makes() -> None:
    assert markdown_to_asts(TEXTS) == [markdown_to_ast(text) for text in TEXTS]
    assert markdown_to_asts([]) == []


def test_the_reader_is_the_one_asked_for() -> None:
    reader = pandoc.READER + "-smart"
    text = '"따옴표"와 --\n'
    assert markdown_to_asts([text], reader) == [markdown_to_ast(text, reader=reader)]
    assert markdown_to_asts([text], reader) != markdown_to_asts([text])


def test_east_asian_line_breaks_are_left_to_a_run_of_their_own() -> None:
    """pandoc's command line joins the lines of Chinese and Japanese after its reader;
    ``pandoc.read`` in one batch does not, so such texts are not read there."""
    reader = pandoc.READER.replace("-east_asian_line_breaks", "+east_asian_line_breaks")
    joined = [{"t": "Str", "c": "中文"}, {"t": "Str", "c": "继续"}]  # no SoftBreak between
    assert markdown_to_ast("中文\n继续\n", reader=reader)["blocks"][0]["c"] == joined
    assert markdown_to_asts(["中文\n继续\n"], reader) == [None]


def test_a_failed_run_gives_nothing_rather_than_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The caller parses each text again alone, and that run reports pandoc's error with
    the chapter's file: a batch never raises."""

    def fails(*_args: object, **_kwargs: object) -> str:
        raise KobookError("pandoc (parsing the chapters) took too long", code="LIMIT006")

    monkeypatch.setattr(pandoc, "run_pandoc", fails)
    assert markdown_to_asts(TEXTS[:2]) == [None, None]


def test_a_text_pandoc_rejects_is_none_and_the_others_are_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # pandoc's markdown reader accepts any text, so the failure is a reader that fails.
    assert markdown_to_asts(["본문\n"], "no-such-reader") == [None]
    original = pandoc.run_pandoc

    def short(args: list[str], stdin: str, **kwargs: object) -> str:
        return original(args, stdin, **kwargs).split("\n", 1)[0]  # one AST for two texts

    monkeypatch.setattr(pandoc, "run_pandoc", short)
    assert markdown_to_asts(TEXTS[:2]) == [None, None]  # not what was asked: not used


def test_many_documents_written_in_one_go_and_a_broken_one_is_none() -> None:
    from kobook.parse.pandoc import ast_to, json_to_html5s
    from kobook.write.shared.highlight import theme

    docs = [markdown_to_ast(text) for text in TEXTS[:3]]
    written = json_to_html5s([json.dumps(doc) for doc in docs] + ['{"not": "a document"}'], theme())
    args = ["--mathml", "--wrap=none"]
    assert written[:3] == [ast_to(doc, "html5", args) for doc in docs]
    assert written[3] is None


def test_a_probe_two_threads_ask_for_at_once_runs_once() -> None:
    """The prefetch's two pandoc runs start together: pandoc's version and its +RTS probe
    must still be asked of pandoc once (each thread ran its own before)."""
    import threading
    import time

    calls: list[int] = []
    both = threading.Barrier(2)

    def make() -> str:
        calls.append(1)
        time.sleep(0.05)  # the other thread arrives meanwhile
        return "3.1"

    once = pandoc.Once(make)

    def ask() -> None:
        both.wait()
        assert once() == "3.1"

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1
    once.cache_clear()
    assert once() == "3.1" and len(calls) == 2
    assert isinstance(pandoc.memory_options, pandoc.Once)
    assert isinstance(pandoc.pandoc_version, pandoc.Once)


def test_the_shipped_pandoc_is_found_without_pypandocs_search(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """pypandoc's search imports pypandoc and runs ``pandoc --version`` on each candidate:
    kobook takes the binary pypandoc-binary ships, beside pypandoc, without either;
    ``PYPANDOC_PANDOC`` (pypandoc's override) still chooses another."""
    import subprocess
    import sys

    script = (
        "import sys; from kobook.parse.pandoc import pandoc_path; "
        "print(pandoc_path(), 'pypandoc' in sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYPANDOC_PANDOC"}
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
    )
    path, imported = out.stdout.split()
    assert path == str(pandoc.shipped_pandoc()) and imported == "False"
    fake = tmp_path / "pandoc"
    fake.write_text("#!/bin/sh\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("PYPANDOC_PANDOC", str(fake))
    pandoc.pandoc_path.cache_clear()
    try:
        assert pandoc.pandoc_path() == str(fake)
    finally:
        pandoc.pandoc_path.cache_clear()
