"""Small helpers over pandoc's JSON AST (``{"t": type, "c": content}`` nodes).

We work on the JSON directly instead of a wrapper library: it is what pandoc
reads and writes, and transforms stay plain functions over plain data.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

Node = dict[str, Any]
# pandoc's names for raw HTML (``{=html}``, and what its readers write for HTML).
HTML_FORMATS = ("html", "html4", "html5")
Action = Callable[[Node], "Node | list[Node] | None"]
A = TypeVar("A", bound=Callable[..., Any])


def walk(value: Any, action: Action) -> Any:
    """Return ``value`` with ``action`` applied to every node, top-down.

    ``action`` returns ``None`` to keep a node and walk its children, or a
    replacement: a node, or a list of nodes spliced in its place.  A
    replacement is not walked again (so an action can wrap a node in a node of
    the same type without looping); an action that wants its replacement's
    children processed calls :func:`walk` on them itself.

    Every pass walks every chapter, so this is the build's hottest Python: the
    exact type tests and the inlined :func:`walk_children` are for speed (a
    tenth of a second per rebuild of a large chapter in ``kobook preview``).
    """
    if type(value) is list or isinstance(value, list):
        out: list[Any] = []
        for item in value:
            kind = type(item)
            if kind is str:
                out.append(item)
            elif kind is dict or isinstance(item, dict):
                if "t" not in item:
                    out.append(walk(item, action))
                    continue
                result = action(item)
                if result is None:
                    if "c" in item:
                        content = item["c"]
                        if type(content) is not str:
                            content = walk(content, action)
                        out.append({"t": item["t"], "c": content})
                    else:
                        out.append(item)
                elif isinstance(result, list):
                    out.extend(result)
                else:
                    out.append(result)
            else:
                out.append(walk(item, action))
        return out
    if isinstance(value, dict):
        return {k: walk(v, action) for k, v in value.items()}
    return value


def rewrite(value: Any, action: Action) -> Any:
    """:func:`walk` in place: the same visits in the same order and the same replacements,
    but the lists of ``value`` are changed where an action replaces a node, and no node
    is copied.  Returns ``value``.

    For a pass that keeps nothing of the tree it was given (``doc.blocks =
    rewrite(doc.blocks, action)``, every transform pass): copying the whole chapter,
    which :func:`walk` does, was most of a pass's time, about four times a walk that
    copies nothing.
    """
    if type(value) is list or isinstance(value, list):
        i = 0
        while i < len(value):
            item = value[i]
            kind = type(item)
            if kind is str:
                i += 1
            elif kind is dict or isinstance(item, dict):
                if "t" not in item:
                    rewrite(item, action)
                    i += 1
                    continue
                result = action(item)
                if result is None:
                    content = item.get("c")
                    if content is not None and type(content) is not str:
                        rewrite(content, action)
                    i += 1
                elif isinstance(result, list):
                    value[i : i + 1] = result
                    i += len(result)
                else:
                    value[i] = result
                    i += 1
            else:
                rewrite(item, action)
                i += 1
        return value
    if isinstance(value, dict):
        for item in value.values():
            rewrite(item, action)
    return value


def acts_on(*kinds: str) -> Callable[[A], A]:
    """Declare the node types an action acts on (it returns None for any other): in a
    :func:`rewrite_chain` it is called for those only."""

    def declared(action: A) -> A:
        setattr(action, "kinds", frozenset(kinds))  # noqa: B010 (a function's attribute)
        return action

    return declared


def rewrite_chain(value: Any, actions: Sequence[Action]) -> Any:
    """Several :func:`rewrite` passes in one walk, in place: each node meets the actions in
    order, and a node an action replaces is met by the later actions only (its
    replacement and what is inside it), as in the passes one after another.  Returns
    ``value``.

    The one difference: a pass sees the whole tree after the passes before it, a link of
    the chain sees a node before the earlier links have seen what is inside it.  So the
    chain is the passes one after another when no action acts on a node that can lie
    inside a node a later action replaces (headings are numbered before emphasis is
    rebuilt: a heading is never inside emphasis), and actions that change a node in
    place (a link's target, a formula's TeX) go anywhere.  Each writer's first passes
    are such a chain: a walk of the chapter for all of them, not one each.  An action
    declared with :func:`acts_on` is called for its node types only.
    """
    _Chain(tuple(actions)).run(value, 0)
    return value


class _Chain:
    """The actions of a :func:`rewrite_chain`, and for each node type which of them act on it."""

    def __init__(self, actions: tuple[Action, ...]) -> None:
        self.actions = actions
        self.kinds: list[frozenset[str] | None] = [getattr(a, "kinds", None) for a in actions]
        self.acting: dict[str, tuple[int, ...]] = {}

    def on(self, kind: str) -> tuple[int, ...]:
        """The positions of the actions that act on nodes of ``kind``."""
        found = self.acting.get(kind)
        if found is None:
            found = tuple(k for k, only in enumerate(self.kinds) if only is None or kind in only)
            self.acting[kind] = found
        return found

    def run(self, value: Any, first: int) -> None:
        """``value`` met by the actions from ``first`` on.  The same walk as :func:`rewrite`,
        kept apart from it: a pass of one action, every transform pass, walks a chapter in
        half the time without the chain's bookkeeping."""
        if type(value) is list or isinstance(value, list):
            i = 0
            while i < len(value):
                item = value[i]
                kind = type(item)
                if kind is str:
                    i += 1
                elif kind is dict or isinstance(item, dict):
                    if "t" not in item:
                        self.run(item, first)
                        i += 1
                        continue
                    replaced = self.meet(item, first)
                    if replaced is None:
                        i += 1
                    else:
                        value[i : i + 1] = replaced
                        i += len(replaced)
                else:
                    self.run(item, first)
                    i += 1
        elif isinstance(value, dict):
            for item in value.values():
                self.run(item, first)

    def meet(self, node: Node, first: int) -> list[Node] | None:
        """``node`` met by the actions from ``first`` on: None when each kept it (then its
        children are met by them all), else what replaces it, met by the actions after the
        one that replaced it."""
        for k in self.on(node["t"]):
            if k < first:
                continue
            result = self.actions[k](node)
            if result is None:
                continue
            nodes = list(result) if isinstance(result, list) else [result]
            if k + 1 < len(self.actions):
                self.run(nodes, k + 1)
            return nodes
        content = node.get("c")
        if content is not None and type(content) is not str:
            self.run(content, first)
        return None


def walk_children(node: Node, action: Action) -> Node:
    if "c" not in node:
        return node
    return {"t": node["t"], "c": walk(node["c"], action)}


def iter_nodes(value: Any) -> Iterator[Node]:
    """Every node in document order (pre-order), without copying.

    A pass that looks for one kind of node iterates the whole chapter, some twenty
    times a build: a reversed slice is cheaper than ``reversed()``, and a node's text
    is never pushed only to be popped.
    """
    stack = [value]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is str:
            continue
        if kind is list or (kind is not dict and isinstance(item, list)):
            extend(item[::-1])
        elif kind is dict or isinstance(item, dict):
            if "t" in item:
                yield item
                content = item.get("c")
                if content is not None and type(content) is not str:
                    push(content)
            else:
                extend(list(item.values())[::-1])


def copy_tree(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars).

    Every writer copies the whole book, so the copy is made by ``marshal`` (in C, a
    third faster than the loop below).  Its format 2 writes no back-references: what
    the source shares, the copy does not.  Past marshal's nesting limit (a chapter of
    thousands of nested ``>`` quotes) or for data that is not plain, the loop does it.
    """
    try:
        return marshal.loads(marshal.dumps(value, 2))
    except (ValueError, TypeError):
        return copied_by_stack(value)


def copied_by_stack(value: Any) -> Any:
    """:func:`copy_tree` without recursion: ``copy.deepcopy`` spends about four Python
    frames per level of nesting, so a chapter of 250 nested ``>`` quotes raised
    ``RecursionError`` in the writers; an explicit stack has no such limit."""
    holder: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, holder, 0)]
    while stack:
        item, parent, key = stack.pop()
        copied: Any
        if isinstance(item, dict):
            copied = {}
            for k, child in item.items():
                copied[k] = child  # scalars are immutable; containers are replaced below
                if isinstance(child, (dict, list)):
                    stack.append((child, copied, k))
        elif isinstance(item, list):
            copied = list(item)
            for i, child in enumerate(item):
                if isinstance(child, (dict, list)):
                    stack.append((child, copied, i))
        else:
            copied = item
        parent[key] = copied
    return holder[0]


def stringify(value: Any) -> str:
    """Plain text of inlines/blocks (what a reader sees, without markup)."""
    parts: list[str] = []

    def go(item: Any) -> None:
        if isinstance(item, list):
            for x in item:
                go(x)
            return
        if not isinstance(item, dict) or "t" not in item:
            return
        t = item["t"]
        c: Any = item.get("c")
        if t == "Str":
            parts.append(c)
        elif t in ("Space", "SoftBreak"):
            parts.append(" ")
        elif t == "LineBreak":
            parts.append("\n")
        elif t in ("Code", "Math"):
            parts.append(c[1])
        elif t == "RawInline":
            return
        elif t in (
            "Emph",
            "Strong",
            "Strikeout",
            "Underline",
            "SmallCaps",
            "Superscript",
            "Subscript",
            "Para",
            "Plain",
        ):
            go(c)
        elif t in ("Link", "Image", "Span"):
            go(c[1])
        elif t == "Quoted":
            parts.append("“" if c[0]["t"] == "DoubleQuote" else "‘")
            go(c[1])
            parts.append("”" if c[0]["t"] == "DoubleQuote" else "’")
        elif t == "Cite":
            go(c[1])
        elif t == "Note":
            return
        elif t == "Header":
            go(c[2])
        elif t == "Div":
            go(c[1])

    go(value)
    return "".join(parts)


def attr(
    identifier: str = "", classes: list[str] | None = None, keyvals: list[list[str]] | None = None
) -> list[Any]:
    return [identifier, classes or [], keyvals or []]


def text_inlines(text: str) -> list[Node]:
    """Inlines for plain ``text`` (words as ``Str``, spaces as ``Space``)."""
    out: list[Node] = []
    for index, word in enumerate(text.split(" ")):
        if index:
            out.append({"t": "Space"})
        if word:
            out.append({"t": "Str", "c": word})
    return out


def raw_inline(fmt: str, text: str) -> Node:
    return {"t": "RawInline", "c": [fmt, text]}


def raw_block(fmt: str, text: str) -> Node:
    return {"t": "RawBlock", "c": [fmt, text]}


def keyval(attrs: list[Any], key: str) -> str | None:
    for k, v in attrs[2]:
        if k == key:
            return str(v)
    return None


def table_rows(content: list[Any]) -> list[Any]:
    """A ``Table``'s rows in reading order: head, each body's head and body rows, foot
    (each row ``[attr, cells]``, each cell ``[attr, align, rowspan, colspan, blocks]``)."""
    head, bodies, foot = content[3], content[4], content[5]
    rows = [*head[1]]
    for body in bodies:
        rows += body[2] + body[3]
    return rows + foot[1]
