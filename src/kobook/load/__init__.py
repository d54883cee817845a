"""Stage 1, load: project folder → :class:`~kobook.model.Book` (metadata + ordered chapter
sources).  The model itself is :mod:`kobook.model`; the file toolkit :mod:`kobook.files`."""

from .book import load_book
from .config import load_config
from .ids import select_chapter

__all__ = ["load_book", "load_config", "select_chapter"]
