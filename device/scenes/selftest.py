"""Menü → Selbsttest: every part of the box, tried by hand.

Each key pressed shows its name; the knob's turns and push are counted; 1 plays a tone, 2
toggles the LED; a card laid on shows its UID and how long it is. C leaves (held C as anywhere).
"""

from __future__ import annotations

import msgspec

from drivers.screen import Screen

from .inputs import Input, Key, Press, Tap, Tick
from .layout import page
from .manager import Context, Scene
from .said import Said, key_name, phrase
from .table import State


class SelftestScene(Scene, msgspec.Struct):
    kind = State.SELFTEST
    last: Said = phrase("scenes.selftest.waiting")
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
            self.last = phrase("scenes.selftest.card", n=len(inp.uid) // 2)
            return True
        if not isinstance(inp, Press):
            return False
        key = inp.key
        if key is Key.C:
            ui.scenes.back()
            return True
        if key in (Key.UP, Key.DOWN):
            self.turns += 1 if key is Key.DOWN else -1
            self.last = phrase("scenes.selftest.right" if key is Key.DOWN else "scenes.selftest.left")
        elif key is Key.PUSH:
            self.pushes += 1
            self.last = phrase("scenes.selftest.pushed")
        elif key is Key.D1:
            ui.tone("done")
            self.last = phrase("scenes.selftest.tone", key=key_name(key))
        elif key is Key.D2:
            self.led = not self.led
            ui.led(self.led)
            self.last = phrase("scenes.selftest.led_on" if self.led else "scenes.selftest.led_off", key=key_name(key))
        else:
            self.last = phrase("scenes.selftest.key", key=key_name(key))
        if key not in (Key.D1, Key.D2):
            ui.tone("card")
        return True

    def view(self, ui: Context) -> Screen:
        knob = phrase("scenes.selftest.knob", turns=f"{self.turns:+d}", n=self.pushes)
        third = phrase("scenes.selftest.uid", uid=self.card) if self.card else phrase("scenes.selftest.try")
        return page(ui.say(phrase("scenes.selftest.title")), "", [ui.say(self.last), ui.say(knob), ui.say(third)],
                    pinned=(ui.say(phrase("scenes.selftest.back")),))
