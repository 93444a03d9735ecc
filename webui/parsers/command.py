"""``POST /api/commands``: a JSON object. The rules parse and check the command itself: a malformed one is
their ``bad_command``, answered 400 (the same words as at the keypad, from one parser)."""

from __future__ import annotations

from typing import Any

from .body import parse_body


def parse_command() -> dict[str, Any]:
    return parse_body()
