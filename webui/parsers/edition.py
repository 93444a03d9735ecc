"""The edition form's requests: the whole form as data (written as a file here) or an uploaded file's text."""

from __future__ import annotations

from rules.editions import to_toml
from words import text

from ..errors import Malformed
from .body import parse_body


def parse_edition() -> str:
    """The edition's file text: ``{"text": …}`` (an upload) or ``{"data": …}`` (the form, key by key)."""
    body = parse_body()
    if isinstance(body.get("text"), str):
        return str(body["text"])
    if isinstance(body.get("data"), dict):
        try:
            return to_toml(body["data"])
        except (TypeError, ValueError, AttributeError) as err:
            raise Malformed(text("phone.edition.unreadable", error=err)) from None
    raise Malformed(text("phone.edition.expected"))
