"""The virtual device of the simulation (``bankleser run`` off a Pi): its keys, its card reader, its OLED.

Registered only in sim mode, and public there: the virtual device is the keypad anyone at the table may press.
Its live stream (``/api/sim/events``) is the web server's own (:mod:`webui.devicestream`), not Flask's: a
generator in a worker thread cannot hear its page leave.
"""

from __future__ import annotations

import os

from flask import Blueprint, Response

import words

from .auth import public
from .backend import Simulation
from .errors import BadUid, json_response
from .parsers.sim import parse_key, parse_tap
from .protocol import Frame, done, pressed


def blueprint(device: Simulation) -> Blueprint:
    sim = Blueprint("sim", __name__)
    keys = device.keys()

    @sim.post("/api/sim/key")
    @public
    def sim_key() -> Response:
        return json_response(pressed(device.press(parse_key(keys))))

    @sim.post("/api/sim/tap")
    @public
    def sim_tap() -> Response:
        uid = parse_tap()
        try:
            seq = device.tap(uid)
        except ValueError:  # the simulated reader refuses what no card could send (its words are the driver's)
            raise BadUid(words.text("phone.uid.bad", uid=repr(uid))) from None
        return json_response(pressed(seq))

    @sim.get("/api/sim/display")
    @public
    def sim_display() -> Response:
        seq, text = device.display()
        return json_response(Frame(seq=seq, text=text))

    @sim.get("/api/sim/display.png")
    @public
    def sim_display_png() -> Response:
        return Response(device.display_png(), mimetype="image/png", headers={"Cache-Control": "no-store"})

    if os.environ.get("BANKLESER_ALLOW_FREEZE") == "1":

        @sim.post("/api/sim/freeze")
        @public
        def sim_freeze() -> Response:
            """A test's verb, enabled only by BANKLESER_ALLOW_FREEZE=1: hang the loop (the watchdog test)."""
            device.freeze()
            return json_response(done())

    return sim
