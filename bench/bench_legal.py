"""Benchmark: what a menu costs, ``rules.legal.legal_ops`` for every player of a game well under way.

Run: ``.venv/bin/python -m bench.bench_legal``. Prints the median time of one player's menu (all rows of
``rules.ops.LEGAL_ROWS`` asked of the rules, each square where a row has squares) over 6 players × 20 rounds. The
OLED's menu asks it once per card tapped; a Pi Zero 2 W is about 14 times slower (README, measurements).
"""

from __future__ import annotations

import json
import statistics
import time

from bench.journal import journal
from rules import Game
from rules.legal import legal_ops


def main() -> None:
    game = Game()
    for line in journal(2_000):
        game.apply(json.loads(line))
    assert game.state is not None
    times = []
    for _ in range(20):
        for name in game.state.players:
            t0 = time.perf_counter()
            legal_ops(game, name)
            times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    print(f"legal_ops for one player ({len(times)} menus): median {median * 1000:.1f} ms, "
          f"at a Pi core's pace ~{median * 14 * 1000:.0f} ms")


if __name__ == "__main__":
    main()
