-- Version 3: a server's default edition for every game that has editions, not a column per game.

-- The edition a new table of `game` plays when its host names none. A game without a row here
-- plays its first edition. Which games and editions exist is the rules' business: the ledger
-- checks a choice against the game registry when it is made, not the schema.
CREATE TABLE guild_editions (
    guild_id INTEGER NOT NULL,
    game     TEXT NOT NULL,
    edition  TEXT NOT NULL,
    PRIMARY KEY (guild_id, game)
) WITHOUT ROWID;

-- Version 1 kept the one game's choice in a column of its own: every server's value moves over.
INSERT INTO guild_editions (guild_id, game, edition)
    SELECT guild_id, 'kamiza', kamiza_edition FROM guild_settings;

-- The settings without that column. Rebuilt rather than ALTER TABLE ... DROP COLUMN, which needs
-- SQLite 3.35.
CREATE TABLE guild_settings_v3 (
    guild_id       INTEGER PRIMARY KEY,
    turn_seconds   INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0),
    lobby_seconds  INTEGER CHECK (lobby_seconds IS NULL OR lobby_seconds > 0),
    rate_bot_games INTEGER NOT NULL DEFAULT 0 CHECK (rate_bot_games IN (0, 1)),
    locale         TEXT,
    updated_at     TEXT NOT NULL
);
INSERT INTO guild_settings_v3 (guild_id, turn_seconds, lobby_seconds, rate_bot_games, locale,
                               updated_at)
    SELECT guild_id, turn_seconds, lobby_seconds, rate_bot_games, locale, updated_at
    FROM guild_settings;
DROP TABLE guild_settings;
ALTER TABLE guild_settings_v3 RENAME TO guild_settings;
