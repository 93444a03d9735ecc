"""The Flask app: the status page every phone opens, the banker's admin, the virtual device.

It never touches drivers: it reads snapshots and submits the same commands as the keypad,
through the backend the daemon hands it. GET renders; POST parses, then submits. Errors map
to HTTP codes in one place, and bad input is a 400 or 422, never a 500.
"""

from __future__ import annotations

import hmac
import io
import json
import os
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Iterator
from typing import Any, Protocol

import segno
from flask import Flask, Response, abort, jsonify, render_template, request, session, stream_with_context
from werkzeug.exceptions import HTTPException

from rules import DEEDS, EDITIONS, GROUP_NAMES, SQUARES, Mode, RuleError, clean_name, from_json, square_name, winners
from rules.game import HOUSE_RULE_NAMES, MODE_NAMES, mode_title

from .booking import register as register_booking
from .chart import money_label, worth_svg
from .games import register as register_games
from .live import Published

LOGIN_ATTEMPTS, LOGIN_WINDOW = 5, 300.0
"""Five wrong PINs per address within five minutes, then a pause."""
SESSION_HOURS = 12
"""A login lasts a game night, not weeks."""
STREAM_KEEPALIVE = 15.0
STOP_CHECK = 0.25
"""Seconds a virtual device's stream waits for a frame before it looks at the stop flag."""
STATUS_OF = {"bad_command": 400, "storage_error": 503}
"""Refusals that are not the rules saying no (422): a malformed request, a card that cannot be written."""


class Backend(Protocol):
    sim: bool
    url: str

    def published(self) -> Published: ...
    def snapshot(self) -> dict[str, Any]: ...
    def worth(self) -> tuple[int, list[dict[str, Any]]]: ...
    def cards(self) -> list[dict[str, Any]]: ...
    def doctor(self) -> list[dict[str, Any]]: ...
    def stopping(self) -> bool: ...
    def submit(self, cmd: dict[str, Any]) -> dict[str, Any]: ...
    def check_pin(self, pin: str) -> bool | None: ...
    def session_epoch(self) -> int: ...
    def end_sessions(self) -> None: ...
    def secret_key(self) -> bytes: ...
    def phone_clock(self, now: object) -> str: ...
    def rename_card(self, uid: str, name: str) -> dict[str, Any]: ...
    def register_card(self, uid: str, kind: str, square: int | None, name: str | None) -> dict[str, Any]: ...
    def press(self, key: str) -> int: ...
    def tap(self, uid: str) -> int: ...
    def input_names(self) -> frozenset[str]: ...
    def sim_cards(self) -> dict[str, Any]: ...
    def display(self) -> tuple[int, str]: ...
    def display_png(self) -> bytes: ...
    def wait_display(self, after: int, timeout: float) -> tuple[int, str]: ...
    def wiring_svg(self) -> str: ...
    def freeze(self) -> None: ...
    def history(self) -> Any: ...
    # The booking forms (webui/booking.py, issue 31)
    def legal(self, player: str | None) -> dict[str, Any]: ...
    def preview(self, raw: dict[str, Any]) -> dict[str, Any]: ...
    def last_booking(self) -> dict[str, Any]: ...


class RateLimit:
    """Attempts are counted when they start, not when they fail: 30 PINs sent at once get 5 tries, not 30."""

    def __init__(self) -> None:
        self._attempts: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def begin(self, who: str, now: float) -> bool:
        """Reserve one attempt; False when the address has used up its tries in the window."""
        with self._lock:
            q = self._attempts[who]
            while q and now - q[0] > LOGIN_WINDOW:
                q.popleft()
            if len(q) >= LOGIN_ATTEMPTS:
                return False
            q.append(now)
            return True

    def succeeded(self, who: str, now: float) -> None:
        """A right PIN gives its attempt back."""
        with self._lock:
            q = self._attempts[who]
            if now in q:
                q.remove(now)


def public_state(snap: dict[str, Any]) -> dict[str, Any]:
    """The contract's state object plus ``log``, ``remaining`` (timed: seconds left when published)
    and what the page needs."""
    state = snap["state"]
    out: dict[str, Any] = dict(state) if state is not None else {"players": [], "ranking": []}
    out["log"] = snap["log"][:30]
    if state is not None:  # the rules' own names: the page keeps no list of its own
        out["mode_title"] = mode_title(EDITIONS[state["edition"]], Mode(state["mode"]),
                                       speed_die=bool(state.get("speed_die")))
        out["house_rule_titles"] = [HOUSE_RULE_NAMES.get(r, r) for r in state.get("house_rules", [])]
    # A shared win names everyone as rich as the winner (the contract's ``winner`` is only the first).
    out["winners"] = winners(from_json(state)) if state is not None and state.get("finished") else []
    if state is not None and state.get("mode") == "timed":
        out["remaining"] = snap["remaining"]
    out["cards"] = {c["name"]: c["number"] for c in snap.get("cards", []) if c["kind"] == "player"}
    out["version"] = snap["version"]
    out["session_epoch"] = snap.get("session_epoch", 0)  # a logout anywhere: every banker's page asks again
    out["problem"] = snap["problem"]
    out["parts"] = snap.get("parts", [])
    return out


def board_info(edition_key: str) -> dict[str, Any]:
    """Names and money of an edition, for the page to label what the state's numbers mean."""
    ed = EDITIONS[edition_key]
    return {
        "edition": ed.key, "title": ed.title, "currency": ed.currency, "km": ed.km_notation,
        "house": ed.house, "houses": ed.houses, "hotel": ed.hotel, "hotels": ed.hotels,
        "squares": {sq: {"name": square_name(ed, sq), "group": DEEDS[sq].group,
                         "price": ed.money(DEEDS[sq].price)} for sq in DEEDS},
        "groups": {g: GROUP_NAMES[g] for g in GROUP_NAMES},
        "group_order": list(GROUP_NAMES),
        "all_squares": [square_name(ed, s.square) for s in SQUARES],
    }


def create_app(backend: Backend) -> Flask:
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=backend.secret_key(),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=64 * 1024,
        JSON_SORT_KEYS=False,
    )
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    limiter = RateLimit()

    def error(status: int, code: str, message: str) -> tuple[Response, int]:
        return jsonify({"ok": False, "code": code, "message": message}), status

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            return error(err.code or 500, "http", err.description or err.name)
        return err

    @app.errorhandler(Exception)
    def crash(err: Exception) -> Any:
        app.logger.exception("request failed")
        return error(500, "internal", "Interner Fehler")

    def body() -> dict[str, Any]:
        try:
            data = request.get_json(silent=True)
        except RecursionError:
            abort(400, "JSON zu tief verschachtelt")
        if not isinstance(data, dict):
            abort(400, "JSON-Objekt erwartet")
        try:  # "\ud800" is valid JSON but no text: refused here once, for every field of every request
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            abort(400, "Ungültiges Zeichen im Text")
        return data

    def logged_in() -> bool:
        """A session counts while it is younger than a game night and no logout or PIN change came after it."""
        if not session.get("banker"):
            return False
        at = session.get("at")
        fresh = isinstance(at, (int, float)) and 0 <= time.time() - at < SESSION_HOURS * 3600
        return fresh and session.get("epoch") == backend.session_epoch()

    def require_login() -> None:
        if not logged_in():
            abort(401, "Nur der Bankhalter: erst anmelden")

    def require_banker() -> None:
        """Logged in, and the CSRF token of the session on every state change."""
        require_login()
        token = request.headers.get("X-CSRF-Token", "").encode("utf-8", "surrogateescape")
        if not hmac.compare_digest(token, str(session.get("csrf", "")).encode()):
            abort(403, "CSRF-Token fehlt oder falsch")

    # Pages -----------------------------------------------------------------------------

    @app.get("/")
    def status_page() -> str:
        return render_template("status.html", sim=backend.sim)

    @app.get("/admin")
    def admin_page() -> str:
        return render_template("admin.html", sim=backend.sim, editions=EDITIONS, house_rules=HOUSE_RULE_NAMES,
                               modes=MODE_NAMES)

    @app.get("/admin/verdrahtung.svg")
    def wiring() -> Response:
        """The wiring of this appliance's config (the same pins its drivers open): for whoever builds it."""
        try:
            return Response(backend.wiring_svg(), mimetype="image/svg+xml")
        except ValueError as err:
            abort(422, str(err))

    @app.get("/device")
    def device_page() -> str:
        if not backend.sim:
            abort(404)
        cards = backend.sim_cards()
        return render_template("device.html", sim=True, players=cards["players"], deeds=cards["deeds"],
                               names=cards["names"])

    @app.get("/qr.svg")
    def qr() -> Response:
        buf = io.BytesIO()
        segno.make(backend.url, error="m").save(buf, kind="svg", scale=6, dark="#111", light="#fff", xmldecl=False)
        return Response(buf.getvalue(), mimetype="image/svg+xml")

    register_games(app, backend.history)
    register_booking(app, backend, login=require_login, banker=require_banker, body=body)  # issue 31

    chart_cache: dict[int, bytes] = {}
    chart_lock = threading.Lock()

    @app.get("/api/chart.svg")
    def chart() -> Response:
        """Drawn once per version, however many phones ask; the page asks with ``?v=`` of the version."""
        version, worth = backend.worth()
        with chart_lock:
            svg = chart_cache.get(version)
            if svg is None:
                state = backend.snapshot()
                players = [p["name"] for p in state.get("players", [])]
                svg = worth_svg(worth, players, money_label(state.get("edition"))).encode()
                chart_cache.clear()
                chart_cache[version] = svg
        return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})

    # Reading ---------------------------------------------------------------------------

    @app.get("/api/state")
    def api_state() -> Response:
        """The front answers this itself on the appliance; this twin serves the same bytes to Flask's clients."""
        current = backend.published()
        if request.headers.get("If-None-Match") == current.etag:
            return Response(status=304, headers={"ETag": current.etag})
        return Response(current.body, mimetype="application/json", headers={"ETag": current.etag})

    @app.get("/api/board")
    def api_board() -> Any:
        edition = request.args.get("edition", "classic")
        if edition not in EDITIONS:
            abort(404, "Unbekannte Ausgabe")
        return jsonify(board_info(edition))

    # The banker ------------------------------------------------------------------------

    @app.post("/api/login")
    def api_login() -> Any:
        who = request.remote_addr or "?"
        now = time.monotonic()
        if not limiter.begin(who, now):
            return error(429, "too_many_attempts", "Zu viele falsche PINs: in ein paar Minuten wieder")
        data = body()
        pin = data.get("pin")
        if not isinstance(pin, str):
            abort(400, "Feld 'pin' fehlt")
        verdict = backend.check_pin(pin)
        if verdict is None:
            return error(409, "no_pin", "Noch keine Banker-PIN: am Gerät setzen (Menü → Banker-PIN)")
        if not verdict:
            return error(401, "wrong_pin", "Falsche PIN")
        limiter.succeeded(who, now)
        session.clear()
        session["banker"] = True
        session["at"] = time.time()
        session["epoch"] = backend.session_epoch()
        session["csrf"] = secrets.token_urlsafe(32)
        # Only the banker's phone may date the reports (the backend checks the value and the Pi's clock).
        clock = backend.phone_clock(data.get("now"))
        return jsonify({"ok": True, "csrf": session["csrf"], "clock": clock})

    @app.post("/api/logout")
    def api_logout() -> Any:
        require_banker()
        session.clear()
        backend.end_sessions()  # the cookie just cleared may have been copied: it ends everywhere
        return jsonify({"ok": True})

    @app.get("/api/session")
    def api_session() -> Any:
        return jsonify({"banker": logged_in(), "csrf": session.get("csrf") if logged_in() else None})

    @app.post("/api/commands")
    def api_commands() -> Any:
        require_banker()
        # The rules parse and check the command: a malformed one is their bad_command, answered 400.
        result = backend.submit(body())
        if result.get("ok"):
            return jsonify({"ok": True, **({"duplicate": True} if result.get("duplicate") else {})})  # issue 31
        return jsonify(result), STATUS_OF.get(str(result.get("code")), 422)

    @app.get("/api/admin/doctor")
    def api_doctor() -> Any:
        require_login()
        return jsonify(backend.doctor())

    @app.get("/api/admin/cards")
    def api_cards() -> Any:
        require_login()
        return jsonify(backend.cards())

    @app.post("/api/cards/<uid>/name")
    def api_rename(uid: str) -> Any:
        require_banker()
        try:
            name = clean_name(body().get("name"))
        except RuleError as err:
            return error(422, "bad_name", err.message)
        result = backend.rename_card(uid, name)
        return jsonify(result), (200 if result["ok"] else STATUS_OF.get(str(result.get("code")), 422))

    @app.post("/api/cards")
    def api_register() -> Any:
        require_banker()
        data = body()
        uid = data.get("uid")
        if not isinstance(uid, str) or len(uid) not in (8, 14, 20) or any(c not in "0123456789abcdef" for c in uid):
            return error(422, "bad_uid", "UID: 8, 14 oder 20 Hex-Zeichen, klein geschrieben")
        square = data.get("square")
        if square is not None and (isinstance(square, bool) or not isinstance(square, int)):
            return error(422, "bad_square", "square: Feldnummer")
        name = data.get("name")
        if name is not None:
            try:
                name = clean_name(name)
            except RuleError as err:
                return error(422, "bad_name", err.message)
        result = backend.register_card(uid, str(data.get("kind")), square, name)
        return jsonify(result), (200 if result["ok"] else STATUS_OF.get(str(result.get("code")), 422))

    # Sim mode: the virtual device --------------------------------------------------------

    if backend.sim:
        sim_keys = backend.input_names()

        @app.post("/api/sim/key")
        def sim_key() -> Any:
            key = body().get("key")
            if not isinstance(key, str) or key not in sim_keys:
                return error(422, "bad_key", f"Unbekannte Taste: {key!r}")
            seq = backend.press(str(key))
            return jsonify({"ok": True, "seq": seq})

        @app.post("/api/sim/tap")
        def sim_tap() -> Any:
            uid = body().get("uid")
            if not isinstance(uid, str):
                abort(400, "Feld 'uid' fehlt")
            try:
                seq = backend.tap(uid)
            except ValueError as err:
                return error(422, "bad_uid", str(err))
            return jsonify({"ok": True, "seq": seq})

        @app.get("/api/sim/display")
        def sim_display() -> Any:
            seq, text = backend.display()
            return jsonify({"seq": seq, "text": text})

        @app.get("/api/sim/display.png")
        def sim_display_png() -> Response:
            return Response(backend.display_png(), mimetype="image/png", headers={"Cache-Control": "no-store"})

        @app.get("/api/sim/events")
        def sim_events() -> Response:
            def stream() -> Iterator[str]:
                # Waits in short slices: a stop ends the stream within one (a page open must not hold it up).
                seq, said = -1, time.monotonic()
                while not backend.stopping():
                    new_seq, text = backend.wait_display(seq, STOP_CHECK)
                    if new_seq != seq:
                        seq, said = new_seq, time.monotonic()
                        yield f"data: {json.dumps({'seq': seq, 'text': text}, ensure_ascii=False)}\n\n"
                    elif time.monotonic() - said >= STREAM_KEEPALIVE:
                        said = time.monotonic()
                        yield ": ping\n\n"

            return Response(stream_with_context(stream()), mimetype="text/event-stream",
                            headers={"Cache-Control": "no-store"})

        if os.environ.get("BANKLESER_ALLOW_FREEZE") == "1":

            @app.post("/api/sim/freeze")
            def sim_freeze() -> Any:
                backend.freeze()
                return jsonify({"ok": True})

    return app
