"""The import walk (``scripts/import_cycles.py``): no cycle in ``src/kobook``, the model
below every stage, and ``load`` imported only by the commands that drive the pipeline."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "import_cycles.py"
spec = importlib.util.spec_from_file_location("import_cycles", SCRIPT)
assert spec and spec.loader
walk = importlib.util.module_from_spec(spec)
sys.modules["import_cycles"] = walk
spec.loader.exec_module(walk)

# What the model and the file toolkit may import: kobook's base modules, nothing of a stage.
BASE = {"kobook.errors", "kobook.limits", "kobook.lang", "kobook.lang.dates"}
BASE |= {"kobook.lang.script", "kobook.lang.words", "kobook.korean", "kobook.korean.hangul"}
BASE |= {"kobook.reproducible"}
# The drivers: they alone run ``load`` (the pipeline's first stage) themselves.
DRIVERS = (
    "kobook.api",
    "kobook.check",
    "kobook.cli",
    "kobook.importer",
    "kobook.pipeline",
    "kobook.preview",
    "kobook.upstream",
)


def test_src_has_no_import_cycle() -> None:
    assert walk.cycles(walk.graph()) == []


def test_model_and_files_import_no_stage() -> None:
    graph = walk.graph()
    for floor in ("kobook.model", "kobook.files"):
        for module, targets in graph.items():
            if module == floor or module.startswith(floor + "."):
                outside = {t for t in targets if not t.startswith(floor)} - BASE
                assert not outside, f"{module} imports {sorted(outside)}"


def test_stages_and_writers_never_import_load() -> None:
    for module, targets in walk.graph().items():
        if module.startswith(("kobook.load", *DRIVERS)):
            continue
        assert not [t for t in targets if t.startswith("kobook.load")], module


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    "importer",
    [
        "from .b import x\n",  # top level
        "def late():\n    from .b import x\n",  # inside a function: still a cycle
        "import kobook.b\n",
    ],
)
def test_a_cycle_is_found_however_it_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, importer: str
) -> None:
    write(
        tmp_path,
        {
            "kobook/__init__.py": "",
            "kobook/a.py": importer,
            "kobook/b.py": "from .c import y\nx = 1\n",
            "kobook/c.py": "from . import a\ny = 2\n",
        },
    )
    monkeypatch.setattr(walk, "SRC", tmp_path)
    assert walk.cycles(walk.graph()) == [["kobook.a", "kobook.b", "kobook.c"]]
    assert walk.main() == 1
