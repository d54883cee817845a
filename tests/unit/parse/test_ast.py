"""Walking pandoc's JSON AST (``parse/ast.py``): :func:`rewrite` is :func:`walk` in place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kobook.parse import pandoc
from kobook.parse.ast import acts_on, copy_tree, iter_nodes, rewrite, rewrite_chain, walk

SOURCE = """\
# 제목 {#top}

문단에 *강조와 [링크](#top)*, 각주[^1], 수식 $x^2$.

::: {.note}
> 인용 안의 ![그림](a.png)
:::

- 하나
- 둘 `코드`

| 가 | 나 |
|----|----|
| *셀* | 셀 |

[^1]: 각주 안의 *강조*.
"""


def document() -> list[Any]:
    return pandoc.markdown_to_ast(SOURCE)["blocks"]  # type: ignore[no-any-return]


def drop_emphasis(node: dict[str, Any]) -> Any:
    """Splices a node's children in its place (a list), or removes a space (an empty list)."""
    if node["t"] == "Emph":
        return node["c"]
    if node["t"] == "Space":
        return []
    return None


def replace_strings(node: dict[str, Any]) -> Any:
    if node["t"] == "Str":
        return {"t": "Str", "c": node["c"] + "!"}
    if node["t"] == "Image":
        return {"t": "Span", "c": [["", [], []], node["c"][1]]}
    return None


def change_in_place(node: dict[str, Any]) -> Any:
    if node["t"] == "Header":
        node["c"][1][0] = "changed"
    return None


@pytest.mark.parametrize("action", [drop_emphasis, replace_strings, change_in_place])
def test_rewrite_makes_what_walk_makes(action: Callable[[dict[str, Any]], Any]) -> None:
    seen: dict[str, list[str]] = {"walk": [], "rewrite": []}

    def noting(name: str) -> Callable[[dict[str, Any]], Any]:
        def act(node: dict[str, Any]) -> Any:
            seen[name].append(node["t"])
            return action(node)

        return act

    walked = walk(document(), noting("walk"))
    tree = document()
    rewritten = rewrite(tree, noting("rewrite"))
    assert rewritten == walked
    assert rewritten is tree  # in place: no copy of the chapter
    assert seen["rewrite"] == seen["walk"]  # the same nodes, in document order
    assert "Note" in seen["walk"] and "Table" in seen["walk"]


def test_a_replacement_is_not_visited_again() -> None:
    visits: list[str] = []

    def wrap(node: dict[str, Any]) -> Any:
        visits.append(node["t"])
        if node["t"] == "Code":
            return {"t": "Span", "c": [["", [], []], [node]]}  # the Code inside again
        return None

    tree = document()
    before = copy_tree(tree)
    rewrite(tree, wrap)
    assert visits.count("Code") == 1
    assert tree != before


def number_headers(node: dict[str, Any]) -> Any:
    """A new heading with a number before its text (as the writers' heading numbers)."""
    if node["t"] == "Header":
        level, attrs, inlines = node["c"]
        return {"t": "Header", "c": [level, attrs, [{"t": "Str", "c": "1."}, *inlines]]}
    return None


def rebuild_emphasis(node: dict[str, Any]) -> Any:
    """A new emphasis made of copies of what was inside (as upright Hangul marks do)."""
    if node["t"] == "Emph":
        return {"t": "Emph", "c": walk(node["c"], lambda _n: None)}
    return None


def retarget_links(node: dict[str, Any]) -> None:
    if node["t"] == "Link":
        node["c"][2][0] = "other.html" + node["c"][2][0]


CHAINS = [
    [number_headers, rebuild_emphasis, retarget_links, replace_strings],
    [drop_emphasis, replace_strings, change_in_place],
    [rebuild_emphasis, retarget_links, number_headers],
]


@pytest.mark.parametrize("chain", CHAINS)
def test_a_chain_makes_what_its_passes_make_one_after_another(
    chain: list[Callable[[dict[str, Any]], Any]],
) -> None:
    """No action of these chains acts inside what a later one replaces (rewrite_chain)."""
    expected = document()
    for action in chain:
        expected = rewrite(expected, action)
    tree = document()
    assert rewrite_chain(tree, chain) is tree  # in place
    assert tree == expected
    assert tree != document()


def test_a_chain_walks_the_tree_once() -> None:
    """Each node meets the first action once; what an action put in is met by the later
    ones, not by that action again."""
    met: list[str] = []
    seen: list[Any] = []

    def first(node: dict[str, Any]) -> Any:
        met.append(node["t"])
        return None

    def exclaim(node: dict[str, Any]) -> Any:
        return {"t": "Str", "c": node["c"] + "!"} if node["t"] == "Str" else None

    def last(node: dict[str, Any]) -> Any:
        seen.append(node)
        return None

    tree = document()
    nodes = sum(1 for _ in iter_nodes(tree))
    rewrite_chain(tree, [first, exclaim, last])
    assert len(met) == nodes  # one walk
    strings = [node["c"] for node in seen if node["t"] == "Str"]
    assert len(strings) == met.count("Str") and all(s.endswith("!") for s in strings)
    assert not any(s.endswith("!!") for s in strings)  # not met by exclaim again


def test_an_action_declared_for_some_types_meets_only_those() -> None:
    met: list[str] = []

    @acts_on("Link", "Code")
    def noted(node: dict[str, Any]) -> Any:
        met.append(node["t"])
        return None

    chain = [acts_on("Header")(number_headers), noted, retarget_links]
    expected = document()
    for action in chain:
        expected = rewrite(expected, action)
    met.clear()  # rewrite calls it for every node
    tree = rewrite_chain(document(), chain)
    assert tree == expected  # the same as undeclared
    assert sorted(set(met)) == ["Code", "Link"]


def test_iter_nodes_visits_what_walk_visits_in_the_same_order() -> None:
    seen: list[int] = []
    tree = document()
    walk(tree, lambda node: seen.append(id(node)))
    assert [id(node) for node in iter_nodes(tree)] == seen


def test_a_copy_shares_nothing_with_its_source_nor_within_itself() -> None:
    shared = {"t": "Str", "c": "같은"}
    tree = [{"t": "Para", "c": [shared, {"t": "Space"}, shared]}, 1.5, True, None]
    copied = copy_tree(tree)
    assert copied == tree
    assert copied[0]["c"][0] is not shared and copied[0]["c"][0] is not copied[0]["c"][2]
    copied[0]["c"][0]["c"] = "다른"
    assert shared["c"] == "같은" and copied[0]["c"][2]["c"] == "같은"


def test_a_tree_nested_past_marshals_limit_is_copied_too() -> None:
    tree: list[object] = [{"t": "Str", "c": "끝"}]
    for _ in range(5000):
        tree = [{"t": "BlockQuote", "c": tree}]
    copied = copy_tree(tree)
    depth, node = 0, copied
    while isinstance(node, list) and node[0]["t"] == "BlockQuote":
        node, depth = node[0]["c"], depth + 1
    assert depth == 5000 and node == [{"t": "Str", "c": "끝"}]
