"""The config file (TOML): hardware per part, the web server, the banker PIN, the own Wi-Fi.

Off a Pi, and with ``--sim``, every part is simulated. On a Pi the parts are real unless the
file says ``kind = "sim"`` for one of them; a real part that fails is an error, never a
quiet switch to a fake.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import msgspec

from drivers.board import on_raspberry_pi
from drivers.hardware import HardwareConfig

DEFAULT_PORT = 8080


class HotspotConfig(msgspec.Struct):
    """``[hotspot]`` in the config file."""

    enabled: bool = True
    wait: float = 60.0
    """Seconds after start-up for a known network to come up before the appliance opens its own."""
    ssid: str = "Bankleser"
    interface: str = "wlan0"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HotspotConfig:
        unknown = set(data) - {"enabled", "wait", "ssid", "interface"}
        if unknown:
            raise ValueError(f"[hotspot]: unknown keys {sorted(unknown)}")
        cfg = cls(**data)
        if not isinstance(cfg.enabled, bool) or not isinstance(cfg.ssid, str) or not isinstance(cfg.interface, str):
            raise ValueError("[hotspot]: enabled = true/false, ssid und interface als Text")
        if not 1 <= len(cfg.ssid.encode()) <= 32:  # IEEE 802.11: an SSID is 1 to 32 octets
            raise ValueError(f"hotspot.ssid = {cfg.ssid!r}: 1 bis 32 Bytes")
        if not cfg.interface or cfg.interface.startswith("-"):
            raise ValueError(f"hotspot.interface = {cfg.interface!r}")
        cfg.wait = float(cfg.wait)
        return cfg


class Config(msgspec.Struct):
    hardware: HardwareConfig = msgspec.field(default_factory=HardwareConfig)
    host: str | None = None
    """None: 127.0.0.1 off a Pi, every interface on the appliance."""
    port: int = DEFAULT_PORT
    banker_pin: str | None = None
    """Set here, or at first start on the device; ``BANKLESER_BANKER_PIN`` overrides both."""
    sleep_after: float = 60.0
    hotspot: HotspotConfig = msgspec.field(default_factory=HotspotConfig)

    @classmethod
    def load(cls, path: Path | None) -> Config:
        data: dict[str, Any] = {}
        if path is not None:
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except OSError as err:
                raise SystemExit(f"Konfiguration nicht lesbar: {path}: {err}") from None
            except tomllib.TOMLDecodeError as err:
                raise SystemExit(f"Konfiguration fehlerhaft: {path}: {err}") from None
        unknown = set(data) - {"hardware", "web", "banker", "hotspot"}
        if unknown:
            raise SystemExit(f"Konfiguration: unbekannte Abschnitte {sorted(unknown)}")
        web = data.get("web", {})
        try:
            cfg = cls(
                hardware=HardwareConfig.from_dict(data.get("hardware", {})),
                host=web.get("host"),
                port=int(web.get("port", DEFAULT_PORT)),
                banker_pin=data.get("banker", {}).get("pin"),
                hotspot=HotspotConfig.from_dict(data.get("hotspot", {})),
            )
        except (ValueError, TypeError) as err:
            raise SystemExit(f"Konfiguration: {err}") from None
        env_pin = os.environ.get("BANKLESER_BANKER_PIN")
        if env_pin:
            cfg.banker_pin = env_pin
        cfg.banker_pin = _pin(cfg.banker_pin)
        return cfg


def _pin(value: object) -> str | None:
    """The configured PIN as digits. ``pin = 4711`` written without quotes is the same PIN; anything
    the keypad cannot type would lock the banker out, so it stops the start with a clear message."""
    if value is None or value == "":
        return None
    from .pin import valid_pin  # hashlib and friends: only when there is a PIN to check

    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not valid_pin(value):
        raise SystemExit("Konfiguration: banker.pin muss 4 bis 8 Ziffern sein (z. B. pin = \"4711\")")
    return value


def default_state_dir() -> Path:
    """Where the journal lives: systemd's StateDirectory, else the per-user data directory."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bankleser"


def default_host(*, sim: bool, on_pi: bool | None = None) -> str:
    """Every interface only for the real appliance: in sim mode the keypad needs no login, so it stays local."""
    if sim:
        return "127.0.0.1"
    return "0.0.0.0" if (on_raspberry_pi() if on_pi is None else on_pi) else "127.0.0.1"
