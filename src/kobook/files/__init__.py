"""The file toolkit below the model: a book file's bytes within the size limit, UTF-8 text
(with an error that fits other encodings), line endings kept for ``--fix``, YAML and
front matter with their line numbers.  It knows files, not books."""
