"""The watchdog is fed only while everything makes progress (issue 11, item 14)."""

from __future__ import annotations

import time

from device.daemon import WEB_STALL, Daemon


def test_nothing_is_stuck_on_a_healthy_appliance(daemon: Daemon) -> None:
    assert daemon.stuck(time.monotonic()) == []


def test_a_web_server_whose_loop_stopped_turning_stops_the_pings(daemon: Daemon) -> None:
    assert daemon.stuck(time.monotonic() + WEB_STALL + 5) == ["Webserver"]


def test_a_driver_hung_in_one_operation_stops_the_pings(daemon: Daemon) -> None:
    assert daemon.hardware is not None
    reader = daemon.hardware.reader
    with reader.working():  # as if the reader's thread entered a transfer that never returns
        assert "Leser" in daemon.stuck(time.monotonic() + reader.stall_after + 1)
    assert daemon.stuck(time.monotonic()) == []
