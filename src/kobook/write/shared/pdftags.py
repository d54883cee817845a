"""The tag tree (a tagged PDF's logical structure) kept whole when a step after the
engine takes annotations off the pages: the join of WeasyPrint's runs drops links to
anchors that are nowhere, and PDF/X drops every link."""

from __future__ import annotations

from typing import Any


def points_at(kid: Any, dropped: set[int]) -> bool:
    """Is ``kid`` (a structure element's child) an object reference to a dropped
    annotation?"""
    kid = kid.get_object()
    if not hasattr(kid, "get") or kid.get("/Type") != "/OBJR":
        return False
    return getattr(kid.get("/Obj"), "idnum", None) in dropped


def without_annotations(tree: Any, dropped: set[int]) -> None:
    """Take the tag tree's references (``OBJR``) to the annotations ``dropped`` out, so
    a tagged PDF's links leave no element pointing at nothing."""
    from pypdf.generic import ArrayObject, NameObject

    if tree is None or not dropped:
        return
    stack = [tree.get_object()]
    while stack:
        node = stack.pop()
        kids = node.get("/K")
        if kids is None:
            continue
        listed = kids.get_object() if isinstance(kids.get_object(), ArrayObject) else [kids]
        kept = [kid for kid in listed if not points_at(kid, dropped)]
        if len(kept) != len(listed):
            node[NameObject("/K")] = ArrayObject(kept)
        for kid in kept:
            element = kid.get_object()
            if hasattr(element, "get") and "/S" in element:
                stack.append(element)
