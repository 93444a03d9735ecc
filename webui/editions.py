"""A family's own edition on /admin: a copy of any edition as a form, the board square by square in
board order with the group colours, every name, the currency, the building words and the money; the checks of
``bankleser edition check`` beside each field; saved into the state directory's ``editions/``; download and upload.

Banker-only (the deny-by-default hook: no route here is public). The web reads and writes through the backend's
shelf (``Backend.editions()``); the checks are the rules' own.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request
from werkzeug.exceptions import HTTPException

import words
from rules import DEEDS, SQUARES, Kind
from rules.colours import GROUP_COLOURS
from rules.editions.fileformat import DISPLAYED, MAX_DISPLAY_NAME
from rules.editions.reading import MAX_BYTES
from shapes.editions import EditionData, ToldAs

from .backend import Backend
from .edition_form import form_problem
from .errors import json_response, refusal
from .language import script_words
from .parsers.edition import Sent, parse_edition, parse_file_name

GROUP_WORDS = {"brown": "editions.group.brown", "lightblue": "editions.group.lightblue", "pink": "editions.group.pink",
               "orange": "editions.group.orange", "red": "editions.group.red", "yellow": "editions.group.yellow",
               "green": "editions.group.green", "darkblue": "editions.group.darkblue"}
"""The key of each colour group's name (the stations and utilities are named by the edition)."""


JS_KEYS = ("editions.page.note", "editions.page.saved_next_game", "editions.page.not_saved_form",
           "editions.page.choose_file", "editions.page.saved", "editions.page.not_saved_file",
           "editions.page.not_replaced", "editions.page.delete_ask", "editions.page.deleted", "editions.page.restored",
           "editions.problem.too_big")
"""The messages editions.js shows, rendered into the page in its language (the script fills their values)."""
MONEY = (("start_capital", "editions.page.start_capital"), ("salary", "editions.page.salary"),
         ("jail_fine", "editions.page.jail_fine"), ("max_entry", "editions.page.max_entry"))
BUILDINGS = (("house", "editions.page.house"), ("hotel", "editions.page.hotel"))
GENDERS = (("m", "editions.page.gender_m"), ("f", "editions.page.gender_f"), ("n", "editions.page.gender_n"))
"""The form's fields by the file's keys, each with the key of its label."""
PAGE = "editions"
"""The page's template, templates/editions.html (named without its suffix: the scan of tests/test_words.py reads
"editions.html" as a catalogue key)."""


def _group_name(group: str, data: EditionData) -> str:
    """A colour group by the language's word for its colour; the stations and utilities by the edition's own in
    the language in force (its file's words for that language, else the language's own: ``words.localised``)."""
    if group in ("station", "utility"):
        key = "stations" if group == "station" else "utilities"
        if data.get("language", "de") == words.language():
            return str(data["groups"][key])
        return str(data.get("words", {}).get(words.language(), {}).get(key) or words.text(f"noun.{key}"))
    return words.text(GROUP_WORDS[group])


def board_rows(data: EditionData) -> list[dict[str, object]]:
    """The 40 squares in board order, each with its name, its short name for the display where a booking names it
    (empty: the name is shown), and, where it has one, its deed's values."""
    rows = []
    short = data.get("short", {})
    for square in SQUARES:
        sq, deed = square.square, DEEDS.get(square.square)
        rows.append({"square": sq, "name": data["names"][sq], "kind": square.kind.value,
                     "displayed": sq in DISPLAYED, "short": short.get(sq, ""),
                     "group": deed.group if deed else None,
                     "colour": GROUP_COLOURS.get(deed.group or "") if deed else None,
                     "group_name": _group_name(deed.group, data) if deed and deed.group else "",
                     "deed": data["deeds"].get(sq), "street": deed is not None and deed.kind is Kind.STREET,
                     "tax": data["taxes"].get(sq)})
    return rows


def labels() -> dict[str, list[tuple[str, str]]]:
    """The form's labels in the page's language, by the file's keys."""
    return {name: [(key, words.text(said)) for key, said in fields]
            for name, fields in (("money", MONEY), ("buildings", BUILDINGS), ("genders", GENDERS))}


def blueprint(backend: Backend) -> Blueprint:
    editions = Blueprint("editions", __name__)

    @editions.errorhandler(401)
    def not_the_banker(err: HTTPException) -> Response:
        """Every banker route answers a phone without the session alike (tests/test_web_auth.py): the pages
        here too, whose links are on the banker's admin page."""
        return refusal(401, "http", err.description or words.text("editions.web.banker_only"))

    @editions.get("/admin/ausgaben")
    def editions_page() -> str:
        shelf = backend.editions()
        return render_template(PAGE + ".html", sim=backend.simulation is not None, overview=shelf.overview(),
                               form=None, edition_words=script_words(JS_KEYS), upload_most=MAX_BYTES)

    @editions.get("/admin/ausgaben/neu")
    def edition_form() -> str:
        """The form, filled from the edition ``von`` (a copy to change), or from a family edition to edit."""
        shelf = backend.editions()
        source = request.args.get("von", "classic")
        data = shelf.data(source)
        if data is None:
            abort(404, words.text("editions.web.no_edition"))
        family = not any(e["key"] == source and not e["family"] for e in shelf.overview()["editions"])
        form = {**data, "base": data.get("base") if family else source, **({"was": source} if family else {}),
                "key": source if family else words.text("editions.new.key", key=source),
                "title": data["title"] if family else words.text("editions.new.title", title=data["title"])}
        return render_template(PAGE + ".html", sim=backend.simulation is not None, overview=None, form=form,
                               rows=board_rows(data), short_most=MAX_DISPLAY_NAME, edition_words=script_words(JS_KEYS),
                               **labels())

    @editions.get("/admin/ausgaben/datei")
    def edition_download() -> Response:
        """The edition ``von`` as its file (a family's as saved, a shipped one whole); a query, not a path, like the
        form's: every route of the web is walked by tests/test_web_auth.py with the arguments it knows."""
        key = request.args.get("von", "classic")
        text = backend.editions().text(key)
        if text is None:
            abort(404, words.text("editions.web.no_edition"))
        return Response(text, mimetype="application/toml",
                        headers={"Content-Disposition": f'attachment; filename="{key}.toml"'})

    def told_as(sent: Sent) -> ToldAs | None:
        """The form's problems name its fields; a file's, its lines and keys (the store's own)."""
        form = sent.form
        return None if form is None else lambda p, names: form_problem(p, names, form)

    @editions.post("/api/admin/editions/check")
    def api_check() -> Response:
        sent = parse_edition()
        _, answer = backend.editions().check(sent.source, told_as(sent))
        answer.pop("text", None)
        return json_response(answer, 200)  # a question answered: its problems are the answer, not a refusal

    @editions.post("/api/admin/editions")
    def api_save() -> Response:
        """Save; 409 with a ``question`` when it would replace a file (the page asks, then sends ``replace``)."""
        sent = parse_edition()
        answer = backend.editions().save(sent.source, replace=sent.replace, was=sent.was, told_as=told_as(sent))
        return json_response(answer)

    @editions.post("/api/admin/editions/delete")
    def api_delete() -> Response:
        """A family file (one that plays or not) moved to the previous versions."""
        answer = backend.editions().delete(parse_file_name())
        return json_response(answer)

    @editions.post("/api/admin/editions/restore")
    def api_restore() -> Response:
        """A previous version brought back under its key (what has that key now is kept in its place)."""
        answer = backend.editions().restore(parse_file_name())
        return json_response(answer)

    return editions
