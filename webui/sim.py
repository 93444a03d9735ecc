"""The virtual device of the simulation (``bankleser run`` off a Pi): its keys, its card reader, its OLED.

Registered only in sim mode, and public there: the virtual device is the keypad anyone at the table may press.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator

from flask import Blueprint, Response, jsonify, stream_with_context

import words

from .auth import public
from .backend import Simulation
from .errors import BadUid
from .parsers.sim import parse_key, parse_tap

STREAM_KEEPALIVE = 15.0
STOP_CHECK = 0.25
"""Seconds a virtual device's stream waits for a frame before it looks at the stop flag."""


def blueprint(device: Simulation, stopping: Callable[[], bool]) -> Blueprint:
    """``stopping()``: the appliance stops (the display's stream ends)."""
    sim = Blueprint("sim", __name__)
    keys = device.keys()

    @sim.post("/api/sim/key")
    @public
    def sim_key() -> Response:
        return jsonify({"ok": True, "seq": device.press(parse_key(keys))})

    @sim.post("/api/sim/tap")
    @public
    def sim_tap() -> Response:
        uid = parse_tap()
        try:
            seq = device.tap(uid)
        except ValueError:  # the reader twin refuses what no card could send (its words are the driver's)
            raise BadUid(words.text("phone.uid.bad", uid=repr(uid))) from None
        return jsonify({"ok": True, "seq": seq})

    @sim.get("/api/sim/display")
    @public
    def sim_display() -> Response:
        seq, text = device.display()
        return jsonify({"seq": seq, "text": text})

    @sim.get("/api/sim/display.png")
    @public
    def sim_display_png() -> Response:
        return Response(device.display_png(), mimetype="image/png", headers={"Cache-Control": "no-store"})

    @sim.get("/api/sim/events")
    @public
    def sim_events() -> Response:
        def stream() -> Iterator[str]:
            # Waits in short slices: a stop ends the stream within one (a page open must not hold it up).
            seq, said, signals, version = -1, time.monotonic(), None, None
            while not stopping():
                new_seq, text = device.wait_display(seq, STOP_CHECK)
                now = device.signals()  # the tone and the LED: a refusal's low tone is perceived (issue 28 #14)
                if new_seq != seq or now != signals:
                    seq, said, signals = new_seq, time.monotonic(), now
                    frame = {"seq": seq, "text": text, **now}
                    if now["version"] != version:  # a new game, a card learned: the card buttons follow
                        version, frame["cards"] = now["version"], device.cards()
                    yield f"data: {json.dumps(frame, ensure_ascii=False)}\n\n"
                elif time.monotonic() - said >= STREAM_KEEPALIVE:
                    said = time.monotonic()
                    yield ": ping\n\n"

        return Response(stream_with_context(stream()), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store"})

    if os.environ.get("BANKLESER_ALLOW_FREEZE") == "1":

        @sim.post("/api/sim/freeze")
        @public
        def sim_freeze() -> Response:
            """A test's verb, enabled only by BANKLESER_ALLOW_FREEZE=1: hang the loop (the watchdog test)."""
            device.freeze()
            return jsonify({"ok": True})

    return sim
