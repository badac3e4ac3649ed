-- Version 5: the end of a game. A rematch is a new game linked to the one it follows; a
-- finished game keeps why it was not rated (decided with the results, data/standings.py), so
-- the standings say it without deciding again; a server chooses how long a finished game's
-- thread stays open before it is archived (NULL: the bot's default).
ALTER TABLE games ADD COLUMN rematch_of INTEGER;  -- the games.id of the game it follows
ALTER TABLE games ADD COLUMN unrated_reason TEXT;
ALTER TABLE guild_settings ADD COLUMN archive_seconds INTEGER;
