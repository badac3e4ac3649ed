-- Version 3 (PostgreSQL): as SQLite's 0003; PostgreSQL drops the old column in place.
CREATE TABLE guild_editions (
    guild_id BIGINT NOT NULL,
    game     TEXT NOT NULL,
    edition  TEXT NOT NULL,
    PRIMARY KEY (guild_id, game)
);
INSERT INTO guild_editions (guild_id, game, edition)
    SELECT guild_id, 'kamiza', kamiza_edition FROM guild_settings;
ALTER TABLE guild_settings DROP COLUMN kamiza_edition;
