"""``python -m kobook``."""

from .cli import run

run()
