"""Why a part did not open, and what to do: one German line for the OLED, the page and the log.

The causes are told apart by what the libraries raise (luma's I²C errors, lgpio's and gpiozero's)
and by looking at the device files themselves, never by guessing one cause for all: a missing
``/dev/gpiochip0`` (not a Pi, or an old kernel), a device file the user may not open (a group or
udev rule missing: plain Debian has none), a library that is not installed.
"""

from __future__ import annotations

import grp
import os
from pathlib import Path

import msgspec


class Access(msgspec.Struct, frozen=True):
    """Whether this process may open a device file, judged from its mode, owner and group.

    By the bits, not ``os.access``: root may open anything, and the service runs as ``bankleser``.
    ``uid``/``groups`` default to this process's own.
    """

    uid: int = -1
    groups: frozenset[int] = frozenset()
    name: str = ""
    """The user's name, for the fix (``usermod -aG GROUP NAME``)."""

    @classmethod
    def of_process(cls) -> Access:
        return cls(os.geteuid(), frozenset(os.getgroups()) | {os.getegid()}, user_name())

    @classmethod
    def of_user(cls, name: str) -> Access | None:
        """As the service's user would open devices (``bankleser doctor`` run with sudo is root)."""
        import pwd

        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            return None
        groups = {g.gr_gid for g in grp.getgrall() if name in g.gr_mem} | {entry.pw_gid}
        return cls(entry.pw_uid, frozenset(groups), name)

    def may_open(self, path: Path) -> bool:
        st = path.stat()
        if self.uid == 0:
            return True
        if st.st_uid == self.uid:
            return st.st_mode & 0o600 == 0o600
        if st.st_gid in self.groups:
            return st.st_mode & 0o060 == 0o060
        return st.st_mode & 0o006 == 0o006


def group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def user_name() -> str:
    try:
        import getpass  # termios and friends: only when a hint names the user

        return getpass.getuser()
    except (KeyError, OSError):
        return str(os.geteuid())


def device_access(path: Path, access: Access, *, what: str, enable: str) -> str | None:
    """None when ``path`` exists and may be opened; else the cause and the fix in one line."""
    if not path.exists():
        return f"{path} fehlt – {enable}"
    if access.may_open(path):
        return None
    owner_group = group_name(path.stat().st_gid)
    if owner_group in ("root", "0"):
        return (f"kein Zugriff auf {path} (gehört root:root) – die Gruppenregel für {what} fehlt (normales Debian): "
                f"sudo systemd/install.sh legt /etc/udev/rules.d/60-bankleser.rules an")
    who = access.name or user_name()
    return (f"kein Zugriff auf {path} – {who} ist nicht in der Gruppe {owner_group}: "
            f"sudo usermod -aG {owner_group} {who}, dann neu anmelden bzw. Dienst neu starten")


GPIO_ENABLE = "kein GPIO-Zeichengerät: läuft das auf einem Raspberry Pi (Kernel mit /dev/gpiochip*)?"
I2C_ENABLE = ("I²C ist nicht eingeschaltet: dtparam=i2c_arm=on in /boot/firmware/config.txt "
              "(sudo raspi-config nonint do_i2c 0), neu starten")
SPI_ENABLE = ("SPI ist nicht eingeschaltet: dtparam=spi=on in /boot/firmware/config.txt "
              "(sudo raspi-config nonint do_spi 0), neu starten")


REVISION = "/proc/device-tree/system/linux,revision"
"""Where the Pi's firmware puts the board's revision code; gpiozero reads it (else /proc/cpuinfo's "Revision"
line, which only a Raspberry Pi kernel writes) to know the board, and fails without it (``PinUnknownPi``,
gpiozero's ``pins/local.py: get_pi_revision``). lgpio itself never asks: it opens any gpiochip."""


def gpio_hint(err: BaseException, *, dev: Path = Path("/dev"), access: Access | None = None) -> str:
    """Why gpiozero's lgpio factory did not come up: the library, the board, the chip, or the permission.

    One line, "GPIO: cause – fix", the same for the daemon and ``bankleser doctor`` (both open the factory
    through :func:`drivers.hardware.open_pin_factory`)."""
    if isinstance(err, ImportError):
        return ("GPIO: Python-Modul lgpio fehlt – sudo systemd/install.sh richtet es ein "
                "(von Hand: venv/bin/pip install lgpio; Raspberry Pi OS: apt install python3-lgpio)")
    if type(err).__name__ == "PinUnknownPi" or "unable to locate Pi revision" in str(err):
        return (f"GPIO: kein Raspberry Pi erkannt{board_model()}: weder {REVISION} noch eine Zeile „Revision“ in "
                "/proc/cpuinfo, aus denen gpiozero das Board kennt – das schreiben nur Firmware und Kernel eines "
                "Raspberry Pi: auf einem Pi mit dem Kernel von Raspberry Pi OS starten (nicht in einer VM, auf "
                "einem anderen Board oder mit einem fremden Device Tree); zum Ausprobieren: bankleser run --sim")
    filename = str(getattr(err, "filename", "") or "")
    if isinstance(err, OSError) and filename.startswith("/proc/"):
        return (f"GPIO: {filename} nicht lesbar ({err.strerror}) – gpiozero liest dort, welcher Pi es ist: "
                "ist /proc für den Dienst verborgen (ProcSubset=pid in der Unit)?")
    access = access or Access.of_process()
    chips = sorted(dev.glob("gpiochip*"))
    if not chips:
        return f"GPIO: {dev / 'gpiochip0'} fehlt – {GPIO_ENABLE} Zum Ausprobieren: bankleser run --sim"
    for chip in chips:
        why = device_access(chip, access, what="GPIO", enable=GPIO_ENABLE)
        if why is not None:
            return f"GPIO: {why}"
    return (f"GPIO: {err or type(err).__name__} ({type(err).__name__}) – alle {len(chips)} gpiochip-Geräte sind "
            "lesbar, die Ursache liegt in gpiozero/lgpio: die ganze Meldung steht im Journal "
            "(journalctl -u bankleser -b), siehe docs/troubleshooting.md")


def board_model() -> str:
    """" (Board: …)" from the device tree's model, when there is one (a VM's or another board's name)."""
    for path in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return f" (Board: {f.read().strip(chr(0)).strip()})"
        except OSError:
            continue
    return ""


def spi_hint(port: int, device: int, *, dev: Path = Path("/dev"), access: Access | None = None) -> str | None:
    """The reader's SPI device, looked at when the reader cannot be opened at all (no GPIO): None when it is
    there and may be opened, else the cause and the fix, so a builder learns of it with GPIO's cause."""
    why = device_access(dev / f"spidev{port}.{device}", access or Access.of_process(), what="SPI", enable=SPI_ENABLE)
    return None if why is None else f"RFID-Leser: {why}"


def display_hint(err: BaseException, *, port: int, address: int) -> str:
    """luma's errors (``DeviceNotFoundError``, ``DevicePermissionError``) turned into cause and fix."""
    text = str(err)
    bus = f"/dev/i2c-{port}"
    if "not found on address" in text:
        return (f"Display: kein Gerät an 0x{address:02X} auf I²C-{port} – SDA/SCL vertauscht, kein Strom, "
                f"oder eine andere Adresse (0x3C/0x3D)? `i2cdetect -y {port}`")
    if "not found" in text or isinstance(err, FileNotFoundError):
        return f"Display: {bus} fehlt – {I2C_ENABLE}"
    if "permission" in text.lower() or isinstance(err, PermissionError):
        return (f"Display: kein Zugriff auf {bus} – Gruppe i2c fehlt dem Benutzer (sudo usermod -aG i2c "
                f"{user_name()}) oder die udev-Regel (sudo systemd/install.sh)")
    if isinstance(err, ImportError):
        return f"Display: Bibliothek fehlt ({err}) – sudo systemd/install.sh"
    return f"Display: {text or type(err).__name__} – Verkabelung und `i2cdetect -y {port}` prüfen"


def reader_hint(err: BaseException, *, port: int, device: int) -> str:
    text = str(err)
    if "VersionReg 0x00" in text or "VersionReg 0xFF" in text:
        return (f"RFID-Leser: {text} – MISO/MOSI vertauscht oder lose, SDA/CS an CE{device}, 3,3 V "
                f"(nicht 5 V) und GND verbunden?")
    if "VersionReg" in text:
        return f"RFID-Leser: {text} – ein anderer Chip am SPI-Bus, oder CS/RST falsch verdrahtet?"
    if "SPI" in text and ("nicht eingeschaltet" in text or "spidev" in text):
        return f"RFID-Leser: {text}"
    return f"RFID-Leser: {text or type(err).__name__} – Verdrahtung (SPI{port} CE{device}, RST) prüfen"


def pin_hint(name: str, err: BaseException) -> str:
    text = str(err) or type(err).__name__
    if "in use" in text.lower() or type(err).__name__ == "GPIOPinInUse":
        return f"{name}: {text} – ein Pin ist in der Konfiguration doppelt vergeben"
    return f"{name}: {text} – Verdrahtung und [hardware.*]-Pins in der Konfiguration prüfen"
