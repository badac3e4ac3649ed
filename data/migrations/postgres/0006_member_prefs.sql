-- Version 6 (PostgreSQL): as SQLite's 0006.
CREATE TABLE member_prefs (
    user_id BIGINT PRIMARY KEY,
    hand_delivery TEXT NOT NULL DEFAULT 'ephemeral' CHECK (hand_delivery IN ('ephemeral', 'dm')),
    lang TEXT,
    dm_failed INTEGER NOT NULL DEFAULT 0 CHECK (dm_failed IN (0, 1)),
    updated_at TEXT NOT NULL
);
