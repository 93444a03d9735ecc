"""A table without a router: when no known network comes up, the appliance opens its own Wi-Fi.

At a holiday flat or a garden table the house's Wi-Fi is missing, and the phones could not reach
the page. NetworkManager (the default on Raspberry Pi OS Bookworm and Trixie) can run the Pi's
Wi-Fi as an access point with a DHCP server of its own (``nmcli device wifi hotspot``); the
appliance then shows a QR code to join it (``WIFI:S:…;T:WPA;P:…;;``) and the page's address on it.

The password is generated once and kept in the state directory (0600), so phones that joined once
join again. Every call is an argv list: nothing here passes through a shell, and the only values
from outside (the SSID and interface from the config file) are single arguments.
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import msgspec

from words import text

from .config import HotspotConfig

log = logging.getLogger(__name__)

CONNECTION = "Bankleser-Hotspot"
"""The NetworkManager profile's name: found again after a restart, never mistaken for the house's Wi-Fi."""
PASSWORD_FILE = "hotspot-password"
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""No 0/o, 1/l/i: a password read off the screen or the docs is typed right the first time."""
PASSWORD_LENGTH = 12
"""About 59 bits: WPA2's minimum is 8 characters; this keeps a captured handshake out of reach."""
POLL = 2.0
"""Seconds between looks at NetworkManager while waiting for a known network."""
NMCLI_TIMEOUT = 60.0
QR_VERSION_3_BYTES = 53
"""What a version-3 QR code holds in byte mode at error level L (ISO/IEC 18004, table 7): 29 modules, which the
64-pixel-tall OLED draws at 2 pixels per module (62 px with a 1-module light border); version 4 would be 66 px."""
POLKIT_ACTIONS = ("org.freedesktop.NetworkManager.network-control",
                  "org.freedesktop.NetworkManager.settings.modify.system",
                  "org.freedesktop.NetworkManager.wifi.share.protected")
"""What NetworkManager asks polkit before it opens the hotspot for a caller that is not root: activating a
connection, adding the profile (a system-wide one: nmcli gives it no owner) and sharing the connection
over a protected (WPA) Wi-Fi. The service runs as its own user outside any login session, which no
distribution's polkit rules allow: systemd/polkit.rules grants exactly these to that user."""
REFUSED = ("Not authorized", "Insufficient privileges")
"""How NetworkManager words polkit's no (nm-manager.c, nm-settings.c): then the cure is the rule, not the radio."""
LAN_TYPES = ("802-11-wireless", "802-3-ethernet")
"""Connection types through which the phones can reach the page (Wi-Fi or a cable to the router)."""


def _escape(value: str) -> str:
    """A value in a ``WIFI:`` QR code: backslash before ``\\ ; , : "`` (the format's own escaping)."""
    return "".join("\\" + c if c in '\\;,:"' else c for c in value)


def wifi_qr_payload(ssid: str, password: str) -> str:
    """What a phone's camera reads to join the network (Android and iOS both read this format)."""
    return f"WIFI:S:{_escape(ssid)};T:WPA;P:{_escape(password)};;"


def qr_ssid_fits(ssid: str, password_length: int = PASSWORD_LENGTH) -> bool:
    """The join code keeps 2 pixels per module (a camera reads it from afar) with this name: up to 23 bytes with
    the 12-character password. A longer name (the config allows 32) gives a code half that size."""
    return len(wifi_qr_payload(ssid, "x" * password_length).encode()) <= QR_VERSION_3_BYTES


def _terse_fields(line: str) -> list[str]:
    """One line of ``nmcli --terse``: fields split at ``:``, where a value's own ``:`` and ``\\`` are escaped."""
    fields, current, escaped = [], "", False
    for c in line:
        if escaped:
            current += c
            escaped = False
        elif c == "\\":
            escaped = True
        elif c == ":":
            fields.append(current)
            current = ""
        else:
            current += c
    fields.append(current)
    return fields


def stored_password(state_dir: Path) -> str:
    """The hotspot's password: read if kept, else generated once and kept, readable by the service only."""
    path = state_dir / PASSWORD_FILE
    try:
        value = path.read_text(encoding="ascii").strip()
        if 8 <= len(value) <= 63 and value.isprintable():
            if path.stat().st_mode & 0o077:
                path.chmod(0o600)
            return value
        log.warning("%s is not a WPA password (8 to 63 characters): a new one is made", path)
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError) as err:
        log.warning("%s not readable (%s): a new one is made", path, err)
    value = "".join(secrets.choice(ALPHABET) for _ in range(PASSWORD_LENGTH))
    state_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(value + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
    return value


class JoinInfo(msgspec.Struct, frozen=True):
    """What the OLED shows while the appliance's own Wi-Fi is open: first the network, then the page."""

    ssid: str
    password: str
    wifi_qr: str
    """The ``WIFI:`` payload for a QR code (segno makes it, as for the page's address, which the daemon's
    ``url`` gives in our own network too)."""


class Hotspot:
    """Waits for a known network; opens the appliance's own when none comes. Never stops the appliance."""

    def __init__(self, cfg: HotspotConfig, state_dir: Path, nmcli: str) -> None:
        self.cfg = cfg
        self.state_dir = state_dir
        self.nmcli = nmcli
        self.state = "waiting"
        """waiting, network (a known network came up), open (our access point), failed."""
        self.address: str | None = None
        """The appliance's address in its own network (NetworkManager's shared mode: 10.42.0.1)."""

    def _run(self, *args: str) -> str:
        done = subprocess.run([self.nmcli, *args], capture_output=True, text=True, timeout=NMCLI_TIMEOUT,
                              check=False, env={**os.environ, "LC_ALL": "C"})
        if done.returncode != 0:
            raise RuntimeError(f"nmcli {args[0]} … exit {done.returncode}: {done.stderr.strip()}")
        return done.stdout

    def _active(self) -> list[list[str]]:
        out = self._run("--terse", "--fields", "NAME,TYPE,DEVICE,STATE", "connection", "show", "--active")
        return [_terse_fields(line) for line in out.splitlines() if line]

    def network_up(self) -> bool:
        """A known network (the house's Wi-Fi, or a cable) is activated: the phones can reach the page."""
        return any(name != CONNECTION and kind in LAN_TYPES and state == "activated"
                   for name, kind, _device, state in self._active())

    def _up_or_starting(self, last: bool) -> bool:
        """Whether a known network is up; while the wait lasts, a NetworkManager that cannot answer yet counts
        as no network. The unit is ordered after no network service (the table plays without one), so at
        power-on the appliance may well ask before NetworkManager runs; only at the wait's end is that a fault."""
        try:
            return self.network_up()
        except (OSError, RuntimeError, subprocess.TimeoutExpired):
            if last:
                raise
            return False

    def own_up(self) -> bool:
        return any(name == CONNECTION and state == "activated" for name, _kind, _device, state in self._active())

    def open(self) -> None:
        """Open the access point (or find it open from before a restart) and learn our address in it."""
        if not self.own_up():
            self._run("--wait", str(int(NMCLI_TIMEOUT)), "device", "wifi", "hotspot", "ifname", self.cfg.interface,
                      "con-name", CONNECTION, "ssid", self.cfg.ssid, "band", "bg",
                      "password", stored_password(self.state_dir))
        values = self._run("--get-values", "IP4.ADDRESS", "device", "show", self.cfg.interface)
        first = values.strip().split(" | ")[0]
        self.address = first.split("/")[0] or None

    def join_info(self) -> JoinInfo | None:
        """For the idle screen: the Wi-Fi to join; None unless ours is open."""
        if self.state != "open" or self.address is None:
            return None
        password = stored_password(self.state_dir)
        return JoinInfo(self.cfg.ssid, password, wifi_qr_payload(self.cfg.ssid, password))

    def watch(self, stop: threading.Event, on_change: Callable[[], None] = lambda: None,
              clock: Callable[[], float] = time.monotonic) -> None:
        """Wait up to ``cfg.wait`` seconds for a known network; if none comes, open ours. Says what it did."""
        deadline = clock() + self.cfg.wait
        try:
            while not self._up_or_starting(clock() >= deadline):
                if clock() >= deadline:
                    self.open()
                    self.state = "open"
                    log.info("%s", text("service.hotspot.open", seconds=f"{self.cfg.wait:.0f}",
                                        ssid=repr(self.cfg.ssid), url=self.address))
                    on_change()
                    return
                if stop.wait(POLL):
                    return
            self.state = "network"
        except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as err:
            self.state = "failed"  # degrade, never die: the appliance plays on, the page just is not reachable
            refused = any(words in str(err) for words in REFUSED)
            log.error("%s", text("service.hotspot.not_authorized" if refused else "service.hotspot.failed", error=err))
            on_change()


def start_hotspot(cfg: HotspotConfig, state_dir: Path, *, sim: bool, stop: threading.Event,
                  on_change: Callable[[], None]) -> Hotspot | None:
    """The daemon's hook: on the appliance with NetworkManager, watch beside the loop; else nothing."""
    nmcli = shutil.which("nmcli")
    if sim or not cfg.enabled or nmcli is None:
        if not sim and cfg.enabled:
            log.info("%s", text("service.hotspot.no_nmcli"))
        return None
    if not qr_ssid_fits(cfg.ssid):
        log.warning("%s", text("service.hotspot.long_name", ssid=repr(cfg.ssid), size=len(cfg.ssid.encode())))
    hotspot = Hotspot(cfg, state_dir, nmcli)
    threading.Thread(target=hotspot.watch, args=(stop, on_change), name="wlan-warten", daemon=True).start()
    return hotspot
