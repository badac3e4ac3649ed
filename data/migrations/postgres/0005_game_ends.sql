-- Version 5 (PostgreSQL): as SQLite's 0005.
ALTER TABLE games ADD COLUMN rematch_of BIGINT;
ALTER TABLE games ADD COLUMN unrated_reason TEXT;
ALTER TABLE guild_settings ADD COLUMN archive_seconds INTEGER;
