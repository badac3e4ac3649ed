"""The site in a real headless Chromium (Debian's `chromium` and `chromium-driver`, driven by
selenium): open a leaderboard, follow a player, step through a replay to its end with the
keyboard, and compare the final scores with `python -m rules replay` of the same log; then the
same replay in Japanese from the page's language link, stepped on in Japanese.

Skipped with a reason where there is no Chromium (or no selenium); under CI=true they must run
(`.ci/run` installs the packages). Screenshots go to $WEB_SCREENSHOTS, else the test's tmp dir.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_seed import ON, seed

from data.backends import open_ledger
from web.bench import serving

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def _why_not() -> str | None:
    if CHROMIUM is None or DRIVER is None:
        return "no Chromium here (Debian: apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install selenium)"
    return None


REASON = _why_not()
if REASON is not None and os.environ.get("CI") == "true":
    raise RuntimeError(f"the browser tests must run under CI: {REASON}")
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


async def _seeded(url: str) -> dict[str, Any]:
    ledger = await open_ledger(url)
    try:
        community = await seed(ledger)
        names = {}
        async for record in ledger.iter_games(game_id=community.kamiza[0]):
            names = {s.player: s.display_name for s in record.seats}
        return {
            "game": community.kamiza[0],
            "log": community.logs[community.kamiza[0]],
            "names": names,
        }
    finally:
        await ledger.close()


@pytest.fixture
def site(tmp_path) -> Iterator[tuple[str, dict[str, Any]]]:
    """`python -m web` over a seeded ledger, in its own process: its base URL and the facts."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    facts = asyncio.run(_seeded(url))
    with serving(url, cwd=str(tmp_path)) as served:
        yield served.url, facts


@pytest.fixture
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=412,915"):
        options.add_argument(flag)  # a phone's width
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def test_a_visitor_follows_a_player_and_steps_a_replay_to_its_end(site, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    base, facts = site
    shots = Path(os.environ.get("WEB_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)

    browser.get(f"{base}/s/{ON}/leaderboard/kamiza")
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("KAMIZA")
    browser.save_screenshot(str(shots / "leaderboard.png"))
    first = browser.find_element(By.CSS_SELECTOR, "tbody a")
    name = first.text
    first.click()
    WebDriverWait(browser, 10).until(lambda b: "/players/" in b.current_url)
    assert browser.find_element(By.TAG_NAME, "h1").text == name
    assert browser.find_elements(By.CSS_SELECTOR, "svg.chart polyline")
    browser.save_screenshot(str(shots / "player.png"))

    browser.get(f"{base}/s/{ON}/games/{facts['game']}")
    steps = len(facts["log"]["actions"])
    for step in range(1, steps + 1):
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        WebDriverWait(browser, 10).until(
            lambda b, s=step: (
                f"Step {s} of {steps}" in b.find_element(By.ID, "replay").text
                or f"Step {s} of {steps}" in b.page_source
            )
        )
        if step == 1:
            browser.save_screenshot(str(shots / "replay-first-step.png"))
    browser.save_screenshot(str(shots / "replay-end.png"))
    shown = {}
    for item in browser.find_elements(By.CSS_SELECTOR, "#result li"):
        who, _, score = item.text.replace("🏆", "").strip().rpartition(": ")
        shown[who] = int(score)

    log_file = tmp_path / "game.json"
    log_file.write_text(json.dumps(facts["log"]))
    done = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(log_file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    scores = json.loads(done.stdout)["scores"]
    assert shown == {facts["names"][p]: s for p, s in scores.items()}

    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    WebDriverWait(browser, 10).until(lambda b: "The opening" in b.page_source)

    browser.find_element(By.CSS_SELECTOR, "header a.lang").click()  # 日本語
    WebDriverWait(browser, 10).until(lambda b: "lang=ja" in b.current_url)
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja"
    assert browser.find_element(By.CSS_SELECTOR, "#step h3").text == "開始"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    WebDriverWait(browser, 10).until(lambda b: f"手順 1 / {steps}" in b.page_source)
    assert "lang=ja" in browser.current_url and "Step 1" not in browser.page_source
    browser.save_screenshot(str(shots / "replay-ja.png"))
