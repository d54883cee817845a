"""The write stage: transformed chapters → a PDF (one of the engines) or the HTML site.

One package per writer, behind the registry (``registry.py``: each writer's
name, output and one call; ``api.build``, the CLI's ``--engine``, ``kobook
doctor`` and the ``engine:`` check read it)::

    registry.py   the writers kobook has, and the one call they all answer
    html/         the HTML site: writer.py; blockprep.py (the site's preparation
                  block by block, for kobook preview)
    weasyprint/   the default PDF engine: writer.py, and the patches to WeasyPrint's
                  layout and PDF output (breaks, figures, justify, linebreak, relayout,
                  subset, svgreplay, images, reproducible), fetch.py (what it may read),
                  printready.py (images flattened for print)
    latex/        the XeLaTeX PDF engine: writer.py, screen.py (the book's raw TeX screened)
    typst/        the Typst PDF engine: writer.py (pandoc's Typst markup, Korean words in
                  boxes, compiled in-process by the ``typst`` wheel)
    shared/       what two or more writers use: passes over the AST, fonts and which
                  characters they cover (fontcoverage.py), page layout, math drawn as SVG,
                  code wrapping, HTML sanitizing and block-by-block HTML, templates,
                  table column widths (tables.py), images converted for compilers that
                  read PDF/PNG/JPEG (imagefiles.py), a compiler's working folder in the
                  cache (workdir.py), and latexmeta.py

What goes where: a module one writer uses lives in that writer's package; one
that two or more use lives in ``shared/``.  A writer imports from ``shared/``
and its own package, never from another writer's.  ``latexmeta.py`` (pandoc's
LaTeX metadata) is in ``shared/`` for that reason: XeLaTeX puts
``header-includes`` and ``classoption`` into its preamble, WeasyPrint honours
``classoption`` too (paper, type size, one side), and ``api`` notes raw LaTeX
the other outputs ignore (TEX005).

Templates stay in ``kobook/templates/`` (package data, overridden file by file
by the book's ``templates/``); each writer names its folder there in its
``TEMPLATES`` constant (``html``, ``pdf``, ``latex``, ``typst``).
"""
