"""Stage 1, load: project folder → :class:`Book` (metadata + ordered chapter sources)."""

from .book import Book, Chapter, load_book, select_chapter
from .config import Config, load_config, read_text

__all__ = ["Book", "Chapter", "Config", "load_book", "load_config", "read_text", "select_chapter"]
