"""The HTML writer: the book as an offline site, one page per chapter (``writer.py``)."""
