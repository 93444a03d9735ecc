"""The banker's administration: the appliance's self-check, its language, and the cards (list, rename, register)."""

from __future__ import annotations

from flask import Blueprint, Response, request

import words

from .backend import Backend
from .errors import BadLanguage, json_response
from .parsers.cards import parse_register, parse_rename


def blueprint(backend: Backend) -> Blueprint:
    admin = Blueprint("admin", __name__)

    @admin.get("/api/admin/doctor")
    def api_doctor() -> Response:
        return json_response(backend.doctor())

    @admin.get("/api/admin/cards")
    def api_cards() -> Response:
        """Every registered card with its UID (the public state names numbers, not UIDs)."""
        return json_response(backend.cards())

    @admin.post("/api/cards/<uid>/name")
    def api_rename(uid: str) -> Response:
        result = backend.rename_card(uid, parse_rename())
        return json_response(result)

    @admin.post("/api/admin/language")
    def api_language() -> Response:
        """The banker's choice of the appliance's language: at once on the OLED and on every page
        that follows the appliance's language."""
        body = request.get_json(silent=True)
        code = body.get("language") if isinstance(body, dict) else None
        if not isinstance(code, str) or code not in words.LANGUAGES:
            raise BadLanguage(words.text("pages.admin.bad_language", code=code if isinstance(code, str) else ""))
        result = backend.choose_language(code)
        return json_response(result)

    @admin.post("/api/cards")
    def api_register() -> Response:
        card = parse_register()
        result = backend.register_card(card.uid, card.kind, card.square, card.name)
        return json_response(result)

    return admin
