"""What loading and checking the editions costs at start-up, in CPU time of this process.

Run: ``.venv/bin/python -m bench.bench_editions``. Measures the five shipped files read and checked (what
``import rules`` does once), one family file read and checked by the rules, and the state directory's
``editions/`` folder with ``FAMILY`` files loaded as the service loads it before READY (the rules' checks and the
OLED's pixel measure of every name). The Pi estimate multiplies by ``bench_pi.PI_FACTOR`` (14), as bench_pi does.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.bench_pi import PI_FACTOR
from device.store.editions import load
from rules import EDITIONS
from rules.editions import edition_data, read_edition, to_toml
from rules.editions.shipped import load_shipped

RUNS = 20
FAMILY = 5


def cpu_ms(fn: Callable[[], object], runs: int = RUNS) -> float:
    """The median CPU time of one call, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return sorted(times)[len(times) // 2] * 1000


def main() -> None:
    family = to_toml({**edition_data(EDITIONS["skylanders"]), "key": "familie", "base": "skylanders"})
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "editions"
        folder.mkdir()
        for i in range(FAMILY):
            (folder / f"f{i}.toml").write_text(family.replace('"familie"', f'"familie-{i}"'), encoding="utf-8")
        load(Path(tmp))  # the font and the layout module, once (the service has them loaded by then)
        rows = [("the 5 shipped editions (import rules)", cpu_ms(load_shipped)),
                ("one family file, rules' checks", cpu_ms(lambda: read_edition(family, EDITIONS))),
                (f"editions/ with {FAMILY} files, as the service loads it", cpu_ms(lambda: load(Path(tmp)), 10)),
                ("editions/ empty", cpu_ms(lambda: load(Path(tmp) / "none")))]
    for name, ms in rows:
        print(f"{name:<50} {ms:7.1f} ms CPU   (Pi ≈ {ms * PI_FACTOR / 1000:.2f} s)")


if __name__ == "__main__":
    main()
