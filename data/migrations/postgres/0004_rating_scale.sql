-- Version 4 (PostgreSQL): as SQLite's 0004 (ROUND on double precision rounds half away from
-- zero there too).
UPDATE ratings SET rating = ROUND(1500 + 20 * (mu - 3 * sigma));
UPDATE season_champions SET rating = ROUND(1500 + 20 * rating);
