"""High card's texts: `en/*.json` and `ja/*.json`, merged by `bot.i18n.add_catalogue`."""
