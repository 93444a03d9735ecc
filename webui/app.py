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

from rules import DEEDS, EDITIONS, GROUP_NAMES, SQUARES, format_money, square_name
from rules.game import OPS

from .chart import worth_svg

LOGIN_ATTEMPTS, LOGIN_WINDOW = 5, 300.0
"""Five wrong PINs per address within five minutes, then a pause."""
STREAM_KEEPALIVE = 15.0


class Backend(Protocol):
    sim: bool
    url: str

    def snapshot(self) -> dict[str, Any]: ...
    def wait_for_change(self, version: int, timeout: float) -> int: ...
    def stopping(self) -> bool: ...
    def submit(self, cmd: dict[str, Any]) -> dict[str, Any]: ...
    def check_pin(self, pin: str) -> bool | None: ...
    def secret_key(self) -> bytes: ...
    def rename_card(self, uid: str, name: str) -> dict[str, Any]: ...
    def register_card(self, uid: str, kind: str, square: int | None, name: str | None) -> dict[str, Any]: ...
    def press(self, key: str) -> int: ...
    def tap(self, uid: str) -> int: ...
    def display(self) -> tuple[int, str]: ...
    def display_png(self) -> bytes: ...
    def wait_display(self, after: int, timeout: float) -> tuple[int, str]: ...
    def freeze(self) -> None: ...


class RateLimit:
    def __init__(self) -> None:
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def blocked(self, who: str, now: float) -> bool:
        with self._lock:
            q = self._failures[who]
            while q and now - q[0] > LOGIN_WINDOW:
                q.popleft()
            return len(q) >= LOGIN_ATTEMPTS

    def fail(self, who: str, now: float) -> None:
        with self._lock:
            self._failures[who].append(now)


def public_state(snap: dict[str, Any]) -> dict[str, Any]:
    """The contract's state object plus ``log``, ``ends_at`` (timed) and what the page needs."""
    state = snap["state"]
    out: dict[str, Any] = dict(state) if state is not None else {"players": [], "ranking": []}
    out["log"] = snap["log"][:30]
    if state is not None and state.get("mode") == "timed":
        out["ends_at"] = snap["ends_at"]
    out["cards"] = {c["name"]: c["number"] for c in snap.get("cards", []) if c["kind"] == "player"}
    out["version"] = snap["version"]
    out["problem"] = snap["problem"]
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
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            abort(400, "JSON-Objekt erwartet")
        return data

    def logged_in() -> bool:
        return bool(session.get("banker"))

    def require_login() -> None:
        if not logged_in():
            abort(401, "Nur der Bankhalter: erst anmelden")

    def require_banker() -> None:
        """Logged in, and the CSRF token of the session on every state change."""
        require_login()
        token = request.headers.get("X-CSRF-Token", "")
        if not hmac.compare_digest(token, session.get("csrf", "")):
            abort(403, "CSRF-Token fehlt oder falsch")

    def money_label(edition: str | None) -> Any:
        ed = EDITIONS.get(edition or "classic", EDITIONS["classic"])
        return lambda amount: format_money(int(amount), ed)

    # Pages -----------------------------------------------------------------------------

    @app.get("/")
    def status_page() -> str:
        return render_template("status.html", sim=backend.sim)

    @app.get("/admin")
    def admin_page() -> str:
        return render_template("admin.html", sim=backend.sim, editions=EDITIONS)

    @app.get("/device")
    def device_page() -> str:
        if not backend.sim:
            abort(404)
        from device.cards import SIM_DEED_TAGS, SIM_PLAYER_CARDS

        return render_template("device.html", sim=True, players=SIM_PLAYER_CARDS, deeds=SIM_DEED_TAGS,
                               names={sq: SQUARES[sq].name for sq in DEEDS})

    @app.get("/qr.svg")
    def qr() -> Response:
        buf = io.BytesIO()
        segno.make(backend.url, error="m").save(buf, kind="svg", scale=6, dark="#111", light="#fff", xmldecl=False)
        return Response(buf.getvalue(), mimetype="image/svg+xml")

    @app.get("/api/chart.svg")
    def chart() -> Response:
        snap = backend.snapshot()
        state = snap["state"]
        players = [p["name"] for p in state["players"]] if state else []
        svg = worth_svg(snap["worth"], players, money_label(state["edition"] if state else None))
        return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})

    # Reading ---------------------------------------------------------------------------

    @app.get("/api/state")
    def api_state() -> Any:
        return jsonify(public_state(backend.snapshot()))

    @app.get("/api/board")
    def api_board() -> Any:
        edition = request.args.get("edition", "classic")
        if edition not in EDITIONS:
            abort(404, "Unbekannte Ausgabe")
        return jsonify(board_info(edition))

    @app.get("/api/events")
    def api_events() -> Response:
        def stream() -> Iterator[str]:
            snap = backend.snapshot()
            version = snap["version"]
            yield f"event: state\ndata: {json.dumps(public_state(snap), ensure_ascii=False)}\n\n"
            while not backend.stopping():
                newer = backend.wait_for_change(version, STREAM_KEEPALIVE)
                if backend.stopping():
                    return
                if newer == version:
                    yield ": ping\n\n"
                    continue
                snap = backend.snapshot()
                version = snap["version"]
                yield f"event: state\ndata: {json.dumps(public_state(snap), ensure_ascii=False)}\n\n"

        return Response(stream_with_context(stream()), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    # The banker ------------------------------------------------------------------------

    @app.post("/api/login")
    def api_login() -> Any:
        who = request.remote_addr or "?"
        now = time.monotonic()
        if limiter.blocked(who, now):
            return error(429, "too_many_attempts", "Zu viele falsche PINs: in ein paar Minuten wieder")
        pin = body().get("pin")
        if not isinstance(pin, str):
            abort(400, "Feld 'pin' fehlt")
        verdict = backend.check_pin(pin)
        if verdict is None:
            return error(409, "no_pin", "Noch keine Banker-PIN: am Gerät setzen (Menü → Banker-PIN)")
        if not verdict:
            limiter.fail(who, now)
            return error(401, "wrong_pin", "Falsche PIN")
        session.clear()
        session["banker"] = True
        session["csrf"] = secrets.token_urlsafe(32)
        return jsonify({"ok": True, "csrf": session["csrf"]})

    @app.post("/api/logout")
    def api_logout() -> Any:
        require_banker()
        session.clear()
        return jsonify({"ok": True})

    @app.get("/api/session")
    def api_session() -> Any:
        return jsonify({"banker": logged_in(), "csrf": session.get("csrf") if logged_in() else None})

    @app.post("/api/commands")
    def api_commands() -> Any:
        require_banker()
        cmd = body()
        if cmd.get("op") not in OPS:
            return error(422, "bad_command", f"Unbekannter Befehl: {cmd.get('op')!r}")
        result = backend.submit(cmd)
        if result.get("ok"):
            return jsonify({"ok": True})
        status = 503 if result.get("code") == "storage_error" else 422
        return jsonify(result), status

    @app.get("/api/admin/cards")
    def api_cards() -> Any:
        require_login()
        return jsonify(backend.snapshot().get("cards", []))

    @app.post("/api/cards/<uid>/name")
    def api_rename(uid: str) -> Any:
        require_banker()
        name = body().get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > 12:
            return error(422, "bad_name", "Name: 1 bis 12 Zeichen")
        result = backend.rename_card(uid, name.strip())
        return jsonify(result), (200 if result["ok"] else 422)

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
        result = backend.register_card(uid, str(data.get("kind")), square, name if isinstance(name, str) else None)
        return jsonify(result), (200 if result["ok"] else 422)

    # Sim mode: the virtual device --------------------------------------------------------

    if backend.sim:
        from drivers.keypad import KEYS

        sim_keys = {*KEYS, "UP", "DOWN", "PUSH", "hold:C"}

        @app.post("/api/sim/key")
        def sim_key() -> Any:
            key = body().get("key")
            if key not in sim_keys:
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
                seq = -1
                while not backend.stopping():
                    new_seq, text = backend.wait_display(seq, STREAM_KEEPALIVE)
                    if new_seq != seq:
                        seq = new_seq
                        yield f"data: {json.dumps({'seq': seq, 'text': text}, ensure_ascii=False)}\n\n"
                    else:
                        yield ": ping\n\n"

            return Response(stream_with_context(stream()), mimetype="text/event-stream",
                            headers={"Cache-Control": "no-store"})

        if os.environ.get("BANKLESER_ALLOW_FREEZE") == "1":

            @app.post("/api/sim/freeze")
            def sim_freeze() -> Any:
                backend.freeze()
                return jsonify({"ok": True})

    return app
