"""The Flask app: the status page every phone opens, the banker's admin, the virtual device.

It never touches drivers: it reads snapshots and submits the same commands as the keypad,
through the backend the daemon hands it (:mod:`webui.backend`). Its parts are blueprints:
:mod:`~webui.pages` (what every phone reads), :mod:`~webui.banker` (login and commands),
:mod:`~webui.admin` (the self-check and the cards), :mod:`~webui.sim` (the virtual device) and
:mod:`~webui.games` (the pages after the game). Every route is the banker's unless marked public
(:mod:`webui.auth`); each request is read by its parser (:mod:`webui.parsers`), and every refusal
maps to its HTTP code in one place (:mod:`webui.errors`): bad input is a 400 or 422, never a 500.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from rules import EDITIONS, Mode, from_json, winners
from rules.game import HOUSE_RULE_NAMES, mode_title

from . import admin, banker, booking, pages, sim
from .auth import SESSION_HOURS, guard
from .backend import Backend
from .errors import WebError, answer
from .games import register as register_games

__all__ = ["SESSION_HOURS", "Backend", "create_app", "public_state"]


def public_state(snap: dict[str, Any]) -> dict[str, Any]:
    """The contract's state object plus ``log``, ``remaining`` (timed: seconds left when published)
    and what the page needs."""
    state = snap["state"]
    out: dict[str, Any] = dict(state) if state is not None else {"players": [], "ranking": []}
    out["log"] = snap["log"][:30]
    if state is not None:  # the rules' own names: the page keeps no list of its own
        out["mode_title"] = mode_title(EDITIONS[state["edition"]], Mode(state["mode"]),
                                       speed_die=bool(state.get("speed_die")))
        out["house_rule_titles"] = [HOUSE_RULE_NAMES.get(r, r) for r in state.get("house_rules", [])]
    # A shared win names everyone as rich as the winner (the contract's ``winner`` is only the first).
    out["winners"] = winners(from_json(state)) if state is not None and state.get("finished") else []
    if state is not None and state.get("mode") == "timed":
        out["remaining"] = snap["remaining"]
    out["cards"] = {c["name"]: c["number"] for c in snap.get("cards", []) if c["kind"] == "player"}
    out["version"] = snap["version"]
    out["session_epoch"] = snap.get("session_epoch", 0)  # a logout anywhere: every banker's page asks again
    out["problem"] = snap["problem"]
    out["parts"] = snap.get("parts", [])
    return out


def create_app(backend: Backend) -> Flask:
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=backend.secret_key(),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=64 * 1024,
        JSON_SORT_KEYS=False,
    )
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    guard(app, backend.session_epoch)

    @app.errorhandler(WebError)
    def refused(err: WebError) -> tuple[Response, int]:
        return answer(err.status, err.code, err.message)

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            return answer(err.code or 500, "http", err.description or err.name)
        return err

    @app.errorhandler(Exception)
    def crash(err: Exception) -> tuple[Response, int]:
        app.logger.exception("request failed")
        return answer(500, "internal", "Interner Fehler")

    app.register_blueprint(pages.blueprint(backend))
    register_games(app, backend.history)
    app.register_blueprint(banker.blueprint(backend))
    app.register_blueprint(admin.blueprint(backend))
    app.register_blueprint(booking.blueprint(backend))  # issue 31: a form for every booking
    if backend.sim:
        app.register_blueprint(sim.blueprint(backend))
    return app
