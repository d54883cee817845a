"""Korean language knowledge shared by every stage: Hangul tests, readings, particles."""
