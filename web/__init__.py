"""The web companion: a read-only site over the ledger (`python -m web`).

`web.paths` is the site's URL layout, imported by the bot for its link buttons; it imports
nothing of the server (aiohttp, Jinja2), which loads only with `web.app`.
"""
