"""kobook: publish Korean translations of technical books (PDF, HTML, EPUB) from Markdown.

The pipeline reads top to bottom (see DESIGN.md)::

    load → normalize → parse → transform → write

and :func:`build` runs it; the ``kobook`` command is a thin layer over it.
"""

from .api import BuildResult, build
from .errors import Diagnostic, KobookError
from .importer import ImportResult, import_repository
from .version import __version__

__all__ = [
    "BuildResult",
    "Diagnostic",
    "ImportResult",
    "KobookError",
    "__version__",
    "build",
    "import_repository",
]
