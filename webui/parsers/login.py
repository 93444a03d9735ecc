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


def parse_login() -> Login:
    data = parse_body()
    pin = data.get("pin")
    if not isinstance(pin, str):
        raise Malformed(text("phone.request.missing", field="pin"))
    return Login(pin, data.get("now"))
