"""The rotary encoder with push button: UP, DOWN and PUSH for the menus (gpiozero)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from gpiozero import Button, RotaryEncoder

from .part import Part

EventCallback = Callable[[str], None]


class Encoder(Part):
    """Clockwise is DOWN (the next menu entry), counter-clockwise UP; the button PUSH.

    The button is debounced here (gpiozero's MockPin has no bounce_time, and our own
    debounce is the same on the Pi and in tests): a press within ``debounce`` seconds of the
    previous one is a bounce.
    """

    def __init__(self, a: int, b: int, button: int | None, *, pin_factory: Any,
                 on_event: EventCallback | None = None, debounce: float = 0.05,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.on_event = on_event
        self._debounce = debounce
        self._clock = clock
        self._last_push = -1e9
        self._rotor = RotaryEncoder(a, b, max_steps=0, pin_factory=pin_factory)
        self._rotor.when_rotated_clockwise = lambda: self._emit("DOWN")
        self._rotor.when_rotated_counter_clockwise = lambda: self._emit("UP")
        self._button: Button | None = None
        if button is not None:
            self._button = Button(button, pull_up=True, pin_factory=pin_factory)
            self._button.when_pressed = self._pushed

    def _pushed(self) -> None:
        now = self._clock()
        if now - self._last_push >= self._debounce:
            self._last_push = now
            self._emit("PUSH")

    def _emit(self, event: str) -> None:
        if self.on_event is not None:
            self.on_event(event)

    # Part.alive stays True: gpiozero's callbacks run on its own pin threads.

    def close(self) -> None:
        self._rotor.close()
        if self._button is not None:
            self._button.close()


class SimEncoder(Part):
    """The twin: the virtual device's knob."""

    def __init__(self, *, on_event: EventCallback | None = None) -> None:
        self.on_event = on_event

    def turn(self, steps: int) -> None:
        for _ in range(abs(steps)):
            if self.on_event:
                self.on_event("DOWN" if steps > 0 else "UP")

    def push(self) -> None:
        if self.on_event:
            self.on_event("PUSH")
