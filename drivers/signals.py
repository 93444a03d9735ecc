"""The buzzer and the LED: short tunes for "done", "refused", "card read", "new game".

The buzzer is a passive piezo on a PWM pin (gpiozero ``PWMOutputDevice``): the frequency is the
note, the duty cycle the volume (off / low / high, the original's "." key with no card).
Tunes play from a worker thread, so a tone never blocks the banker's next key.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from enum import Enum
from typing import Any

from words import text

from .gpio import LED, PWMOutputDevice
from .part import Part

Note = tuple[float, float]
"""(frequency in Hz, 0 for a rest; seconds)."""

TUNES: dict[str, tuple[Note, ...]] = {
    "done": ((1047.0, 0.06), (0.0, 0.03), (1319.0, 0.09)),  # C6 E6: rising, "ok"
    "refused": ((330.0, 0.18), (0.0, 0.05), (262.0, 0.30)),  # E4 C4: falling, "no"
    "card": ((1760.0, 0.04),),  # A6 blip: card read
    "new_game": ((523.0, 0.1), (659.0, 0.1), (784.0, 0.1), (1047.0, 0.25)),  # C major arpeggio
    "end": ((784.0, 0.2), (659.0, 0.2), (523.0, 0.2), (392.0, 0.5)),  # time is up
    "key": ((2093.0, 0.015),),  # key click
}


class Volume(Enum):
    OFF = 0.0
    LOW = 0.05
    HIGH = 0.5

    def next(self) -> Volume:
        order = [Volume.OFF, Volume.LOW, Volume.HIGH]
        return order[(order.index(self) + 1) % len(order)]


class Buzzer(Part):
    """Plays tunes on a PWM pin from its own thread; ``played`` keeps what was asked, in order."""

    stall_after = 15.0  # the longest tune is a few seconds

    def __init__(self, pin: int | None, *, pin_factory: Any, volume: Volume = Volume.HIGH) -> None:
        self.volume = volume
        self.played: list[str] = []
        self._pwm = PWMOutputDevice(pin, frequency=1000, initial_value=0, pin_factory=pin_factory) if pin else None
        self._silence()  # gpiozero starts PWM at duty 0 on construction: stop it until a tune plays
        self._queue: queue.Queue[tuple[tuple[Note, ...], Volume | None] | None] = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        self._thread.start()

    def attach(self, pin: int, pin_factory: Any) -> None:
        """Sound on ``pin`` from now on: the buzzer's pin came up late (it played silently until then)."""
        pwm = PWMOutputDevice(pin, frequency=1000, initial_value=0, pin_factory=pin_factory)
        pwm.value = 0
        pwm.frequency = None
        self._pwm = pwm

    def beep(self) -> None:
        """One short tone whatever the volume setting (the self-test: is the buzzer wired?)."""
        if self._pwm is not None:
            self._queue.put((TUNES["card"], Volume.HIGH))

    def play(self, tune: str) -> None:
        if tune not in TUNES:
            raise ValueError(text("service.buzzer.tune", tune=repr(tune)))
        self.played.append(tune)
        if self.volume is not Volume.OFF and self._pwm is not None:
            self._queue.put((TUNES[tune], None))

    def _run(self) -> None:
        while not self._stop.is_set():
            item = self._queue.get()
            if item is None:
                return
            with self.working():
                self._sound(*item)

    def _sound(self, notes: Sequence[Note], volume: Volume | None = None) -> None:
        assert self._pwm is not None
        for freq, seconds in notes:
            if self._stop.is_set():
                break
            if freq:
                self._pwm.frequency = freq
                self._pwm.value = (volume or self.volume).value
            else:
                self._pwm.value = 0
            self._stop.wait(seconds)
        self._silence()

    def _silence(self) -> None:
        """Duty 0 and PWM stopped: no lgpio PWM entry left running between tunes (for hours)."""
        if self._pwm is not None:
            self._pwm.value = 0
            self._pwm.frequency = None

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        self._queue.put(None)
        self._thread.join(timeout=1)
        if self._pwm is not None:
            self._pwm.close()


class StatusLed(Part):
    """One LED: lit while awake, a blink for each acknowledged transaction."""

    def __init__(self, pin: int | None, *, pin_factory: Any) -> None:
        self._led = LED(pin, pin_factory=pin_factory) if pin else None
        self._on = False
        """What was asked, kept without a pin too: the simulation's LED is shown on the virtual device."""

    def attach(self, pin: int, pin_factory: Any) -> None:
        """Light ``pin`` from now on: the LED's pin came up late."""
        self._led = LED(pin, pin_factory=pin_factory)

    @property
    def lit(self) -> bool:
        """Whether it is on now (the virtual device shows it)."""
        return bool(self._led.value) if self._led else self._on

    def toggle(self) -> None:
        """On if off, off if on (the self-test)."""
        self._on = not self._on
        if self._led:
            self._led.toggle()

    def on(self) -> None:
        self._on = True
        if self._led:
            self._led.on()

    def off(self) -> None:
        self._on = False
        if self._led:
            self._led.off()

    def blink(self, times: int = 1) -> None:
        if self._led:
            self._led.blink(on_time=0.08, off_time=0.08, n=times, background=True)

    def close(self) -> None:
        if self._led:
            self._led.close()
