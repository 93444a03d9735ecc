"""Why a part did not open, and what to do: one line for the OLED, the page and the log, from the catalogue.

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

from words import text

from .part import part_name


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
        return text("hint.device.missing", path=path, enable=text(enable))
    if access.may_open(path):
        return None
    owner_group = group_name(path.stat().st_gid)
    if owner_group in ("root", "0"):
        return text("hint.device.root_only", path=path, what=what)
    return text("hint.device.group", path=path, user=access.name or user_name(), group=owner_group)


GPIO_ENABLE = "hint.gpio.enable"
I2C_ENABLE = "hint.i2c.enable"
SPI_ENABLE = "hint.spi.enable"
"""The keys of the fixes that switch a bus on (rendered where they are said: :func:`device_access`)."""


REVISION = "/proc/device-tree/system/linux,revision"
"""Where the Pi's firmware puts the board's revision code; gpiozero reads it (else /proc/cpuinfo's "Revision"
line, which only a Raspberry Pi kernel writes) to know the board, and fails without it (``PinUnknownPi``,
gpiozero's ``pins/local.py: get_pi_revision``). lgpio itself never asks: it opens any gpiochip."""


def gpio_hint(err: BaseException, *, dev: Path = Path("/dev"), access: Access | None = None) -> str:
    """Why gpiozero's lgpio factory did not come up: the library, the board, the chip, or the permission.

    One line, "GPIO: cause – fix", the same for the daemon and ``bankleser doctor`` (both open the factory
    through :func:`drivers.hardware.open_pin_factory`)."""
    if isinstance(err, ImportError):
        return f"{part_name('gpio')}: " + text("hint.gpio.lgpio_missing")
    if type(err).__name__ == "PinUnknownPi" or "unable to locate Pi revision" in str(err):
        return f"{part_name('gpio')}: " + text("hint.gpio.not_a_pi", board=board_model(), revision=REVISION)
    filename = str(getattr(err, "filename", "") or "")
    if isinstance(err, OSError) and filename.startswith("/proc/"):
        return f"{part_name('gpio')}: " + text("hint.gpio.proc", path=filename, error=err.strerror)
    access = access or Access.of_process()
    chips = sorted(dev.glob("gpiochip*"))
    if not chips:
        return f"{part_name('gpio')}: " + text("hint.gpio.no_chip", path=dev / "gpiochip0", enable=text(GPIO_ENABLE))
    for chip in chips:
        why = device_access(chip, access, what=part_name("gpio"), enable=GPIO_ENABLE)
        if why is not None:
            return f"{part_name('gpio')}: {why}"
    return f"{part_name('gpio')}: " + text("hint.gpio.other", error=err or type(err).__name__, kind=type(err).__name__,
                           count=len(chips))


def board_model() -> str:
    """" (Board: …)" from the device tree's model, when there is one (a VM's or another board's name)."""
    for path in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return text("hint.board", model=f.read().strip(chr(0)).strip())
        except OSError:
            continue
    return ""


def spi_hint(port: int, device: int, *, dev: Path = Path("/dev"), access: Access | None = None) -> str | None:
    """The reader's SPI device, looked at when the reader cannot be opened at all (no GPIO): None when it is
    there and may be opened, else the cause and the fix, so a builder learns of it with GPIO's cause."""
    why = device_access(dev / f"spidev{port}.{device}", access or Access.of_process(), what="SPI", enable=SPI_ENABLE)
    return None if why is None else f"{part_name('reader')}: " + why


def display_hint(err: BaseException, *, port: int, address: int) -> str:
    """luma's errors (``DeviceNotFoundError``, ``DevicePermissionError``) turned into cause and fix."""
    said = str(err)  # luma's own (English) words, read by the program
    bus = f"/dev/i2c-{port}"
    if "not found on address" in said:
        return f"{part_name('display')}: " + text("hint.display.nobody", address=f"0x{address:02X}", port=port)
    if "not found" in said or isinstance(err, FileNotFoundError):
        return f"{part_name('display')}: " + text("hint.device.missing", path=bus, enable=text(I2C_ENABLE))
    if "permission" in said.lower() or isinstance(err, PermissionError):
        return f"{part_name('display')}: " + text("hint.display.access", path=bus, user=user_name())
    if isinstance(err, ImportError):
        return f"{part_name('display')}: " + text("hint.display.library", error=err)
    return f"{part_name('display')}: " + text("hint.display.other", error=said or type(err).__name__, port=port)


def reader_hint(err: BaseException, *, port: int, device: int) -> str:
    said = str(err)
    if "VersionReg 0x00" in said or "VersionReg 0xFF" in said:
        return f"{part_name('reader')}: " + text("hint.reader.silent", error=said, device=device)
    if "VersionReg" in said:
        return f"{part_name('reader')}: " + text("hint.reader.unknown", error=said)
    if "SPI" in said and (text(SPI_ENABLE) in said or "spidev" in said):
        return f"{part_name('reader')}: " + said
    return f"{part_name('reader')}: " + text("hint.reader.other", error=said or type(err).__name__, port=port,
                                             device=device)


def pin_hint(name: str, err: BaseException) -> str:
    said = str(err) or type(err).__name__
    if "in use" in said.lower() or type(err).__name__ == "GPIOPinInUse":
        return f"{name}: " + text("hint.pin.twice", error=said)
    return f"{name}: " + text("hint.pin.other", error=said)
