"""The runs' tag trees made one: a tagged PDF (PDF/UA's logical structure) from PDFs
WeasyPrint tagged one run at a time.

Each run's PDF has its own structure tree: a ``Document`` element whose descendants
point at that PDF's pages (``/Pg``), link annotations (``OBJR``) and marked content,
and a parent tree that maps each page's ``/StructParents`` key (and each annotation's
``/StructParent``) back to its elements.  pypdf copies pages without them, so
:func:`adopt` copies a run's elements under the joined book's ``Document`` (the front
matter's, which the joined PDF starts from) after its pages are in, each reference
landing on the copy of its page or annotation, and gives the run's keys a range of
their own (run *n*: *n* × :data:`KEYS` + its key), so no key of one run meets
another's.  :func:`finish` writes the parent tree in key order.
"""

from __future__ import annotations

from typing import Any

KEYS = 1_000_000  # keys per run: more than any run's pages and links


def tree_of(root: Any) -> tuple[Any, Any, dict[int, Any]] | None:
    """A catalog's structure tree: its root, its ``Document`` element, its parent tree's
    entries by key; None when the PDF is not tagged."""
    tree = root.get("/StructTreeRoot")
    if tree is None:
        return None
    tree = tree.get_object()
    kids = tree.get("/K")
    document = kids[0] if isinstance(kids, list) else kids
    nums = tree["/ParentTree"].get_object().get("/Nums", [])
    entries = {int(nums[i]): nums[i + 1] for i in range(0, len(nums) - 1, 2)}
    return tree, document.get_object(), entries


def adopt(writer: Any, reader: Any, first: int, run: int, entries: dict[int, Any]) -> None:
    """Copy the structure of ``reader`` (a run whose pages are ``writer``'s from
    ``first`` on) under ``writer``'s ``Document``; its parent tree's entries, re-keyed,
    into ``entries``."""
    from pypdf.generic import ArrayObject, NameObject, NumberObject

    ours = tree_of(writer.root_object)
    theirs = tree_of(reader.trailer["/Root"])
    if ours is None or theirs is None:
        return
    document = ours[1]
    kids = document.get("/K")
    if not isinstance(kids, list):
        kids = ArrayObject([] if kids is None else [kids])
        document[NameObject("/K")] = kids
    for kid in theirs[1].get("/K", []):
        copy = kid.clone(writer, ignore_fields=("/P",))
        kids.append(copy)
        parent_of(copy.get_object(), document.indirect_reference, f"r{run}.")
    base = run * KEYS
    for index, page in enumerate(reader.pages):
        key = page.get("/StructParents")
        target = writer.pages[first + index]
        if key is not None and int(key) in theirs[2]:
            entries[base + int(key)] = theirs[2][int(key)].clone(writer, ignore_fields=("/P",))
            target[NameObject("/StructParents")] = NumberObject(base + int(key))
        for ref in target.get("/Annots") or []:
            annotation = ref.get_object()
            key = annotation.get("/StructParent")
            if key is not None and int(key) in theirs[2] and int(key) < KEYS:
                entries[base + int(key)] = theirs[2][int(key)].clone(writer, ignore_fields=("/P",))
                annotation[NameObject("/StructParent")] = NumberObject(base + int(key))


def parent_of(element: Any, parent: Any, prefix: str) -> None:
    """Set ``/P`` on ``element`` and every structure element under it (a copy made
    without them, which would have copied the run's whole tree), and put ``prefix``
    before each element's ``/ID`` and the table headers a cell names by it: WeasyPrint
    makes them of object numbers, which runs share."""
    from pypdf.generic import NameObject

    stack = [(element, parent)]
    while stack:
        node, above = stack.pop()
        if not hasattr(node, "get") or "/S" not in node:
            continue  # marked content, an object reference: no parent of its own
        node[NameObject("/P")] = above
        renamed(node, prefix)
        children = node.get("/K")
        children = children if isinstance(children, list) else [children]
        for child in children:
            if hasattr(child, "get_object"):
                stack.append((child.get_object(), node.indirect_reference))


def finish(writer: Any, entries: dict[int, Any]) -> None:
    """The joined parent tree: the front matter's entries and every run's, in key order."""
    from pypdf.generic import ArrayObject, NameObject, NumberObject

    ours = tree_of(writer.root_object)
    if ours is None:
        return
    tree, _document, front = ours
    merged = {**front, **entries}
    nums = ArrayObject()
    for key in sorted(merged):
        nums += [NumberObject(key), merged[key]]
    parent_tree = tree["/ParentTree"].get_object()
    parent_tree[NameObject("/Nums")] = nums
    tree[NameObject("/ParentTreeNextKey")] = NumberObject(max(merged, default=-1) + 1)


def renamed(node: Any, prefix: str) -> None:
    """``prefix`` before a structure element's ``/ID`` and its ``/A`` ``/Headers``."""
    from pypdf.generic import ArrayObject, NameObject, TextStringObject

    if "/ID" in node:
        node[NameObject("/ID")] = TextStringObject(prefix + str(node["/ID"]))
    attributes = node.get("/A")
    for held in attributes if isinstance(attributes, list) else [attributes]:
        attribute: Any = held.get_object() if held is not None else None
        headers = attribute.get("/Headers") if hasattr(attribute, "get") else None
        if headers is not None:
            attribute[NameObject("/Headers")] = ArrayObject(
                TextStringObject(prefix + str(h)) for h in headers.get_object()
            )
