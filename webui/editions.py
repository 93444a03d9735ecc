"""A family's own edition on /admin (issue 26): a copy of any edition as a form, the board square by square in
board order with the group colours, every name, the currency, the building words and the money; the checks of
``bankleser edition check`` beside each field; saved into the state directory's ``editions/``; download and upload.

Banker-only (the deny-by-default hook: no route here is public). The web reads and writes through the backend's
shelf (``Backend.editions()``); the checks are the rules' own.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from rules import DEEDS, GROUP_NAMES, SQUARES, Kind
from words import say

from .backend import Backend
from .errors import answer
from .parsers.edition import parse_edition

GROUP_COLOURS = {"brown": "#8b4513", "lightblue": "#9fd3f0", "pink": "#d6338c", "orange": "#f7941d",
                 "red": "#e03131", "yellow": "#fcd116", "green": "#2b8a3e", "darkblue": "#1c4fa0",
                 "station": "#222222", "utility": "#868e96"}
"""The colour bar of each group, as the deed stickers print it."""


def board_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The 40 squares in board order, each with its name and, where it has one, its deed's values."""
    rows = []
    for square in SQUARES:
        sq, deed = square.square, DEEDS.get(square.square)
        rows.append({"square": sq, "name": data["names"][sq], "kind": square.kind.value,
                     "group": deed.group if deed else None,
                     "colour": GROUP_COLOURS.get(deed.group or "") if deed else None,
                     "group_name": say(GROUP_NAMES[deed.group]) if deed and deed.group in GROUP_NAMES else "",
                     "deed": data["deeds"].get(sq), "street": deed is not None and deed.kind is Kind.STREET,
                     "tax": data["taxes"].get(sq)})
    return rows


def blueprint(backend: Backend) -> Blueprint:
    editions = Blueprint("editions", __name__)

    @editions.errorhandler(401)
    def not_the_banker(err: HTTPException) -> tuple[Response, int]:
        """Every banker route answers a phone without the session alike (tests/test_web_auth.py): the pages
        here too, whose links are on the banker's admin page."""
        return answer(401, "http", err.description or "Nur der Bankhalter")

    @editions.get("/admin/ausgaben")
    def editions_page() -> str:
        shelf = backend.editions()
        return render_template("editions.html", sim=backend.simulation is not None, overview=shelf.overview(),
                               form=None)

    @editions.get("/admin/ausgaben/neu")
    def edition_form() -> str:
        """The form, filled from the edition ``von`` (a copy to change), or from a family edition to edit."""
        shelf = backend.editions()
        source = request.args.get("von", "classic")
        data = shelf.data(source)
        if data is None:
            abort(404, "Diese Ausgabe gibt es nicht")
        family = not any(e["key"] == source and not e["family"] for e in shelf.overview()["editions"])
        form = {**data, "base": data.get("base") if family else source,
                "key": source if family else f"{source}-familie",
                "title": data["title"] if family else f"{data['title']} (Familie)"}
        return render_template("editions.html", sim=backend.simulation is not None, overview=None, form=form,
                               rows=board_rows(data))

    @editions.get("/admin/ausgaben/datei")
    def edition_download() -> Response:
        """The edition ``von`` as its file (a family's as saved, a shipped one whole); a query, not a path, like the
        form's: every route of the web is walked by tests/test_web_auth.py with the arguments it knows."""
        key = request.args.get("von", "classic")
        text = backend.editions().text(key)
        if text is None:
            abort(404, "Diese Ausgabe gibt es nicht")
        return Response(text, mimetype="application/toml",
                        headers={"Content-Disposition": f'attachment; filename="{key}.toml"'})

    @editions.post("/api/admin/editions/check")
    def api_check() -> Response:
        _, answer = backend.editions().check(parse_edition())
        return jsonify(answer)

    @editions.post("/api/admin/editions")
    def api_save() -> tuple[Response, int]:
        answer = backend.editions().save(parse_edition())
        return jsonify(answer), 200 if answer["ok"] else 422

    return editions
