"""High card in the bot: loaded only through the game registry (`EXTRA_GAMES`, `spec.SPEC`)."""
