"""What the tests of the games kept and their pages share: a game begun and booked on a real ledger, and the
pages after the game as a test client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from device.store.history import History
from device.store.ledger import Ledger


def game(edition: str = "classic", mode: str = "standard", players: tuple[str, ...] = ("Anna", "Ben", "Cem"),
         **extra: Any) -> dict[str, Any]:
    """A ``new_game`` command, three players at the classic board unless told otherwise."""
    return {"op": "new_game", "edition": edition, "mode": mode, "players": list(players), **extra}


def book(ledger: Ledger, *commands: dict[str, Any]) -> None:
    """Book ``commands`` on the ledger, each of which the rules must accept."""
    for cmd in commands:
        outcome = ledger.submit(cmd)
        assert outcome.ok, (cmd, outcome)


def pages(history: History) -> Any:
    """The pages after the game over ``history``, as a test client."""
    from flask import Flask

    from webui.games import register
    from webui.language import speaking_app

    webui = Path(__file__).parent.parent / "webui"
    app = Flask("t", template_folder=str(webui / "templates"), static_folder=str(webui / "static"))
    speaking_app(app)  # the pages' words, as create_app installs them
    register(app, lambda: history)
    return app.test_client()
