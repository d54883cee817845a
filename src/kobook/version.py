"""kobook's version, in a module that imports nothing: the User-Agent of image downloads
and the outputs' generator fields read it without importing the whole API
(``kobook/__init__`` does)."""

__version__ = "0.1.0"
