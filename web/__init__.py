"""The web companion: a read-only site over the ledger (`python -m web`).

The site's URL layout is `bot.web_paths`, below both: the bot links to the pages with it and
the site serves them, so the bot never imports the site (aiohttp's server, Jinja2).
"""
