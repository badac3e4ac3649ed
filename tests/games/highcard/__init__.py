"""High card, the tests' own game: its rules (`rules`) and its bot package (`bot`).

Loaded into the bot with `EXTRA_GAMES=tests.games.highcard.bot` (its `spec.SPEC`), into the
rules with `rules.registry.register(HighCard)`; no product file names it.
"""
