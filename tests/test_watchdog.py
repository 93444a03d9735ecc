"""The watchdog is fed only while everything makes progress (item 14)."""

from __future__ import annotations

import time
from pathlib import Path

import words
from device.daemon.service import WEB_STALL, Daemon


def test_nothing_is_stuck_on_a_healthy_appliance(daemon: Daemon) -> None:
    assert daemon.stuck(time.monotonic()) == []


def test_a_web_server_whose_loop_stopped_turning_stops_the_pings(daemon: Daemon) -> None:
    assert daemon.hardware is not None
    reader = daemon.hardware.reader
    deadline = time.monotonic() + 5
    while not getattr(reader, "ok", True) and time.monotonic() < deadline:
        time.sleep(0.01)  # the reader's first poll resets the chip (50 ms): a turn in progress, not a hang
    # Judged 35 s ahead, a poll in progress (0.2 ms of every 35) would look hung too: one of three looks is clear.
    looks = []
    for _ in range(3):
        looks.append(daemon.stuck(time.monotonic() + WEB_STALL + 5))
        time.sleep(0.003)
    assert ["web"] in looks, looks


def test_a_driver_hung_in_one_operation_stops_the_pings(daemon: Daemon) -> None:
    assert daemon.hardware is not None
    reader = daemon.hardware.reader
    with reader.working():  # as if the reader's thread entered a transfer that never returns
        assert "reader" in daemon.stuck(time.monotonic() + reader.stall_after + 1)
    assert daemon.stuck(time.monotonic()) == []


def test_a_journal_that_could_not_open_is_tried_again_and_booking_resumes(tmp_path: Path) -> None:
    """After a start on a full or missing card, booking stayed refused until a restart."""
    from device.daemon.config import Config
    from device.daemon.notify import Notifier

    blocker = tmp_path / "card"
    blocker.write_text("not a folder")  # the state folder cannot be made: the card is not there
    d = Daemon(Config(banker_pin="4711"), blocker / "state", sim=True, host="127.0.0.1", port=0,
               notifier=Notifier(""))
    d.start()
    try:
        assert d.journal is None and d.fault is not None and "Speicher" in d.fault
        with words.speaking("en"):  # a phone reading its page in English reads it in English
            assert d.fault is not None and "Speicher" not in d.fault and "storage" in d.fault.lower()
        assert d.retry_journal_at is not None
        blocker.unlink()
        blocker.mkdir()  # the card is back
        d._open_journal()
        assert d.fault is None and d.ledger is not None and d.banker is not None
        outcome = d.ledger.submit({"op": "new_game", "edition": "classic", "mode": "standard",
                                   "players": ["Anna", "Ben"]})
        assert outcome.ok
    finally:
        d.stop()
        d.close()
