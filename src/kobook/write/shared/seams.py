"""Where a code name may break without a hyphen (every PDF engine uses it).

WeasyPrint breaks a name at a seam when its line would otherwise stay loose
(``weasyprint/linebreak.py``); Typst gets each piece of a long name as a box of
its own, so its paragraph builder may break between them (``typst/words.py``);
XeLaTeX gets a discretionary break at each seam (``latex/passes.seamed_names``).
"""

from __future__ import annotations

import itertools
import re

SEAM = re.compile(
    r"(?<=[a-z])(?=[A-Z])"  # Distributed|Data
    r"|(?<=[A-Za-z0-9])(?=[./]\w|_+[A-Za-z0-9]|->\w)"  # torch|.float32, bucket|_cap, x|->next
    r"|(?<=::)(?=\w)"  # std::|vector
)


def identifier_seams(token: str, left: int = 3, right: int = 3) -> list[int]:
    """Where a code name may break without a hyphen: before an inner capital
    (``Distributed|Data|Parallel``), before ``.``, ``_``, ``/`` or ``->`` and after ``::``.

    These are the Chicago Manual's places (14.18): the period or underscore that starts
    the next line shows the name goes on, where one ending a line would read as the end
    of a sentence; a hyphen would read as part of the name.  Each side keeps at least
    ``left``/``right`` characters (CSS ``hyphenate-limit-chars``).
    """
    left, right = max(left, 1), max(right, 1)
    return [
        m.start()
        for m in SEAM.finditer(token)
        if m.start() >= left and len(token) - m.start() >= right
    ]


# A code name this long or longer may break at its seams (``DistributedData|Parallel``);
# shorter names stay whole.
LONG_NAME = 16


def name_pieces(text: str) -> list[str] | None:
    """A long code name (no spaces) cut at its seams, or None when it stays whole."""
    if len(text) < LONG_NAME or " " in text:
        return None
    bounds = [0, *identifier_seams(text), len(text)]
    if len(bounds) == 2:
        return None
    return [text[a:b] for a, b in itertools.pairwise(bounds)]
