"""Small promises of the README that an attack or a long life showed broken."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from device.daemon.config import default_host


def test_sim_mode_listens_only_on_this_machine_even_on_a_pi() -> None:
    """README: "sim mode listens on 127.0.0.1 unless told otherwise" — the sim keypad needs no login."""
    assert default_host(sim=True, on_pi=True) == "127.0.0.1"
    assert default_host(sim=True, on_pi=False) == "127.0.0.1"
    assert default_host(sim=False, on_pi=True) == "0.0.0.0"


def test_a_test_run_leaves_no_lgwd_folder_behind(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "LG_WD"}
    env["TMPDIR"] = str(tmp_path)
    root = Path(__file__).parent.parent
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_money.py"],
                          cwd=root, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("bankleser-lgwd-")] == []


def test_a_killed_runs_folder_is_removed_by_the_next_run(tmp_path: Path) -> None:
    """A run killed by a signal runs no atexit (five such folders were found after a day of work): the next run
    removes the folder of a process that is gone, and keeps one whose process still runs."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / f"bankleser-lgwd-{dead.pid}-abcd1234"
    stale.mkdir()
    alive = tmp_path / f"bankleser-lgwd-{os.getpid()}-efgh5678"
    alive.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "LG_WD"}
    env["TMPDIR"] = str(tmp_path)
    root = Path(__file__).parent.parent
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_money.py"],
                          cwd=root, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not stale.exists() and alive.exists()


def test_a_pin_written_without_quotes_is_the_same_pin(tmp_path: Path) -> None:
    """`pin = 4711` unquoted made every login a 500 and locked the banker out."""
    import pytest

    from device.daemon.config import Config

    cfg = tmp_path / "config.toml"
    cfg.write_text("[banker]\npin = 4711\n", encoding="utf-8")
    assert Config.load(cfg).banker_pin == "4711"
    cfg.write_text("[banker]\npin = 12\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="4 bis 8 Ziffern"):
        Config.load(cfg)
