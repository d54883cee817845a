"""``python -m kobook.preview.typesetter_main``: the PDF process of :mod:`.typesetter`.

A module of its own because :mod:`kobook.preview` imports :mod:`.typesetter`:
running that one with ``-m`` would import it twice (runpy warns).
"""

from kobook.preview.typesetter import main

main()
