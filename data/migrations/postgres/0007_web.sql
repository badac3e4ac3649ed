-- Version 7 (PostgreSQL): as SQLite's 0007.
ALTER TABLE guild_settings ADD COLUMN web INTEGER NOT NULL DEFAULT 0 CHECK (web IN (0, 1));
ALTER TABLE member_prefs ADD COLUMN web TEXT NOT NULL DEFAULT 'shown'
    CHECK (web IN ('shown', 'hidden'));
CREATE INDEX results_user_game ON results (user_id, game_id) WHERE user_id IS NOT NULL;
