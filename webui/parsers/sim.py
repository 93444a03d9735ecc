"""The virtual device's requests: a key pressed, a card tapped."""

from __future__ import annotations

from collections.abc import Collection

from words import text

from ..errors import BadKey, Malformed
from .body import parse_body


def parse_key(known: Collection[str]) -> str:
    """``POST /api/sim/key``: one of the reader's own inputs (``known``)."""
    key = parse_body().get("key")
    if not isinstance(key, str) or key not in known:
        raise BadKey(text("phone.sim.key", key=repr(key)))
    return key


def parse_tap() -> str:
    """``POST /api/sim/tap``: the tapped card's UID (the reader twin checks it as a reader would)."""
    uid = parse_body().get("uid")
    if not isinstance(uid, str):
        raise Malformed(text("phone.request.missing", field="uid"))
    return uid
