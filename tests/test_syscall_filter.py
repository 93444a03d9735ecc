"""The daemon under its unit's own system-call filter, in every run.

The shipped unit never became ready: ``SystemCallFilter=@system-service`` and ``~@privileged``
forbid adjtimex, which the clock check called before READY, and systemd killed the process with
SIGSYS every 12 s. No test ran the service under its sandbox. Here the filter is taken from
``systemd/bankleser.service.in`` as systemd resolves it and loaded with libseccomp in the child
before exec, killing the process on any other call, as systemd does: READY, a game and a clean stop.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from notify_socket import NotifySocket
from seccomp_filter import as_the_units_user, preexec_for, unit_filter

from bench.liveserver import LiveServer

ROOT = Path(__file__).resolve().parent.parent
UNIT = (ROOT / "systemd" / "bankleser.service.in").read_text()


def test_the_filter_is_resolved_as_systemd_does() -> None:
    f = unit_filter(UNIT)
    assert f.allow_list
    assert {"read", "openat", "execve", "epoll_wait", "socket", "futex"} <= f.calls  # @system-service, @default
    assert not {"adjtimex", "clock_adjtime", "settimeofday"} & f.calls  # @clock: not in @system-service
    assert not {"setuid", "chroot", "setrlimit"} & f.calls  # ~@privileged @resources
    assert unit_filter("SystemCallFilter=~@clock\n") == unit_filter("SystemCallFilter=~@clock\n")
    deny = unit_filter("SystemCallFilter=~@clock @reboot\nSystemCallFilter=reboot\n")
    assert not deny.allow_list and "adjtimex" in deny.calls and "reboot" not in deny.calls


def test_a_forbidden_call_kills_the_process_as_systemd_would() -> None:
    """The filter can fail: the old clock check, alone, under it."""
    code = "import ctypes; ctypes.CDLL(None).adjtimex(ctypes.create_string_buffer(512)); print('alive')"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            preexec_fn=preexec_for(UNIT), timeout=60)
    assert result.returncode == -signal.SIGSYS and "alive" not in result.stdout


def test_the_daemon_runs_a_game_under_the_units_filter(tmp_path: Path) -> None:
    notify = NotifySocket(tmp_path / "notify.sock")
    log = tmp_path / "bankleser.log"
    server = LiveServer(tmp_path / "state", env={"NOTIFY_SOCKET": str(notify.path), "WATCHDOG_USEC": "2000000"},
                        preexec=as_the_units_user(UNIT), log=log)
    try:
        server.start(timeout=60)
        notify.until("READY=1", 30)
        server.login()
        for cmd in ({"op": "new_game", "edition": "classic", "mode": "timed", "minutes": 60, "players": ["Anna", "Ben"]},
                    {"op": "credit", "player": "Anna", "amount": 200},
                    {"op": "transfer", "from": "Anna", "to": "Ben", "amount": 50},
                    {"op": "undo"}, {"op": "end"}):
            status, body = server.post("/api/commands", cmd)
            assert status == 200, (cmd, body)
        assert any(m == "WATCHDOG=1" for m in notify.messages(2.5))
    except Exception as err:
        raise AssertionError(f"{err}\n{log.read_text(errors='replace')[-3000:]}") from err
    finally:
        code = server.stop() if server.proc is not None else None
    assert code == 0, log.read_text(errors="replace")[-3000:]
