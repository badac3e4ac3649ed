-- The ledger, version 1. Times are UTC ISO 8601 text; JSON columns are canonical JSON text.

CREATE TABLE guild_settings (
    guild_id       INTEGER PRIMARY KEY,
    turn_seconds   INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0),
    lobby_seconds  INTEGER CHECK (lobby_seconds IS NULL OR lobby_seconds > 0),
    rate_bot_games INTEGER NOT NULL DEFAULT 0 CHECK (rate_bot_games IN (0, 1)),
    kamiza_edition TEXT NOT NULL DEFAULT 'second' CHECK (kamiza_edition IN ('second', 'classic')),
    locale         TEXT,
    updated_at     TEXT NOT NULL
);

-- A guild always has exactly one current season (ended_at IS NULL) once it has played.
CREATE TABLE seasons (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL CHECK (number > 0),
    name       TEXT NOT NULL,
    started_at TEXT NOT NULL,
    ended_at   TEXT,
    UNIQUE (guild_id, number)
);
CREATE UNIQUE INDEX seasons_current ON seasons (guild_id) WHERE ended_at IS NULL;

-- Best of each archived season, per game (ties share the title).
CREATE TABLE season_champions (
    season_id    INTEGER NOT NULL REFERENCES seasons (id),
    game         TEXT NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    rating       REAL NOT NULL,
    PRIMARY KEY (season_id, game, user_id)
) WITHOUT ROWID;

-- One game: the log header (LOG_FORMAT.md, without actions) plus where and by whom it is played.
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    thread_id  INTEGER,
    host_id    INTEGER NOT NULL,
    season_id  INTEGER NOT NULL REFERENCES seasons (id),
    game       TEXT NOT NULL,
    options    TEXT NOT NULL DEFAULT '{}',
    header     TEXT,
    status     TEXT NOT NULL DEFAULT 'lobby'
               CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'abandoned')),
    end_reason TEXT,
    rated      INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    created_at TEXT NOT NULL,
    started_at TEXT,
    updated_at TEXT NOT NULL,
    ended_at   TEXT,
    CHECK (status = 'lobby' OR status IN ('cancelled', 'abandoned') OR header IS NOT NULL)
);
CREATE INDEX games_unfinished ON games (status) WHERE status IN ('lobby', 'running');
CREATE INDEX games_guild ON games (guild_id, id);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    position     INTEGER NOT NULL CHECK (position >= 0),
    player       TEXT NOT NULL,
    user_id      INTEGER,
    display_name TEXT NOT NULL,
    is_bot       INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, player),
    UNIQUE (game_id, user_id),
    CHECK (is_bot = 1 OR user_id IS NOT NULL)
) WITHOUT ROWID;

-- The log's actions, appended only. (game_id, seq) is the primary key: two appends racing for
-- the same sequence number can never both succeed.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    player     TEXT NOT NULL,
    action     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, player) REFERENCES seats (game_id, player)
) WITHOUT ROWID;

CREATE TRIGGER actions_only_running BEFORE INSERT ON actions
WHEN (SELECT status FROM games WHERE id = NEW.game_id) IS NOT 'running'
BEGIN
    SELECT RAISE(ABORT, 'ledger: game not running');
END;

CREATE TRIGGER actions_contiguous BEFORE INSERT ON actions
WHEN NEW.seq <> (SELECT coalesce(max(seq) + 1, 0) FROM actions WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'ledger: sequence gap or taken');
END;

CREATE TRIGGER actions_touch_game AFTER INSERT ON actions
BEGIN
    UPDATE games SET updated_at = NEW.created_at WHERE id = NEW.game_id;
END;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'ledger: actions are append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'ledger: actions are append-only');
END;

-- Per player of a finished game. Ratings are openskill mu/sigma, NULL when not rated.
CREATE TABLE results (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    player       TEXT NOT NULL,
    user_id      INTEGER,
    is_bot       INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
    display_name TEXT NOT NULL,
    score        INTEGER NOT NULL,
    rank         INTEGER NOT NULL CHECK (rank > 0),
    winner       INTEGER NOT NULL CHECK (winner IN (0, 1)),
    mu_before    REAL,
    sigma_before REAL,
    mu_after     REAL,
    sigma_after  REAL,
    PRIMARY KEY (game_id, player),
    FOREIGN KEY (game_id, player) REFERENCES seats (game_id, player)
) WITHOUT ROWID;
CREATE INDEX results_user ON results (user_id) WHERE user_id IS NOT NULL;

-- Standings per (season, game, member), maintained by finish_game in the same transaction.
-- `rating` is the leaderboard key: the openskill ordinal (mu - 3 sigma) rounded to 0.1.
CREATE TABLE ratings (
    season_id    INTEGER NOT NULL REFERENCES seasons (id),
    game         TEXT NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    mu           REAL NOT NULL,
    sigma        REAL NOT NULL,
    rating       REAL NOT NULL,
    games        INTEGER NOT NULL CHECK (games > 0),
    wins         INTEGER NOT NULL CHECK (wins >= 0),
    points       INTEGER NOT NULL,
    best_rank    INTEGER NOT NULL,
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (season_id, game, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (season_id, game, rating DESC, wins DESC, user_id);
