"""What every phone may open: the status page, the admin page (its login form), the virtual device, the QR
code, the chart, and the public reads (``/api/state``, ``/api/board``). All public: nothing here changes."""

from __future__ import annotations

import io
import threading
from typing import Any

import segno
from flask import Blueprint, Response, abort, jsonify, render_template, request

import words
from rules import DEEDS, GROUP_NAMES, SQUARES, Edition, Mode, square_name
from rules.game import HOUSE_RULE_NAMES

from .auth import public
from .backend import Backend
from .chart import money_label, worth_svg
from .language import languages

KEY_LABELS = ("HABEN", "SOLL", "MENU", "LOS", "hold:C")
"""The virtual device's keys whose label is a word (``pages.device.key.<name>``); the others show their name."""


def board_info(ed: Edition) -> dict[str, Any]:
    """Names and money of an edition, for the page to label what the state's numbers mean."""
    return {
        "edition": ed.key, "title": ed.title, "currency": ed.currency, "km": ed.km_notation,
        "house": ed.house, "houses": ed.houses, "hotel": ed.hotel, "hotels": ed.hotels,
        "squares": {sq: {"name": square_name(ed, sq), "group": DEEDS[sq].group,
                         "price": ed.deed(sq).price} for sq in DEEDS},
        "groups": {g: words.text(f"pages.group.{g}") for g in GROUP_NAMES},
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
                               house_rules=[(key, words.text(f"pages.house_rule.{key}")) for key in HOUSE_RULE_NAMES],
                               modes=[(mode.value, words.text(f"pages.mode.{mode.value}")) for mode in Mode],
                               languages=languages(), appliance_language=words.appliance_language())

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
        labels = {key: words.text(f"pages.device.key.{key.lower().replace(':', '_')}") for key in KEY_LABELS}
        return render_template("device.html", sim=True, players=cards["players"], deeds=cards["deeds"],
                               names=cards["names"], key_labels=labels)

    @pages.get("/qr.svg")
    @public
    def qr() -> Response:
        buf = io.BytesIO()
        segno.make(backend.url, error="m").save(buf, kind="svg", scale=6, dark="#111", light="#fff", xmldecl=False)
        return Response(buf.getvalue(), mimetype="image/svg+xml")

    chart_cache: dict[int, bytes] = {}
    chart_lock = threading.Lock()

    @pages.get("/api/chart.svg")
    @public
    def chart() -> Response:
        """Drawn once per version, however many phones ask; the page asks with ``?v=`` of the version."""
        worth = backend.worth()
        with chart_lock:
            svg = chart_cache.get(worth.version)
            if svg is None:
                svg = worth_svg(worth.points, worth.players, money_label(worth.edition)).encode()
                chart_cache.clear()
                chart_cache[worth.version] = svg
        return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})

    @pages.get("/api/state")
    @public
    def api_state() -> Response:
        """The front answers this itself on the appliance; this twin serves the same bytes to Flask's clients."""
        current = backend.published()
        if request.headers.get("If-None-Match") == current.etag:
            return Response(status=304, headers={"ETag": current.etag})
        return Response(current.body, mimetype="application/json", headers={"ETag": current.etag})

    @pages.get("/api/board")
    @public
    def api_board() -> Response:
        found = backend.editions().edition(request.args.get("edition", "classic"))  # a family's too
        if found is None:
            abort(404, words.text("pages.board.unknown_edition"))
        return jsonify(board_info(found))

    return pages
