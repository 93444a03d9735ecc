"""Choosing and opening the table's hardware: real on the Pi, simulated where the config says.

A simulated part is the same driver on a virtual table (:mod:`drivers.virtual`): gpiozero's mock pins, the
keypad's membrane model, the MFRC522 chip model, luma's dummy panel. What a newcomer plays on a laptop is the
code that runs on the box.

Nothing ever falls back to a simulation silently. A part configured as real that cannot be opened
(a loose wire, I²C or SPI off, no GPIO permission) does not stop the box either: it gets a
stand-in that does nothing, the cause and the fix are logged once (:mod:`drivers.hints`) and kept
in :attr:`Hardware.faults` for the OLED and the pages, and a thread tries to open it again every
few seconds. A hand-wired box has a wrong wire on its first evening: it must still come up, serve
its page and say which wire.

The drivers (gpiozero, and luma and Pillow for the display) are imported when the parts are opened,
not with the config: the first frame (:mod:`drivers.splash`) is on the panel before any of them loads.
The display is opened last, so that luma's set-up, which blanks the panel, is followed at once by the
start screen.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, MutableMapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import msgspec

from words import language, text

from .hints import Access, display_hint, gpio_hint, pin_hint, reader_hint, spi_hint
from .layout import DEFAULT_LAYOUT
from .panel import ADDRESS, CONTRAST, I2C_PORT, KIND, KINDS, ROTATE
from .part import Part, part_name
from .tables import ConfigError, check_record, read_table, seconds

if TYPE_CHECKING:
    from .display import Display
    from .encoder import Encoder
    from .keypad import MatrixKeypad
    from .rfid import RfidReader
    from .signals import Buzzer, StatusLed
    from .virtual import VirtualDevice

log = logging.getLogger(__name__)
T = TypeVar("T")


RETRY_EVERY = 5.0
"""Seconds between attempts to open the parts that are missing."""


class HardwareError(RuntimeError):
    """A part configured as real is missing or unusable."""


class Absent(Part):
    """Stands in for a keypad, knob or reader that did not open: nothing comes from it until it does."""


ROTATE_WORDS = "service.config.rotate"
GPIO_WORDS = "service.config.gpio"
"""The keys of what a key of ``[hardware.*]`` takes, in words (rendered when a value is wrong: drivers.tables)."""
Gpio = Annotated[int, msgspec.Meta(description=GPIO_WORDS)]
"""A GPIO of the header, by its BCM number (whether the header has it, and it is free: checked together)."""
Gpios = Annotated[list[int], msgspec.Meta(min_length=1, max_length=8, description="service.config.gpios")]
HEADER_GPIOS = range(2, 28)
"""The GPIOs of the 40-pin header that a part may use (every Pi since the B+)."""
RESERVED_GPIOS = {0: "ID-EEPROM (ID_SD)", 1: "ID-EEPROM (ID_SC)"}
"""GPIOs 0 and 1 are the bus of a HAT's ID EEPROM, read by the firmware at boot: the config's check refuses them
and the wiring diagram will not draw a wire to them."""


if TYPE_CHECKING:
    DisplayKind = str
else:
    DisplayKind = Literal[(*KINDS, "sim")]
    """What ``[hardware.display] kind`` allows: a controller of :data:`drivers.panel.CONTROLLERS`, or "sim" (the
    check and its words, "erlaubt … oder "sim"", follow the list)."""


class DisplayConfig(msgspec.Struct):
    kind: DisplayKind = KIND
    """A controller of :data:`drivers.panel.CONTROLLERS` (ssd1306, sh1106) or sim."""
    i2c_port: Annotated[int, msgspec.Meta(ge=0, description="service.config.i2c_port")] = I2C_PORT
    address: Annotated[int, msgspec.Meta(ge=0x3C, le=0x3D, description="service.config.address")] = ADDRESS
    rotate: Annotated[int, msgspec.Meta(ge=0, le=2, multiple_of=2, description=ROTATE_WORDS)] = ROTATE
    """0, or 2 for a panel mounted upside down (1 and 3 would need a portrait layout: refused)."""
    contrast: Annotated[int, msgspec.Meta(ge=0, le=255, description="service.config.contrast")] = CONTRAST


class KeypadConfig(msgspec.Struct):
    kind: Literal["matrix", "sim"] = "matrix"
    rows: Gpios = msgspec.field(default_factory=lambda: [5, 6, 13, 19])
    cols: Gpios = msgspec.field(default_factory=lambda: [12, 16, 20, 21])
    layout: Annotated[list[list[str]], msgspec.Meta(
        description="service.config.layout")] = \
        msgspec.field(default_factory=lambda: [list(r) for r in DEFAULT_LAYOUT])
    hold_time: seconds(0.5, 10, "service.config.hold_time") = 3.0  # type: ignore[valid-type]


class EncoderConfig(msgspec.Struct):
    kind: Literal["gpio", "sim", "none"] = "gpio"
    """gpio, sim or none."""
    a: Gpio = 17
    b: Gpio = 27
    button: Gpio = 22


class BuzzerConfig(msgspec.Struct):
    kind: Literal["gpio", "sim"] = "gpio"
    pin: Gpio = 18
    volume: Literal["off", "low", "high"] = "high"


class LedConfig(msgspec.Struct):
    kind: Literal["gpio", "sim"] = "gpio"
    pin: Gpio = 23


class ReaderConfig(msgspec.Struct):
    kind: Literal["mfrc522", "sim"] = "mfrc522"
    spi_port: Annotated[int, msgspec.Meta(ge=0, le=1, description="service.config.spi_port")] = 0
    spi_device: Annotated[int, msgspec.Meta(ge=0, le=2, description="service.config.spi_device")] = 0
    reset_pin: Gpio = 25
    poll_interval: seconds(0.01, 0.5, "service.config.poll_interval") = 0.035  # type: ignore[valid-type]
    rx_gain_db: Literal[18, 23, 33, 38, 43, 48] = 48
    """Receiver gain (RFCfgReg.RxGain): 18, 23, 33, 38, 43 or 48 dB (:data:`drivers.rfid.RX_GAINS_DB`). 48 hears
    small stickers through a deed card; lower it only if a card far off the reader is read by mistake."""


class HardwareConfig(msgspec.Struct):
    display: DisplayConfig = msgspec.field(default_factory=DisplayConfig)
    keypad: KeypadConfig = msgspec.field(default_factory=KeypadConfig)
    encoder: EncoderConfig = msgspec.field(default_factory=EncoderConfig)
    buzzer: BuzzerConfig = msgspec.field(default_factory=BuzzerConfig)
    led: LedConfig = msgspec.field(default_factory=LedConfig)
    reader: ReaderConfig = msgspec.field(default_factory=ReaderConfig)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HardwareConfig:
        """Build from the config file's ``[hardware.*]`` tables; a wrong or unknown key is a :class:`ConfigError`
        naming every one of them, never ignored."""
        problems: list[str] = []
        if not isinstance(data, dict):
            raise ConfigError([text("service.config.hardware_tables")])
        for name in sorted(set(data) - set(cls.__struct_fields__)):
            problems.append(text("service.config.unknown_table", table=f"[hardware.{name}]",
                                 known=", ".join(f"[hardware.{n}]" for n in cls.__struct_fields__)))
        tables: dict[str, Any] = {name: read_table(_TABLES[name], data.get(name, {}), f"hardware.{name}", problems)
                                  for name in cls.__struct_fields__}
        out = cls(**tables)
        out._check_together(problems)
        if problems:
            raise ConfigError(problems)
        return out

    def check(self) -> None:
        """Values the hardware cannot do are config errors at start, not a squeezed screen later (also for a
        config changed in code after it was read)."""
        problems: list[str] = []
        for name in self.__struct_fields__:
            check_record(getattr(self, name), f"hardware.{name}", problems)
        if not problems:
            self._check_together(problems)
        if problems:
            raise ConfigError(problems)

    def _check_together(self, problems: list[str]) -> None:
        """What no single key shows: the keypad's layout against its rows and columns, a GPIO used twice."""
        k = self.keypad
        if k.kind == "matrix" and (len(k.layout) != len(k.rows) or any(len(row) != len(k.cols) for row in k.layout)):
            problems.append(text("service.config.layout_size", given=len(k.layout), rows=len(k.rows),
                                 cols=len(k.cols)))
        if k.layout != [list(r) for r in DEFAULT_LAYOUT]:
            from .keypad import KEYS  # gpiozero: only for a layout of one's own

            unknown = sorted({key for row in k.layout for key in row} - set(KEYS))
            if unknown:
                problems.append(text("service.config.layout_keys", unknown=", ".join(unknown), known=", ".join(KEYS)))
        r = self.reader
        if r.kind != "sim" and r.spi_device >= len(SPI_PINS[r.spi_port][3]):
            problems.append(text("service.config.spi_absent", port=r.spi_port, device=r.spi_device))
        on_header = True
        for key, gpio in self.gpios(every=True):
            if gpio in RESERVED_GPIOS:
                problems.append(text("service.config.gpio_reserved", key=key, gpio=gpio, use=RESERVED_GPIOS[gpio],
                                     allowed=text(GPIO_WORDS)))
            elif gpio not in HEADER_GPIOS:
                problems.append(text("service.config.gpio_absent", key=key, gpio=gpio, allowed=text(GPIO_WORDS)))
            else:
                continue
            on_header = False
        used: dict[int, str] = {}
        for key, gpio in self.gpios() if on_header else ():
            if gpio in used:
                problems.append(text("service.config.gpio_taken", key=key, gpio=gpio, other=used[gpio]))
            used.setdefault(gpio, key)

    def gpios(self, *, every: bool = False) -> list[tuple[str, int]]:
        """Every GPIO the configured real parts use, with the key (or bus) that names it; ``every``: the keys of
        simulated parts too, and no bus."""
        out: list[tuple[str, int]] = []
        if self.display.kind != "sim" and self.display.i2c_port == 1 and not every:
            out += [("I²C-1 (SDA)", 2), ("I²C-1 (SCL)", 3)]
        r = self.reader
        if every:
            out.append(("[hardware.reader] reset_pin", r.reset_pin))
        elif r.kind != "sim":
            sclk, mosi, miso, selects = SPI_PINS[r.spi_port]
            out += [(f"SPI{r.spi_port} (SCLK)", sclk), (f"SPI{r.spi_port} (MOSI)", mosi),
                    (f"SPI{r.spi_port} (MISO)", miso)]
            if r.spi_device < len(selects):
                out.append((f"SPI{r.spi_port} (CE{r.spi_device})", selects[r.spi_device]))
            out.append(("[hardware.reader] reset_pin", r.reset_pin))
        k = self.keypad
        if k.kind != "sim" or every:
            out += [(f"[hardware.keypad] rows[{i}]", g) for i, g in enumerate(k.rows)]
            out += [(f"[hardware.keypad] cols[{i}]", g) for i, g in enumerate(k.cols)]
        e = self.encoder
        if e.kind == "gpio" or every:
            out += [(f"[hardware.encoder] {key}", getattr(e, key)) for key in ("a", "b", "button")]
        if self.buzzer.kind != "sim" or every:
            out.append(("[hardware.buzzer] pin", self.buzzer.pin))
        if self.led.kind != "sim" or every:
            out.append(("[hardware.led] pin", self.led.pin))
        return out

    def simulated(self) -> HardwareConfig:
        """Every part simulated (``--sim``, and the default off a Pi): its driver on the virtual table."""
        out = HardwareConfig.from_dict({})
        for part in (out.display, out.keypad, out.encoder, out.buzzer, out.led, out.reader):
            part.kind = "sim"
        return out


_TABLES: dict[str, type[msgspec.Struct]] = {
    "display": DisplayConfig, "keypad": KeypadConfig, "encoder": EncoderConfig, "buzzer": BuzzerConfig,
    "led": LedConfig, "reader": ReaderConfig}

SPI_PINS = {0: (11, 10, 9, (8, 7)), 1: (21, 20, 19, (18, 17, 16))}
"""SPI bus → (SCLK, MOSI, MISO, chip selects) GPIOs (SPI1 needs ``dtoverlay=spi1-3cs``): what the config's check
allows and what :mod:`device.prints.wiring` draws."""


class Callbacks(msgspec.Struct):
    on_key: Callable[[str], None]
    on_hold: Callable[[str], None]
    on_encoder: Callable[[str], None]
    on_tap: Callable[[str], None]
    on_reader_status: Callable[[bool, str], None]
    on_parts: Callable[[], None] = lambda: None
    """A missing part came up: the pages say it anew."""


PARTS = ("display", "keypad", "encoder", "buzzer", "led", "reader")
"""The parts' identifiers, in the order they are opened; the names a person reads come from the catalogue
(:func:`drivers.part.part_name`: "RFID-Leser", "RFID reader")."""


class Hardware:
    """The opened parts (or their stand-ins). Closed in reverse order of opening, the display last with
    a final screen."""

    def __init__(self, display: Display, keypad: MatrixKeypad | Absent,
                 encoder: Encoder | Absent | None, buzzer: Buzzer, led: StatusLed,
                 reader: RfidReader | Absent, *, worded: dict[str, Worded] | None = None,
                 opener: _Opener | None = None, retry_every: float = RETRY_EVERY,
                 virtual: VirtualDevice | None = None) -> None:
        self.display = display
        self.keypad = keypad
        self.encoder = encoder
        self.buzzer = buzzer
        self.led = led
        self.reader = reader
        self.worded: dict[str, Worded] = {} if worded is None else worded
        """Part identifier -> its causes with their fixes in each language, one line each, for each part that is
        missing now (GPIO's cause is every GPIO part's: :mod:`device.daemon.parts` says it once). Replaced whole by
        the retry thread."""
        self.opener = opener
        self.retry_every = retry_every
        self.virtual = virtual
        """The virtual table of the simulated parts, and its fingers (None: every part is real)."""
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._started = False
        self._retrier: threading.Thread | None = None

    @property
    def faults(self) -> dict[str, str]:
        """Part identifier -> its causes with their fixes in the language in force (the appliance's, or the one a
        phone's page asked for)."""
        return {part: said() for part, said in self.worded.items()}

    @property
    def simulated(self) -> bool:
        """A part at least runs on the virtual table."""
        return self.virtual is not None

    def parts(self) -> list[dict[str, Any]]:
        """Each configured part: its identifier, its name in the language in force, ok, and the hint when it is
        missing (the pages, the self-test)."""
        present = [part for part in PARTS if not (part == "encoder" and self.encoder is None)]
        faults = dict(self.faults)
        return [{"id": p, "name": part_name(p), "ok": p not in faults, "hint": faults.get(p, "")} for p in present]

    def stalled(self, now: float) -> list[str]:
        """The identifiers of the parts whose thread died or hangs in one operation (for the watchdog's log)."""
        parts = {"keypad": self.keypad, "buzzer": self.buzzer, "reader": self.reader}
        return [name for name, part in parts.items() if part.stalled(now)]

    def start(self) -> None:
        with self._lock:
            self._started = True
            self.keypad.start()
            if self.encoder is not None:
                self.encoder.start()
            self.reader.start()
        if self.worded and self.opener is not None:
            self._retrier = threading.Thread(target=self._retry_loop, name="teile-oeffnen", daemon=True)
            self._retrier.start()

    def _retry_loop(self) -> None:
        while self.worded and not self._stop.wait(self.retry_every):
            self.retry()

    def retry(self) -> list[str]:
        """Try once more to open every missing part; returns the identifiers of those that came up now."""
        assert self.opener is not None
        came: list[str] = []
        for name in list(self.worded):
            with self._lock:
                if self._stop.is_set():
                    break
                if self.opener.attach(self, name, started=self._started):
                    came.append(name)
        return came

    def close(self, last_screen: Any = None) -> None:
        with self._lock:
            self._stop.set()
        if self._retrier is not None:
            self._retrier.join(timeout=5)
        for part in (self.reader, self.led, self.buzzer, self.encoder, self.keypad):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    log.exception("closing %s failed", type(part).__name__)
        self.display.close(last_screen)
        if self.virtual is not None:
            self.virtual.close()


class _Opener:
    """Opens each part as configured, and again later for a part that was missing.

    Keeps the pin factory (made once it can be: its failure is every GPIO part's failure, with the
    cause named once) and what was logged per part, so each cause is logged once, not every retry.
    """

    def __init__(self, cfg: HardwareConfig, cb: Callbacks, pin_factory: Any,
                 make_pin_factory: Callable[[], Any], dev: Path) -> None:
        self.cfg, self.cb = cfg, cb
        self.pin_factory = pin_factory
        self.make_pin_factory = make_pin_factory
        self.dev = dev
        self.logged: dict[str, tuple[str, ...]] = {}
        self.virtual_device: VirtualDevice | None = None
        """The table of the simulated parts, once one is opened."""

    @property
    def virtual(self) -> VirtualDevice:
        """The table of the simulated parts, made when the first is opened."""
        if self.virtual_device is None:
            from .virtual import VirtualDevice

            self.virtual_device = VirtualDevice()
        return self.virtual_device

    def _factory(self) -> Any:
        if self.pin_factory is None:
            self.pin_factory = open_pin_factory(self.make_pin_factory, dev=self.dev)
        return self.pin_factory

    # Each part: open it, or raise. ``Missing`` carries a hint already made (GPIO's).

    def display(self) -> Any:
        from .display import open_panel

        d = self.cfg.display
        try:
            return open_panel(driver=d.kind, port=d.i2c_port, address=d.address, rotate=d.rotate, contrast=d.contrast)
        except Exception as err:
            raise Missing(partial(display_hint, err, port=d.i2c_port, address=d.address)) from err

    def keypad(self) -> MatrixKeypad:
        from .keypad import MatrixKeypad

        k, cb = self.cfg.keypad, self.cb
        if k.kind == "sim":
            return self.virtual.open_keypad(k.rows, k.cols, k.layout, hold_time=k.hold_time, on_key=cb.on_key,
                                            on_hold=cb.on_hold)
        factory = self._factory()
        return self._pins("keypad", lambda: MatrixKeypad(
            k.rows, k.cols, k.layout, pin_factory=factory, on_key=cb.on_key, on_hold=cb.on_hold, hold_time=k.hold_time))

    def encoder(self) -> Encoder:
        from .encoder import Encoder

        e = self.cfg.encoder
        if e.kind == "sim":
            return self.virtual.open_encoder(e.a, e.b, e.button, on_event=self.cb.on_encoder)
        factory = self._factory()
        return self._pins("encoder", lambda: Encoder(e.a, e.b, e.button, pin_factory=factory,
                                                        on_event=self.cb.on_encoder))

    def reader(self) -> RfidReader:
        from .rfid import RfidReader

        r, cb = self.cfg.reader, self.cb
        if r.kind == "sim":
            return self.virtual.open_reader(reset_pin=r.reset_pin, poll_interval=r.poll_interval,
                                            rx_gain_db=r.rx_gain_db, on_tap=cb.on_tap, on_status=cb.on_reader_status)
        try:
            factory = self._factory()
        except Missing as gpio:  # the reader is not even tried: its SPI device is named now, not after GPIO's repair
            dev = self.dev

            def spi() -> str:
                return spi_hint(r.spi_port, r.spi_device, dev=dev) or ""

            raise Missing(*gpio.words, *([spi] if spi() else [])) from gpio
        try:
            return RfidReader(pin_factory=factory, spi_port=r.spi_port, spi_device=r.spi_device,
                              reset_pin=r.reset_pin, poll_interval=r.poll_interval, rx_gain_db=r.rx_gain_db,
                              on_tap=cb.on_tap, on_status=cb.on_reader_status)
        except Exception as err:
            raise Missing(partial(reader_hint, err, port=r.spi_port, device=r.spi_device)) from err

    def _pins(self, part: str, make: Callable[[], T]) -> T:
        try:
            return make()
        except Missing:
            raise
        except Exception as err:
            raise Missing(partial(_pin_hint, part, err)) from err

    def failed(self, part: str, err: BaseException) -> Worded:
        """The part's causes, one line each, said in each language when first read (a phone may read its page in
        another than the appliance's); each cause logged once, in the appliance's language (GPIO's is every GPIO
        part's), not every retry. Worded anew at each retry, so a change of language reaches the pages within
        :data:`RETRY_EVERY`."""
        said = Worded(partial(_causes, part, err))
        hints = tuple(said().splitlines())
        logged = {h for earlier in self.logged.values() for h in earlier}
        for hint in hints:
            if hint not in logged:
                log.error("%s", hint, exc_info=not isinstance(err, Missing))
        self.logged[part] = hints
        return said

    def attach(self, hw: Hardware, name: str, *, started: bool) -> bool:
        """Open a missing part again and put it in place of its stand-in; False while it stays missing."""
        try:
            if name == "display":
                hw.display.attach(self.display(), self.cfg.display.contrast)
            elif name == "buzzer":
                hw.buzzer.attach(self.cfg.buzzer.pin, self._pins("buzzer", self._factory))
            elif name == "led":
                hw.led.attach(self.cfg.led.pin, self._pins("led", self._factory))
            else:
                part: Any = {"keypad": self.keypad, "encoder": self.encoder, "reader": self.reader}[name]()
                setattr(hw, name, part)
                if started:
                    part.start()
        except Exception as err:
            hw.worded = {**hw.worded, name: self.failed(name, err)}  # replaced, never changed: the loop reads it
            return False
        hw.worded = {n: said for n, said in hw.worded.items() if n != name}
        self.logged.pop(name, None)
        log.warning("%s", text("service.part.back", part=part_name(name)))
        if name == "reader":
            self.cb.on_reader_status(True, "")
        self.cb.on_parts()
        return True


def _causes(part: str, err: BaseException) -> str:
    return "\n".join(err.hints if isinstance(err, Missing) else (f"{part_name(part)}: {err}",))


class Worded:
    """A missing part's causes, said in a language the first time they are read in it and kept until the next
    retry replaces them: the appliance's at once (the log), another only when a phone asks for it (no second
    catalogue read before READY; a hint probes /dev once per language, not at every publish)."""

    def __init__(self, say: Callable[[], str]) -> None:
        self._say = say
        self._said: dict[str, str] = {}

    def __call__(self) -> str:
        """In the language in force."""
        code = language()
        if code not in self._said:
            self._said[code] = self._say()
        return self._said[code]


def _pin_hint(part: str, err: BaseException) -> str:
    return pin_hint(part_name(part), err)


class Missing(Exception):
    """A part that did not open, with each cause and its fix (one line each: "GPIO: cause – fix"), worded when read:
    in the language in force (the appliance's, or a phone's that reads its page in its own)."""

    def __init__(self, *words: Callable[[], str]) -> None:
        super().__init__()
        self.words = words

    @property
    def hints(self) -> tuple[str, ...]:
        return tuple(say() for say in self.words)

    def __str__(self) -> str:
        return "\n".join(self.hints)


def open_pin_factory(make: Callable[[], Any] | None = None, *, dev: Path = Path("/dev"),
                     access: Access | None = None) -> Any:
    """gpiozero's pin factory, or :class:`Missing` with the cause the opening met and its fix.

    The one way GPIO is opened: by the daemon for its parts and by ``bankleser doctor`` for its check, so the
    two cannot disagree (the daemon met gpiozero's "unable to locate Pi revision" while the doctor,
    which only looked at the gpiochip files, said GPIO ✓)."""
    try:
        return (make or _default_pin_factory)()
    except Exception as err:
        raise Missing(partial(gpio_hint, err, dev=dev, access=access)) from err


def open_hardware(cfg: HardwareConfig, cb: Callbacks, *, pin_factory: Any = None,
                  make_pin_factory: Callable[[], Any] | None = None, dev: Path = Path("/dev")) -> Hardware:
    """Open every part as configured; a part that fails gets a stand-in and is retried after ``start()``.

    ``pin_factory`` defaults to gpiozero's lgpio factory, made by ``make_pin_factory`` (tests fake its
    failures); ``dev`` is where the GPIO hint looks for ``gpiochip*``. The display comes last: luma's set-up
    blanks the first frame (:mod:`drivers.splash`), and the caller's start screen follows it at once.
    """
    from .display import Display, stand_in
    from .signals import Buzzer, StatusLed, Volume

    try:
        cfg.check()
    except ValueError as err:  # a config error is no loose wire: said at once, as before
        raise HardwareError(str(err)) from err
    opener = _Opener(cfg, cb, pin_factory, make_pin_factory or _default_pin_factory, dev)
    worded: dict[str, Worded] = {}

    def part(name: str, make: Callable[[], Any], stand: Callable[[], Any]) -> Any:
        try:
            return make()
        except Exception as err:
            worded[name] = opener.failed(name, err)
            return stand()

    def silent_buzzer() -> Buzzer:
        return Buzzer(None, pin_factory=None, volume=Volume[cfg.buzzer.volume.upper()])

    def dark_led() -> StatusLed:
        return StatusLed(None, pin_factory=None)

    keypad = part("keypad", opener.keypad, Absent)
    encoder = None if cfg.encoder.kind == "none" else part("encoder", opener.encoder, Absent)
    b = cfg.buzzer
    buzzer = silent_buzzer() if b.kind == "sim" else part("buzzer", lambda: Buzzer(
        b.pin, pin_factory=opener._pins("buzzer", opener._factory), volume=Volume[b.volume.upper()]), silent_buzzer)
    led = dark_led() if cfg.led.kind == "sim" else part(
        "led", lambda: StatusLed(cfg.led.pin, pin_factory=opener._pins("led", opener._factory)), dark_led)
    reader = part("reader", opener.reader, Absent)
    d = cfg.display
    display = opener.virtual.open_display(contrast=d.contrast) if d.kind == "sim" else part(
        "display", lambda: Display(opener.display(), contrast=d.contrast), stand_in)
    worded = {name: worded[name] for name in PARTS if name in worded}  # the parts' order, the display first
    hw = Hardware(display, keypad, encoder, buzzer, led, reader, worded=worded, opener=opener,
                  virtual=opener.virtual_device)
    if "reader" in worded:  # the OLED's reader message: the (first) cause; the fix is on the page and in the log
        label = part_name("reader") + ": "
        cb.on_reader_status(False, hw.faults["reader"].splitlines()[0].removeprefix(label).split(" – ")[0])
    return hw


def lgpio_workdir(environ: MutableMapping[str, str] = os.environ) -> Path:
    """Where lgpio may make its notification FIFOs (``.lgd-nfyN``), set as ``LG_WD`` before it loads.

    lgpio puts them in ``$LG_WD``, else in the working directory, and ``chdir()``s the whole process
    there (``lguGetWorkDir`` in lg's ``lgUtil.c``). The service sets ``LG_WD`` to its runtime
    directory; by hand, a private folder under ``$XDG_RUNTIME_DIR`` (or one of its own in /tmp, removed
    when the process ends) keeps them out of the journal's folder and of the checkout.
    """
    if environ.get("LG_WD"):
        return Path(environ["LG_WD"])
    base = environ.get("RUNTIME_DIRECTORY") or environ.get("XDG_RUNTIME_DIR")
    if base:
        path = Path(base) / "bankleser-lgpio"
        path.mkdir(mode=0o700, exist_ok=True)
    else:
        import atexit
        import shutil
        import tempfile  # shutil, random, bz2, lzma: not before the first frame

        path = Path(tempfile.mkdtemp(prefix="bankleser-lgpio-"))
        atexit.register(shutil.rmtree, path, ignore_errors=True)  # this process's alone: one more per start else
    environ["LG_WD"] = str(path)
    return path


def _default_pin_factory() -> Any:
    """gpiozero's lgpio factory (Bookworm's default, Pi 3 to 5)."""
    lgpio_workdir()
    from gpiozero.pins.lgpio import LGPIOFactory

    return LGPIOFactory()
