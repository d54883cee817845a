"""The compiler's process: what it prints stays off the terminal, and a crash is told
from a stop for want of memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.errors import KobookError
from kobook.write.typst import compiler

CRASH = """
import sys
sys.stderr.write("Traceback (most recent call last):\\n  boom in the compiler\\n")
sys.exit(3)
"""
ABORT = """
import os, sys
sys.stderr.write("memory allocation of 1073741824 bytes failed\\nstack backtrace:\\n  0: x\\n")
sys.stderr.flush()
os.abort()
"""


def fake_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    script = tmp_path / "worker.py"
    script.write_text(code, encoding="utf-8")
    compiler.forget()
    monkeypatch.setattr(compiler.protocol, "__file__", str(script))


@pytest.fixture(autouse=True)
def no_kept_worker() -> object:
    yield
    compiler.forget()


def test_a_crashed_compiler_is_typ001_with_its_last_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    fake_worker(tmp_path, monkeypatch, CRASH)
    with pytest.raises(KobookError) as info:
        compiler.compile_pdf(tmp_path / "book.typ", tmp_path, [], None)
    assert info.value.code == "TYP001"
    assert "exit status 3" in str(info.value) and "boom in the compiler" in str(info.value)
    assert "Traceback" not in capfd.readouterr().err  # the worker's output is not shown
    assert not compiler._KEPT and not compiler._PRINTED


def test_an_aborted_allocation_is_limit007_and_prints_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    fake_worker(tmp_path, monkeypatch, ABORT)
    with pytest.raises(KobookError) as info:
        compiler.compile_pdf(tmp_path / "book.typ", tmp_path, [], None)
    assert info.value.code == "LIMIT007" and "GiB" in str(info.value)
    err = capfd.readouterr().err
    assert "memory allocation" not in err and "backtrace" not in err
