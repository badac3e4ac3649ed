-- Version 7: the web companion (web/). A server appears on it only once an admin turns it on
-- (`/settings web: on`, off by default); a member may hide themselves on every server's pages
-- (`/mysettings web: hidden`), the same in every server like their other choices.
ALTER TABLE guild_settings ADD COLUMN web INTEGER NOT NULL DEFAULT 0 CHECK (web IN (0, 1));
ALTER TABLE member_prefs ADD COLUMN web TEXT NOT NULL DEFAULT 'shown'
    CHECK (web IN ('shown', 'hidden'));
-- A player's games and rating history on the web: their results, newest first.
CREATE INDEX results_user_game ON results (user_id, game_id) WHERE user_id IS NOT NULL;
