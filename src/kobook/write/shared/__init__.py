"""What two or more writers use (see :mod:`kobook.write`)."""
