"""SIGTERM stops the service even when it comes while the main thread holds the event queue's lock.

Python runs a signal handler between two bytecodes of the main thread. The loop spends its time in
``Queue.get``, which holds the queue's (non-reentrant) mutex while it looks at the queue; a handler that put a
wake-up into that queue waited for the mutex for ever. A CI run saw it: SIGTERM right after READY, and the process
was still there twenty minutes later (systemd would have killed it after TimeoutStopSec, with nothing saved at stop).
"""

from __future__ import annotations

import signal
import threading
import time

from device.daemon.service import Daemon, handle_signals


def test_the_signal_handler_takes_no_lock_the_loop_may_hold(daemon: Daemon) -> None:
    """The handler returns at once while the queue's mutex is held, as the loop holds it inside Queue.get."""
    handled = threading.Event()

    def signal_arrives() -> None:
        daemon.on_signal(signal.SIGTERM, None)
        handled.set()

    with daemon.events.mutex:  # where the main thread is when the signal interrupts it
        arrives = threading.Thread(target=signal_arrives, daemon=True)
        arrives.start()
        assert handled.wait(2), "the signal handler waits for the lock the interrupted loop holds"


def test_the_loop_stops_within_a_second_of_the_signal(daemon: Daemon) -> None:
    daemon.on_signal(signal.SIGTERM, None)
    deadline = time.monotonic() + 5
    while not daemon.stop_event.is_set() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert daemon.stop_event.is_set()


def test_a_sigterm_to_the_process_reaches_the_loop_through_the_flag(daemon: Daemon) -> None:
    """The handlers the service installs: a real SIGTERM to this process (the loop runs in a thread here) is
    handled in the main thread, sets only the flag, and the loop stops."""
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    try:
        handle_signals(daemon)
        with daemon.events.mutex:  # held, as the interrupted loop may hold it: the handler must not need it
            signal.raise_signal(signal.SIGTERM)
        assert daemon.signalled
        deadline = time.monotonic() + 5
        while not daemon.stop_event.is_set() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert daemon.stop_event.is_set()
    finally:
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGINT, before[1])
