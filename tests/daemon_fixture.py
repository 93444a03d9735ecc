"""A whole daemon in this process: simulated hardware, a real journal, the loop in a thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from device.daemon.config import Config
from device.daemon.notify import Notifier
from device.daemon.service import Daemon
from device.store.ledger import Ledger

PIN = "4711"


@contextmanager
def running(config: Config, state: Path, *, sim: bool = True) -> Iterator[Daemon]:
    """A daemon of ``config`` on ``state``, its loop in a thread, stopped and closed after (a failed test's too);
    ``sim=False``: the parts as the config says, as on a Pi."""
    d = Daemon(config, state, sim=sim, host="127.0.0.1", port=0, notifier=Notifier(""))
    d.start()
    loop = threading.Thread(target=d.run, daemon=True)
    loop.start()
    try:
        yield d
    finally:
        d.stop()
        loop.join(5)
        d.close()


def web_client(daemon: Daemon) -> FlaskClient:
    """A test client of ``daemon``'s pages. ``Daemon.app`` is typed ``Any`` (the device loads Flask only when it
    serves); the assert says the pages were started, and types the client."""
    app = daemon.app
    assert isinstance(app, Flask), "the daemon serves no pages"
    return app.test_client()


def ledger_of(daemon: Daemon) -> Ledger:
    """``daemon``'s ledger: ``Daemon.ledger`` is ``None`` until it starts, and the fixture's daemon has started."""
    ledger = daemon.ledger
    assert ledger is not None, "the daemon has not started"
    return ledger


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Daemon]:
    with running(Config(banker_pin=PIN), tmp_path / "state") as d:
        yield d
