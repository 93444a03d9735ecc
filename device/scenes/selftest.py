"""Menü → Selbsttest: every part of the box, tried by hand (issue 20).

Each key pressed shows its name; the knob's turns and push are counted; 1 plays a tone, 2
toggles the LED; a card laid on shows its UID and how long it is. C leaves (held C as anywhere).
"""

from __future__ import annotations

import msgspec

from drivers.screen import Screen

from .inputs import Input, Key, Press, Tap, Tick
from .layout import page
from .manager import Context, Scene
from .table import State


class SelftestScene(Scene, msgspec.Struct):
    kind = State.SELFTEST
    last: str = "Taste oder Karte"
    turns: int = 0
    pushes: int = 0
    led: bool = False
    card: str = ""

    def on_event(self, ui: Context, inp: Input) -> bool:
        if isinstance(inp, Tick):
            return True
        if isinstance(inp, Tap):
            ui.tone("card")
            self.card = inp.uid
            self.last = f"Karte: {len(inp.uid) // 2} Byte"
            return True
        if not isinstance(inp, Press):
            return False
        key = inp.key
        if key is Key.C:
            ui.scenes.back()
            return True
        if key in (Key.UP, Key.DOWN):
            self.turns += 1 if key is Key.DOWN else -1
            self.last = f"Knopf {'rechts' if key is Key.DOWN else 'links'}"
        elif key is Key.PUSH:
            self.pushes += 1
            self.last = "Knopf gedrückt"
        else:
            self.last = f"Taste {key.value}"
        if key is Key.D1:
            ui.tone("done")
            self.last += ": Ton"
        elif key is Key.D2:
            self.led = not self.led
            ui.led(self.led)
            self.last += f": LED {'an' if self.led else 'aus'}"
        else:
            ui.tone("card")
        return True

    def view(self, ui: Context) -> Screen:
        return page("Selbsttest", "", [self.last, f"Knopf {self.turns:+d}, {self.pushes}x gedrückt",
                                        f"UID {self.card}" if self.card else "1: Ton, 2: LED"],
                    pinned=("C: zurück",))
