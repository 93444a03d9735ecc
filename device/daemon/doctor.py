"""`bankleser doctor`: check what the box needs, each with ✓ or ✗ and the fix.

I²C bus and the display's address, SPI device and the MFRC522's VersionReg, GPIO opened as the
service opens it (one code path: the two cannot disagree) and the service user's access and groups,
lgpio, the service and its watchdog, what NetworkManager lets the service do (its own Wi-Fi), free
space, the journal, the clock.
Everything the checks touch comes through :class:`System`, so the tests fake a whole machine (a
``/dev`` tree, systemctl's and timedatectl's answers, the buses); the commands run are fixed lists,
never built from input.
"""

from __future__ import annotations

import errno
import grp
import os
import pwd
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from drivers.hardware import HardwareConfig, Missing, open_pin_factory
from drivers.hints import GPIO_ENABLE, I2C_ENABLE, Access, device_access, spi_hint
from drivers.part import part_name
from drivers.rfid import KNOWN_VERSIONS, REG_VERSION
from words import plural, text

from .hotspot import POLKIT_ACTIONS

SERVICE = "bankleser.service"
USER = "bankleser"
PAGE_WAIT = 15.0
"""Seconds the doctor waits for the page once the service is active: READY comes before the page, which
answers 1-4 s later on a Pi (the web stack loads after READY); a service started just now is no fault."""
LOW_DISK = 50 * 1024 * 1024
"""Below this much free space on the journal's file system the doctor warns (a game needs far less)."""


class Check(msgspec.Struct, frozen=True):
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        return f"{'✓' if self.ok else '✗'} {self.name}: {self.detail}" + (f" – {self.fix}" if self.fix else "")

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail, "fix": self.fix}


def run_fixed(argv: list[str]) -> tuple[int, str]:
    """Run one of the doctor's own fixed commands; (127, "") when it is not installed."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return 127, ""
    return done.returncode, done.stdout


def page_status(port: int) -> int:
    """The HTTP status of the service's page on this machine (raises OSError while nothing answers)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", "/api/state")
        return conn.getresponse().status
    finally:
        conn.close()


def probe_i2c(port: int, address: int) -> None:
    """Raise OSError as the kernel answers: ENOENT (no bus), EACCES, EREMOTEIO/EIO (nobody at the address)."""
    import smbus2

    with smbus2.SMBus(port) as bus:
        bus.read_byte(address)


def spi_version(port: int, device: int) -> int:
    """The MFRC522's VersionReg over lgpio's hardware SPI (raises when lgpio or the device is missing)."""
    import lgpio  # type: ignore[import-not-found]

    handle = lgpio.spi_open(port, device, 1_000_000, 0)
    try:
        _, data = lgpio.spi_xfer(handle, [((REG_VERSION << 1) & 0x7E) | 0x80, 0])
        return int(data[1])
    finally:
        lgpio.spi_close(handle)


def import_lgpio() -> None:
    import lgpio  # noqa: F401


def groups_of(user: str) -> set[str] | None:
    """The groups ``user`` is in (None when there is no such user)."""
    try:
        primary = pwd.getpwnam(user).pw_gid
    except KeyError:
        return None
    return {g.gr_name for g in grp.getgrall() if user in g.gr_mem or g.gr_gid == primary}


class System(msgspec.Struct):
    """The machine as the doctor sees it; every field can be faked."""

    hardware: HardwareConfig = msgspec.field(default_factory=HardwareConfig)
    state_dir: Path = Path("/var/lib/bankleser")
    dev: Path = Path("/dev")
    access: Access = msgspec.field(default_factory=Access.of_process)
    user: str = USER
    run: Callable[[list[str]], tuple[int, str]] = run_fixed
    probe_i2c: Callable[[int, int], None] = probe_i2c
    spi_version: Callable[[int, int], int] = spi_version
    import_lgpio: Callable[[], None] = import_lgpio
    make_pin_factory: Callable[[], Any] | None = None
    """gpiozero's pin factory as the daemon makes it (None: the daemon's own, lgpio's)."""
    groups_of: Callable[[str], set[str] | None] = groups_of
    service: str | None = None
    """What the running service says of itself (the admin page): then systemctl is not asked."""
    timesync_flag: Path = Path("/run/systemd/timesync/synchronized")
    """systemd-timesyncd touches this once the clock is synchronised (no D-Bus needed, works in the service)."""
    page_port: int | None = None
    """The page's port (the config's ``[web] port``): then an active service's page is waited for and checked."""
    page_status: Callable[[int], int] = page_status
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    runs_as: str = msgspec.field(default_factory=lambda: pwd.getpwuid(os.geteuid()).pw_name)
    """Who runs the doctor: root (sudo) asks NetworkManager as the service's user, the service asks as itself."""


def check_i2c(s: System) -> list[Check]:
    d = s.hardware.display
    if d.kind == "sim":
        return [Check(part_name("display"), True, text("doctor.simulated"))]
    bus = s.dev / f"i2c-{d.i2c_port}"
    why = device_access(bus, s.access, what="I²C", enable=I2C_ENABLE)
    if why is not None:
        return [Check(f"I²C-{d.i2c_port}", False, why)]
    out = [Check(f"I²C-{d.i2c_port}", True, text("doctor.device.there", path=bus))]
    try:
        s.probe_i2c(d.i2c_port, d.address)
    except OSError as err:
        if err.errno in (errno.EREMOTEIO, errno.EIO, errno.ENXIO):
            out.append(Check(part_name("display"), False, text("doctor.display.nobody", address=f"0x{d.address:02X}",
                                                    port=d.i2c_port),
                             text("doctor.display.nobody.fix", port=d.i2c_port)))
        else:
            out.append(Check(part_name("display"), False, f"I²C-{d.i2c_port}: {err}", f"`i2cdetect -y {d.i2c_port}`"))
    except ImportError as err:
        out.append(Check(part_name("display"), False, text("doctor.display.smbus2", error=err),
                         "sudo systemd/install.sh"))
    else:
        out.append(Check(part_name("display"), True, text("doctor.display.answers", address=f"0x{d.address:02X}")))
    return out


def check_spi(s: System) -> list[Check]:
    r = s.hardware.reader
    if r.kind == "sim":
        return [Check(part_name("reader"), True, text("doctor.simulated"))]
    node = s.dev / f"spidev{r.spi_port}.{r.spi_device}"
    why = spi_hint(r.spi_port, r.spi_device, dev=s.dev, access=s.access)  # the daemon's words when GPIO fails too
    if why is not None:
        return [Check(f"SPI{r.spi_port}", False, why.removeprefix(part_name("reader") + ": "))]
    out = [Check(f"SPI{r.spi_port}", True, text("doctor.device.there", path=node))]
    try:
        version = s.spi_version(r.spi_port, r.spi_device)
    except Exception as err:
        out.append(Check(part_name("reader"), False, text("doctor.reader.unreadable", error=err),
                         text("doctor.reader.unreadable.fix")))
        return out
    if version in KNOWN_VERSIONS:
        out.append(Check(part_name("reader"), True, text("doctor.reader.answers", version=f"0x{version:02X}")))
    elif version in (0x00, 0xFF):
        out.append(Check(part_name("reader"), False, text("doctor.reader.silent", version=f"0x{version:02X}"),
                         text("doctor.reader.silent.fix", device=r.spi_device, reset=r.reset_pin)))
    else:
        out.append(Check(part_name("reader"), False, text("doctor.reader.unknown", version=f"0x{version:02X}"),
                         text("doctor.reader.unknown.fix")))
    return out


def from_hint(hint: str) -> Check:
    """A cause as the daemon words it ("GPIO: cause – fix") as a ✗ line that reads the same."""
    name, _, rest = hint.partition(": ")
    detail, _, fix = rest.partition(" – ")
    return Check(name, False, detail, fix)


def check_gpio(s: System) -> list[Check]:
    """GPIO opened as the daemon opens it (:func:`drivers.hardware.open_pin_factory`), so the two cannot
    disagree; then, as ``sudo bankleser doctor`` is root, whether the service's user may open the chips."""
    try:  # the factory is left open: gpiozero's close() would free every pin of this process
        open_pin_factory(s.make_pin_factory, dev=s.dev, access=s.access)
    except Missing as err:
        return [from_hint(hint) for hint in err.hints]
    chips = sorted(s.dev.glob("gpiochip*"))
    if not chips:
        return [Check(part_name("gpio"), False, text("doctor.missing", path=s.dev / "gpiochip0"), text(GPIO_ENABLE))]
    why = next((w for c in chips if (w := device_access(c, s.access, what=part_name("gpio"),
                                                         enable=GPIO_ENABLE)) is not None), None)
    return [Check(part_name("gpio"), why is None, why or text("doctor.gpio.opened", count=len(chips)))]


def check_groups(s: System) -> list[Check]:
    out: list[Check] = []
    groups = s.groups_of(s.user)
    if groups is None:
        out.append(Check(text("doctor.user"), False, text("doctor.user.none", user=s.user), "sudo systemd/install.sh"))
    else:
        missing = [g for g in ("gpio", "spi", "i2c") if g not in groups]
        member = ", ".join(sorted({"gpio", "spi", "i2c"} & groups)) or text("doctor.groups.none")
        out.append(Check(text("doctor.groups"), not missing, text("doctor.groups.in", user=s.user, groups=member),
                         f"sudo usermod -aG {','.join(missing)} {s.user}" if missing else ""))
    return out


def check_lgpio(s: System) -> list[Check]:
    try:
        s.import_lgpio()
    except ImportError as err:
        return [Check("lgpio", False, text("doctor.lgpio.missing", error=err), "sudo systemd/install.sh")]
    return [Check("lgpio", True, text("doctor.lgpio.installed"))]


def check_service(s: System) -> list[Check]:
    if s.service is not None:
        return [Check(text("doctor.service"), True, s.service)]
    rc, out = s.run(["systemctl", "show", SERVICE, "--property=ActiveState,SubState,WatchdogUSec,NRestarts"])
    if rc == 127:
        return [Check(text("doctor.service"), False, text("doctor.service.no_systemctl"),
                      text("doctor.service.no_systemctl.fix"))]
    props = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    state = props.get("ActiveState", text("doctor.service.unknown"))
    watchdog = props.get("WatchdogUSec", "")
    count = props.get("NRestarts", "0")
    restarts = plural("count.restarts", int(count)) if count.isdigit() else count
    checks = [Check(text("doctor.service"), state == "active",
                    text("doctor.service.state", state=state, sub=props.get("SubState", "?"), restarts=restarts),
                    "" if state == "active" else "sudo systemctl start bankleser; journalctl -u bankleser -b")]
    has_watchdog = watchdog not in ("", "0", "infinity")
    checks.append(Check("Watchdog", has_watchdog, f"WatchdogSec {watchdog or text('doctor.watchdog.off')}",
                        "" if has_watchdog else text("doctor.watchdog.fix")))
    if state == "active" and s.page_port is not None:
        checks.append(wait_for_page(s, s.page_port))
    return checks


def wait_for_page(s: System, port: int) -> Check:
    """READY says the game runs; the page follows seconds later. Asked right after a start, the doctor
    waits for the page instead of calling a service that is still loading it broken."""
    deadline = s.clock() + PAGE_WAIT
    while True:
        try:
            status = s.page_status(port)
        except OSError as err:
            status, why = 0, str(err)
        else:
            why = f"HTTP {status}"
        if status == 200:
            return Check(text("doctor.page"), True, text("doctor.page.answers", port=port))
        if s.clock() >= deadline:
            return Check(text("doctor.page"), False, text("doctor.page.silent", port=port, seconds=f"{PAGE_WAIT:g}",
                                                          error=why), "journalctl -u bankleser -b")
        s.sleep(0.5)


def check_hotspot(s: System) -> list[Check]:
    """Whether NetworkManager lets the service's user open the hotspot: polkit answers per user, so root
    (``sudo bankleser doctor``) asks as that user; asked as root, everything would be allowed."""
    name = text("doctor.hotspot")
    argv = ["nmcli", "--terse", "--fields", "PERMISSION,VALUE", "general", "permissions"]
    if s.runs_as == "root" and s.user != "root":
        argv = ["runuser", "-u", s.user, "--", *argv]
    rc, out = s.run(argv)
    if rc == 127:
        return [Check(name, True, text("doctor.hotspot.no_networkmanager"))]
    if s.runs_as not in ("root", s.user):
        # Only root may ask as another user (runuser): the answer here is the runner's, whose desktop session
        # may do everything, not the service's.
        return [Check(name, False, text("doctor.hotspot.asked_as", runner=s.runs_as, user=s.user),
                      text("doctor.hotspot.asked_as.fix", user=s.user))]
    if rc != 0:
        return [Check(name, False, text("doctor.hotspot.no_answer"), "sudo systemctl start NetworkManager")]
    answers = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    refused = [action.removeprefix("org.freedesktop.NetworkManager.") for action in POLKIT_ACTIONS
               if answers.get(action) != "yes"]
    if not refused:
        return [Check(name, True, text("doctor.hotspot.allowed", user=s.user))]
    return [Check(name, False, text("doctor.hotspot.refused", user=s.user, actions=", ".join(refused)),
                  text("doctor.hotspot.refused.fix"))]


def check_disk(s: System) -> list[Check]:
    try:
        free = shutil.disk_usage(s.state_dir).free
    except OSError as err:
        return [Check(text("doctor.disk"), False, f"{s.state_dir}: {err.strerror}", "sudo systemd/install.sh")]
    ok = free >= LOW_DISK
    return [Check(text("doctor.disk"), ok, text("doctor.disk.free", megabytes=free // (1024 * 1024), path=s.state_dir),
                  "" if ok else text("doctor.disk.fix"))]


def check_journal(s: System) -> list[Check]:
    from ..store.journal import verify_file

    path = s.state_dir / "journal.sqlite3"
    if not path.exists():
        return [Check("Journal", True, text("doctor.journal.none"))]
    err = verify_file(path)
    if err is None:
        return [Check("Journal", True, text("doctor.journal.intact", path=path))]
    return [Check("Journal", False, f"{err.message}: {err.detail}",
                  text("doctor.journal.fix", path=path, state_dir=s.state_dir))]


def check_clock(s: System) -> list[Check]:
    if s.timesync_flag.exists():
        return [Check(text("doctor.clock"), True, text("doctor.clock.timesyncd"))]
    rc, out = s.run(["timedatectl", "show", "--property=NTPSynchronized,CanNTP"])
    if rc != 0:
        return [Check(text("doctor.clock"), False, text("doctor.clock.no_timedatectl"),
                      text("doctor.clock.no_timedatectl.fix"))]
    props = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    synced = props.get("NTPSynchronized") == "yes"
    if synced:
        return [Check(text("doctor.clock"), True, text("doctor.clock.synced"))]
    # Without an NTP service (no systemd-timesyncd) `timedatectl set-ntp true` fails: "NTP not supported".
    can_ntp = props.get("CanNTP") == "yes"
    return [Check(text("doctor.clock"), False, text("doctor.clock.unsynced"),
                  text("doctor.clock.fix" if can_ntp else "doctor.clock.no_ntp.fix"))]


CHECKS = (check_i2c, check_spi, check_gpio, check_groups, check_lgpio, check_service, check_hotspot, check_disk,
          check_journal, check_clock)


def diagnose(s: System, checks: tuple[Callable[[System], list[Check]], ...] = CHECKS) -> list[Check]:
    """Every check in order; a check that fails in an unforeseen way is a ✗ line, never a traceback."""
    out: list[Check] = []
    for check in checks:
        name = check.__name__.removeprefix("check_")
        try:
            out += check(s)
        except Exception as err:
            out.append(Check(name, False, text("doctor.check_failed", kind=type(err).__name__, error=err)))
    return out


def report(checks: list[Check]) -> str:
    bad = sum(not c.ok for c in checks)
    tail = text("doctor.all_well") if not bad else plural("doctor.problems", bad)
    return "\n".join([*(c.line() for c in checks), tail])


def for_daemon(hardware: HardwareConfig, state_dir: Path, *, sim: bool, watchdog: float | None,
               parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The doctor on the admin page: the running parts as the service sees them (no second probe of a bus
    the service itself drives, no second pin factory: closing it would free the service's pins), each cause
    once as on the status page, then the system's checks."""
    from .parts import causes

    service = text("doctor.service.fed", seconds=f"{watchdog:g}") if watchdog else text("doctor.service.unfed")
    system = System(hardware=hardware, state_dir=state_dir, service=service)

    def said(name: str, hint: str) -> str:
        label, _, rest = hint.partition(": ")
        return rest if label == name else text("doctor.see", label=label)

    checks = [Check(p["name"], p["ok"], text("doctor.part.working") if p["ok"] else "; ".join(
        said(p["name"], hint) for hint in p["hint"].splitlines())) for p in parts]
    names = {p["name"] for p in parts}
    checks += [from_hint(hint) for hint, _ in causes(parts) if hint.partition(": ")[0] not in names]
    chosen = (check_service, check_disk, check_journal, check_clock) if sim else (
        check_groups, check_lgpio, check_service, check_hotspot, check_disk, check_journal, check_clock)
    checks += diagnose(system, chosen)
    return [c.as_dict() for c in checks]
