"""The config file (TOML): hardware per part, the web server, the banker PIN, the own Wi-Fi.

Off a Pi, and with ``--sim``, every part is simulated. On a Pi the parts are real unless the
file says ``kind = "sim"`` for one of them; a real part that fails is an error, never a
quiet switch to a fake.

No ``from __future__ import annotations`` here: msgspec reads the tables' records by their annotations when the file
is first read, before READY, and compiles each one given as a string (about 1.4 M instructions for these records).
"""

import os
import tomllib
from pathlib import Path
from typing import Annotated, Any

import msgspec

from drivers.board import on_raspberry_pi
from drivers.hardware import HardwareConfig
from drivers.tables import ConfigError, read_table, seconds, toml_value
from words import LANGUAGES, text

DEFAULT_PORT = 8080
SLEEP_AFTER = 60.0
"""The display's default sleep (the reader's own, :data:`device.scenes.ui.SLEEP_AFTER`; not imported: the
scenes load after the first screen)."""
HOST_WORDS = "config.web.host"
PIN_WORDS = "config.banker.pin"
"""The catalogue keys of what ``host`` and ``pin`` take (said when a value is wrong)."""


class HotspotConfig(msgspec.Struct):
    """``[hotspot]`` in the config file."""

    enabled: bool = True
    wait: seconds(0, 3600, "config.hotspot.wait") = 60.0  # type: ignore[valid-type]
    """Seconds after start-up for a known network to come up before the appliance opens its own."""
    ssid: Annotated[str, msgspec.Meta(min_length=1, max_length=32, description=(
        "config.hotspot.ssid"))] = "Bankleser"
    interface: Annotated[str, msgspec.Meta(pattern=r"^[^-\s/][^\s/]{0,14}$", description=(
        "config.hotspot.interface"))] = "wlan0"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "HotspotConfig":
        problems: list[str] = []
        cfg = cls.read(data, problems)
        if problems:
            raise ConfigError(problems)
        return cfg

    @classmethod
    def read(cls, data: object, problems: list[str]) -> "HotspotConfig":
        cfg = read_table(cls, data, "hotspot", problems)
        if len(cfg.ssid.encode()) > 32:  # IEEE 802.11: an SSID is 1 to 32 octets, and ä is two
            problems.append(text("config.hotspot.ssid_bytes", value=toml_value(cfg.ssid), count=len(cfg.ssid.encode())))
            cfg.ssid = "Bankleser"
        return cfg


class UiConfig(msgspec.Struct):
    """``[ui]``: how the reader behaves for the people at the table."""

    sleep_after: seconds(10, 3600, "config.ui.sleep_after") = SLEEP_AFTER  # type: ignore[valid-type]
    """The display sleeps after this long without input (seed 000: "nach ca. 1 Minute"): longer for a bright
    garden where nobody wants to wake it, shorter in a dim room."""
    language: str = ""
    """The language a fresh state directory starts in (one with a catalogue: :data:`words.LANGUAGES`); empty:
    German. Once chosen it is kept in the journal (:func:`device.daemon.language.in_force`)."""
    keys_language: str = ""
    """The language the keypad's overlay was printed in, when it was printed in one only (``bankleser print keypad
    --one-language``): the OLED then names every key by that language's word, the rest of the screen in the
    banker's. Empty: the overlay carries every language's words, and the keys are named in the banker's."""


class WebConfig(msgspec.Struct):
    """``[web]``: where the status page listens."""

    host: Annotated[str, msgspec.Meta(description=HOST_WORDS)] = ""
    """Empty: see :func:`listen_address`."""
    port: Annotated[int, msgspec.Meta(ge=1, le=65535, description=(
        "config.web.port"))] = DEFAULT_PORT


class BankerConfig(msgspec.Struct):
    pin: Annotated[str | int, msgspec.Meta(description=PIN_WORDS)] = ""


class Config(msgspec.Struct):
    hardware: HardwareConfig = msgspec.field(default_factory=HardwareConfig)
    host: str | None = None
    """None: 127.0.0.1 off a Pi, every interface on the appliance (:func:`listen_address`)."""
    port: int = DEFAULT_PORT
    banker_pin: str | None = None
    """Set here, or at first start on the device; ``BANKLESER_BANKER_PIN`` overrides both."""
    hotspot: HotspotConfig = msgspec.field(default_factory=HotspotConfig)
    ui: UiConfig = msgspec.field(default_factory=UiConfig)

    @classmethod
    def load(cls, path: Path | None) -> "Config":
        """The file at ``path`` (the defaults without one). A wrong value stops the start with SystemExit naming
        every wrong key and what it allows: ``bankleser run`` exits 78 (EX_CONFIG), which the unit does not
        restart (a wrong value used to start the service and be reported as a wiring problem)."""
        data: dict[str, Any] = {}
        if path is not None:
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except OSError as err:
                raise SystemExit(text("config.unreadable", path=path, error=err)) from None
            except tomllib.TOMLDecodeError as err:
                raise SystemExit(text("config.broken", path=path, error=err)) from None
        try:
            cfg = cls.from_dict(data)
        except ConfigError as err:
            raise SystemExit(text("config.wrong", path=path) + "\n  " + "\n  ".join(err.problems)) from None
        env_pin = os.environ.get("BANKLESER_BANKER_PIN")
        if env_pin:
            try:
                cfg.banker_pin = _pin(env_pin)
            except ValueError:
                raise SystemExit(f"BANKLESER_BANKER_PIN: {text(PIN_WORDS)}") from None
        return cfg

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Config":
        """The file's tables; a :class:`ConfigError` names every wrong key and unknown table at once."""
        problems: list[str] = []
        for name in sorted(set(data) - set(TABLES)):
            problems.append(text("config.unknown_table", table=name, known=", ".join(f"[{t}]" for t in TABLES)))
        try:
            hardware = HardwareConfig.from_dict(data.get("hardware", {}))
        except ConfigError as err:
            problems += err.problems
            hardware = HardwareConfig()
        web = read_table(WebConfig, data.get("web", {}), "web", problems)
        if web.host and not _is_address(web.host):
            problems.append(f"[web] host = {toml_value(web.host)}: {text(HOST_WORDS)}")
            web.host = ""
        banker = read_table(BankerConfig, data.get("banker", {}), "banker", problems)
        try:
            pin = _pin(banker.pin)
        except ValueError:
            problems.append(f"[banker] pin = {toml_value(banker.pin)}: {text(PIN_WORDS)}")
            pin = None
        hotspot = HotspotConfig.read(data.get("hotspot", {}), problems)
        ui = read_table(UiConfig, data.get("ui", {}), "ui", problems)
        if ui.language and ui.language not in LANGUAGES:
            problems.append(f"[ui] language = {toml_value(ui.language)}: "
                            + text("config.ui.language", languages=", ".join(toml_value(c) for c in LANGUAGES)))
            ui.language = ""
        if ui.keys_language and ui.keys_language not in LANGUAGES:
            problems.append(f"[ui] keys_language = {toml_value(ui.keys_language)}: "
                            + text("config.ui.language", languages=", ".join(toml_value(c) for c in LANGUAGES)))
            ui.keys_language = ""
        if problems:
            raise ConfigError(problems)
        return cls(hardware=hardware, host=web.host or None, port=web.port, banker_pin=pin, hotspot=hotspot, ui=ui)


TABLES = ("web", "ui", "banker", "hotspot", "hardware")
"""The config file's tables, in the order systemd/config.toml shows them."""


def _is_address(host: str) -> bool:
    import ipaddress

    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host == "localhost"
    return True


def _pin(value: object) -> str | None:
    """The configured PIN as digits, None for none. ``pin = 4711`` written without quotes is the same PIN;
    anything the keypad cannot type would lock the banker out: ValueError."""
    if value is None or value == "":
        return None
    from .pin import valid_pin  # hashlib and friends: only when there is a PIN to check

    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not valid_pin(value):
        raise ValueError(value)
    return value


def default_state_dir() -> Path:
    """Where the journal lives: systemd's StateDirectory, else the per-user data directory."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bankleser"


def default_host(*, sim: bool, on_pi: bool | None = None) -> str:
    """Every interface only for the real appliance: in sim mode the keypad needs no login, so it stays local."""
    return listen_address(flag=None, configured=None, sim=sim, on_pi=on_pi)[0]


def listen_address(*, flag: str | None, configured: str | None, sim: bool,
                   on_pi: bool | None = None) -> tuple[str, str]:
    """The address the status page listens on, and why, in the words the log says it (off a Pi the page
    was on 127.0.0.1 while config.toml spoke of all interfaces).

    ``--host`` wins; in sim mode the page stays local (the virtual device takes input without a PIN), whatever
    the file says; then ``host`` in ``[web]``; without it every interface on a Raspberry Pi, 127.0.0.1 elsewhere.
    """
    if flag:
        return flag, "--host"
    if sim:
        ignored = text("config.listen.sim_ignores", value=toml_value(configured)) if configured else ""
        return "127.0.0.1", text("config.listen.sim", ignored=ignored)
    if configured:
        return configured, f"host = {toml_value(configured)} in [web]"
    if on_raspberry_pi() if on_pi is None else on_pi:
        return "0.0.0.0", text("config.listen.pi")
    return "127.0.0.1", text("config.listen.not_pi")
