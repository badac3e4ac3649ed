"""The table runtime shared by every game: lobbies, running tables, timers, ledger writes.

Nothing here imports discord: a `Presenter` (one per game, in the game's package) turns what
happens at a table into messages.
"""
