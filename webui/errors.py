"""The web's refusals as types, each with its HTTP status and code, answered in one place (:func:`answer`).

A request parser raises one of these; the app's error handler turns it into the JSON every API
answer shares: ``{"ok": false, "code": ..., "message": ...}``. The device's own refusals come
back as results, and :func:`status_of` maps their codes the same way.
"""

from __future__ import annotations

from typing import Any, ClassVar

from flask import Response, jsonify


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


REFUSAL_STATUS = {"bad_command": 400, "storage_error": 503, "changed": 409, "pin_set": 409}
"""Device refusals that are not the rules saying no (422): a malformed request, a card that cannot be written, a
confirmation the state changed under (409: the answer brings the new preview to confirm), a PIN from the phone
when one is set already (409: it is changed at the device, not over the Wi-Fi)."""


def answer(status: int, code: str, message: str) -> tuple[Response, int]:
    return jsonify({"ok": False, "code": code, "message": message}), status


def status_of(result: dict[str, Any]) -> int:
    """The HTTP status of a device's answer: 200, or what its refusal code means."""
    return 200 if result.get("ok") else REFUSAL_STATUS.get(str(result.get("code")), 422)
