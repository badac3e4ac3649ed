-- Version 8: a member's stats read only one index of their results. `member_stats` counts,
-- sums and ranks a member's results per game and season: with the columns it reads in the index
-- (after user_id and game_id, which version 1's and 7's indexes had alone, and which this one
-- replaces), the results' rows themselves are never visited.
-- (PostgreSQL's version 8 also checks a batch of appends once per statement; SQLite's triggers
-- stay as they are: one writer in the same process, a row trigger costs microseconds.)
DROP INDEX results_user;
DROP INDEX results_user_game;
CREATE INDEX results_member ON results (user_id, game_id, winner, score, rank)
    WHERE user_id IS NOT NULL;
