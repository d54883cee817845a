"""The Typst PDF engine: pandoc's Typst markup compiled by the ``typst`` wheel (``writer.py``)."""
