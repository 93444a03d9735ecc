"""Benchmark: replaying a 10,000-command journal through the rules (target: under 0.5 s).

Run: ``.venv/bin/python -m bench.bench_replay``. Prints commands per second and the replay
time (median of 5), JSON parsing included, as `bankleser replay` does it.
"""

from __future__ import annotations

import statistics
import time

from bench.journal import journal
from device.store.replay import replay_lines


def main() -> None:
    lines = journal(10_000)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        results = list(replay_lines(lines))
        times.append(time.perf_counter() - t0)
        assert all(r.get("ok", True) for r in results[:-1]), "the journal must replay cleanly"
    median = statistics.median(times)
    print(f"replay of {len(lines)} commands: median {median * 1000:.0f} ms "
          f"({len(lines) / median:,.0f} commands/s), best {min(times) * 1000:.0f} ms; target < 500 ms")


if __name__ == "__main__":
    main()
