"""The banker's API: log in and out, and the commands that change the game (the keypad's, as JSON)."""

from __future__ import annotations

import time

from flask import Blueprint, Response, jsonify, request, session

from words import text

from .auth import RateLimit, begin_session, logged_in, public, try_again_in
from .backend import Backend
from .errors import NoPin, TooManyAttempts, WrongPin, status_of
from .parsers.command import parse_command
from .parsers.login import parse_login


def blueprint(backend: Backend) -> Blueprint:
    banker = Blueprint("banker", __name__)
    limiter = RateLimit()

    @banker.post("/api/login")
    @public
    def api_login() -> Response:
        who = request.remote_addr or "?"
        now = time.monotonic()
        if not limiter.begin(who, now):
            raise TooManyAttempts(try_again_in(limiter.wait(who, now)))
        login = parse_login()
        verdict = backend.check_pin(login.pin)
        if verdict is None:
            raise NoPin(text("phone.login.no_pin"))
        if not verdict:
            raise WrongPin(text("phone.login.wrong_pin"))
        limiter.succeeded(who, now)
        csrf = begin_session(backend.session_epoch())
        # Only the banker's phone may date the reports (the backend checks the value and the Pi's clock).
        clock = backend.phone_clock(login.now)
        return jsonify({"ok": True, "csrf": csrf, "clock": clock})

    @banker.post("/api/logout")
    def api_logout() -> Response:
        session.clear()
        backend.end_sessions()  # the cookie just cleared may have been copied: it ends everywhere
        return jsonify({"ok": True})

    @banker.get("/api/session")
    @public
    def api_session() -> Response:
        banker = logged_in(backend.session_epoch())
        return jsonify({"banker": banker, "csrf": session.get("csrf") if banker else None})

    @banker.post("/api/commands")
    def api_commands() -> tuple[Response, int]:
        result = backend.submit(parse_command())
        ok = {"ok": True, **({"duplicate": True} if result.get("duplicate") else {})}  # a repeat told apart (issue 31)
        return jsonify(ok if result.get("ok") else result), status_of(result)

    return banker
