"""The banker's booking API: the routes the phone's forms call (none of it public: reading needs the login,
booking the CSRF token too, by the deny-by-default guard of :mod:`webui.auth`).

What the forms hold, what a person typed as a command and the rules' preview are reckoned by the device, on its
loop (``Backend.legal``, ``Backend.preview``, ``Backend.last_booking``): the web carries the answers.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from .backend import Backend
from .errors import status_of
from .parsers.body import parse_body
from .parsers.command import parse_command


def blueprint(backend: Backend) -> Blueprint:
    """The banker's booking API (none of it public: reading needs the login, booking the CSRF token too)."""
    bp = Blueprint("booking", __name__)

    @bp.get("/api/banker/legal")
    def legal() -> Response:
        return jsonify(backend.legal(request.args.get("player") or None))

    @bp.get("/api/banker/undo")
    def undo() -> Response:
        return jsonify(backend.last_booking())

    @bp.post("/api/banker/preview")
    def preview() -> tuple[Response, int]:
        result = backend.preview(parse_body())
        return jsonify(result), status_of(result)

    @bp.post("/api/banker/book")
    def book() -> tuple[Response, int]:
        """The rules' answer with what the page shows beside the button: a repeat, the text, the balances."""
        result = backend.submit(parse_command())
        return jsonify(result), status_of(result)

    return bp
