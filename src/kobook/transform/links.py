"""Links that would read files: ``file:`` URLs and PDF attachments from outside the book.

WeasyPrint embeds the target of a link with ``rel=attachment`` into the PDF
(``[x](../../../../etc/passwd){rel=attachment}`` is plain Markdown), and a
``file:`` URL names a file on the machine that builds the book.  Both are
SEC001 with the chapter's file and line; the PDF engine's URL fetcher refuses
them too (``write/weasyprint/writer.py``), this pass says where they are written.
With ``--keep-going`` a ``file:`` link keeps its text without the link and an
attachment keeps its link without ``rel=attachment``.

Once links to chapters are links inside the book (``chapter_links.py``),
:func:`reader_links` decides, for every writer, what a link left pointing at a
file may become: a reader of the PDF or the EPUB has no folder of the book, and a
PDF engine resolves such a link against the folder it was built in (a
``file:///home/…`` link that names the build machine and changes the PDF's bytes
from one folder to the next).  It becomes the file's web address when the
metadata names where the book's files are shown (``repository:``), else its text
without the link (LINK001).  A protocol-relative ``//host/x`` is ``https:``.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from ..boundary import has_scheme, is_file_url, within
from ..model import Doc
from ..parse.ast import HTML_FORMATS, attr, rewrite, walk
from .chapter_links import link_base
from .context import Context

HINT = (
    "PDF attachments and links to files must name a file inside the book by a relative "
    "path; --keep-going builds without the link"
)


def is_attachment(keyvals: list[list[str]]) -> bool:
    """True when ``rel`` holds ``attachment`` (``{rel=attachment}``, ``rel="x attachment"``)."""
    return any(k.lower() == "rel" and "attachment" in v.lower().split() for k, v in keyvals)


def outside_reason(url: str, root: Path) -> str:
    """Why ``url`` may not be attached to the PDF ("" when it is a file inside the book).

    WeasyPrint resolves a relative target against the project folder (its base URL).
    """
    if is_file_url(url):
        return "a file: URL is never read"
    if has_scheme(url):
        return "only files inside the book are attached"
    path = unquote(urlsplit(url).path)
    if not path:
        return ""  # #anchor: nothing to embed
    target = Path(root, path.lstrip("/")) if not path.startswith("/") else Path(path)
    if not within(target, root):
        return f"it resolves to {target.resolve()}"
    return ""


class _Anchors(HTMLParser):
    """``(href, rel)`` of each ``<a>`` and ``<link>`` tag in raw HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("a", "link"):
            values = {k: v or "" for k, v in attrs}
            self.found.append((values.get("href", ""), values.get("rel", "")))


def raw_targets(html: str) -> list[tuple[str, str]]:
    """Links in raw HTML as ``(href, rel)``."""
    if "href" not in html.lower():
        return []
    parser = _Anchors()
    parser.feed(html)
    parser.close()
    return parser.found


def check_links(doc: Doc, ctx: Context) -> Doc:
    """SEC001 for ``file:`` links and for attachments that are not files inside the book."""

    def refuse(url: str, why: str, kind: str) -> None:
        ctx.problem(
            doc.chapter,
            "SEC001",
            f"{kind} resolves outside the book folder: {url} ({why})",
            needle=url,
            hint=HINT,
        )

    def action(node: dict[str, Any]) -> Any:
        if node["t"] in ("RawInline", "RawBlock") and node["c"][0] in HTML_FORMATS:
            for href, rel in raw_targets(node["c"][1]):
                attached = "attachment" in rel.lower().split()
                why = outside_reason(href, ctx.root) if attached else ""
                if is_file_url(href) or why:
                    refuse(href, why or "a file: URL is never read", "link in raw HTML")
            return None
        if node["t"] != "Link":
            return None
        attrs, content, (url, _title) = node["c"]
        if is_file_url(url):
            kind = "PDF attachment" if is_attachment(attrs[2]) else "link"
            refuse(url, "a file: URL is never read", kind)
            return content
        if is_attachment(attrs[2]):
            why = outside_reason(url, ctx.root)
            if why:
                refuse(url, why, "PDF attachment")
                attrs[2] = [kv for kv in attrs[2] if kv[0].lower() != "rel"]
        return None

    doc.blocks = rewrite(doc.blocks, action)
    return doc


def reader_links(doc: Doc, ctx: Context) -> Doc:
    """Links to files of the book that are not chapters: a web address, or text (LINK001)."""
    repository = str(ctx.book.config.get("repository") or "").rstrip("/")
    seen: dict[str, int] = {}

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Link":
            return None
        attrs, content, (url, title) = node["c"]
        if is_attachment(attrs[2]):
            return None  # embedded in the PDF (check_links has kept it inside the book)
        if url.startswith("//"):
            node["c"][2] = ["https:" + url, title]
            return node
        if not url or url.startswith("#") or has_scheme(url):
            return None
        occurrence = seen.get(url, 0)
        seen[url] = occurrence + 1
        if repository:
            path = file_path(doc, ctx, url, occurrence)
            if path is not None:
                node["c"][2] = [f"{repository}/{path}", title]
                return node
        ctx.problem(
            doc.chapter,
            "LINK001",
            f"link to a file that is not a chapter, kept as text: {url[:120]}",
            needle=url,
            occurrence=occurrence,
            hint="link a chapter (its file) or a web address; or name where the book's "
            "files are shown with 'repository: https://…' in metadata.yaml",
            fatal=False,
        )
        return {"t": "Span", "c": [attr("", ["file-link"]), walk(content, action)]}

    doc.blocks = rewrite(doc.blocks, action)
    return doc


def file_path(doc: Doc, ctx: Context, url: str, occurrence: int = 0) -> str | None:
    """``url`` (relative to the file it is written in) as a path from the book's folder;
    None when it leads outside the book."""
    written = unquote(urlsplit(url).path)
    base = link_base(doc, ctx, url, occurrence) if doc.chapter.path else ctx.root
    target = Path(ctx.root, written.lstrip("/")) if written.startswith("/") else base / written
    if not within(target, ctx.root):
        return None
    relative = target.resolve().relative_to(Path(ctx.root).resolve()).as_posix()
    fragment = unquote(urlsplit(url).fragment)
    return quote(relative) + (f"#{quote(fragment)}" if fragment else "")
