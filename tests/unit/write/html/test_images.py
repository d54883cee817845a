"""write/html/images.py: each image of the site with its size, loaded lazily."""

from __future__ import annotations

import shutil
from pathlib import Path

from kobook.write.html.images import lazy_images, sized_images
from tests.conftest import REPO


def test_raster_and_svg_images_get_their_size_and_others_are_left(tmp_path: Path) -> None:
    (tmp_path / "img").mkdir()
    shutil.copyfile(REPO / "tests" / "data" / "pixel.png", tmp_path / "img" / "a b.png")
    (tmp_path / "img" / "d.svg").write_text(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 360">'
        "</svg>"
    )
    (tmp_path / "img" / "w.svg").write_text('<svg width="120px" height="80" viewBox="0 0 1 1"/>')
    (tmp_path.parent / "outside.png").write_bytes((tmp_path / "img" / "a b.png").read_bytes())
    body = (
        '<img src="img/a%20b.png" alt="a"><img src="img/d.svg" alt="d" />'
        '<img src="img/w.svg"><img src="img/a%20b.png" width="9">'
        '<img class="math" src="img/d.svg"><img src="https://x.org/a.png">'
        '<img src="../outside.png"><img src="img/missing.png">'
    )
    assert sized_images(body, tmp_path) == (
        '<img src="img/a%20b.png" alt="a" width="40" height="20">'
        '<img src="img/d.svg" alt="d" width="640" height="360" />'
        '<img src="img/w.svg" width="120" height="80">'
        '<img src="img/a%20b.png" width="9">'
        '<img class="math" src="img/d.svg"><img src="https://x.org/a.png">'
        '<img src="../outside.png"><img src="img/missing.png">'
    )
    assert lazy_images('<img src="a.png">') == '<img src="a.png" loading="lazy" decoding="async">'
