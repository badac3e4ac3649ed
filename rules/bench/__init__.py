"""`python -m rules bench`: speed and memory of the rules engines (CLI only: it runs git and
child processes and writes temporary files, so nothing else in `rules` imports it)."""
