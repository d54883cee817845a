"""Every limit kobook puts on a book, in one place, with the reason for each number.

A book's sources are untrusted: translation repositories take pull requests
from strangers and CI builds them.  A few hundred bytes must not hang the
runner, fill its memory or its disk.  Each limit below is far above what a real
book needs (the numbers in brackets were measured on this project's corpus or
on the machine kobook is tested on: 2 cores, 24 GiB) and far below what breaks.
Going past one is an error whose code starts with ``LIMIT`` and that names the
file and line, never a hang or a traceback.

None of them is read from ``metadata.yaml``: the metadata comes from the same
untrusted repository.  The one limit a book may lift is the automatic
splitting of one file into chapters (:data:`MAX_AUTO_CHAPTERS`): writing
``chapter-level:`` in the metadata says the split is wanted.
"""

from __future__ import annotations

# --- The source, before pandoc sees it ---------------------------------------

MAX_FILE_BYTES = 8 * 1024 * 1024
"""Largest chapter (or metadata, glossary) file, checked with ``stat`` before reading.

The longest real book kept as one file, the UltraScale playbook, is 228 KB.
pandoc needs about 500 MB and 10 s to parse an 8 MiB chapter and 1.4 GB to
render it; a 50 MB chapter took 7.8 GB.  Split a longer book into files.
"""

MAX_NESTING = 16
"""Deepest nesting of block quotes, list items and ``:::`` divs (LIMIT001).

Measured in the source line by line (outside fenced code) before pandoc runs:
``'> ' * 250`` (500 bytes) raised ``RecursionError`` in the writers, and
10⁵ levels keep pandoc busy for minutes (its work grows with the square of the
depth).  Each level also indents the text: in the WeasyPrint PDF a quote 30
deep has no room left and its text vanishes, and WeasyPrint's layout fails
at about 80 nested lists.  The corpus nests 4 deep at most.
"""

MAX_AST_DEPTH = 32
"""Deepest nesting of pandoc elements in a parsed chapter, raw HTML elements included (LIMIT001).

The last word for what the source scan cannot see (emphasis inside a link
inside a span, raw ``<div>`` or ``<b>`` elements): :data:`MAX_NESTING`
blocks plus 16 inline levels.  The corpus reaches 7.  Every stage (Python's
JSON reader and writer, the AST walks, the HTML writer, WeasyPrint) works far
deeper than this with Python's default recursion limit of 1000.
"""

MAX_BRACKET_DEPTH = 8
"""Most ``[`` open at once in a paragraph; an unclosed one stays open to its end (LIMIT002).

pandoc tries every ``[`` as the start of a link, and each failed try parses the
rest again: its time grows exponentially, about ×3 per nested ``[…]`` level
(8 levels: 3 s, 10: over a minute) and ×2 per unclosed ``[`` (16: 6 s,
20: 100 s; ``'[' * 20`` is 20 bytes).  ``[a [b] c]`` is two; links, footnotes
and citations next to each other count one each; the corpus needs 1.
"""

MAX_FOOTNOTES = 5000
"""Most footnotes in a book (LIMIT005).

WeasyPrint lays out a footnote in 35–50 ms (2,000 footnotes: 75–100 s), so
5,000 is a few minutes; the issue's 20,000 were still running after 300 s
(12 minutes or more at that rate).  Real books have hundreds.
"""

MAX_MATH_EXPANSIONS = 10_000
"""Most macro expansions in one formula (``\\def`` / ``\\newcommand`` uses; LIMIT009).

``\\def\\a{\\a}`` never stops expanding.  The distill corpus expands 6 macros
at most in a formula; 10,000 take a few milliseconds.
"""

MAX_MATH_CHARS = 20_000
"""Largest formula, as written and after its macros are expanded, in characters (LIMIT009).

Nine macros each using the previous one twice is 2⁹ copies per use from a
150-byte formula, and each level doubles it; a display formula of 8,000 terms
(100 KB, no macro) took 151 s and 960 MB.  The longest formula of the corpus has
800 characters; ziamath needs about a second for 10,000.
"""

MAX_MATH_EM = 200
"""Widest or tallest drawing of one formula, in em (MATH001: shown as its source).

``\\rule{100000pt}{100000pt}`` drew an image 6,665 em across; a page is about 40 em
wide and a tall matrix a few dozen em high.
"""

MAX_MATH_DEPTH = 24
"""Deepest nesting of groups (``{…}``, ``\\left…\\right``) in one formula (LIMIT009).

Checked before any renderer sees the formula: ziamath, texmath and Typst recurse into
each group, and 10⁴ nested braces (20 KB) kept a build busy for over 400 s.  The
corpus nests three deep at most.
"""

MAX_EXPANDED_BYTES = 64 * 2**20
"""Most bytes a book's includes and macros may add to it, with 1 KiB more per expansion
(``model/expansion.py``; LIMIT010).

mdBook includes nested ten deep over a few files of 150 bytes expand to 10⁵ lines,
and one level more to three times that: the work grows with what is expanded.  The
Korean Rust book includes about a thousand listings, a few MiB with their cost.
"""

MAX_INCLUDE_DEPTH = 10
"""Deepest nesting of includes (mdBook's own ``MAX_LINK_NESTED_DEPTH``; DIA206)."""

MAX_IMAGE_PIXELS = 40_000_000
"""Most pixels in one raster image (width × height; IMG003, read from its header).

A 704 KB PNG of 16,000 × 11,000 RGBA pixels took WeasyPrint to 2.8 GB and Typst to
1.5 GB.  A full A4 page scanned at 300 dpi is 8.7 million pixels; a PDF needs no
more than that, and the HTML book much less.  Pillow's own bomb warning starts at
89 million.
"""

MAX_BIBLIOGRAPHY_BYTES = 4 * 2**20
"""Largest bibliography or citation-style file (LIMIT003, ``transform/bibfiles.py``).

pandoc's citeproc reads the whole file for every chapter that cites; a 10.5 MB
``.bib`` was accepted before.  A large real bibliography is a few hundred KB.
"""

MAX_BIB_FIELD = 16_000
"""Most characters in one field of a BibTeX entry, its ``@string`` macros expanded
(LIMIT011).  A 1 MB title kept the PDF busy for 15 minutes; nested ``@string`` macros
and ``crossref`` loops (also LIMIT011) took 4.6 GB of pandoc's memory.  A long abstract
is a few thousand characters.
"""

# --- Chapters -------------------------------------------------------------------

MAX_CHAPTERS = 1000
"""Most chapters in a book (LIMIT004).

Each chapter is a pandoc run and an HTML page (about 50 ms each); the largest
book of the corpus, the Rust book, has about 110.
"""

MAX_AUTO_CHAPTERS = 500
"""Most chapters kobook cuts one file into when nobody asked (LIMIT004).

The one-file splitter cuts at every ``#`` (or ``##``) heading; a 50 MB file
of headings became 2,953 chapters.  With ``chapter-level:`` written in the
metadata the split is intended and only :data:`MAX_CHAPTERS` applies.
"""

SIDEBAR_CHAPTERS = 100
"""Chapters listed in the sidebar of each HTML page (the index lists them all).

Every page carrying the whole table of contents made the site grow with the
square of the chapter count (1,000 one-line chapters: 101 MB of HTML).  A
book of up to this many chapters shows them all; a longer one shows the
chapters around the current one and a link to the index.
"""

# --- YAML -------------------------------------------------------------------------

MAX_YAML_ALIAS_NODES = 10_000
"""How many values YAML aliases (``*name``) may add to one file (LIMIT008).

A 370-byte "billion laughs" file of nine aliases of nine aliases expands to
387 million values (2.8 GB, then ``MemoryError``).  Metadata uses aliases for
a few shared settings, if at all; a large glossary without aliases is not
limited by this.
"""

MAX_YAML_DEPTH = 64
"""Deepest nesting of YAML lists and mappings (LIMIT008).

PyYAML composes recursively: ``'[' * 10000`` raised ``RecursionError``.
"""

# --- External programs (LIMIT006 when one runs longer) ------------------------

PANDOC_TIMEOUT = 180.0
"""Seconds for one pandoc run (parsing a chapter, rendering the book's HTML).

An 8 MiB chapter parses in 10 s and renders in 15 s; pathological Markdown
(hundreds of unclosed ``<span>`` or ``'`` in a paragraph) keeps pandoc busy for
minutes.
"""

PANDOC_MEMORY = "4g"
"""Heap limit for one pandoc run (GHC's ``+RTS -M``; LIMIT007 when reached).

Rendering an 8 MiB chapter takes 1.4 GB; ``'[^' * 3000`` took 5 GB in 15 s.
Two pandoc runs go at once, so two of them stay well inside the machine.
"""

PANDOC_NURSERY = "64m"
"""pandoc's allocation area (GHC's ``+RTS -A``): a chapter parses 30 % faster.

Each pandoc run reserves it once; two runs at once cost 128 MB.
"""

XELATEX_TIMEOUT = 900.0
"""Seconds for the whole latexmk (or xelatex) run of a book: all its passes."""

WEASYPRINT_TIMEOUT = 900.0
"""Seconds for WeasyPrint to lay out and paint a book (LIMIT006), as for XeLaTeX.

WeasyPrint lays out in Python with no limit of its own: one table of 800 columns
took 180 s.  The 600-page Rust book takes about 100 s; the playbook 11 s.
"""

TOOL_TIMEOUT = 30.0
"""Seconds for a small helper: rsvg-convert on one image, fc-match, fc-list, kpsewhich."""

TYPST_TIMEOUT = 300.0
"""Seconds for one Typst compile of a book (LIMIT006), in its own process.

Typst is a programming language, and the ``typst`` wheel bounds neither time nor
memory: ``#for i in range(3e8) {}`` in a template ran 242 s.  The corpus playbook
compiles in a few seconds, the 600-page Rust book in well under a minute.
"""

TYPST_MEMORY = 4 * 2**30
"""Address space of the Typst compiler's process, in bytes (``RLIMIT_AS``; LIMIT007).

``"x" * 2.5e9`` in Typst code took 2.4 GB, and an unbounded loop 9.2 GB.  The
compiler's process maps the fonts it reads and its threads' stacks, so this
counts more than the memory it really uses; the Rust book needs well below it.
"""

SEARCH_TIMEOUT = 120.0
"""Seconds for Pagefind to index the HTML book's pages for its search.

The corpus playbook (17 pages, 1 MB) takes 0.16 s and the sample book 0.09 s
(``scripts/bench.py``); Pagefind reads each page once, so even books of the
largest chapters kobook accepts stay far below this.
"""
