"""No write goes through a symbolic link below an output folder (issue 35): the preview,
``--chapter``, the cache, ``import --to`` and ``init`` refuse a link anywhere below the
folder they write, and nothing is written where it points."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import kobook
from kobook.errors import KobookError
from kobook.preview import Session
from tests.conftest import BookMaker

CHAPTER = "# 장\n\n본문.\n\n![열쇠](../images/authorized_keys.png)\n"


def outside_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "home" / ".ssh"
    folder.mkdir(parents=True)
    return folder


def book_with_image(make_book: BookMaker) -> Path:
    return make_book(
        {"book/01.md": CHAPTER, "book/02.md": "# 둘\n\n본문.\n"},
        metadata={"title": "책"},
        images=["images/authorized_keys.png"],
    )


@pytest.mark.parametrize("link", ["dist/preview/images", "dist"])
def test_the_preview_does_not_write_through_a_link(
    make_book: BookMaker, tmp_path: Path, link: str
) -> None:
    """A link below the preview's folder, or the folder itself leading outside: SEC001."""
    root = book_with_image(make_book)
    elsewhere = outside_folder(tmp_path)
    (root / link).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(elsewhere, root / link)
    session = Session(root, cache_dir=tmp_path / "cache", typesetter=False)
    try:
        update = session.build()
    finally:
        session.close()
    assert not update.ok and "SEC001" in str(update.error)
    assert list(elsewhere.iterdir()) == []


def test_a_chapter_build_does_not_write_through_a_link_in_the_site(
    make_book: BookMaker, tmp_path: Path
) -> None:
    root = book_with_image(make_book)
    kobook.build(root, ["html"])
    site = root / "dist" / "html"
    ssh = outside_folder(tmp_path)
    for item in (site / "images").iterdir():
        item.unlink()
    (site / "images").rmdir()
    os.symlink(ssh, site / "images")
    result = kobook.build(root, ["html"], chapter="1")
    assert list(ssh.iterdir()) == []
    assert (result.outputs["html"].parent / "images" / "authorized_keys.png").is_file()
    assert not (result.outputs["html"].parent / "images").is_symlink()


@pytest.mark.parametrize("kind", ["ast", "normalized", "tags"])
def test_a_link_in_the_cache_is_refused(make_book: BookMaker, tmp_path: Path, kind: str) -> None:
    root = book_with_image(make_book)
    elsewhere = outside_folder(tmp_path)
    (root / ".kobook-cache").mkdir()
    os.symlink(elsewhere, root / ".kobook-cache" / kind)
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    assert info.value.code == "SEC001"
    assert list(elsewhere.iterdir()) == []


def test_import_to_a_folder_whose_book_links_outside(tmp_path: Path) -> None:
    source = tmp_path / "repo"
    (source / "chapters").mkdir(parents=True)
    (source / "chapters" / "01.md").write_text("# 장\n\n본문.\n", encoding="utf-8")
    (source / "metadata.yaml").write_text("title: 책\n", encoding="utf-8")
    target = tmp_path / "copy"
    target.mkdir()
    elsewhere = outside_folder(tmp_path)
    (target / "notes.txt").write_text("theirs", encoding="utf-8")
    os.symlink(elsewhere, target / "book")
    with pytest.raises(KobookError) as info:
        kobook.import_repository(source, to=target, force=True)
    assert info.value.code == "SEC001"
    assert list(elsewhere.iterdir()) == []


def test_init_refuses_a_link_below_the_new_book(tmp_path: Path) -> None:
    from kobook.scaffold import init_book

    target = tmp_path / "new"
    target.mkdir()
    elsewhere = outside_folder(tmp_path)
    os.symlink(elsewhere, target / "images")
    with pytest.raises(KobookError) as info:
        init_book(target, force=True)
    assert info.value.code == "SEC001"
    assert list(elsewhere.iterdir()) == []


def test_folders_made_at_once_by_many_processes(tmp_path: Path) -> None:
    """Two processes making the same folder (the math workers filling the cache) both go on:
    the one that finds it made meanwhile checks it and writes."""
    from concurrent.futures import ProcessPoolExecutor

    from kobook.boundary import real_folders

    targets = [tmp_path / "cache" / "math" / f"{n % 4}" for n in range(64)]
    with ProcessPoolExecutor(max_workers=8) as pool:
        made = list(pool.map(real_folders, [tmp_path / "cache"] * len(targets), targets))
    assert made == targets and all(t.is_dir() for t in targets)
