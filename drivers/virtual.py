"""The virtual device: hands and eyes for the box's own drivers, where no box is.

``bankleser run --sim`` opens the very drivers a Pi runs (:mod:`drivers.keypad`, :mod:`drivers.encoder`,
:mod:`drivers.rfid`, :mod:`drivers.display`), each with its own thread as on the box, on what stands in for
the table: gpiozero's ``MockFactory`` (the pins ``GPIOZERO_PIN_FACTORY=mock`` gives), the membrane model
(:class:`drivers.keypad.MockKeyMatrix`), the MFRC522 chip model (:mod:`drivers.mfrc522_model`) and luma's
dummy panel. The virtual device's page acts as fingers would: a key closes its contact until the keypad's
scan has debounced it, the knob toggles the encoder's pins in quadrature, a card lies on the reader until
the reader has woken, selected and halted it. Each finger waits until its driver has reported what it did,
so a web request that pressed a key can answer with the frame that key led to.

Two liberties of tempo, none of code: the keypad scans every 5 ms while a key is down (the box: every
20 ms; an idle keypad does not scan at all, on either), and a held key is held "3 s" on the keypad's own
clock (the knob's button its 30 ms of debounce on the knob's), which the finger moves on at once. A game
through the virtual device is some 50 keys, and the suite plays dozens of games: at the box's tempo they
would take a minute more, and a newcomer's "hold C" three seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from PIL import Image

from words import text

from .display import Display
from .encoder import Encoder
from .keypad import KEYS, MatrixKeypad, MockKeyMatrix
from .panel import HEIGHT, WIDTH
from .rfid import RfidReader, StatusCallback
from .screen import Screen

log = logging.getLogger(__name__)

EXTRA_ROW = ("M", "MENU", "OK", "OK")
"""The keys the virtual device offers beyond the box's 4×4 membrane, as a fifth row (OK is a wide key that
spans two contacts: a matrix row needs as many keys as there are columns)."""
EXTRA_ROW_GPIO = 24
"""The fifth row's line: a GPIO no default part uses."""
SCAN_INTERVAL = 0.005
"""Seconds between the keypad's scans while a key is down (the driver's default, the box's, is 0.02)."""
KEY, HOLD, KNOB, TAP = range(4)
"""What a driver reported: a key down, a key held, the knob, a card."""
FINGER_TIMEOUT = 5.0
"""Seconds a finger waits for its driver to report; a driver that never does is logged, the request answered."""


class Frame(msgspec.Struct, frozen=True):
    """One frame the display sent to its panel."""

    seq: int
    screen: Screen
    image: Image.Image

    @property
    def text(self) -> str:
        return self.screen.text()


class FrameLog:
    """The frames a display sent, numbered (its ``on_frame``): what the virtual device's page and the tests read."""

    def __init__(self, history: int = 500) -> None:
        self.frames: deque[Frame] = deque(maxlen=history)
        self._seq = 0
        self._closed = False
        self._changed = threading.Condition()
        self._subscribers: list[Callable[[Frame], None]] = []

    def record(self, screen: Screen, image: Image.Image) -> None:
        with self._changed:
            self._seq += 1
            frame = Frame(self._seq, screen, image)
            self.frames.append(frame)
            self._changed.notify_all()
        for callback in list(self._subscribers):  # outside the lock: a stream's wake-up may take its time
            callback(frame)

    def subscribe(self, callback: Callable[[Frame], None]) -> Callable[[], None]:
        """Call ``callback`` with every new frame (the virtual device's streams); returns the unsubscribe."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    @property
    def last(self) -> Frame | None:
        return self.frames[-1] if self.frames else None

    def wait_for(self, after_seq: int, timeout: float) -> Frame | None:
        """Block until a frame newer than ``after_seq`` exists (the virtual device's stream)."""
        with self._changed:
            self._changed.wait_for(lambda: self._seq > after_seq or self._closed, timeout)
            return self.last if self._seq > after_seq else None

    def close(self) -> None:
        """The display is off: nobody waits for another frame."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()


def recorded_display(*, contrast: int = 0xCF, threaded: bool = True) -> tuple[Display, FrameLog]:
    """The display driver on luma's dummy panel, with the log of the frames it sent."""
    frames = FrameLog()
    return Display(_panel(), contrast=contrast, threaded=threaded, on_frame=frames.record), frames


def _panel() -> Any:
    from luma.core.device import dummy

    return dummy(width=WIDTH, height=HEIGHT, mode="1")


def check_uid(uid: str) -> str:
    """The UID as the reader reports it (lower-case hex); ValueError for what no card could send."""
    from .mfrc522_model import Card

    uid = uid.strip().lower()
    try:
        if any(c not in "0123456789abcdef" for c in uid):
            raise ValueError(uid)
        Card(uid)  # 4, 7 or 10 bytes; no single-size UID starts with the cascade tag
    except ValueError:
        raise ValueError(text("service.reader.not_a_uid", uid=repr(uid))) from None
    return uid


class VirtualDevice:
    """The table the simulated parts sit on, and the fingers that use them. One hand: one action at a time."""

    def __init__(self) -> None:
        from gpiozero.pins.mock import MockFactory

        self.factory = MockFactory()
        """Every simulated part's pins; never gpiozero's global factory (a real part may use that one)."""
        self.frames = FrameLog()
        self.matrix: MockKeyMatrix | None = None
        self.chip: Any = None
        """The MFRC522 model (:class:`drivers.mfrc522_model.Mfrc522Model`) once the reader is simulated."""
        self.keypad: MatrixKeypad | None = None
        self.reader: RfidReader | None = None
        self._knob: tuple[int, int, int] | None = None
        self._encoder: Encoder | None = None
        self._skipped = 0.0
        self._last_key: tuple[int, int] | None = None
        self._hand = threading.Lock()
        self._heard: deque[tuple[int, int, str]] = deque(maxlen=64)
        """The drivers' last reports, numbered."""
        self._reports = 0
        self._news = threading.Condition()

    # Opening the parts: the drivers as the box opens them, on the virtual table -----------------------------

    def _hears(self, kind: int, callback: Callable[[str], None]) -> Callable[[str], None]:
        """The driver's callback, noted after it ran: a finger waits for it (the daemon has queued the event)."""

        def heard(value: str) -> None:
            callback(value)
            with self._news:
                self._heard.append((self._reports, kind, value))
                self._reports += 1
                self._news.notify_all()

        return heard

    def open_keypad(self, rows: Sequence[int], cols: Sequence[int], layout: Sequence[Sequence[str]], *,
                    hold_time: float, on_key: Callable[[str], None], on_hold: Callable[[str], None]) -> MatrixKeypad:
        """The configured matrix and a fifth row for the keys the virtual device has beyond it."""
        if len(cols) == len(EXTRA_ROW) and not {k for row in layout for k in row} & set(EXTRA_ROW):
            rows, layout = [*rows, EXTRA_ROW_GPIO], [*layout, EXTRA_ROW]
        self.matrix = MockKeyMatrix(self.factory, rows, cols)
        self.keypad = MatrixKeypad(rows, cols, layout, pin_factory=self.factory, hold_time=hold_time,
                                   scan_interval=SCAN_INTERVAL,
                                   on_key=self._hears(KEY, on_key), on_hold=self._hears(HOLD, on_hold),
                                   clock=self._clock)
        return self.keypad

    def _clock(self) -> float:
        """The keypad's and the knob's clock: the box's, moved on by what the fingers held "for a while"."""
        return time.monotonic() + self._skipped

    def open_encoder(self, a: int, b: int, button: int, *, on_event: Callable[[str], None]) -> Encoder:
        encoder = Encoder(a, b, button, pin_factory=self.factory, on_event=self._hears(KNOB, on_event),
                          clock=self._clock)
        self._knob, self._encoder = (a, b, button), encoder
        return encoder

    def open_reader(self, *, reset_pin: int, poll_interval: float, rx_gain_db: int, on_tap: Callable[[str], None],
                    on_status: StatusCallback) -> RfidReader:
        """The reader on the chip model, one SPI transfer per register access as hardware SPI does it (gpiozero's
        bit-banged mock SPI would spend the laptop's CPU toggling pins, not running the driver)."""
        from .mfrc522_model import Mfrc522Model, RegisterSPI

        self.chip = Mfrc522Model(pin_factory=self.factory, reset_pin=reset_pin)
        self.reader = RfidReader(pin_factory=self.factory, spi=RegisterSPI(self.chip), reset_pin=reset_pin,
                                 poll_interval=poll_interval, rx_gain_db=rx_gain_db,
                                 on_tap=self._hears(TAP, on_tap), on_status=on_status)
        return self.reader

    def open_display(self, *, contrast: int) -> Display:
        """The display driver, threaded as on the box, on luma's dummy panel; its frames go to :attr:`frames`."""
        return Display(_panel(), contrast=contrast, on_frame=self.frames.record)

    def close(self) -> None:
        self.frames.close()

    # The fingers ----------------------------------------------------------------------------------------------

    def _mark(self) -> int:
        with self._news:
            for pin in self.factory.pins.values():
                pin.clear_states()  # mock pins keep every change for ever: a long evening must not grow them
            return self._reports

    def _wait(self, event: tuple[int, str], since: int) -> bool:
        """Until the driver has reported ``event`` (after the mark ``since``)."""
        with self._news:
            def seen() -> bool:
                return any(n >= since and (kind, value) == event for n, kind, value in self._heard)

            done = self._news.wait_for(seen, FINGER_TIMEOUT)
        if not done:
            log.warning("virtual device: %s %s not reported by its driver", *event)
        return done

    def _until(self, ready: Callable[[], bool]) -> None:
        deadline = time.monotonic() + FINGER_TIMEOUT
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.005)

    def _position(self, key: str) -> tuple[int, int]:
        keypad = self.keypad
        if keypad is not None and key in KEYS:
            for r, row in enumerate(keypad.layout):
                if key in row:
                    return r, row.index(key)
        raise ValueError(text("service.keypad.unknown", key=repr(key)))

    def press(self, key: str, *, hold: bool = False) -> None:
        """The key's contact closed until the keypad reported it (and, ``hold``, its hold), then opened."""
        r, c = self._position(key)
        keypad, matrix = self.keypad, self.matrix
        assert keypad is not None and matrix is not None
        with self._hand:
            if (r, c) == self._last_key:
                # The same key again: only once the scan has seen it up is it a new key-down. Another key
                # needs no wait: the scan reports it once its contact is the only one closed.
                self._until(lambda: not keypad.busy)
            self._last_key = (r, c)
            since = self._mark()
            matrix.hold(r, c)
            try:
                if self._wait((KEY, key), since) and hold:
                    self._skipped += keypad.hold_time
                    self._wait((HOLD, key), since)
            finally:
                matrix.release(r, c)

    def hold(self, key: str) -> None:
        self.press(key, hold=True)

    def turn(self, steps: int) -> None:
        """Clockwise (positive: DOWN) or counter-clockwise, one detent a step: a full quadrature cycle each."""
        assert self._knob is not None
        a, b = (self.factory.pin(p) for p in self._knob[:2])
        first, second = (a, b) if steps > 0 else (b, a)
        with self._hand:
            for _ in range(abs(steps)):
                since = self._mark()
                first.drive_low()
                second.drive_low()
                first.drive_high()
                second.drive_high()
                self._wait((KNOB, "DOWN" if steps > 0 else "UP"), since)

    def push(self) -> None:
        """The knob's button down for the encoder's debounce time (on its clock), then up."""
        assert self._knob is not None
        button = self.factory.pin(self._knob[2])
        assert self._encoder is not None
        with self._hand:
            since = self._mark()
            button.drive_low()
            self._skipped += self._encoder.debounce  # held as long as the debounce asks
            button.drive_high()
            self._wait((KNOB, "PUSH"), since)

    def tap(self, uid: str) -> None:
        """The card on the reader until the reader reported it, then lifted. The same card again waits until the
        reader has seen the field empty: a second presentation, as a hand lifting and tapping again gives."""
        uid = check_uid(uid)
        reader, chip = self.reader, self.chip
        assert reader is not None and chip is not None
        with self._hand:
            self._until(lambda: reader.present != uid)
            since = self._mark()
            chip.present(uid)
            try:
                self._wait((TAP, uid), since)
            finally:
                chip.lift()
