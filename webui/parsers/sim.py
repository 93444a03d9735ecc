"""The virtual device's requests: a key pressed, a card tapped."""

from __future__ import annotations

from collections.abc import Collection

from words import text

from ..errors import BadKey, BadUid, Malformed
from .body import parse_body
from .cards import UID


def parse_key(known: Collection[str]) -> str:
    """``POST /api/sim/key``: one of the reader's own inputs (``known``)."""
    key = parse_body().get("key")
    if not isinstance(key, str) or key not in known:
        raise BadKey(text("phone.sim.key", key=repr(key)))
    return key


def parse_tap() -> str:
    """``POST /api/sim/tap``: the tapped card's UID, of a form a card could send (as the simulated reader reads
    it: upper or lower case, spaces around), or refused in the catalogue's words (the driver's are a program's)."""
    uid = parse_body().get("uid")
    if not isinstance(uid, str):
        raise Malformed(text("phone.request.missing", field="uid"))
    if UID.fullmatch(uid.strip().lower()) is None:
        raise BadUid(text("phone.uid.bad", uid=repr(uid)))
    return uid
