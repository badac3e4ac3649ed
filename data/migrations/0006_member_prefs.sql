-- Version 6: a member's own choices, the same in every server. How their private hand reaches
-- them: 'ephemeral' (a private menu in the table's thread, the default) or 'dm' (by direct
-- message); the language of those DMs (their Discord client's when they chose); and whether a
-- DM failed (closed DMs) and they are still to be told, in the thread, at their next click.
CREATE TABLE member_prefs (
    user_id INTEGER PRIMARY KEY,
    hand_delivery TEXT NOT NULL DEFAULT 'ephemeral' CHECK (hand_delivery IN ('ephemeral', 'dm')),
    lang TEXT,
    dm_failed INTEGER NOT NULL DEFAULT 0 CHECK (dm_failed IN (0, 1)),
    updated_at TEXT NOT NULL
);
