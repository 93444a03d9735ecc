"""Whether the Pi's clock is synchronised: three answers, asked without a system call the unit forbids.

systemd-timesyncd.service(8): "/run/systemd/timesync/synchronized — A file that is touched on each
successful synchronization, to assist systemd-time-wait-sync and other applications to detecting
synchronization with accurate reference clocks." Its folder is the unit's RuntimeDirectory=: there while
timesyncd runs.
"""

from __future__ import annotations

import errno
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from seccomp_filter import preexec_failing

from daemon_fixture import PIN
from device.daemon.config import Config
from device.daemon.notify import Notifier
from device.daemon.service import Daemon
from device.store import clocks

ROOT = Path(__file__).resolve().parent.parent


def test_a_clock_timesyncd_marked_synchronised_is_synchronised(tmp_path: Path) -> None:
    (tmp_path / "synchronized").touch()
    assert clocks.system_clock_synced(tmp_path) is True


def test_timesyncd_running_without_its_mark_means_not_synchronised(tmp_path: Path) -> None:
    assert clocks.system_clock_synced(tmp_path) is False


def test_without_timesyncd_the_clock_is_unknown(tmp_path: Path) -> None:
    """Another NTP client, or none: nobody here vouches for the clock."""
    assert clocks.system_clock_synced(tmp_path / "absent") is None


def test_cannot_tell_is_never_synchronised_under_protect_clock(tmp_path: Path) -> None:
    """ProtectClock=yes alone makes the @clock calls fail with EPERM: the old check answered
    "synchronised" on a clock nobody had set. Run in a child with exactly that filter."""
    code = ("import sys; from pathlib import Path; from device.store import clocks; "
            "clocks.TIMESYNC = Path(sys.argv[1]); print(clocks.system_clock_synced())")
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path / "no-timesyncd")], capture_output=True,
                            text=True, cwd=ROOT, preexec_fn=preexec_failing(["@clock"], errno.EPERM), timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "None"


def test_a_boot_of_unknown_clock_is_said_so_and_the_phone_may_date_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown clock is treated like an unsynchronised one: the reports say it may be wrong, and the
    banker's phone dates the boot."""
    monkeypatch.setattr(clocks, "TIMESYNC", tmp_path / "no-timesyncd")
    d = Daemon(Config(banker_pin=PIN), tmp_path / "state", sim=True, host="127.0.0.1", port=0,
               notifier=Notifier(""))
    d.start()
    loop = threading.Thread(target=d.run, daemon=True)
    loop.start()
    try:
        client = d.app.test_client()
        said = client.post("/api/login", json={"pin": PIN}).get_json()["clock"]
        assert said == clocks.SOURCES["pi_unchecked"] and "unbekannt" in said
        dated = client.post("/api/login", json={"pin": PIN, "now": 1_900_000_000_000}).get_json()["clock"]
        assert dated.startswith("Handy-Uhr des Bankhalters")
    finally:
        d.stop()
        loop.join(5)
        d.close()


def test_the_segments_name_each_answer() -> None:
    for synced, source in ((True, "pi"), (False, "pi_unsynced"), (None, "pi_unchecked")):
        (segment,) = clocks.started([], 1, synced=synced)
        assert segment.source == source and segment.description == clocks.SOURCES[source]
