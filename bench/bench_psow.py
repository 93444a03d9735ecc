"""What ``psow=0`` costs per durable commit: time and WAL bytes, with and without it.

Run: ``.venv/bin/python -m bench.bench_psow``. Appends the same commands to two fresh journals in
turns, one opened as the appliance opens it (``psow=0``: SQLite pads each commit to a sector
boundary by writing its last frame again) and one with SQLite's default (``psow=1``), and prints
the median and p99 of a commit and the WAL bytes each commit wrote. The padding costs bytes (at
most one more 4 KiB frame per commit) but no extra fdatasync.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path
from unittest import mock

import device.store.journal as journal_module
from device.store.journal import Journal

COMMANDS = 400


def pct(values: list[float], p: float) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * p))]


def main() -> None:
    plain = journal_module.uri
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        padded = Journal(Path(tmp) / "padded.sqlite3")
        with mock.patch.object(journal_module, "uri", lambda p, **q: plain(p, **q).replace("psow=0", "psow=1")):
            default = Journal(Path(tmp) / "default.sqlite3")
        times: dict[str, list[float]] = {"psow=0": [], "psow=1": []}
        journals = {"psow=0": padded, "psow=1": default}
        padded.append({"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]})
        default.append({"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]})
        wal0 = {k: Path(f"{j.path}-wal").stat().st_size for k, j in journals.items()}
        for i in range(COMMANDS):
            for key, journal in journals.items():
                t0 = time.perf_counter()
                journal.append({"op": "credit", "player": "Anna", "amount": 10, "id": f"c{i}"})
                times[key].append((time.perf_counter() - t0) * 1000)
        for key, journal in journals.items():
            grown = Path(f"{journal.path}-wal").stat().st_size - wal0[key]
            print(f"{key}: commit median {statistics.median(times[key]):.2f} ms, p99 {pct(times[key], 0.99):.2f} ms, "
                  f"WAL {grown / COMMANDS / 1024:.1f} KiB per commit ({COMMANDS} commits)")
            journal.close()


if __name__ == "__main__":
    main()
