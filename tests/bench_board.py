"""Time the Rights of Losers field picture: `python tests/bench_board.py [--runs N]`.

Prints milliseconds per 800x800 PNG for a 5-player board after 8 tricks (the first render,
which builds fonts and tiles, is timed apart). A figure to read, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.losers.board_image import render_field
from tests.bot.test_losers_board import played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs
    game = played(5, players=5, tricks=8)
    seen = game.observation(None)
    points = seen.points_now()
    began = time.perf_counter()
    render_field(seen, points)
    first = time.perf_counter() - began
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        render_field(seen, points)
        times.append(time.perf_counter() - began)
    print(f"first picture: {first * 1000:.1f} ms (fonts and tiles made once)")
    print(
        f"per picture over {runs}: median {statistics.median(times) * 1000:.1f} ms, "
        f"max {max(times) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
