"""The edition form's requests: the whole form as data (written as a file here), or an uploaded file's bytes
(base64: the server reads them as every file is read, whatever their encoding; a browser's own reading of a
Latin-1 file as UTF-8 would have lost its umlauts before they came here), and the banker's answers to a question."""

from __future__ import annotations

import base64
import binascii
from typing import Any

import msgspec

from rules.editions import to_toml
from words import language, text

from ..edition_form import read_numbers
from ..errors import Malformed
from .body import parse_body


class Sent(msgspec.Struct, frozen=True):
    """What the page sent: the file's bytes or the form's text, whether an existing edition may be replaced, and
    the key of the edition the form was opened with."""

    source: str | bytes
    replace: bool = False
    was: str | None = None
    form: dict[str, Any] | None = None
    """The form's data, its numbers read as the page's language writes them (a problem names its field)."""


def parse_edition() -> Sent:
    """``{"file": base64}`` (an upload), ``{"text": …}`` (a text) or ``{"data": …}`` (the form, key by key)."""
    body = parse_body()
    source: str | bytes
    form = None
    if isinstance(body.get("file"), str):
        try:
            source = base64.b64decode(body["file"], validate=True)
        except (binascii.Error, ValueError):
            raise Malformed(text("phone.edition.expected")) from None
    elif isinstance(body.get("text"), str):
        source = str(body["text"])
    elif isinstance(body.get("data"), dict):
        form = read_numbers(body["data"], language())
        try:
            source = to_toml(form)
        except (TypeError, ValueError, AttributeError) as err:
            raise Malformed(text("phone.edition.unreadable", error=err)) from None
    else:
        raise Malformed(text("phone.edition.expected"))
    was = body.get("was")
    return Sent(source, body.get("replace") is True, was if isinstance(was, str) else None, form)


def parse_file_name() -> str:
    """The ``file`` (or a previous version's ``name``) a delete or a bring-back names."""
    body = parse_body()
    name = body.get("file", body.get("name"))
    if not isinstance(name, str):
        raise Malformed(text("phone.edition.expected"))
    return name
