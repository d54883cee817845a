"""PDF/X-4 (write/shared/pdfx.py): the press profile read and checked, the tag tree
left whole when links go, and the book's settings checked."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

import kobook
from kobook.errors import KobookError
from kobook.write.shared.pdftags import without_annotations
from kobook.write.shared.pdfx import default_profile, icc_description, press_profile
from tests.conftest import BookMaker


def test_fogra39_is_the_default_press() -> None:
    path = default_profile()
    assert path is not None
    press = press_profile(path.read_bytes(), path)
    assert press.identifier == "FOGRA39"
    assert "FOGRA39" in press.info


def test_an_rgb_profile_is_no_press(tmp_path: Path) -> None:
    data = (files("weasyprint.pdf") / "sRGB2014.icc").read_bytes()
    assert "sRGB" in icc_description(data)
    with pytest.raises(KobookError) as raised:
        press_profile(data, tmp_path / "screen.icc")
    assert raised.value.diagnostic.code == "PDF003"
    assert "CMYK printer profile" in str(raised.value)
    with pytest.raises(KobookError) as raised:
        press_profile(b"not a profile", tmp_path / "broken.icc")
    assert "not an ICC colour profile" in str(raised.value)


def test_links_dropped_leave_no_reference_in_the_tag_tree() -> None:
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

    writer = PdfWriter()

    def element(kind: str, kids: list[object]) -> DictionaryObject:
        node = DictionaryObject({NameObject("/S"): NameObject(kind)})
        node[NameObject("/K")] = ArrayObject(kids)
        return node

    link = writer._add_object(DictionaryObject({NameObject("/Subtype"): NameObject("/Link")}))
    kept = writer._add_object(DictionaryObject({NameObject("/Subtype"): NameObject("/Widget")}))
    objr = DictionaryObject({NameObject("/Type"): NameObject("/OBJR"), NameObject("/Obj"): link})
    other = DictionaryObject({NameObject("/Type"): NameObject("/OBJR"), NameObject("/Obj"): kept})
    anchor = element("/Link", [objr, TextStringObject("x")])
    tree = DictionaryObject({NameObject("/K"): element("/Document", [anchor, other])})
    without_annotations(tree, {link.idnum})
    assert list(anchor["/K"]) == ["x"]
    assert tree["/K"]["/K"][1] is other


def test_an_unknown_standard_names_the_choices(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book({"book/01.md": "# 장\n"}, metadata={"pdf": {"standard": "pdf/x-1a"}})
    with pytest.raises(KobookError) as raised:
        kobook.build(root, ["pdf"], engine="typst", out=tmp_path / "out")
    assert raised.value.diagnostic.code == "CFG003"
    assert "pdf/x-4" in str(raised.value)


def test_an_output_profile_outside_the_book_is_refused(
    make_book: BookMaker, tmp_path: Path
) -> None:
    root = make_book(
        {"book/01.md": "# 장\n"},
        metadata={"pdf": {"standard": "pdf/x-4", "output-profile": "../press.icc"}},
    )
    path = default_profile()
    assert path is not None
    (root.parent / "press.icc").write_bytes(path.read_bytes())
    with pytest.raises(KobookError) as raised:
        kobook.build(root, ["pdf"], engine="typst", out=tmp_path / "out")
    assert raised.value.diagnostic.code == "SEC001"


def test_a_screen_profile_as_press_fails_with_its_name(
    make_book: BookMaker, tmp_path: Path
) -> None:
    root = make_book(
        {"book/01.md": "# 장\n"},
        metadata={"pdf": {"standard": "pdf/x-4", "output-profile": "screen.icc"}},
    )
    (root / "screen.icc").write_bytes((files("weasyprint.pdf") / "sRGB2014.icc").read_bytes())
    with pytest.raises(KobookError) as raised:
        kobook.build(root, ["pdf"], engine="typst", out=tmp_path / "out")
    assert raised.value.diagnostic.code == "PDF003"
    assert "screen.icc" in str(raised.value)
