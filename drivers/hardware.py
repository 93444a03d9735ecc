"""Choosing and opening the table's hardware: real on the Pi, simulated where the config says.

Nothing ever falls back to a simulation silently: a device configured as real that cannot be
opened is a :class:`HardwareError` naming the part and what to check.

The drivers (gpiozero) are imported when the parts are opened, not with the config: the first
screen ("Startet…") needs the config and the display only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .display import Display, SimDisplay, check_rotate, open_oled
from .layout import DEFAULT_LAYOUT

if TYPE_CHECKING:
    from .encoder import Encoder, SimEncoder
    from .keypad import MatrixKeypad, SimKeypad
    from .rfid import RfidReader, SimReader
    from .signals import Buzzer, StatusLed

log = logging.getLogger(__name__)


class HardwareError(RuntimeError):
    """A part configured as real is missing or unusable."""


def on_raspberry_pi() -> bool:
    for model in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
        try:
            if "raspberry pi" in Path(model).read_text(errors="replace").lower():
                return True
        except OSError:
            continue
    return False


@dataclass
class DisplayConfig:
    kind: str = "ssd1306"
    """ssd1306, sh1106 or sim."""
    i2c_port: int = 1
    address: int = 0x3C
    rotate: int = 0
    """0, or 2 for a panel mounted upside down (1 and 3 would need a portrait layout: refused)."""
    contrast: int = 0xCF


@dataclass
class KeypadConfig:
    kind: str = "matrix"
    rows: list[int] = field(default_factory=lambda: [5, 6, 13, 19])
    cols: list[int] = field(default_factory=lambda: [12, 16, 20, 21])
    layout: list[list[str]] = field(default_factory=lambda: [list(r) for r in DEFAULT_LAYOUT])
    hold_time: float = 3.0


@dataclass
class EncoderConfig:
    kind: str = "gpio"
    """gpio, sim or none."""
    a: int = 17
    b: int = 27
    button: int = 22


@dataclass
class BuzzerConfig:
    kind: str = "gpio"
    pin: int = 18
    volume: str = "high"


@dataclass
class LedConfig:
    kind: str = "gpio"
    pin: int = 23


@dataclass
class ReaderConfig:
    kind: str = "mfrc522"
    spi_port: int = 0
    spi_device: int = 0
    reset_pin: int = 25
    poll_interval: float = 0.035
    rx_gain_db: int = 48
    """Receiver gain (RFCfgReg.RxGain): 18, 23, 33, 38, 43 or 48 dB. 48 hears small stickers
    through a deed card; lower it only if a card far off the reader is read by mistake."""


@dataclass
class HardwareConfig:
    display: DisplayConfig = field(default_factory=DisplayConfig)
    keypad: KeypadConfig = field(default_factory=KeypadConfig)
    encoder: EncoderConfig = field(default_factory=EncoderConfig)
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)
    led: LedConfig = field(default_factory=LedConfig)
    reader: ReaderConfig = field(default_factory=ReaderConfig)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HardwareConfig:
        """Build from the config file's ``[hardware.*]`` tables; unknown keys are errors, not ignored."""
        out = cls()
        for f in fields(cls):
            section = data.get(f.name, {})
            target = getattr(out, f.name)
            known = {x.name for x in fields(target)}
            unknown = set(section) - known
            if unknown:
                raise ValueError(f"[hardware.{f.name}]: unknown keys {sorted(unknown)}")
            for key, value in section.items():
                setattr(target, key, value)
        out.check()
        return out

    def check(self) -> None:
        """Values the hardware cannot do are config errors at start, not a squeezed screen later."""
        from .rfid import RX_GAINS_DB

        check_rotate(self.display.rotate)
        if self.reader.rx_gain_db not in RX_GAINS_DB:
            raise ValueError(f"reader.rx_gain_db = {self.reader.rx_gain_db!r}: möglich sind {sorted(RX_GAINS_DB)}")

    def simulated(self) -> HardwareConfig:
        """Every part as its twin (``--sim``, and the default off a Pi)."""
        out = HardwareConfig.from_dict({})
        for part in (out.display, out.keypad, out.encoder, out.buzzer, out.led, out.reader):
            part.kind = "sim"
        return out


@dataclass
class Callbacks:
    on_key: Callable[[str], None]
    on_hold: Callable[[str], None]
    on_encoder: Callable[[str], None]
    on_tap: Callable[[str], None]
    on_reader_status: Callable[[bool, str], None]


@dataclass
class Hardware:
    """The opened parts. Closed in reverse order of opening, the display last with a final screen."""

    display: Display
    keypad: MatrixKeypad | SimKeypad
    encoder: Encoder | SimEncoder | None
    buzzer: Buzzer
    led: StatusLed
    reader: RfidReader | SimReader

    @property
    def simulated(self) -> bool:
        return isinstance(self.display, SimDisplay)

    def threads_alive(self) -> bool:
        """For the watchdog: every driver thread that should run does."""
        return all(part.alive for part in (self.keypad, self.buzzer, self.reader))

    def stalled(self, now: float) -> list[str]:
        """The parts whose thread died or hangs in one operation (for the watchdog)."""
        parts = {"Tastatur": self.keypad, "Summer": self.buzzer, "Leser": self.reader}
        return [name for name, part in parts.items() if part.stalled(now)]

    def start(self) -> None:
        self.keypad.start()
        if self.encoder is not None:
            self.encoder.start()
        self.reader.start()

    def close(self, last_screen: Any = None) -> None:
        for part in (self.reader, self.led, self.buzzer, self.encoder, self.keypad):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    log.exception("closing %s failed", type(part).__name__)
        self.display.close(last_screen)


def open_display(d: DisplayConfig) -> Display:
    """The display alone, first of all parts: it shows "Startet…" while the rest is loaded."""
    return SimDisplay() if d.kind == "sim" else open_oled(
        driver=d.kind, port=d.i2c_port, address=d.address, rotate=d.rotate, contrast=d.contrast)


def open_hardware(cfg: HardwareConfig, cb: Callbacks, *, pin_factory: Any = None,
                  display: Display | None = None) -> Hardware:
    """Open every part as configured. ``pin_factory`` defaults to gpiozero's (lgpio on a Pi);
    ``display``: one already opened for the first screen (see :func:`open_display`)."""
    from .encoder import Encoder, SimEncoder
    from .keypad import MatrixKeypad, SimKeypad
    from .rfid import RfidReader, SimReader
    from .signals import Buzzer, StatusLed, Volume

    real = any(p.kind != "sim" for p in (cfg.display, cfg.keypad, cfg.buzzer, cfg.led, cfg.reader)) or (
        cfg.encoder.kind not in ("sim", "none"))
    if real and pin_factory is None:
        pin_factory = _default_pin_factory()
    opened: list[Any] = []

    def part(name: str, make: Callable[[], Any]) -> Any:
        try:
            obj = make()
        except Exception as err:
            for o in reversed(opened):
                o.close()
            raise HardwareError(f"{name}: {err}") from err
        opened.append(obj)
        return obj

    shown = display
    display = part("Display", lambda: shown if shown is not None else open_display(cfg.display))
    k = cfg.keypad
    keypad = part("Tastatur", lambda: SimKeypad(on_key=cb.on_key, on_hold=cb.on_hold) if k.kind == "sim" else
                  MatrixKeypad(k.rows, k.cols, k.layout, pin_factory=pin_factory, on_key=cb.on_key,
                               on_hold=cb.on_hold, hold_time=k.hold_time))
    e = cfg.encoder
    encoder = None if e.kind == "none" else part("Drehknopf", lambda: SimEncoder(on_event=cb.on_encoder)
                                                  if e.kind == "sim" else Encoder(
        e.a, e.b, e.button, pin_factory=pin_factory, on_event=cb.on_encoder))
    b = cfg.buzzer
    buzzer = part("Summer", lambda: Buzzer(None if b.kind == "sim" else b.pin, pin_factory=pin_factory,
                                           volume=Volume[b.volume.upper()]))
    led = part("LED", lambda: StatusLed(None if cfg.led.kind == "sim" else cfg.led.pin, pin_factory=pin_factory))
    r = cfg.reader
    reader = part("RFID-Leser", lambda: SimReader(on_tap=cb.on_tap, on_status=cb.on_reader_status)
                  if r.kind == "sim" else RfidReader(
        pin_factory=pin_factory, spi_port=r.spi_port, spi_device=r.spi_device, reset_pin=r.reset_pin,
        poll_interval=r.poll_interval, rx_gain_db=r.rx_gain_db, on_tap=cb.on_tap,
        on_status=cb.on_reader_status))
    return Hardware(display, keypad, encoder, buzzer, led, reader)


def _default_pin_factory() -> Any:
    """gpiozero's lgpio factory (Bookworm's default, Pi 3 to 5). Loud if it cannot load."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as err:
        raise HardwareError(
            f"GPIO nicht verfügbar ({err}). Auf dem Pi: 'pip install lgpio'; anderswo: bankleser run --sim"
        ) from err
