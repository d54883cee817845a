"""``passes.image_alts``: every image of the site and the EPUB has a text alternative."""

from __future__ import annotations

from typing import Any

from kobook.write.shared.passes import image_alts


def image(alt: str) -> dict[str, Any]:
    inlines = [{"t": "Str", "c": alt}] if alt else []
    return {"t": "Image", "c": [["", [], []], inlines, ["x.png", ""]]}


def figure(caption: str, *images: dict[str, Any]) -> dict[str, Any]:
    text = [{"t": "Plain", "c": [{"t": "Str", "c": caption}]}] if caption else []
    return {"t": "Figure", "c": [["", [], []], [None, text], [{"t": "Plain", "c": list(images)}]]}


def alts(blocks: list[Any]) -> list[str]:
    from kobook.parse.ast import iter_nodes, stringify

    return [stringify(n["c"][1]) for n in iter_nodes(blocks) if n["t"] == "Image"]


def test_an_image_keeps_its_own_alt_text() -> None:
    blocks = [figure("캡션", image("설명")), {"t": "Para", "c": [image("아이콘")]}]
    assert alts(image_alts(blocks, "그림")) == ["설명", "아이콘"]


def test_an_image_without_one_takes_its_figure_caption() -> None:
    assert alts(image_alts([figure("그림 3.1. 메모리 구성", image(""))], "그림")) == [
        "그림 3.1. 메모리 구성"
    ]


def test_an_image_with_no_caption_either_is_named_an_image() -> None:
    blocks = [figure("", image("")), {"t": "Para", "c": [image("")]}]
    assert alts(image_alts(blocks, "그림")) == ["그림", "그림"]
