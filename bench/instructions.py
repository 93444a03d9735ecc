"""Instructions the start executes, to the first frame and to READY: a count that does not depend on
the load of a shared machine, for comparing one change with the next.

Run: ``.venv/bin/python -m bench.instructions`` (needs Debian's ``valgrind``). The project is installed
as the Pi installs it (:func:`bench.bench_pi.installed`), and ``bankleser run --sim`` with the service's
config file runs under callgrind until the daemon tells systemd "Startet…" or READY; there the process
ends, and callgrind's total (``Collected``, the process and its children) is the count.

The timed figures stay ``bench.bench_pi``'s: an instruction count says nothing about caches and the
SD card, but it moves only when the code does.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path

from bench.bench_pi import installed

STOP_AT = """
import os, sys
stop = sys.argv.pop(1)
from device.daemon import notify

def status(self, text):
    if stop == "first" and text.startswith("Startet"):
        os._exit(0)

def ready(self, text=""):
    os._exit(0)

notify.Notifier.status = status
notify.Notifier.ready = ready
from device.daemon.cli import main
sys.exit(main(sys.argv[1:]))
"""
"""The entry point with the notifier cut short: ``bankleser run`` as the unit starts it, ended at the
message (the real notifier would send it to systemd; nothing after it is counted)."""


def count(python: str, script: Path, stop: str, state: Path) -> int:
    config = Path(__file__).resolve().parent.parent / "systemd" / "config.toml"
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--trace-children=yes", f"--callgrind-out-file={out}/cg.%p",
             python, str(script), stop, "run", "--sim", "--config", str(config), "--state-dir", str(state),
             "--port", "0"],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=False)
    totals = [int(n) for n in re.findall(r"Collected : (\d+)", done.stderr)]
    if not totals:
        raise SystemExit(f"callgrind counted nothing:\n{done.stderr[-2000:]}")
    return sum(totals)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        python, _ = installed(Path(tmp) / "installed")
        script = Path(tmp) / "stop_at.py"
        script.write_text(STOP_AT, encoding="utf-8")
        for stop, what in (("first", 'the first frame ("Startet…")'), ("ready", "READY")):
            with tempfile.TemporaryDirectory() as state:  # not beside the install: nothing to see there
                n = count(python, script, stop, Path(state))
            print(f"instructions to {what}, empty journal: {n / 1e6:,.1f} M")


if __name__ == "__main__":
    main()
