"""A 4×4 matrix keypad scanned with gpiozero: rows driven low or released, columns as pulled-up inputs.

No keypad class exists in gpiozero (github.com/gpiozero/gpiozero/issues/358) and the PyPI keypad
libraries import RPi.GPIO, so the scan is ours: drive one row low, read which columns follow it low. The rows not being
scanned are released (inputs, high-impedance), never driven high: two keys down in one column
then join a low row to a released one instead of shorting a low output to a high one.
Debouncing is ours too (gpiozero's MockPin has no bounce_time): a key counts as down after
``debounce_scans`` identical scans. A scan with more than one key down is ambiguous on a matrix
without diodes (three keys on the corners of a rectangle show a fourth, ghost key), so it adds
no key: a key already down stays down, nothing is guessed. A key held for ``hold_time`` also
emits a hold event (C held 3 s: new game).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from words import text

from .gpio import DigitalInputDevice, GPIODevice, MockPin
from .layout import DEFAULT_LAYOUT
from .part import Part

log = logging.getLogger(__name__)

KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "M", "K", "C",
        "HABEN", "SOLL", "LOS", "OK", "MENU")
"""Logical keys the device understands."""

KeyCallback = Callable[[str], None]


class MatrixRow(GPIODevice):
    """One row line: driven low (scanned, or idle waiting for any key) or released (a high-impedance input).

    gpiozero has no tri-state output device; a GPIODevice keeps gpiozero's pin reservation and
    lifecycle while we switch the pin's function (lgpio claims it as output at level 0, or as input).
    """

    def drive_low(self) -> None:
        self.pin.function = "output"
        self.pin.state = False

    def release(self) -> None:
        self.pin.function = "input"

    @property
    def driven(self) -> bool:
        return bool(self.pin.function == "output")


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
            raise ValueError(text("service.keypad.layout"))
        unknown = {k for r in layout for k in r} - set(KEYS)
        if unknown:
            raise ValueError(text("service.keypad.layout_keys", keys=sorted(unknown)))
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
        self._rows: list[MatrixRow] = []
        self._cols: list[DigitalInputDevice] = []
        try:
            self._rows = [MatrixRow(p, pin_factory=pin_factory) for p in rows]
            self._cols = [DigitalInputDevice(p, pull_up=True, pin_factory=pin_factory) for p in cols]
        except Exception:
            self.close()
            raise
        self._candidate: frozenset[tuple[int, int]] = frozenset()
        self._stable_count = debounce_scans
        self._down: dict[tuple[int, int], float] = {}
        self._held: set[tuple[int, int]] = set()
        self._touched = False
        for col in self._cols:
            col.when_activated = self._kick.set
        self._idle_rows()

    def _idle_rows(self) -> None:
        """Drive every row low: any key then pulls its column low and wakes the scan by an edge,
        so an idle keypad costs no CPU at all. All rows at the same level: no key can short them."""
        for row in self._rows:
            row.drive_low()

    def scan(self) -> frozenset[tuple[int, int]]:
        """The raw matrix now: (row, col) of every closed contact, as far as a matrix can tell."""
        closed = set()
        for row in self._rows:
            row.release()
        for r, row in enumerate(self._rows):
            row.drive_low()
            for c, col in enumerate(self._cols):
                if col.is_active:
                    closed.add((r, c))
            row.release()
        self._idle_rows()
        return frozenset(closed)

    @property
    def busy(self) -> bool:
        """A key is down or the last scans have not settled: keep scanning."""
        return bool(self._down or self._candidate or self._touched) or self._stable_count < self.debounce_scans

    def poll(self, now: float | None = None) -> None:
        """One scan: debounce, emit key-down and hold events."""
        now = self._clock() if now is None else now
        raw = self.scan()
        self._touched = bool(raw)  # keys down, even ignored ones: keep scanning until they are up
        if len(raw) > 1:
            # Two keys in one column, a ghost, a hand on the pad: never guess. What is already
            # down stays down (no release, no second key-down); nothing new is added.
            raw = raw & self._down.keys()
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
    """A row pin that tells the key matrix whenever it is driven, released or changes level."""

    matrix: MockKeyMatrix | None = None

    def _set_state(self, value: Any) -> None:
        super()._set_state(value)
        if self.matrix is not None:
            self.matrix.update()

    def _set_function(self, value: Any) -> None:
        super()._set_function(value)
        if self.matrix is not None:
            self.matrix.update()


class MockKeyMatrix:
    """An instrument for tests and benchmarks: a membrane keypad (no diodes) wired to gpiozero mock pins.

    Create it on the MockFactory *before* the keypad claims the pins; then ``hold(row, col)``
    and ``release(row, col)`` close and open contacts as a finger would. Closed contacts join
    row and column lines into nets; a net with a row driven low reads low on its columns (the
    columns' pull-ups lose), a net with one row driven low and another driven high is a short,
    counted in ``shorts`` (on the Pi: two outputs fighting through the membrane).
    """

    def __init__(self, factory: Any, rows: Sequence[int], cols: Sequence[int]) -> None:
        self.rows = [factory.pin(p, pin_class=_RowPin) for p in rows]
        self.cols = [factory.pin(p) for p in cols]
        for pin in self.rows:
            pin.matrix = self
        self.closed: set[tuple[int, int]] = set()
        self.shorts = 0

    def hold(self, row: int, col: int) -> None:
        self.closed.add((row, col))
        self.update()

    def release(self, row: int, col: int) -> None:
        self.closed.discard((row, col))
        self.update()

    def _nets(self) -> list[tuple[set[int], set[int]]]:
        """(rows, cols) joined by closed contacts."""
        nets: list[tuple[set[int], set[int]]] = []
        seen: set[int] = set()
        for c0 in range(len(self.cols)):
            if c0 in seen:
                continue
            rows: set[int] = set()
            cols, todo = {c0}, [c0]
            while todo:
                c = todo.pop()
                for r, cc in self.closed:
                    if cc == c and r not in rows:
                        rows.add(r)
                        for r2, c2 in self.closed:
                            if r2 == r and c2 not in cols:
                                cols.add(c2)
                                todo.append(c2)
            seen |= cols
            nets.append((rows, cols))
        return nets

    def update(self) -> None:
        for rows, cols in self._nets():
            levels = {bool(self.rows[r].state) for r in rows if self.rows[r].function == "output"}
            if levels == {True, False}:
                self.shorts += 1
            for c in cols:
                if False in levels:
                    self.cols[c].drive_low()
                else:
                    self.cols[c].drive_high()
