"""The XeLaTeX PDF engine: pandoc's LaTeX typeset by XeLaTeX (``writer.py``)."""
