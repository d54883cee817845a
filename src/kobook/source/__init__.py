"""The source layer: Markdown as the translator wrote it, with exact positions.

``check``, ``--fix`` and the build's normalize stage need to know which bytes
of a file are prose (fixable text) and which are code, math, URLs, raw HTML or
syntax that must never change.  markdown-it-py finds the block structure with
line maps; a small inline scanner masks code spans, math, links' targets,
HTML tags, attributes and citation keys inside prose lines.  It never renders.
"""

from .document import SourceDoc, parse_source

__all__ = ["SourceDoc", "parse_source"]
