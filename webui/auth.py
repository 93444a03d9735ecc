"""Who may do what: phones read, only the banker changes. Deny by default.

A ``before_request`` hook (:func:`guard`) refuses every route that is not marked :func:`public`:
without a banker's session it is a 401, and a state change (any method but GET and HEAD) also needs
the session's CSRF token (403). A new route is the banker's until someone marks it public on purpose;
no view checks a login itself. (The shape of TinyPilot's ``enforce_auth``; tests/test_web_auth.py
walks every route of the URL map.)
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, abort, current_app, request, session

import words

from .errors import PinFirst

LOGIN_ATTEMPTS, LOGIN_WINDOW = 5, 300.0
"""Five wrong PINs per address within five minutes, then a pause."""
SESSION_HOURS = 12
"""A login lasts a game night, not weeks."""
SAFE_METHODS = frozenset({"GET", "HEAD"})
"""Methods that read: a banker's session suffices. Every other method changes state and needs the CSRF token."""
OPEN_ENDPOINTS = frozenset({"static"})
"""Flask's own view for the page's CSS and script (a bound method that carries no mark)."""
PUBLIC_MARK = "bankleser_public"

View = TypeVar("View", bound=Callable[..., Any])


def public(view: View) -> View:
    """Mark a view as open to every phone (reading, logging in, the virtual device of the simulation)."""
    setattr(view, PUBLIC_MARK, True)
    return view


def is_public(endpoint: str) -> bool:
    return endpoint in OPEN_ENDPOINTS or bool(getattr(current_app.view_functions[endpoint], PUBLIC_MARK, False))


class RateLimit:
    """Attempts are counted when they start, not when they fail: 30 PINs sent at once get 5 tries, not 30."""

    def __init__(self) -> None:
        self._attempts: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def begin(self, who: str, now: float) -> bool:
        """Reserve one attempt; False when the address has used up its tries in the window."""
        with self._lock:
            q = self._attempts[who]
            while q and now - q[0] > LOGIN_WINDOW:
                q.popleft()
            if len(q) >= LOGIN_ATTEMPTS:
                return False
            q.append(now)
            return True

    def wait(self, who: str, now: float) -> float:
        """Seconds until the address may try again (its oldest attempt leaves the window)."""
        with self._lock:
            q = self._attempts[who]
            return max(0.0, q[0] + LOGIN_WINDOW - now) if len(q) >= LOGIN_ATTEMPTS else 0.0

    def succeeded(self, who: str, now: float) -> None:
        """A right PIN gives its attempt back."""
        with self._lock:
            q = self._attempts[who]
            if now in q:
                q.remove(now)


def try_again_in(seconds: float) -> str:
    """The pause after too many wrong PINs, said with its length ("in ein paar Minuten" said none)."""
    if seconds < 60:
        return words.plural("pages.login.too_many_seconds", max(1, round(seconds)))
    return words.plural("pages.login.too_many_minutes", -(-int(seconds) // 60))


def logged_in(epoch: int) -> bool:
    """A session counts while it is younger than a game night and no logout or PIN change came after it
    (``epoch``: the device's count of those)."""
    if not session.get("banker"):
        return False
    at = session.get("at")
    fresh = isinstance(at, (int, float)) and 0 <= time.time() - at < SESSION_HOURS * 3600
    return fresh and session.get("epoch") == epoch


PIN_FIRST_ENDPOINTS = frozenset({"banker.api_pin", "banker.api_logout"})
"""All a session from the OLED's one-time code may do before it sets the PIN: so no game begins without one."""


def begin_session(epoch: int, *, pin_first: bool = False) -> str:
    """A new banker's session; returns its CSRF token. ``pin_first``: it came from the OLED's one-time code and
    may only set the PIN (or log out) until it has."""
    session.clear()
    if pin_first:
        session["pin_first"] = True
    session["banker"] = True
    session["at"] = time.time()
    session["epoch"] = epoch
    session["csrf"] = secrets.token_urlsafe(32)
    return str(session["csrf"])


def guard(app: Flask, epoch: Callable[[], int]) -> None:
    """Install the deny-by-default hook on ``app``; ``epoch()`` is the device's session epoch."""

    @app.before_request
    def deny_by_default() -> None:
        endpoint = request.endpoint
        if endpoint is None or is_public(endpoint):
            return  # no route: routing answers 404 or 405 as it would
        rule = request.url_rule
        if request.method == "OPTIONS" and getattr(rule, "provide_automatic_options", False):
            return  # Flask answers with the allowed methods; no view runs
        if not logged_in(epoch()):
            abort(401, words.text("pages.auth.banker_only"))
        if session.get("pin_first") and endpoint not in PIN_FIRST_ENDPOINTS:
            raise PinFirst(words.text("phone.login.pin_first"))
        if request.method not in SAFE_METHODS:
            token = request.headers.get("X-CSRF-Token", "").encode("utf-8", "surrogateescape")
            if not hmac.compare_digest(token, str(session.get("csrf", "")).encode()):
                abort(403, words.text("pages.auth.csrf"))
