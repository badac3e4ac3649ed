-- Version 2: what the bot still owes a table, so that a restart finishes telling it.

-- An ended game is "announced" once its last messages (reveal, standings, cancel notice) went
-- out; games that ended before this version are taken as announced.
ALTER TABLE games ADD COLUMN announced INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1));
UPDATE games SET announced = 1 WHERE status IN ('finished', 'cancelled', 'abandoned');
CREATE INDEX games_unannounced ON games (id)
    WHERE announced = 0 AND status IN ('finished', 'cancelled', 'abandoned');

-- Small facts the bot keeps about a table besides its log: its message ids, a card a player was
-- shown before choosing, who is on autopilot. Never part of the game's rules or results.
CREATE TABLE game_notes (
    game_id INTEGER NOT NULL REFERENCES games (id),
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
) WITHOUT ROWID;
