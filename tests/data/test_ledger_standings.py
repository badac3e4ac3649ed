"""Finishing games: results and ratings in one transaction; leaderboards, seasons, bots, stats."""

from __future__ import annotations

import sqlite3

import pytest
from ledger_helpers import expected_ranks, new_game, play, tied_seed

from data import ratings
from data.backends import open_ledger
from data.db import parse_url
from data.errors import GameNotOver, GameNotRunning, InvalidLog, LedgerError

# -- ratings -------------------------------------------------------------------------------------


def test_competition_ranks_share_places():
    assert ratings.competition_ranks([["a"], ["b", "c"], ["d"]]) == {"a": 1, "b": 2, "c": 2, "d": 4}


def test_plackett_luce_ties_and_order():
    new = ratings.rate([ratings.Rating()] * 4, [1, 2, 2, 4])
    assert new[0].ordinal > new[1].ordinal == new[2].ordinal > new[3].ordinal
    assert ratings.Rating().display == 1500.0


# -- finishing -----------------------------------------------------------------------------------


async def test_finish_writes_results_and_ratings(ledger):
    game_id, state, _ = await play(ledger, seed=21)
    record = await ledger.get_game(game_id)
    assert record.status == "finished" and record.rated and record.ended_at is not None
    ranks = expected_ranks(state)
    assert {r.player: (r.score, r.rank, r.winner) for r in record.results} == {
        p: (state.scores()[p], ranks[p], p in state.winners()) for p in state.players
    }
    assert [r.rank for r in record.results] == sorted(r.rank for r in record.results)
    for row in record.results:
        assert row.rating_before == 1500.0 and row.mu_before == ratings.MU
        assert row.rating_after == ratings.display(row.mu_after, row.sigma_after)
    best = record.results[0]
    assert best.rating_after > 1500
    assert await ledger.finish_game(game_id) == record.results  # a retry returns the same rows


async def test_finish_is_one_transaction(sqlite_ledger, ledger_url):
    ledger = sqlite_ledger
    game_id, _, _ = await play(ledger, seed=22, finish=False)
    conn = sqlite3.connect(parse_url(ledger_url).path, isolation_level=None)
    conn.execute(
        "CREATE TRIGGER boom BEFORE INSERT ON ratings BEGIN SELECT RAISE(ABORT, 'boom'); END"
    )
    with pytest.raises(sqlite3.IntegrityError, match="boom"):
        await ledger.finish_game(game_id)
    record = await ledger.get_game(game_id)
    assert record.status == "running" and record.results == []
    conn.execute("DROP TRIGGER boom")
    conn.close()
    assert len(await ledger.finish_game(game_id)) == 4


async def test_finish_needs_a_game_that_is_over(ledger):
    game_id, _, log = await play(ledger, actions=5)
    with pytest.raises(GameNotOver):
        await ledger.finish_game(game_id)
    with pytest.raises(GameNotRunning):
        await ledger.finish_game(await new_game(ledger))
    bad = {**log["actions"][5], "card": "nonsense"}
    await ledger.append_action(game_id, 5, bad)  # the ledger stores; the rules judge
    with pytest.raises(InvalidLog, match="action 5"):
        await ledger.finish_game(game_id)


async def test_tied_players_share_rank_and_rating(ledger):
    seed = tied_seed(3)
    game_id, state, _ = await play(ledger, (201, 202, 203), seed=seed)
    tied = next(group for group in state.ranking() if len(group) > 1)
    rows = {r.player: r for r in await ledger.finish_game(game_id)}
    assert len({rows[p].rank for p in tied}) == 1
    assert len({rows[p].rating_after for p in tied}) == 1
    board = await ledger.leaderboard(1, "kamiza")
    by_user = {row.user_id: row for row in board.rows}
    assert len({by_user[int(p)].rank for p in tied}) == 1
    ranks = [row.rank for row in board.rows]
    assert ranks == [1 + sum(o.rating > row.rating for o in board.rows) for row in board.rows]


# -- leaderboards --------------------------------------------------------------------------------


async def test_leaderboard_order_paging_and_totals(ledger):
    users = [301, 302, 303, 304, 305, 306]
    played = []
    for seed in range(8):
        table = [users[(seed + k) % 6] for k in range(3 + seed % 2)]
        game_id, _, _ = await play(ledger, table, seed=seed)
        played.append(await ledger.get_game(game_id))
    board = await ledger.leaderboard(1, "kamiza", page_size=100)
    assert board.total == 6 and board.pages == 1
    assert [r.rating for r in board.rows] == sorted((r.rating for r in board.rows), reverse=True)
    for row in board.rows:
        mine = [r for g in played for r in g.results if r.user_id == row.user_id]
        assert row.games == len(mine)
        assert row.wins == sum(r.winner for r in mine)
        assert row.points == sum(r.score for r in mine)
        assert row.win_rate == pytest.approx(row.wins / row.games)
        assert row.rating == mine[-1].rating_after
        assert row.rank == 1 + sum(o.rating > row.rating for o in board.rows)
    pages = [await ledger.leaderboard(1, "kamiza", page=p, page_size=4) for p in range(3)]
    assert [p.pages for p in pages] == [2, 2, 2]
    assert [r for p in pages for r in p.rows] == board.rows
    assert pages[2].rows == []
    with pytest.raises(ValueError):
        await ledger.leaderboard(1, "kamiza", page_size=0)


async def test_leaderboard_of_an_unknown_guild_or_foreign_season(ledger):
    board = await ledger.leaderboard(77, "kamiza")
    assert (board.season_id, board.total, board.rows) == (None, 0, [])
    await play(ledger, guild=1)
    season = await ledger.current_season(1)
    await ledger.current_season(2)
    with pytest.raises(LedgerError):
        await ledger.leaderboard(2, "kamiza", season.id)


async def test_bot_seats_are_never_rated_and_make_a_game_unrated(ledger):
    game_id, _, _ = await play(ledger, (401, 402), bots=1, seed=3)
    record = await ledger.get_game(game_id)
    assert not record.rated
    assert all(r.rating_after is None for r in record.results)
    bot = next(r for r in record.results if r.is_bot)
    assert bot.user_id is None and bot.player == "bot-1"
    assert (await ledger.leaderboard(1, "kamiza")).total == 0
    stats = await ledger.member_stats(1, 401)
    assert [(s.games, s.rating, s.position) for s in stats] == [(1, None, None)]


async def test_guild_setting_rates_humans_among_themselves(ledger):
    await ledger.update_guild_settings(1, rate_bot_games=True)
    game_id, _, _ = await play(ledger, (411, 412), bots=2, seed=4)
    record = await ledger.get_game(game_id)
    assert record.rated
    humans = [r for r in record.results if not r.is_bot]
    assert all(r.rating_after is not None for r in humans)
    assert all(r.rating_after is None for r in record.results if r.is_bot)
    board = await ledger.leaderboard(1, "kamiza")
    assert sorted(r.user_id for r in board.rows) == [411, 412]
    better, worse = sorted(humans, key=lambda r: r.rank)
    if better.rank < worse.rank:
        assert better.rating_after > worse.rating_after
    one_human, _, _ = await play(ledger, (413,), bots=2, seed=5)
    assert not (await ledger.get_game(one_human)).rated


# -- seasons -------------------------------------------------------------------------------------


async def test_new_season_archives_the_old_standings(ledger):
    for seed in range(3):
        await play(ledger, (501, 502, 503), seed=seed)
    first = await ledger.current_season(1)
    old_board = await ledger.leaderboard(1, "kamiza")
    late, _, _ = await play(ledger, (501, 502, 503), seed=9, finish=False)

    second = await ledger.new_season(1, "Spring")
    assert (second.number, second.name, second.current) == (2, "Spring", True)
    assert (await ledger.current_season(1)).id == second.id
    assert (await ledger.leaderboard(1, "kamiza")).total == 0
    await ledger.finish_game(late)  # started in season 1, finished in season 2: counts in 2
    await play(ledger, (501, 504, 505), seed=10)

    assert await ledger.leaderboard(1, "kamiza", first.id) == old_board
    assert (await ledger.leaderboard(1, "kamiza")).total == 5
    listed = await ledger.seasons(1)
    assert [s.number for s in listed] == [2, 1]
    archived = listed[1]
    assert archived.ended_at is not None and not archived.current
    top = [r for r in old_board.rows if r.rank == 1]
    assert [(c.game, c.user_id, c.rating) for c in archived.champions] == [
        ("kamiza", r.user_id, r.rating) for r in sorted(top, key=lambda r: r.user_id)
    ]
    assert listed[0].champions == []
    third = await ledger.new_season(1)
    assert third.name == "Season 3"
    with pytest.raises(ValueError):
        await ledger.new_season(1, "")


async def test_member_stats_across_games_and_seasons(ledger):
    rows = []
    for seed in range(3):
        game_id, _, _ = await play(ledger, (601, 602, 603), seed=seed)
        rows += [r for r in (await ledger.get_game(game_id)).results if r.user_id == 601]
    await ledger.new_season(1)
    await play(ledger, (601, 604), bots=1, seed=4)  # unrated
    await play(ledger, (605, 606, 607), seed=5)  # without 601
    await play(ledger, (601, 602, 603), seed=6, guild=2)  # another guild
    stats = await ledger.member_stats(1, 601)
    assert [(s.season_number, s.games) for s in stats] == [(2, 1), (1, 3)]
    old = stats[1]
    assert old.wins == sum(r.winner for r in rows)
    assert old.points == sum(r.score for r in rows)
    assert old.best_rank == min(r.rank for r in rows)
    assert old.rating == rows[-1].rating_after and old.position is not None
    assert stats[0].rating is None
    assert await ledger.member_stats(1, 999) == []


def test_ratings_read_like_chess_ratings_and_never_go_negative():
    """1500 for a newcomer, whole numbers, 20 points per unit of the ordinal; the worst first
    game (last of six) leaves a rating well above zero."""
    assert ratings.display(ratings.MU, ratings.SIGMA) == 1500.0
    assert ratings.display(ratings.MU + 1, ratings.SIGMA) == 1520.0
    last = ratings.rate([ratings.Rating()] * 6, [1, 2, 3, 4, 5, 6])[-1]
    assert 1000 < last.display < 1500 and last.display == int(last.display)
    assert ratings.display(0.0, ratings.SIGMA) == 1000.0  # the floor: mu 0, sigma as at first


async def test_a_version_3_ledger_moves_ratings_and_champions_to_the_new_scale(tmp_path):
    from test_ledger_editions import ledger_at_version

    path = tmp_path / "old.sqlite3"
    conn = ledger_at_version(path, 3)
    conn.execute(
        "INSERT INTO seasons (id, guild_id, number, name, started_at) "
        "VALUES (1, 5, 1, 'Season 1', '2025-01-01T00:00:00+00:00')"
    )
    mu, sigma = 27.5, 7.0  # ordinal 6.5: the old display 6.5, the new 1500 + 130
    conn.execute(
        "INSERT INTO ratings (season_id, game, user_id, display_name, mu, sigma, rating, games,"
        " wins, points, best_rank, updated_at) VALUES (1, 'kamiza', 9, 'A', ?, ?, 6.5, 1, 1, 3,"
        " 1, '2025-01-01T00:00:00+00:00')",
        (mu, sigma),
    )
    conn.execute("INSERT INTO season_champions VALUES (1, 'kamiza', 9, 'A', 6.5)")
    conn.commit()
    conn.close()
    ledger = await open_ledger(f"sqlite:///{path}")
    await ledger.close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT rating FROM ratings").fetchall() == [(1630.0,)]
    assert conn.execute("SELECT rating FROM season_champions").fetchall() == [(1630.0,)]
    assert ratings.display(mu, sigma) == 1630.0
    conn.close()


async def test_ranks_on_every_page_count_everyone_rated_higher_ties_across_pages_too(ledger):
    season = await ledger.current_season(7)
    # 23 members, ratings in runs of ties, one run straddling the pages of 5 (rows 4 to 7).
    values = [
        1700.0,
        1650.0,
        1650.0,
        1600.0,
        1550.0,
        1550.0,
        1550.0,
        1550.0,
        *range(1500, 1485, -1),
    ]
    async with ledger._db.write() as conn:
        await conn.executemany(
            "INSERT INTO ratings (season_id, game, user_id, display_name, mu, sigma, rating,"
            " games, wins, points, best_rank, updated_at) VALUES (?, 'kamiza', ?, ?, 25.0, 8.0,"
            " ?, 2, ?, 3, 1, '2025-01-01T00:00:00+00:00')",
            [(season.id, 1000 + i, f"m{i}", float(v), i % 2) for i, v in enumerate(values)],
        )
    seen = []
    for page in range(5):
        board = await ledger.leaderboard(7, "kamiza", page=page, page_size=5)
        seen += [(row.rating, row.rank) for row in board.rows]
    assert [rating for rating, _ in seen] == sorted(map(float, values), reverse=True)
    assert [rank for _, rank in seen] == [1 + sum(v > r for v in values) for r, _ in seen]
