-- Version 8 (PostgreSQL): appends are checked once per statement, not once per row.
-- A group commit writes a batch of appends as ONE INSERT (data/postgres.py). Version 1 checked
-- it row by row: a PL/pgSQL trigger ran three queries per row (the game's row lock, the
-- contiguity check, the game's `updated_at`) and the two foreign keys one query each, which
-- also share-locked the game's and the seat's row (a WAL record and a dirtied page per row):
-- most of a batch's time. Now one trigger per statement sees the batch at once (a transition
-- table) and does all of that with one query each: lock the games in id order (two batches
-- never deadlock), refuse a game that is not running, a player without a seat or a gap, and
-- touch each game once. It runs after the rows went in: their primary key has already refused
-- a taken number, and the statement, hence the whole batch, fails if it raises.
DROP TRIGGER actions_checked ON actions;
DROP FUNCTION actions_checked();
-- The trigger checks what these checked (a game that is not running cannot be missing, and a
-- seat with actions cannot go: `seats_kept` below).
ALTER TABLE actions DROP CONSTRAINT actions_game_id_fkey;
ALTER TABLE actions DROP CONSTRAINT actions_game_id_player_fkey;

CREATE FUNCTION actions_appended() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    -- The statement's games, in id order, and the time of each one's last new action. As arrays:
    -- a transition table has no statistics, and a join with it could scan all of `games`.
    ids     BIGINT[];
    touched TEXT[];
    running BIGINT;
BEGIN
    IF current_setting('ledger.copying', true) = 'on' THEN
        RETURN NULL;
    END IF;
    SELECT array_agg(game_id ORDER BY game_id), array_agg(last ORDER BY game_id)
    INTO ids, touched
    FROM (SELECT game_id, max(created_at) AS last FROM appended GROUP BY game_id) a;
    -- The games' row locks order appends to one game across connections and processes; in READ
    -- COMMITTED each query below then sees every append committed before this one.
    SELECT count(*) FILTER (WHERE status = 'running') INTO running
    FROM (SELECT status FROM games WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE) locked;
    IF running <> cardinality(ids) THEN
        RAISE EXCEPTION 'ledger: game not running';
    END IF;
    IF EXISTS (
        SELECT 1 FROM appended a
        WHERE NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = a.game_id AND s.player = a.player)
    ) THEN
        RAISE EXCEPTION 'ledger: a player without a seat';
    END IF;
    -- Per game: the new numbers are a run without holes (the primary key makes them distinct)
    -- that starts right after the numbers stored before it.
    IF EXISTS (
        SELECT 1 FROM (
            SELECT game_id, min(seq) AS first, max(seq) AS last, count(*) AS added
            FROM appended GROUP BY game_id
        ) a
        WHERE a.added <> a.last - a.first + 1
           OR a.first <> 1 + coalesce(
                  (SELECT max(seq) FROM actions x WHERE x.game_id = a.game_id AND x.seq < a.first),
                  -1)
    ) THEN
        RAISE EXCEPTION 'ledger: sequence gap or taken';
    END IF;
    UPDATE games SET updated_at = t.touched
    FROM unnest(ids, touched) AS t (id, touched)
    WHERE games.id = t.id;
    RETURN NULL;
END $$;
CREATE TRIGGER actions_appended AFTER INSERT ON actions
    REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT EXECUTE FUNCTION actions_appended();

-- Each append batch updates its games' rows (`updated_at`): room on their pages lets PostgreSQL
-- write the new versions beside the old (a HOT update) instead of into every index of `games`.
ALTER TABLE games SET (fillfactor = 80);

-- What the dropped foreign key also kept: a seat that has actions stays (a lobby's seats, which
-- have none yet, are still replaced freely; `data/records.py`).
CREATE FUNCTION seats_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM actions WHERE game_id = OLD.game_id AND player = OLD.player) THEN
        RAISE EXCEPTION 'ledger: the seat of player % of game % has actions', OLD.player,
            OLD.game_id;
    END IF;
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER seats_kept BEFORE DELETE OR UPDATE OF game_id, player ON seats
    FOR EACH ROW EXECUTE FUNCTION seats_kept();

-- As SQLite's 0008: a member's stats read only one index of their results (an index-only scan
-- once VACUUM has marked the pages all-visible, which autovacuum does).
DROP INDEX results_user;
DROP INDEX results_user_game;
CREATE INDEX results_member ON results (user_id, game_id) INCLUDE (winner, score, rank)
    WHERE user_id IS NOT NULL;
