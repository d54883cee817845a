"""``nav:`` (or the pages folder, when there is none) → a :class:`~kobook.dialect.Layout`.

MkDocs' ``nav`` is a list whose items are a page (``page.md``), a titled page
(``{제목: page.md}``), a link elsewhere (``{제목: https://…}``, skipped) or a
section (``{제목: [items]}``).  A printed book has parts, chapters and sections,
so:

- a top-level section is a *part* (its title on a part page and in the table of
  contents), each of its pages a chapter;
- a section inside that is one chapter titled by the section, its pages the
  chapter's sections (headings shifted down as mdBook's nested files are);
- a top-level ``index.md`` first in the nav is the front page: unnumbered.

Without ``nav``, MkDocs lists every page of the pages folder, ``index.md``
first, then the files, then each sub-folder as a section (titled by its name):
so does this.  Pages the nav leaves out are not built (MkDocs builds them but
shows them nowhere), and an info line says which (DIA302).  Translations laid
out for mkdocs-static-i18n (``docs/ko/…`` or ``page.ko.md``) are read in the
book's language, falling back to the default language's page like the plugin.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...boundary import inside, within
from ...errors import Diagnostic, Location
from .. import Layout, Unit, top_heading_level

PAGE_SUFFIXES = (".md", ".markdown")
LANGUAGE_FOLDER = re.compile(r"^[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?$")


@dataclass
class Pages:
    """Where a nav path is looked for: the language's folder or suffix, then the default."""

    docs: Path
    lang: str = ""
    found: list[Path] = field(default_factory=list)

    def language_folders(self) -> list[Path]:
        """The pages folder's sub-folders named like languages (``en``, ``pt-BR``), but ours."""
        if not self.lang or not (self.docs / self.lang).is_dir():
            return []
        return [
            p
            for p in sorted(self.docs.iterdir())
            if p.is_dir() and p.name != self.lang and LANGUAGE_FOLDER.match(p.name)
        ]

    def top(self) -> Path:
        """The folder of the book's language (``docs/ko``), else the pages folder."""
        return (
            self.docs / self.lang if self.lang and (self.docs / self.lang).is_dir() else self.docs
        )

    def page(self, written: str) -> Path | None:
        """The file ``written`` (relative to the pages folder) names, in the book's language."""
        base = self.docs
        candidates = []
        if self.lang:
            localized = Path(written)
            suffixed = localized.with_name(f"{localized.stem}.{self.lang}{localized.suffix}")
            candidates += [base / self.lang / written, base / suffixed]
        candidates.append(base / written)
        # mkdocs-static-i18n falls back to the default language's page (docs/en/…).
        candidates += [folder / written for folder in self.language_folders()]
        for path in candidates:
            if path.is_file() and within(path, self.docs):
                return path.resolve()
        return None


def i18n_language(docs: Path, lang: str) -> str:
    """The book's language as the pages folder names it (``ko`` for ``ko-KR``), if it does."""
    for name in (lang, lang.split("-")[0]):
        if name and ((docs / name).is_dir() or any(docs.glob(f"*.{name}.md"))):
            return name
    return ""


def nav_layout(root: Path, docs: Path, nav: Any, lang: str, where: Path) -> Layout:
    """The layout ``nav`` gives (``where``: the ``mkdocs.yml`` it is written in)."""
    pages = Pages(docs, i18n_language(docs, lang))
    units: list[Unit] = []
    notes: list[Diagnostic] = []
    if isinstance(nav, list) and nav:
        reason = f"{where.name} nav"
    else:
        nav = folder_nav(pages.top(), pages.top())
        reason = f"{docs.relative_to(root).as_posix()}/ (no nav in {where.name})"
    for item in nav:
        top_item(item, pages, units, notes, where)
    if units and units[0].files[0][0].stem == "index" and not units[0].part:
        units[0].kind = "preface"
    left_out(docs, pages, notes, where, root)
    parts = len({u.part for u in units if u.part})
    reason += f": {len(units)} chapters, {parts} parts"
    return Layout(units=units, reason=reason, notes=notes, table=where.name)


def entry(item: Any) -> tuple[str, Any]:
    """``(title, value)`` of a nav item: a page path, a list of items, or a URL."""
    if isinstance(item, dict) and len(item) == 1:
        title, value = next(iter(item.items()))
        return str(title or ""), value
    return "", item


def top_item(
    item: Any, pages: Pages, units: list[Unit], notes: list[Diagnostic], where: Path
) -> None:
    title, value = entry(item)
    if isinstance(value, list):  # a top-level section: a part
        first = len(units)
        for child in value:
            child_title, child_value = entry(child)
            if isinstance(child_value, list):
                chapter = Unit(files=[], title=child_title)
                section_pages(child_value, pages, chapter, 1, notes, where)
                if chapter.files:
                    units.append(chapter)
            else:
                path = resolve(child_value, pages, notes, where)
                if path is not None:
                    add_page(units, path, child_title, 0, pages)
        if len(units) > first:
            units[first].part = title
        return
    path = resolve(value, pages, notes, where)
    if path is not None:
        add_page(units, path, title, 0, pages)


def section_pages(
    items: list[Any], pages: Pages, chapter: Unit, depth: int, notes: list[Diagnostic], where: Path
) -> None:
    """A section's pages as sections of ``chapter``, ``depth`` levels below its title."""
    for item in items:
        title, value = entry(item)
        if isinstance(value, list):
            section_pages(value, pages, chapter, depth + 1, notes, where)
            continue
        path = resolve(value, pages, notes, where)
        if path is not None:
            # Headings go down so the page's top heading sits ``depth`` levels below ``#``.
            chapter.files.append((path, max(0, depth + 1 - top_heading_level(path))))
            if title:
                chapter.section_titles[path] = title
            pages.found.append(path)


def add_page(units: list[Unit], path: Path, title: str, depth: int, pages: Pages) -> None:
    if depth == 0:
        units.append(Unit(files=[(path, 0)], title=title))
    elif units:
        units[-1].files.append((path, depth))
    pages.found.append(path)


def resolve(value: Any, pages: Pages, notes: list[Diagnostic], where: Path) -> Path | None:
    """The page a nav value names; None (with a note) for a link elsewhere or a missing file."""
    if not isinstance(value, str) or not value.strip():
        return None
    written = value.strip()
    if "://" in written or written.startswith(("mailto:", "/", "#")):
        notes.append(
            Diagnostic(
                "DIA303",
                f"nav link to {written[:80]} is not a page of the book: left out",
                Location(where),
                severity="info",
            )
        )
        return None
    path = pages.page(written)
    if path is None:
        inside(pages.docs / written, pages.docs, what="nav page", file=where, written=written)
        notes.append(
            Diagnostic(
                "DIA304",
                f"nav names a page that does not exist: {written}",
                Location(where),
                "create the page or fix the nav (MkDocs would warn too)",
                "warning",
            )
        )
    return path


def folder_nav(folder: Path, top: Path) -> list[Any]:
    """The nav MkDocs makes of a folder: ``index.md`` first, the other pages by name, then
    each sub-folder as a section titled by its name (paths relative to ``top``)."""
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith((".", "_")))
    files = [p for p in entries if p.is_file() and p.suffix in PAGE_SUFFIXES]
    files.sort(key=lambda p: (p.stem not in ("index", "README"), p.name))
    nav: list[Any] = [p.relative_to(top).as_posix() for p in files if within(p, top)]
    for sub in entries:
        if sub.is_dir() and within(sub, top):
            inner = folder_nav(sub, top)
            if inner:
                nav.append({sub.name.replace("-", " ").replace("_", " ").capitalize(): inner})
    return nav


def left_out(docs: Path, pages: Pages, notes: list[Diagnostic], where: Path, root: Path) -> None:
    """DIA302 (info): the pages of the folder no nav entry names."""
    top = pages.top()
    named = set(pages.found)
    missing = [
        p.resolve()
        for p in sorted(top.rglob("*.md"))
        if p.resolve() not in named and within(p, docs) and not p.name.startswith("_")
    ]
    if missing:
        shown = ", ".join(p.relative_to(root.resolve()).as_posix() for p in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        notes.append(
            Diagnostic(
                "DIA302",
                f"{len(missing)} page(s) the nav leaves out are not in the book: {shown}{more}",
                Location(where),
                severity="info",
            )
        )
