-- Version 4: ratings on a scale people read: 1500 for a newcomer, 20 points per unit of the
-- openskill ordinal (mu - 3 sigma), whole numbers (data/ratings.py `display`). The stored
-- `rating` is the leaderboard's key, so every stored value moves to the new scale; mu and sigma,
-- from which it is derived, do not change.
UPDATE ratings SET rating = ROUND(1500 + 20 * (mu - 3 * sigma));

-- A champion's rating was kept as the old display (the ordinal rounded to 0.1).
UPDATE season_champions SET rating = ROUND(1500 + 20 * rating);
