"""What depends on the book's language: the words kobook prints, dates, scripts.

``lang:`` in metadata.yaml (book-wide, overridable per chapter in front matter)
is a BCP 47 tag; :func:`language_of` reduces it to one of the languages kobook
has words for (``ko``, ``en``, ``zh-Hans``, ``zh-Hant``, ``ja``).  Korean
typography rules run on Korean text only (see :mod:`kobook.lang.script`).
"""

from .dates import format_date
from .script import is_korean, text_language
from .words import LANGUAGES, WORDS, Words, language_of

__all__ = [
    "LANGUAGES",
    "WORDS",
    "Words",
    "format_date",
    "is_korean",
    "language_of",
    "text_language",
]
