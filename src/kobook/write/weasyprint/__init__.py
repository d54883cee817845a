"""The WeasyPrint PDF engine (the default): ``writer.py`` and its patches to WeasyPrint."""
