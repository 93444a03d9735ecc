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

from flask import Flask, Response, render_template, request
from werkzeug.exceptions import HTTPException

import words
from rules.colours import GROUP_COLOURS

from . import admin, banker, booking, editions, pages, sim
from .auth import SESSION_HOURS, guard
from .backend import Backend
from .errors import WebError, refusal
from .games import register as register_games
from .language import speaking_app

__all__ = ["SESSION_HOURS", "Backend", "create_app"]


def said(err: HTTPException) -> str:
    """What a refused page says: our words when the refusal came with them, else the catalogue's (werkzeug's own
    descriptions are English, whatever the page's language)."""
    if err.description and err.description != type(err).description:
        return err.description
    return words.text("pages.error.not_found") if err.code == 404 else words.text("pages.error.http", code=err.code)


def create_app(backend: Backend) -> Flask:
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=backend.secret_key(),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.jinja_env.globals["group_colours"] = GROUP_COLOURS  # a deed's edge (base.html), as its sticker prints it
    guard(app, backend.session_epoch)
    speaking_app(app)  # the templates' _() and each request's language

    @app.errorhandler(WebError)
    def refused(err: WebError) -> Response:
        return refusal(err.status, err.code, err.message)

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            return refusal(err.code or 500, "http", said(err))  # never werkzeug's English in a German answer
        if err.response is not None or err.code is None:
            return err  # a page of its own (the games being read), or no error at all
        return render_template("fehler.html", code=err.code, description=said(err)), err.code

    @app.errorhandler(Exception)
    def crash(err: Exception) -> Response:
        app.logger.exception("request failed")
        return refusal(500, "internal", words.text("pages.error.internal"))

    app.register_blueprint(pages.blueprint(backend))
    register_games(app, backend.history, backend.simulation is not None)
    app.register_blueprint(banker.blueprint(backend))
    app.register_blueprint(admin.blueprint(backend))
    app.register_blueprint(editions.blueprint(backend))
    app.register_blueprint(booking.blueprint(backend))  # a form for every booking
    if backend.simulation is not None:
        app.register_blueprint(sim.blueprint(backend.simulation))
    return app
