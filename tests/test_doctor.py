"""`bankleser doctor` against faked machines: a /dev tree, systemctl's and timedatectl's answers, the buses."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from device.daemon.doctor import Check, System, diagnose, report
from device.daemon.hotspot import POLKIT_ACTIONS
from device.store.journal import Journal
from drivers.hardware import HardwareConfig
from drivers.hints import Access

SERVICE_OK = ("ActiveState=active\nSubState=running\nWatchdogUSec=30s\nNRestarts=0\n")
USER = Access(uid=4321, groups=frozenset({4321, 60997, 60998, 60999}), name="bankleser")
GROUPS = {"bankleser", "gpio", "spi", "i2c"}


OWNERS: dict[Path, tuple[int, int]] = {}
"""The owner and group (uid, gid) the fake /dev's nodes report, by path."""
STAT_EXTRA = ("st_atime", "st_mtime", "st_ctime", "st_atime_ns", "st_mtime_ns", "st_ctime_ns", "st_blksize",
              "st_blocks", "st_rdev")


@pytest.fixture(autouse=True)
def kernel_owners(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only root may give a file away (chown), and a developer runs the suite without root: the fake nodes'
    owner and group are kept in :data:`OWNERS` and reported by ``Path.stat``, the call the doctor reads them
    with. Everything else of the stat (the mode bits set by chmod, the times) is the file's own."""
    real = Path.stat

    def stat(self: Path, *, follow_symlinks: bool = True) -> os.stat_result:
        st = real(self, follow_symlinks=follow_symlinks)
        owner = OWNERS.get(self)
        if owner is None:
            return st
        fields = list(st)
        fields[4], fields[5] = owner  # st_uid, st_gid
        return os.stat_result(fields, {name: getattr(st, name) for name in STAT_EXTRA})

    OWNERS.clear()
    monkeypatch.setattr(Path, "stat", stat)


def own(path: Path, uid: int, gid: int, mode: int) -> None:
    """``chown uid:gid path`` as the kernel would report it, and the real ``chmod``."""
    OWNERS[path] = (uid, gid)
    os.chmod(path, mode)


def pi_dev(tmp_path: Path) -> Path:
    """A Raspberry Pi OS /dev: the devices belong to the groups gpio, spi and i2c (gids no system here has)."""
    dev = tmp_path / "dev"
    dev.mkdir()
    for name, gid in (("gpiochip0", 60997), ("gpiochip4", 60997), ("spidev0.0", 60998), ("i2c-1", 60999)):
        (dev / name).write_bytes(b"")
        own(dev / name, 0, gid, 0o660)
    return dev


def answers(table: dict[str, tuple[int, str]]):  # type: ignore[no-untyped-def]
    def run(argv: list[str]) -> tuple[int, str]:
        return table.get(argv[0], (127, ""))
    return run


def healthy(tmp_path: Path, **changes: object) -> System:
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    base: dict[str, object] = dict(
        hardware=HardwareConfig(), state_dir=state, dev=pi_dev(tmp_path), access=USER,
        run=answers({"systemctl": (0, SERVICE_OK), "timedatectl": (0, "NTPSynchronized=yes\nCanNTP=yes\n"),
                     "nmcli": (0, HOTSPOT_ALLOWED)}), runs_as="bankleser",
        probe_i2c=lambda port, addr: None, spi_version=lambda port, dev: 0x92, import_lgpio=lambda: None,
        make_pin_factory=MockFactory,
        groups_of=lambda user: GROUPS, timesync_flag=tmp_path / "no-flag")
    base.update(changes)
    return System(**base)  # type: ignore[arg-type]


HOTSPOT_ALLOWED = "".join(f"{a}:yes\n" for a in POLKIT_ACTIONS) + "org.freedesktop.NetworkManager.reload:no\n"


def by_name(checks: list[Check]) -> dict[str, Check]:
    return {c.name: c for c in checks}


def test_a_healthy_box_is_all_ticks(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "state" / "journal.sqlite3")
    journal.append({"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]})
    journal.close()
    checks = diagnose(healthy(tmp_path))
    assert [c.name for c in checks if not c.ok] == []
    names = [c.name for c in checks]
    assert names == ["I²C-1", "Display", "SPI0", "RFID-Leser", "GPIO", "Gruppen", "lgpio", "Dienst", "Watchdog",
                     "Eigenes WLAN", "Speicher", "Journal", "Uhr"]
    text = report(checks)
    assert "✓ RFID-Leser: MFRC522 antwortet (VersionReg 0x92)" in text and text.endswith("Alles in Ordnung.")


def test_a_display_at_no_address_names_the_wires(tmp_path: Path) -> None:
    def nobody(port: int, address: int) -> None:
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    check = by_name(diagnose(healthy(tmp_path, probe_i2c=nobody)))["Display"]
    assert not check.ok and check.detail == "kein Gerät an 0x3C auf I²C-1"
    assert "SDA/SCL vertauscht" in check.fix and "`i2cdetect -y 1`" in check.fix


def test_i2c_and_spi_switched_off_say_how_to_switch_them_on(tmp_path: Path) -> None:
    system = healthy(tmp_path)
    (system.dev / "i2c-1").unlink()
    (system.dev / "spidev0.0").unlink()
    checks = by_name(diagnose(system))
    assert "i2c-1 fehlt – I²C ist nicht eingeschaltet: dtparam=i2c_arm=on" in checks["I²C-1"].detail
    assert "spidev0.0 fehlt – SPI ist nicht eingeschaltet: dtparam=spi=on" in checks["SPI0"].detail
    assert "Display" not in checks and "RFID-Leser" not in checks  # no probe of a bus that is not there


@pytest.mark.parametrize(("version", "word"), [(0x00, "kein Chip antwortet"), (0xFF, "kein Chip antwortet"),
                                               (0x37, "kein bekannter MFRC522")])
def test_the_readers_version_register_tells_a_miswired_chip(tmp_path: Path, version: int, word: str) -> None:
    check = by_name(diagnose(healthy(tmp_path, spi_version=lambda p, d: version)))["RFID-Leser"]
    assert not check.ok and word in check.detail


def test_plain_debians_root_only_devices_ask_for_the_udev_rule(tmp_path: Path) -> None:
    system = healthy(tmp_path)
    for node in system.dev.iterdir():
        own(node, 0, 0, 0o600)
    checks = by_name(diagnose(system))
    for name in ("GPIO", "SPI0", "I²C-1"):
        assert not checks[name].ok and "60-bankleser.rules" in checks[name].detail


def test_a_user_outside_the_groups_is_told_the_command(tmp_path: Path) -> None:
    checks = by_name(diagnose(healthy(tmp_path, access=Access(uid=4321, groups=frozenset({4321}), name="bankleser"),
                                      groups_of=lambda user: {"bankleser"})))
    assert "bankleser ist nicht in der Gruppe 60997: sudo usermod -aG 60997 bankleser" in checks["GPIO"].detail
    assert checks["Gruppen"].fix == "sudo usermod -aG gpio,spi,i2c bankleser"


def test_no_lgpio_no_service_no_watchdog_no_clock(tmp_path: Path) -> None:
    def missing() -> None:
        raise ModuleNotFoundError("No module named 'lgpio'")

    stopped = "ActiveState=failed\nSubState=failed\nWatchdogUSec=0\nNRestarts=12\n"
    checks = by_name(diagnose(healthy(tmp_path, import_lgpio=missing, run=answers(
        {"systemctl": (0, stopped), "timedatectl": (0, "NTPSynchronized=no\nCanNTP=yes\n")}))))
    assert not checks["lgpio"].ok and "sudo systemd/install.sh" in checks["lgpio"].fix
    assert not checks["Dienst"].ok and "12 Neustarts" in checks["Dienst"].detail
    assert not checks["Watchdog"].ok and not checks["Uhr"].ok and "set-ntp" in checks["Uhr"].fix


def test_without_a_time_service_the_clock_fix_installs_one(tmp_path: Path) -> None:
    """`timedatectl set-ntp true` fails where no NTP service is installed ("NTP not supported")."""
    checks = by_name(diagnose(healthy(tmp_path, run=answers({"timedatectl": (0, "NTPSynchronized=no\nCanNTP=no\n")}))))
    assert not checks["Uhr"].ok and "apt install systemd-timesyncd" in checks["Uhr"].fix
    assert "set-ntp" not in checks["Uhr"].fix


def test_the_hotspots_permission_is_asked_as_the_services_user_with_its_fix(tmp_path: Path) -> None:
    """NetworkManager answers per user: root may do everything, the service's user (no session) nothing
    unless the polkit rule allows it. sudo bankleser doctor asks as that user (runuser)."""
    asked: list[list[str]] = []

    def nmcli(answer: tuple[int, str]):  # type: ignore[no-untyped-def]
        def run(argv: list[str]) -> tuple[int, str]:
            if "nmcli" not in argv:
                return 0, "NTPSynchronized=yes\n"
            asked.append(argv)
            return answer
        return run

    refused = "".join(f"{a}:no\n" for a in POLKIT_ACTIONS)
    check = by_name(diagnose(healthy(tmp_path, runs_as="root", run=nmcli((0, refused)))))["Eigenes WLAN"]
    assert not check.ok and "network-control" in check.detail and "sudo systemd/install.sh" in check.fix
    assert asked[0][:4] == ["runuser", "-u", "bankleser", "--"] and asked[0][4] == "nmcli"
    box = iter(tmp_path / str(n) for n in range(3))
    for b in (tmp_path / "0", tmp_path / "1", tmp_path / "2"):
        b.mkdir()
    assert by_name(diagnose(healthy(next(box), runs_as="root", run=nmcli((0, HOTSPOT_ALLOWED)))))["Eigenes WLAN"].ok
    assert by_name(diagnose(healthy(next(box), run=nmcli((127, "")))))["Eigenes WLAN"].ok  # no NetworkManager
    asked.clear()
    check = by_name(diagnose(healthy(next(box), run=nmcli((8, "")))))["Eigenes WLAN"]
    assert not check.ok and "systemctl start NetworkManager" in check.fix and asked[0][0] == "nmcli"


def test_right_after_a_start_the_doctor_waits_for_the_page_which_follows_ready(tmp_path: Path) -> None:
    """READY comes before the page (the web stack loads after it, 2-4 s on a Pi): a doctor asked right after a
    start must wait for the page, not call the service broken; a page that never answers is a cross."""
    now = [0.0]
    answers_after = [2.5]

    def page(port: int) -> int:
        if now[0] < answers_after[0]:
            raise ConnectionRefusedError(111, "Connection refused")
        return 200

    def sleep(seconds: float) -> None:
        now[0] += seconds

    def clock() -> float:
        return now[0]

    system = healthy(tmp_path, page_port=80, page_status=page, sleep=sleep, clock=clock)
    check = by_name(diagnose(system))["Seite"]
    assert check.ok and "80" in check.detail and 2.5 <= now[0] < 4
    now[0], answers_after[0] = 0.0, 1e9
    check = by_name(diagnose(system))["Seite"]
    assert not check.ok and "Connection refused" in check.detail and "journalctl" in check.fix
    assert 15 <= now[0] < 17
    stopped = "ActiveState=inactive\nSubState=dead\nWatchdogUSec=0\nNRestarts=0\n"
    (tmp_path / "x").mkdir()
    assert "Seite" not in by_name(diagnose(healthy(tmp_path / "x", page_port=80, page_status=page, sleep=sleep,
                                                    clock=clock, run=answers({"systemctl": (0, stopped)}))))


def test_the_clock_flag_of_timesyncd_is_enough(tmp_path: Path) -> None:
    flag = tmp_path / "synchronized"
    flag.write_text("")
    check = by_name(diagnose(healthy(tmp_path, timesync_flag=flag, run=answers({}))))["Uhr"]
    assert check.ok


def test_a_damaged_journal_points_to_salvage(tmp_path: Path) -> None:
    system = healthy(tmp_path)
    (system.state_dir / "journal.sqlite3").write_bytes(b"kein Journal" * 500)
    check = by_name(diagnose(system))["Journal"]
    assert not check.ok and "bankleser salvage" in check.fix


def test_a_full_card_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    monkeypatch.setattr(shutil, "disk_usage", lambda p: shutil._ntuple_diskusage(8 << 30, 8 << 30, 10 << 20))
    check = by_name(diagnose(healthy(tmp_path)))["Speicher"]
    assert not check.ok and check.detail.startswith("10 MB frei")


def test_a_check_that_breaks_is_a_cross_not_a_traceback(tmp_path: Path) -> None:
    def broken(port: int, address: int) -> None:
        raise RuntimeError("kaputt")

    checks = diagnose(healthy(tmp_path, probe_i2c=broken))
    assert any(c.name == "i2c" and not c.ok and "kaputt" in c.detail for c in checks)


def test_the_admin_page_shows_the_doctor(tmp_path: Path) -> None:
    from bench.liveserver import LiveServer

    server = LiveServer(tmp_path / "state").start()
    try:
        server.login()
        checks = server.get("/api/admin/doctor")
        names = [c["name"] for c in checks]
        assert names[:6] == ["Display", "Tastatur", "Drehknopf", "Summer", "LED", "RFID-Leser"]
        assert {"Dienst", "Speicher", "Journal", "Uhr"} <= set(names)
        assert next(c for c in checks if c["name"] == "Journal")["ok"]
    finally:
        server.stop()


def test_the_command_prints_one_line_per_check_and_exits_1_on_a_cross(tmp_path: Path) -> None:
    """On this machine (no GPIO, no service) it names what is missing, never a traceback."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    config = tmp_path / "config.toml"
    config.write_text('[hardware.display]\naddress = 0x3D\n')
    result = subprocess.run([sys.executable, "-m", "device.daemon.cli", "doctor", "--config", str(config),
                             "--state-dir", str(tmp_path)], capture_output=True, text=True, cwd=root, timeout=60)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stdout.splitlines()
    assert all(line[0] in "✓✗" for line in lines[:-1]) and len(lines) >= 8
    assert result.returncode == (0 if lines[-1] == "Alles in Ordnung." else 1)
    assert "✓ Journal: noch keines" in result.stdout


def test_a_config_the_service_refuses_is_a_cross_naming_the_key(tmp_path: Path) -> None:
    """The service exits 78 on a wrong value; the doctor must not call that box healthy."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    config = tmp_path / "config.toml"
    config.write_text('[hardware.display]\nkind = "ssd1360"\n[ui]\nsleep_after = 5\n')
    result = subprocess.run([sys.executable, "-m", "device.daemon.cli", "doctor", "--config", str(config),
                             "--state-dir", str(tmp_path)], capture_output=True, text=True, cwd=root, timeout=60)
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"✗ Konfiguration: Konfiguration {config} fehlerhaft: [hardware.display] kind = "
                            '"ssd1360": erlaubt "ssd1306", "sh1106" oder "sim"; [ui] sleep_after = 5: ')
    assert result.returncode == 1 and "Traceback" not in result.stderr


def test_asked_by_another_user_the_hotspots_permission_is_not_claimed_for_the_service(tmp_path: Path) -> None:
    """polkit answers per user: `bankleser doctor` run by pi (no sudo) asked NetworkManager as pi, whose desktop
    session may do everything, and said the service's user may open its own Wi-Fi: a tick nobody had checked."""
    def run(argv: list[str]) -> tuple[int, str]:
        return (0, HOTSPOT_ALLOWED) if "nmcli" in argv else (0, SERVICE_OK)

    check = by_name(diagnose(healthy(tmp_path, runs_as="pi", run=run)))["Eigenes WLAN"]
    assert not check.ok and "pi" in check.detail and "bankleser" in check.detail
    assert check.fix.startswith("sudo ") and "bankleser doctor" in check.fix
    (tmp_path / "no-nm").mkdir()
    gone = by_name(diagnose(healthy(tmp_path / "no-nm", runs_as="pi", run=answers({}))))["Eigenes WLAN"]
    assert gone.ok  # no NetworkManager: nothing to ask, whoever asks
