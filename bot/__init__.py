"""The Discord bot: thin adapters from Discord to `rules` and `data`."""
