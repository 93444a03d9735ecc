"""The banker's booking API: the routes the phone's forms call (none of it public: reading needs the login,
booking the CSRF token too, by the deny-by-default guard of :mod:`webui.auth`).

What the forms hold, what a person typed as a command and the rules' preview are reckoned by the device, on its
loop (``Backend.legal``, ``Backend.preview``, ``Backend.last_booking``): the web carries the answers.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from .backend import Backend
from .errors import json_response
from .parsers.body import parse_body
from .parsers.command import parse_command


def blueprint(backend: Backend) -> Blueprint:
    """The banker's booking API (none of it public: reading needs the login, booking the CSRF token too)."""
    bp = Blueprint("booking", __name__)

    @bp.get("/api/banker/legal")
    def legal() -> Response:
        return json_response(backend.legal(request.args.get("player") or None))

    @bp.get("/api/banker/undo")
    def undo() -> Response:
        return json_response(backend.last_booking())

    @bp.post("/api/banker/preview")
    def preview() -> Response:
        return json_response(backend.preview(parse_body()))

    @bp.post("/api/banker/book")
    def book() -> Response:
        """The rules' answer with what the page shows beside the button: a repeat, the text, the balances."""
        return json_response(backend.submit(parse_command()))

    return bp
