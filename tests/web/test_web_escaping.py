"""User text (members' names, season names) is escaped on every page, in English and in
Japanese, and is data, not markup, in the API: names made to break out of HTML never reach a
page as tags (nor through the bot's words the replay tells its events in)."""

from __future__ import annotations

from openapi_check import api_get
from web_seed import ON, client_of, seed

NASTY = [
    (2001, "<script>alert(1)</script>"),
    (2002, '"><img src=x onerror=alert(1)>'),
    (2003, "'><svg onload=alert(1)>"),
    (2004, "Ann & {{ 7*7 }} </title>"),
]
SEASON = "<b>Season</b><script>alert(2)</script>"
RAW = [name for _, name in NASTY] + [SEASON]


async def test_names_are_escaped_on_every_page_and_plain_data_in_the_api(web_ledger):
    community = await seed(web_ledger, NASTY)
    await web_ledger.new_season(ON, SEASON)  # the season's name is user text too
    client = await client_of(web_ledger)
    try:
        server = f"/s/{ON}"
        pages = [server, f"{server}/leaderboard/kamiza?season=1", f"{server}/leaderboard/kamiza"]
        pages += [f"{server}/players/{uid}" for uid, _ in NASTY]
        for game_id in [*community.kamiza, *community.kobayakawa, *community.losers]:
            pages += [f"{server}/games/{game_id}", f"{server}/games/{game_id}?step=999"]
        seen = ""
        for path, lang in [(path, lang) for path in pages for lang in ("en", "ja")]:
            response = await client.get(path, headers={"Accept-Language": lang})
            text = await response.text()
            assert response.status == 200, path
            assert f'<html lang="{lang}">' in text, path
            for raw in RAW:
                assert raw not in text, (path, raw)
            assert "<script>alert" not in text and "<img src=x" not in text
            assert "<svg onload" not in text
            seen += text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in seen
        assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in seen
        assert "Ann &amp; {{ 7*7 }} &lt;/title&gt;" in seen  # not evaluated as a template
        assert "&lt;b&gt;Season&lt;/b&gt;" in seen

        api = f"/api/v1/servers/{ON}"
        paths = [api, f"{api}/leaderboards/kamiza?season=1"]
        paths += [f"{api}/players/{uid}" for uid, _ in NASTY]
        paths += [f"{api}/games/{game_id}" for game_id in community.kamiza]
        names: set[str] = set()
        for path in paths:
            status, body = await api_get(client, path)
            assert status == 200
            response = await client.get(path)
            assert response.content_type == "application/json"
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            names |= {v for v in _walk(body) if v in RAW}
        assert names == set(RAW)  # the names themselves, as data
    finally:
        await client.close()


def _walk(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _walk(v)]
    if isinstance(value, list):
        return [s for v in value for s in _walk(v)]
    return []
