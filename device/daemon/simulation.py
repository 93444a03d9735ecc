"""The simulation's adapter: the virtual device's keys, card reader and OLED, for the web's ``/device`` page.

Only in sim mode (``bankleser run`` off a Pi): the parts are the box's own drivers on the virtual table
(:mod:`drivers.virtual`), so a key pressed here is scanned by the keypad driver a key on the box meets, a card
tapped here is read by the MFRC522 driver, and the frames shown are the ones the display's thread sent.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING

from drivers.hardware import Hardware
from drivers.virtual import Frame, FrameLog, VirtualDevice
from rules import EDITIONS, square_name
from shapes.simulation import SignalsShown, SimCards

from ..scenes import WIRE_KEYS
from ..store.cards import SIM_DEED_TAGS, SIM_PLAYER_CARDS

if TYPE_CHECKING:
    from .service import Daemon


class Simulation:
    """What the web's virtual device may do: press, tap, and watch the OLED (satisfies ``webui.backend.Simulation``)."""

    def __init__(self, daemon: Daemon) -> None:
        assert daemon.sim
        self._d = daemon

    def _hardware(self) -> Hardware:
        hw = self._d.hardware
        assert hw is not None
        return hw

    def _virtual(self) -> VirtualDevice:
        virtual = self._hardware().virtual
        assert virtual is not None
        return virtual

    def _frames(self) -> FrameLog:
        return self._virtual().frames

    def _sync(self) -> int:
        """Wait until the loop has handled everything queued so far and the display's thread has sent the screen
        it led to; return that frame's number."""
        self._d.call(lambda: None)
        self._hardware().display.flush()
        return self.display()[0]

    def keys(self) -> frozenset[str]:
        """The keys the virtual device may send: the reader's own inputs (device/scenes/inputs.py)."""
        return WIRE_KEYS

    def press(self, key: str) -> int:
        """A key of the keypad, held or pressed, or the knob turned or pushed: through its driver's pins."""
        virtual = self._virtual()
        if key.startswith("hold:"):
            virtual.hold(key[5:])
        elif key in ("UP", "DOWN"):
            virtual.turn(1 if key == "DOWN" else -1)
        elif key == "PUSH":
            virtual.push()
        else:
            virtual.press(key)
        return self._sync()

    def tap(self, uid: str) -> int:
        """Raises ValueError for what no card could send (a UID of 4, 7 or 10 bytes, as the chip model holds)."""
        self._virtual().tap(uid)
        return self._sync()

    def cards(self) -> SimCards:
        """The sim's cards for the virtual device: players and deed tags by UID, deeds named as the
        running game's edition names them (the OLED's words)."""
        state = self._d.ledger.game.state if self._d.ledger is not None else None
        edition = state.edition if state is not None else EDITIONS["classic"]
        store = self._d.cards
        known = self._d.call(store.all) if store is not None else []  # the cards learned beyond the six too
        players = {**SIM_PLAYER_CARDS, **{c.uid: c.name for c in known if c.kind == "player"}}
        deeds = {**SIM_DEED_TAGS, **{c.uid: c.square for c in known if c.kind == "deed"}}
        return {"players": players, "deeds": deeds,
                "names": {sq: square_name(edition, sq) for sq in sorted(set(deeds.values()))}}

    def signals(self) -> SignalsShown:
        """What the virtual device shows beside the OLED: the tunes played so far (their count and
        the last), the status LED, and the ledger's version (a new game, a card learned: its buttons follow)."""
        hw, ledger = self._hardware(), self._d.ledger
        played = hw.buzzer.played
        return {"tones": len(played), "tone": played[-1] if played else "", "led": hw.led.lit,
                "version": ledger.version if ledger is not None else 0}

    def display(self) -> tuple[int, str]:
        last = self._frames().last
        return (last.seq, last.text) if last else (0, "")

    def display_png(self) -> bytes:
        last: Frame | None = self._frames().last
        buf = io.BytesIO()
        if last is not None:
            last.image.convert("L").resize((512, 256), 0).save(buf, format="PNG")
        return buf.getvalue()

    def on_display(self, callback: Callable[[], None]) -> None:
        self._frames().subscribe(lambda frame: callback())

    def freeze(self) -> None:
        """A test's verb, enabled only by BANKLESER_ALLOW_FREEZE=1: hang the loop (the watchdog test)."""
        self._d.events.put(("freeze",))
