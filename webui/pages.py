"""What every phone may open: the status page, the admin page (its login form), the virtual device, the QR
code, the chart, and the public reads (``/api/state``, ``/api/board``). All public: nothing here changes."""

from __future__ import annotations

import io
import os
import threading
from typing import Any

import segno
from flask import Blueprint, Response, abort, render_template, request

import words
from rules import DEEDS, GROUP_NAMES, SQUARES, Edition, Mode, square_name
from rules.game import HOUSE_RULE_NAMES

from .auth import public
from .backend import Backend
from .chart import money_label, worth_svg
from .errors import json_response
from .language import languages

KEY_LABELS = {"HABEN": "pages.device.key.haben", "SOLL": "pages.device.key.soll", "MENU": "pages.device.key.menu",
              "LOS": "pages.device.key.los", "hold:C": "pages.device.key.hold_c"}
"""The virtual device's keys whose label is a word; the others show their name (1, C, K, OK …)."""
GROUP_WORDS = {"brown": "pages.group.brown", "lightblue": "pages.group.lightblue", "pink": "pages.group.pink",
               "orange": "pages.group.orange", "red": "pages.group.red", "yellow": "pages.group.yellow",
               "green": "pages.group.green", "darkblue": "pages.group.darkblue", "station": "pages.group.station",
               "utility": "pages.group.utility"}
"""The colour groups as the status page names them (the keys: :data:`rules.GROUP_NAMES`' order and codes)."""
MODE_WORDS = {Mode.STANDARD: "pages.mode.standard", Mode.QUICK: "pages.mode.quick", Mode.TIMED: "pages.mode.timed"}
HOUSE_RULE_WORDS = {"free_parking_pot": "pages.house_rule.free_parking_pot", "double_go": "pages.house_rule.double_go",
                    "no_auctions": "pages.house_rule.no_auctions"}
"""The admin's form: every kind of game and house rule the rules take (a test holds them to the rules' own)."""


def board_info(ed: Edition) -> dict[str, Any]:
    """Names and money of an edition, for the page to label what the state's numbers mean: its words in the
    language in force (a German board on an English page says "houses")."""
    ed = words.localised(ed)
    return {
        "edition": ed.key, "title": ed.title, "currency": ed.currency, "km": ed.km_notation,
        "quick_name": ed.quick.name,  # the edition's own word for its short game (Skylanders: "kurzes Spiel")
        "house": ed.house, "houses": ed.houses, "hotel": ed.hotel, "hotels": ed.hotels,
        "squares": {sq: {"name": square_name(ed, sq), "group": DEEDS[sq].group,
                         "price": ed.deed(sq).price} for sq in DEEDS},
        "groups": {g: words.text(GROUP_WORDS[g]) for g in GROUP_NAMES},
        "group_order": list(GROUP_NAMES),
        "all_squares": [square_name(ed, s.square) for s in SQUARES],
    }


def blueprint(backend: Backend) -> Blueprint:
    pages = Blueprint("pages", __name__)

    @pages.get("/")
    @public
    def status_page() -> str:
        return render_template("status.html", sim=backend.simulation is not None)

    @pages.get("/admin")
    @public
    def admin_page() -> str:
        """The page is open (it holds the login form); what it reads and changes is the banker's."""
        return render_template("admin.html", sim=backend.simulation is not None, editions=backend.editions().all(),
                               house_rules=[(key, words.text(HOUSE_RULE_WORDS[key])) for key in HOUSE_RULE_NAMES],
                               modes=[(mode.value, words.text(MODE_WORDS[mode])) for mode in Mode],
                               languages=languages(), appliance_language=words.appliance_language(),
                               pin_set=backend.has_pin())

    @pages.get("/admin/verdrahtung.svg")
    @public
    def wiring() -> Response:
        """The wiring of this appliance's config (the same pins its drivers open): for whoever builds it."""
        try:
            return Response(backend.wiring_svg(), mimetype="image/svg+xml")
        except ValueError as err:
            abort(422, str(err))

    @pages.get("/device")
    @public
    def device_page() -> str:
        if backend.simulation is None:
            abort(404)
        cards = backend.simulation.cards()
        labels = {key: words.text(said) for key, said in KEY_LABELS.items()}
        return render_template("device.html", sim=True, players=cards["players"], deeds=cards["deeds"],
                               names=cards["names"], key_labels=labels)

    @pages.get("/qr.svg")
    @public
    def qr() -> Response:
        buf = io.BytesIO()
        segno.make(backend.url, error="m").save(buf, kind="svg", scale=6, dark="#111", light="#fff", xmldecl=False)
        return Response(buf.getvalue(), mimetype="image/svg+xml")

    chart_cache: dict[tuple[int, str], bytes] = {}
    chart_lock = threading.Lock()
    start = os.urandom(4).hex()
    """This start's id in the chart's ETag: the versions begin again at each start, so a version alone would let a
    phone keep the chart of the game before a restart."""

    @pages.get("/api/chart.svg")
    @public
    def chart() -> Response:
        """Drawn once per version and language, however many phones ask (its words and its amounts' decimal sign
        are the page's language); the page asks with ``?v=`` of the version. A phone keeps it only as long as its
        ETag (this start, the version, the language) holds: it asks again each time and gets a 304 while it does."""
        worth = backend.worth()
        language = words.language()
        headers = {"ETag": f'"{start}-{worth.version}-{language}"', "Cache-Control": "no-cache"}
        if request.headers.get("If-None-Match") == headers["ETag"]:
            return Response(status=304, headers=headers)
        key = (worth.version, language)
        with chart_lock:
            svg = chart_cache.get(key)
            if svg is None:
                svg = worth_svg(worth.points, worth.players, money_label(worth.edition)).encode()
                if not any(version == worth.version for version, _ in chart_cache):
                    chart_cache.clear()
                chart_cache[key] = svg
        return Response(svg, mimetype="image/svg+xml", headers=headers)

    @pages.get("/api/state")
    @public
    def api_state() -> Response:
        """The front answers this itself on the appliance; this twin serves the same bytes to Flask's clients."""
        current = backend.published().in_language(words.language())  # the page's (a phone may choose its own)
        if request.headers.get("If-None-Match") == current.etag:
            return Response(status=304, headers={"ETag": current.etag})
        return Response(current.body, mimetype="application/json", headers={"ETag": current.etag})

    @pages.get("/api/board")
    @public
    def api_board() -> Response:
        found = backend.editions().edition(request.args.get("edition", "classic"))  # a family's too
        if found is None:
            abort(404, words.text("pages.board.unknown_edition"))
        return json_response(board_info(found))

    return pages
