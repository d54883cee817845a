"""Citations ``[@key]`` through pandoc's citeproc, with the book's bibliography.

Runs after cross-references (which are Cites to pandoc too).  A ``@word`` whose
key is not in the bibliography stays as the text the author wrote (``@torch``
in prose is not a citation) and gets a warning only when it was bracketed.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..boundary import has_scheme, inside, is_file_url
from ..cache import digest
from ..errors import KobookError
from ..korean.hangul import is_syllable
from ..model import Doc
from ..parse import api_version
from ..parse.ast import iter_nodes, rewrite
from ..parse.pandoc import pandoc_version, run_pandoc
from .bibfiles import check_bibliography, check_style
from .context import Context


@functools.cache
def bibliography_keys(path: Path, mtime: float) -> frozenset[str]:
    """The entry keys of a BibTeX, CSL-JSON or CSL-YAML file."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix.lower() in (".bib", ".bibtex"):
        return frozenset(re.findall(r"@\w+\s*\{\s*([^,\s]+)\s*,", text))
    if path.suffix.lower() == ".json":
        return frozenset(str(e.get("id")) for e in json.loads(text))
    return frozenset(re.findall(r"^\s*-?\s*id:\s*['\"]?([^'\"\s]+)", text, re.M))


def book_file(ctx: Context, name: str, key: str, what: str) -> Path:
    """``name`` from ``key:`` in metadata.yaml as a path inside the book (else SEC001)."""
    if has_scheme(name):
        raise KobookError(
            f"{what} is a URL, not a file in the book: {name}",
            code="SEC002" if not is_file_url(name) else "SEC001",
            file=ctx.book.config.path,
            line=ctx.book.config.line(key),
            hint=f"kobook downloads nothing but images: save the file into the book and "
            f"name it in '{key}:'",
        )
    line = ctx.book.config.line(key)
    path = ctx.book.config.path
    return inside(ctx.root / name, ctx.root, what=what, file=path, line=line, written=name)


def book_bibliography(ctx: Context) -> list[Path]:
    paths = []
    for name in ctx.book.config.bibliography:
        path = book_file(ctx, name, "bibliography", "bibliography file")
        if not path.is_file():
            ctx.problem(
                ctx.book.chapters[0],
                "CITE002",
                f"bibliography file not found: {name}",
                hint="fix 'bibliography:' in metadata.yaml",
            )
            continue
        check_bibliography(path)  # LIMIT003/LIMIT011 at its line, before pandoc reads it
        paths.append(path)
    return paths


def known_keys(paths: list[Path]) -> frozenset[str]:
    keys: set[str] = set()
    for path in paths:
        keys |= bibliography_keys(path, path.stat().st_mtime)
    return frozenset(keys)


def unwrap_unknown(doc: Doc, keys: frozenset[str], ctx: Context) -> int:
    """Turn Cites with unknown keys back into their text; return how many real ones remain."""
    remaining = 0

    def action(node: dict[str, Any]) -> Any:
        nonlocal remaining
        if node["t"] != "Cite":
            return None
        citations, text = node["c"]
        if all(c["citationId"] in keys for c in citations):
            remaining += 1
            return None
        literal = "".join(i.get("c", " ") if i["t"] == "Str" else " " for i in text)
        if literal.startswith("["):
            missing = [c["citationId"] for c in citations if c["citationId"] not in keys]
            ctx.problem(
                doc.chapter,
                "CITE001",
                f"citation key not in the bibliography: {', '.join(missing)}",
                needle="@" + missing[0],
                fatal=False,
                hint="add the entry to the bibliography file or fix the key",
            )
        return text

    doc.blocks = rewrite(doc.blocks, action)
    return remaining


def cite(doc: Doc, ctx: Context) -> Doc:
    if not any(n["t"] == "Cite" for n in iter_nodes(doc.blocks)):
        return doc
    paths = book_bibliography(ctx)
    if unwrap_unknown(doc, known_keys(paths), ctx) == 0:
        return doc
    meta: dict[str, Any] = {
        "reference-section-title": {
            "t": "MetaString",
            "c": ctx.book.config.get(
                "reference-section-title", ctx.book.config.words.word("references")
            ),
        },
        "lang": {"t": "MetaString", "c": ctx.book.config.lang},
        "link-citations": {"t": "MetaBool", "c": True},
    }
    args = ["--citeproc"] + [f"--bibliography={p}" for p in paths]
    style = book_style(ctx)
    if style is not None:
        args.append(f"--csl={style}")
    document = {"pandoc-api-version": api_version(), "meta": meta, "blocks": doc.blocks}
    payload = json.dumps(document)
    key = digest(
        "cite",
        pandoc_version(),
        payload,
        *(p.read_text("utf-8", "replace") for p in paths),
        style.read_text("utf-8", "replace") if style is not None else "",
        " ".join(args),
    )
    cache = ctx.cache
    cached = cache.get("cite", key, ".json") if cache else None
    if cached is not None:
        out = json.loads(cached)
    else:
        answer = run_pandoc(
            ["-f", "json", "-t", "json", *args],
            payload,
            what="citeproc",
            file=paths[0] if paths else None,
            hint="look at the bibliography's largest entries and its @string and crossref",
        )
        out = json.loads(answer)
        if cache:
            cache.put("cite", key, json.dumps(out).encode(), ".json")
    blocks = bind_et_al(out["blocks"])
    if style is not None and style.parent == STYLES:  # kobook's own style, not the book's
        blocks = korean_name_lists(blocks)
    doc.blocks = prefix_reference_ids(blocks, doc.chapter.id)
    return doc


AMPERSAND = [{"t": "Space"}, {"t": "Str", "c": "&"}, {"t": "Space"}]

# How a list of inlines is rebuilt: given the list built so far, the original list and
# the index reached, append what replaces the items from there and say how many it
# used (0: none; the item is kept, rewritten inside).
Step = Callable[[list[Any], list[Any], int], int]


def rewrite_lists(value: Any, step: Step) -> Any:
    """``value`` with each list in it (at any depth) rebuilt by ``step``."""
    if isinstance(value, list):
        out: list[Any] = []
        index = 0
        while index < len(value):
            used = step(out, value, index)
            if used:
                index += used
                continue
            out.append(rewrite_lists(value[index], step))
            index += 1
        return out
    if isinstance(value, dict) and "c" in value and not isinstance(value["c"], str):
        return {**value, "c": rewrite_lists(value["c"], step)}
    return value


def korean_name_lists(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Korean names joined with commas, not ``&``: ``홍길동, 김철수 (2024)``.

    In the text: ``(김영희, 이민수, 2022)``.
    The style's ``and="symbol"`` is right for Latin names (``Liu, H., & Abbeel, P.``)
    and CSL cannot tell the scripts apart; between two Hangul names a Korean
    editor writes a comma (the Korean adaptation of APA), so the ``&`` goes.
    """

    def hangul_edge(item: Any, last: bool) -> bool:
        if not (isinstance(item, dict) and item.get("t") == "Str" and item["c"]):
            return False
        text = item["c"].rstrip(",") if last else item["c"].lstrip("(")
        return bool(text) and is_syllable(text[-1] if last else text[0])

    def comma(out: list[Any], value: list[Any], index: int) -> int:
        after = value[index + 3] if index + 3 < len(value) else None
        if not (
            out
            and value[index : index + 3] == AMPERSAND
            and hangul_edge(out[-1], True)
            and hangul_edge(after, False)
        ):
            return 0
        if not out[-1]["c"].endswith(","):
            out[-1] = {"t": "Str", "c": out[-1]["c"] + ","}
        out.append({"t": "Space"})
        return 3

    return [rewrite_lists(block, comma) for block in blocks]


ET_AL = re.compile(r"외(?=$|[,;)\]])")


def bind_et_al(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep ``외`` on the line of the name before it: ``Tazi 외`` → ``Tazi``+NBSP+``외``.

    citeproc puts a plain space before the et-al term (the CSL cannot make it
    unbreakable), and a cite broken as ``(Tazi / 외, 2025)`` leaves ``외``
    without its name, the way a particle cut from its word reads.
    """

    def glue(out: list[Any], value: list[Any], index: int) -> int:
        item = value[index]
        if not (
            isinstance(item, dict)
            and item.get("t") == "Str"
            and ET_AL.match(item["c"])
            and len(out) >= 2
            and out[-1] == {"t": "Space"}
            and isinstance(out[-2], dict)
            and out[-2].get("t") == "Str"
        ):
            return 0
        out.pop()
        out[-1] = {"t": "Str", "c": out[-1]["c"] + "\u00a0" + item["c"]}
        return 1

    for node in iter_nodes(blocks):
        if node["t"] == "Cite":
            node["c"][1] = rewrite_lists(node["c"][1], glue)
    return blocks


# kobook's own styles by book language (package data next to the templates);
# other languages keep pandoc's default, Chicago author-date in their locale.
STYLES = Path(__file__).resolve().parent.parent / "templates" / "csl"
BUILTIN_STYLES = {"ko": "korean-author-date.csl"}


def builtin_style(language: str) -> Path | None:
    """The CSL file kobook ships for a book language, if any.

    pandoc's ko locale prints ``(Tazi 기타 2025년)`` and a literal ``와/과``
    between authors; a Korean editor expects ``(Tazi 외, 2025)``.
    """
    name = BUILTIN_STYLES.get(language)
    return STYLES / name if name else None


def book_style(ctx: Context) -> Path | None:
    """The style citeproc uses: ``csl:`` from metadata.yaml wins over kobook's own."""
    csl = ctx.book.config.get("csl")
    if csl:
        return citation_style(ctx, str(csl))
    return builtin_style(ctx.book.config.language)


def citation_style(ctx: Context, name: str) -> Path:
    """The ``csl:`` file: inside the book, present, and independent.

    pandoc downloads the parent of a dependent style (``independent-parent``)
    from the internet during the build; kobook fetches nothing but images.
    """
    path = book_file(ctx, name, "csl", "citation style (csl)")
    where, line = ctx.book.config.path, ctx.book.config.line("csl")
    if not path.is_file():
        raise KobookError(
            f"citation style file not found: {name}",
            code="CITE002",
            file=where,
            line=line,
            hint="fix 'csl:' in metadata.yaml",
        )
    check_style(path)  # CITE003: plain, well-formed XML (no entities pandoc would resolve)
    if re.search(r"rel\s*=\s*[\"']independent-parent", path.read_text("utf-8", "replace")):
        raise KobookError(
            f"citation style {name} is a dependent style: pandoc would download its parent "
            "style during the build",
            code="SEC002",
            file=where,
            line=line,
            hint="save the parent style (its independent-parent link) into the book and "
            "name that file in 'csl:'",
        )
    return path


def prefix_reference_ids(blocks: list[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    """Make citeproc's ids unique per chapter: ``refs-PREFIX``, ``ref-PREFIX-KEY``.

    The same work cited in two chapters would otherwise give two ``#ref-KEY`` in
    the one-document PDF.  Entries keep the ``ref-`` prefix and citations their
    keys' new names, so pandoc's LaTeX writer still pairs ``\\citeproc{ref-…}``
    with ``\\bibitem{ref-…}``.  The bibliography heading citeproc adds is
    level 1; in a chapter it is a section, so it becomes level 2.
    """
    for index, node in enumerate(blocks):
        if node["t"] == "Div" and node["c"][0][0] == "refs":
            before = blocks[index - 1] if index else None
            if before and before["t"] == "Header" and before["c"][0] == 1:
                before["c"][0] = 2
                before["c"][1][0] = f"{prefix}-bibliography"
    for node in iter_nodes(blocks):
        t = node["t"]
        if t == "Div" and node["c"][0][0] == "refs":
            node["c"][0][0] = f"refs-{prefix}"
        elif t == "Div" and node["c"][0][0].startswith("ref-"):
            node["c"][0][0] = f"ref-{prefix}-{node['c'][0][0][4:]}"
        elif t == "Link" and node["c"][2][0].startswith("#ref-"):
            node["c"][2][0] = f"#ref-{prefix}-{node['c'][2][0][5:]}"
        elif t == "Cite":
            for citation in node["c"][0]:
                citation["citationId"] = f"{prefix}-{citation['citationId']}"
    return blocks
