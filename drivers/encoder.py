"""The rotary encoder with push button: UP, DOWN and PUSH for the menus (gpiozero)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from .gpio import Button, RotaryEncoder
from .part import Part

EventCallback = Callable[[str], None]


class Encoder(Part):
    """Clockwise is DOWN (the next menu entry), counter-clockwise UP; the button PUSH.

    The button is debounced on a stable level, so a press and release with contact bounce is one
    PUSH, never two (a second PUSH in a menu confirms what nobody confirmed). Two filters:

    * ``Button(bounce_time=debounce)``: on the Pi, lgpio only reports a level that stayed
      stable that long. gpiozero's MockPin accepts bounce_time but ignores it, so
    * our own filter, the same on the Pi and in tests: a press counts once the contact has been
      closed without interruption for ``debounce`` seconds, judged at the next edge (the
      release) or by a timer while the button is still held, whichever comes first, and at most
      once per press. Every edge restarts the count: a bouncing contact never adds up.
    """

    def __init__(self, a: int, b: int, button: int | None, *, pin_factory: Any,
                 on_event: EventCallback | None = None, debounce: float = 0.03,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.on_event = on_event
        self.debounce = debounce
        """Seconds a press must stay closed to count."""
        self._clock = clock
        self._lock = threading.Lock()
        self._low_since: float | None = None
        """When the contact last closed; None while it is open."""
        self._counted = False
        """This closure has already given its PUSH."""
        self._timer: threading.Timer | None = None
        self._rotor = RotaryEncoder(a, b, max_steps=0, pin_factory=pin_factory)
        self._rotor.when_rotated_clockwise = lambda: self._emit("DOWN")
        self._rotor.when_rotated_counter_clockwise = lambda: self._emit("UP")
        self._button: Button | None = None
        if button is not None:
            self._button = Button(button, pull_up=True, bounce_time=debounce, pin_factory=pin_factory)
            self._button.when_pressed = self._closed
            self._button.when_released = self._opened

    def _closed(self) -> None:
        with self._lock:
            self._low_since, self._counted = self._clock(), False
            self._restart_timer(self._low_since)

    def _opened(self) -> None:
        with self._lock:
            since, self._low_since = self._low_since, None
            self._restart_timer(None)
            push = since is not None and not self._counted and self._clock() - since >= self.debounce
        if push:
            self._emit("PUSH")

    def _restart_timer(self, since: float | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if since is not None:
            self._timer = threading.Timer(self.debounce, self._settled, args=(since,))
            self._timer.daemon = True
            self._timer.start()

    def _settled(self, since: float) -> None:
        """The timer: still held, by the same closure, for long enough? Then that is the PUSH, now."""
        with self._lock:
            push = (self._low_since == since and not self._counted
                    and self._clock() - since >= self.debounce)
            if push:
                self._counted = True
        if push:
            self._emit("PUSH")

    def _emit(self, event: str) -> None:
        if self.on_event is not None:
            self.on_event(event)

    # Part.alive stays True: gpiozero's callbacks run on its own pin threads.

    def close(self) -> None:
        with self._lock:
            self._restart_timer(None)
            self._low_since = None
        self._rotor.close()
        if self._button is not None:
            self._button.close()
