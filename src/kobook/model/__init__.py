"""The model every stage shares, importing none of them: :class:`Book`,
:class:`Chapter`, :class:`Config` (with its source text and ``line(key, sub)``), the
line origins a dialect keeps (:class:`Lines`, :data:`Origin`), the expansion budget,
and the parsed document (:class:`Doc`).

Like mdBook's core: ``load``, the dialects, ``parse``, the transforms and the
writers import this package, and it imports only kobook's base modules
(``errors``, ``limits``, ``lang``, ``reproducible``).  ``scripts/import_cycles.py``
(run by ``tests/test_import_cycles.py``) checks that no import goes back up.
"""

from .book import Book, Chapter, TextIndex
from .config import Config
from .document import Doc
from .expansion import Expansion
from .origins import Lines, Origin

__all__ = ["Book", "Chapter", "Config", "Doc", "Expansion", "Lines", "Origin", "TextIndex"]
