-- Version 2 (PostgreSQL): as SQLite's 0002.
ALTER TABLE games ADD COLUMN announced INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1));
UPDATE games SET announced = 1 WHERE status IN ('finished', 'cancelled', 'abandoned');
CREATE INDEX games_unannounced ON games (id)
    WHERE announced = 0 AND status IN ('finished', 'cancelled', 'abandoned');

CREATE TABLE game_notes (
    game_id BIGINT NOT NULL REFERENCES games (id),
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
);
