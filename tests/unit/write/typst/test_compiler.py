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


def stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str) -> KobookError:
    """The error of a compile whose worker runs ``code`` instead of the compiler."""
    script = tmp_path / "worker.py"
    script.write_text(code, encoding="utf-8")
    compiler.forget()
    monkeypatch.setattr(compiler.protocol, "__file__", str(script))
    with pytest.raises(KobookError) as info:
        compiler.compile_pdf(tmp_path / "book.typ", tmp_path, [], None)
    return info.value


@pytest.fixture(autouse=True)
def no_kept_worker() -> object:
    yield
    compiler.forget()


def test_a_crashed_compiler_is_typ001_with_its_last_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    error = stopped(tmp_path, monkeypatch, CRASH)
    assert error.code == "TYP001"
    assert "exit status 3" in str(error) and "boom in the compiler" in str(error)
    assert "Traceback" not in capfd.readouterr().err  # the worker's output is not shown
    assert not compiler._KEPT and not compiler._PRINTED


def test_an_aborted_allocation_is_limit007_and_prints_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    error = stopped(tmp_path, monkeypatch, ABORT)
    assert error.code == "LIMIT007" and "GiB" in str(error)
    err = capfd.readouterr().err
    assert "memory allocation" not in err and "backtrace" not in err
