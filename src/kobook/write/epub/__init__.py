"""EPUB 3 output (pandoc's EPUB writer, kobook's metadata, title page, cover and CSS)."""
