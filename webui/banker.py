"""The banker's API: log in and out, and the commands that change the game (the keypad's, as JSON)."""

from __future__ import annotations

import time

from flask import Blueprint, Response, request, session

from words import text

from .auth import RateLimit, begin_session, logged_in, public, try_again_in
from .backend import Backend
from .errors import NoPin, TooManyAttempts, WrongPin, json_response
from .parsers.command import parse_command
from .parsers.login import parse_login, parse_new_pin
from .protocol import Session, done, new_session, repeat, signed_in


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
        if login.code is not None:  # the OLED's one-time code: this phone becomes the banker and sets the PIN
            if not backend.use_begin_code(login.code):
                raise WrongPin(text("phone.login.wrong_code"))
        else:
            verdict = backend.check_pin(login.pin)
            if verdict is None:
                raise NoPin(text("phone.login.no_pin"))
            if not verdict:
                raise WrongPin(text("phone.login.wrong_pin"))
        limiter.succeeded(who, now)
        csrf = begin_session(backend.session_epoch(), pin_first=login.code is not None)
        # Only the banker's phone may date the reports (the backend checks the value and the Pi's clock).
        clock = backend.phone_clock(login.now)
        return json_response(signed_in(csrf, clock, set_pin=login.code is not None))

    @banker.post("/api/pin")
    def api_pin() -> Response:
        """The first PIN, from the phone the OLED's code logged in (4 to 8 digits, the keypad's rule; bad_pin 422;
        pin_set 409 when one exists: that is changed at the device). Setting it ends every session, as at the
        device, so this phone gets a new one and goes on as the banker."""
        answer = backend.set_first_pin(parse_new_pin())
        if not answer["ok"]:
            return json_response(answer)
        return json_response(new_session(begin_session(backend.session_epoch())))

    @banker.post("/api/logout")
    def api_logout() -> Response:
        session.clear()
        backend.end_sessions()  # the cookie just cleared may have been copied: it ends everywhere
        return json_response(done())

    @banker.get("/api/session")
    @public
    def api_session() -> Response:
        banker = logged_in(backend.session_epoch())
        csrf = session.get("csrf") if banker else None
        return json_response(Session(banker=banker, csrf=csrf if isinstance(csrf, str) else None,
                                     pin_first=bool(banker and session.get("pin_first"))))

    @banker.post("/api/commands")
    def api_commands() -> Response:
        """The keypad's answer: ok, a repeat told apart (the phone retries a command whose answer it lost), or the
        refusal; the booking's text and balances are the forms' (``/api/banker/book``)."""
        result = backend.submit(parse_command())
        if not result["ok"]:
            return json_response(result)
        return json_response(repeat() if result.get("duplicate") else done())

    return banker
