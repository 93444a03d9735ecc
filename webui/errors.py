"""The web's refusals as types, each with its HTTP status and code, and the one JSON response (:func:`json_response`).

A request parser raises one of these; the app's error handler turns it into the JSON every API
answer shares (:func:`webui.protocol.refused`). The device's own refusals come back as answers, and
:func:`status_of` maps their codes to HTTP statuses the same way, for every route (the shape of TinyPilot's
``json_response``: one function makes every JSON response, so no route sends an answer its status contradicts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from flask import Response, jsonify

from .protocol import refused


class WebError(Exception):
    """A request the web refuses before it reaches the device."""

    status: ClassVar[int] = 400
    code: ClassVar[str] = "http"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Malformed(WebError):
    """No JSON object, a missing field, text that is no text: the request itself is wrong (400)."""


class BadName(WebError):
    status, code = 422, "bad_name"


class BadUid(WebError):
    status, code = 422, "bad_uid"


class BadSquare(WebError):
    status, code = 422, "bad_square"


class BadKey(WebError):
    status, code = 422, "bad_key"


class BadLanguage(WebError):
    status, code = 422, "bad_language"


class WrongPin(WebError):
    status, code = 401, "wrong_pin"


class NoPin(WebError):
    """No banker PIN set yet: the admin stays closed until the banker sets one at the device."""

    status, code = 409, "no_pin"


class PinFirst(WebError):
    """Logged in with the one-time code: nothing but setting the PIN (or logging out) until there is one."""

    status, code = 403, "pin_first"


class TooManyAttempts(WebError):
    status, code = 429, "too_many_attempts"


REFUSAL_STATUS = {"bad_command": 400, "storage_error": 503, "changed": 409, "pin_set": 409, "exists": 409,
                  "no_file": 404}
"""Device refusals that are not the rules saying no (422): a malformed request, a card that cannot be written, a
confirmation the state changed under (409: the answer brings the new preview to confirm), a PIN from the phone
when one is set already (409: it is changed at the device, not over the Wi-Fi), an edition file that would replace
another (409: the answer asks whether to), an edition file that is not there (404)."""

Body = Mapping[str, object] | Sequence[Mapping[str, object]]
"""What a JSON route sends: an answer (:mod:`webui.protocol`) or a list of records (the cards, the self-check)."""


def status_of(body: Body) -> int:
    """The HTTP status of an answer: 200 for a success or a read, else what its refusal code means."""
    if not isinstance(body, Mapping) or body.get("ok", True):
        return 200
    return REFUSAL_STATUS.get(str(body.get("code")), 422)


def json_response(body: Body, status: int | None = None) -> Response:
    """Every JSON answer of the web: ``status`` where the request decides it (a refusal raised as a
    :class:`WebError`, an HTTP error), else derived from the answer by :func:`status_of`."""
    response = jsonify(body)
    response.status_code = status_of(body) if status is None else status
    return response


def refusal(status: int, code: str, message: str) -> Response:
    """A refusal the web itself makes (a :class:`WebError`, an HTTP error), with its own status."""
    return json_response(refused(code, message), status)
