"""A 4×4 matrix keypad scanned with gpiozero: rows as outputs, columns as pulled-up inputs.

No keypad class exists in gpiozero (issue #358) and the PyPI keypad libraries import RPi.GPIO,
so the scan is ours: drive one row low, read which columns follow it low. Debouncing is ours
too (gpiozero's MockPin has no bounce_time): a key counts as down after ``debounce_scans``
identical scans. A key held for ``hold_time`` also emits a hold event (C held 3 s: new game).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins.mock import MockPin

from .part import Part

log = logging.getLogger(__name__)

KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "M", "K", "C",
        "HABEN", "SOLL", "LOS", "OK", "MENU")
"""Logical keys the device understands."""

DEFAULT_LAYOUT: tuple[tuple[str, ...], ...] = (
    ("1", "2", "3", "HABEN"),
    ("4", "5", "6", "SOLL"),
    ("7", "8", "9", "C"),
    (".", "0", "K", "LOS"),
)
"""Logical keys on a standard ``123A/456B/789C/*0#D`` membrane: A Haben, B Soll, C C, D LOS,
``*`` the decimal point, ``#`` K (pressed twice: M). The encoder's push button is OK."""

KeyCallback = Callable[[str], None]


class MatrixKeypad(Part):
    """Scans the matrix from its own thread; ``poll(now)`` is one scan, so tests step it directly."""

    def __init__(
        self,
        rows: Sequence[int],
        cols: Sequence[int],
        layout: Sequence[Sequence[str]] = DEFAULT_LAYOUT,
        *,
        pin_factory: Any,
        on_key: KeyCallback | None = None,
        on_hold: KeyCallback | None = None,
        scan_interval: float = 0.02,
        debounce_scans: int = 2,
        hold_time: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if len(layout) != len(rows) or any(len(r) != len(cols) for r in layout):
            raise ValueError("layout must have one entry per row and column")
        unknown = {k for r in layout for k in r} - set(KEYS)
        if unknown:
            raise ValueError(f"unknown logical keys in layout: {sorted(unknown)}")
        self.layout = [list(r) for r in layout]
        self.on_key = on_key
        self.on_hold = on_hold
        self.scan_interval = scan_interval
        self.debounce_scans = debounce_scans
        self.hold_time = hold_time
        self._clock = clock
        self._stop = threading.Event()
        self._kick = threading.Event()
        self._thread: threading.Thread | None = None
        self._rows: list[DigitalOutputDevice] = []
        self._cols: list[DigitalInputDevice] = []
        try:
            self._rows = [DigitalOutputDevice(p, active_high=False, initial_value=False, pin_factory=pin_factory)
                          for p in rows]
            self._cols = [DigitalInputDevice(p, pull_up=True, pin_factory=pin_factory) for p in cols]
        except Exception:
            self.close()
            raise
        self._candidate: frozenset[tuple[int, int]] = frozenset()
        self._stable_count = debounce_scans
        self._down: dict[tuple[int, int], float] = {}
        self._held: set[tuple[int, int]] = set()
        for col in self._cols:
            col.when_activated = self._kick.set
        self._idle_rows()

    def _idle_rows(self) -> None:
        """Drive every row low: any key then pulls its column low and wakes the scan by an edge,
        so an idle keypad costs no CPU at all."""
        for row in self._rows:
            row.on()

    def scan(self) -> frozenset[tuple[int, int]]:
        """The raw matrix now: (row, col) of every closed contact."""
        closed = set()
        for row in self._rows:
            row.off()
        for r, row in enumerate(self._rows):
            row.on()
            for c, col in enumerate(self._cols):
                if col.is_active:
                    closed.add((r, c))
            row.off()
        self._idle_rows()
        return frozenset(closed)

    @property
    def busy(self) -> bool:
        """A key is down or the last scans have not settled: keep scanning."""
        return bool(self._down or self._candidate) or self._stable_count < self.debounce_scans

    def poll(self, now: float | None = None) -> None:
        """One scan: debounce, emit key-down and hold events."""
        now = self._clock() if now is None else now
        raw = self.scan()
        if raw != self._candidate:
            self._candidate, self._stable_count = raw, 1
        else:
            self._stable_count += 1
        if self._stable_count == self.debounce_scans:
            for pos in sorted(raw - self._down.keys()):
                self._down[pos] = now
                self._emit(self.on_key, pos)
            for pos in set(self._down) - raw:
                del self._down[pos]
                self._held.discard(pos)
        for pos, since in self._down.items():
            if pos not in self._held and now - since >= self.hold_time:
                self._held.add(pos)
                self._emit(self.on_hold, pos)

    def _emit(self, callback: KeyCallback | None, pos: tuple[int, int]) -> None:
        if callback is not None:
            callback(self.layout[pos[0]][pos[1]])

    def start(self) -> MatrixKeypad:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="keypad", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.busy:
                self._kick.wait()  # idle: sleep until a column edge (or close) wakes us
                self._kick.clear()
            try:
                with self.working():
                    self.poll()
            except Exception:  # a glitch on the bus must not kill the keypad
                log.exception("keypad scan failed")
            self._stop.wait(self.scan_interval)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        self._stop.set()
        self._kick.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1)
        for dev in (*self._cols, *self._rows):
            dev.close()
        self._rows, self._cols = [], []


class _RowPin(MockPin):
    """A row pin that pulls the column pins of held keys low while it is driven low."""

    matrix: MockKeyMatrix | None = None

    def _set_state(self, value: Any) -> None:
        super()._set_state(value)
        if self.matrix is not None:
            self.matrix.update()


class MockKeyMatrix:
    """An instrument for tests and benchmarks: a membrane keypad wired to gpiozero mock pins.

    Create it on the MockFactory *before* the keypad claims the pins; then ``hold(row, col)``
    and ``release(row, col)`` close and open contacts as a finger would.
    """

    def __init__(self, factory: Any, rows: Sequence[int], cols: Sequence[int]) -> None:
        self.rows = [factory.pin(p, pin_class=_RowPin) for p in rows]
        self.cols = [factory.pin(p) for p in cols]
        for pin in self.rows:
            pin.matrix = self
        self.closed: set[tuple[int, int]] = set()

    def hold(self, row: int, col: int) -> None:
        self.closed.add((row, col))
        self.update()

    def release(self, row: int, col: int) -> None:
        self.closed.discard((row, col))
        self.update()

    def update(self) -> None:
        for c, col in enumerate(self.cols):
            # A row driven low (state False) pulls the column low through a closed contact.
            low = any((r, c) in self.closed and not self.rows[r].state for r in range(len(self.rows))
                      if self.rows[r].function == "output")
            if low:
                col.drive_low()
            else:
                col.drive_high()


class SimKeypad(Part):
    """The twin for the desktop: logical keys pressed by the virtual device page."""

    def __init__(self, *, on_key: KeyCallback | None = None, on_hold: KeyCallback | None = None) -> None:
        self.on_key = on_key
        self.on_hold = on_hold
        self.pressed: list[str] = []

    def press(self, key: str) -> None:
        if key not in KEYS:
            raise ValueError(f"unknown key {key!r}")
        self.pressed.append(key)
        if self.on_key:
            self.on_key(key)

    def hold(self, key: str) -> None:
        """A long press: the key goes down, then is held past the hold time."""
        self.press(key)
        if self.on_hold:
            self.on_hold(key)

