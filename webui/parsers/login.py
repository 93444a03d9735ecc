"""``POST /api/login``: the banker's PIN, and the phone's clock."""

from __future__ import annotations

from typing import NamedTuple

from words import text

from ..errors import Malformed
from .body import parse_body


class Login(NamedTuple):
    pin: str
    now: object
    """The phone's ``Date.now()`` as sent: the backend checks it (it may date this boot's entries)."""
    code: str | None = None
    """The OLED's one-time code, sent instead of a PIN while none is set."""


def parse_login() -> Login:
    data = parse_body()
    pin, code = data.get("pin"), data.get("code")
    if isinstance(code, str) and pin is None:
        return Login("", data.get("now"), code)
    if not isinstance(pin, str):
        raise Malformed(text("phone.request.missing", field="pin"))
    return Login(pin, data.get("now"))


def parse_new_pin() -> str:
    """``POST /api/pin``: the PIN the banker chose on the phone."""
    pin = parse_body().get("pin")
    if not isinstance(pin, str):
        raise Malformed(text("phone.request.missing", field="pin"))
    return pin
