"""The service: the unit verified by systemd, its exposure score, the notify protocol and the
watchdog as systemd would see them, and the install script against a scratch root."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.liveserver import LiveServer

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "systemd" / "bankleser.service.in"
VENV = Path(sys.executable).parent.parent


def render(tmp_path: Path) -> Path:
    unit = tmp_path / "bankleser.service"
    unit.write_text(TEMPLATE.read_text().replace("@VENV@", str(VENV)))
    return unit


def test_unit_passes_systemd_analyze_verify_without_a_word(tmp_path: Path) -> None:
    result = subprocess.run(["systemd-analyze", "verify", str(render(tmp_path))], capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_unit_exposure_score_is_low(tmp_path: Path) -> None:
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", str(render(tmp_path))],
                            capture_output=True, text=True)
    score = float(re.search(r"Overall exposure level for \S+: ([\d.]+)", result.stdout).group(1))  # type: ignore[union-attr]
    print(f"systemd-analyze security exposure: {score}")
    assert score < 3.0


def test_unit_asks_for_what_the_appliance_needs() -> None:
    unit = TEMPLATE.read_text()
    for line in ("Type=notify", "WatchdogSec=", "Restart=on-failure", "User=bankleser",
                 "SupplementaryGroups=gpio spi i2c", "StateDirectory=bankleser", "ConfigurationDirectory=bankleser",
                 "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes", "NoNewPrivileges=yes",
                 "AmbientCapabilities=CAP_NET_BIND_SERVICE", "Environment=LG_WD=%S/bankleser"):
        assert line in unit


class NotifySocket:
    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.path = path

    def messages(self, seconds: float) -> list[str]:
        out, deadline = [], time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                out.append(self.sock.recv(4096).decode())
            except TimeoutError:
                break
        return out

    def until(self, word: str, seconds: float) -> list[str]:
        seen, deadline = [], time.monotonic() + seconds
        while time.monotonic() < deadline:
            seen += self.messages(0.2)
            if any(word in m for m in seen):
                return seen
        raise AssertionError(f"no {word} in {seen}")


def test_ready_then_watchdog_pings_and_none_once_the_loop_hangs(tmp_path: Path) -> None:
    notify = NotifySocket(tmp_path / "notify.sock")
    server = LiveServer(tmp_path / "state", env={"NOTIFY_SOCKET": str(notify.path), "WATCHDOG_USEC": "400000",
                                                  "BANKLESER_ALLOW_FREEZE": "1"})
    server.start()
    try:
        first = notify.until("READY=1", 10)
        assert any(m.startswith("STATUS=") for m in first)  # it says what it is doing on the way
        pings = [m for m in notify.messages(1.5) if m == "WATCHDOG=1"]
        assert len(pings) >= 4  # every 0.2 s
        assert server.post("/api/sim/freeze", {})[0] == 200
        time.sleep(0.5)
        notify.messages(0.1)  # drain what was in flight
        assert [m for m in notify.messages(1.5) if m == "WATCHDOG=1"] == []
    finally:
        assert server.stop() == 0  # SIGTERM still ends it cleanly


def test_no_freeze_verb_without_the_test_switch(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "state").start()
    try:
        assert server.post("/api/sim/freeze", {})[0] == 404
    finally:
        server.stop()


BOOKWORM = {"codename": "bookworm", "python": "3.11", "lgpio": "1"}
TRIXIE = {"codename": "trixie", "python": "3.13", "lgpio": "1"}


def run_install(tmp_path: Path, *args: str, system: dict[str, str] = BOOKWORM,
                check: bool = True) -> subprocess.CompletedProcess[str]:
    """The install script with this machine's answers faked: os-release, python3's version, apt's python3-lgpio."""
    os_release = tmp_path.parent / f"{tmp_path.name}-os-release"
    os_release.write_text(f'PRETTY_NAME="Raspberry Pi OS"\nVERSION_CODENAME={system["codename"]}\n')
    env = {**os.environ, "BANKLESER_OS_RELEASE": str(os_release), "BANKLESER_PYTHON_VERSION": system["python"],
           "BANKLESER_HAS_PYTHON3_LGPIO": system["lgpio"]}
    return subprocess.run(["bash", str(ROOT / "systemd" / "install.sh"), "--root", str(tmp_path), *args],
                          capture_output=True, text=True, check=check, env=env)


def install(tmp_path: Path, *args: str, system: dict[str, str] = BOOKWORM) -> str:
    return run_install(tmp_path, *args, system=system).stdout


def test_install_into_a_scratch_root_writes_the_files_and_prints_the_system_steps(tmp_path: Path) -> None:
    out = install(tmp_path)
    unit = (tmp_path / "etc/systemd/system/bankleser.service").read_text()
    assert "ExecStart=/opt/bankleser/venv/bin/bankleser run --config ${CONFIGURATION_DIRECTORY}/config.toml" in unit
    assert "@VENV@" not in unit
    config = tmp_path / "etc/bankleser/config.toml"
    assert "port = 80" in config.read_text()
    assert (tmp_path / "opt/bankleser/src/pyproject.toml").exists()
    assert not (tmp_path / "opt/bankleser/src/.venv").exists()
    for step in ("+ adduser --system --group --home /var/lib/bankleser --no-create-home bankleser",
                 "+ usermod -aG gpio bankleser", "+ python3 -m venv --system-site-packages /opt/bankleser/venv",
                 "+ systemctl enable bankleser.service", "+ systemctl restart bankleser.service"):
        assert step in out


def test_install_is_idempotent_and_keeps_the_config(tmp_path: Path) -> None:
    install(tmp_path)
    config = tmp_path / "etc/bankleser/config.toml"
    config.write_text('[web]\nport = 8080\n')
    out = install(tmp_path)
    assert config.read_text() == '[web]\nport = 8080\n' and "config.toml kept" in out


def test_uninstall_keeps_the_data_unless_purged(tmp_path: Path) -> None:
    install(tmp_path)
    journal = tmp_path / "var/lib/bankleser/journal.sqlite3"
    journal.parent.mkdir(parents=True)
    journal.write_bytes(b"x")
    install(tmp_path, "--uninstall")
    assert journal.exists() and (tmp_path / "etc/bankleser/config.toml").exists()
    assert not (tmp_path / "etc/systemd/system/bankleser.service").exists()
    assert not (tmp_path / "opt/bankleser").exists()
    install(tmp_path, "--uninstall", "--purge")
    assert not journal.exists() and not (tmp_path / "etc/bankleser").exists()


def test_dry_run_changes_nothing(tmp_path: Path) -> None:
    out = install(tmp_path, "--dry-run")
    assert "+ systemctl enable bankleser.service" in out
    assert list(tmp_path.iterdir()) == []


def test_refuses_to_install_without_root() -> None:
    """Run as `nobody` from a copy any user can read: a checkout in a home folder of mode 700 is not
    (issue 9: the test failed with "Permission denied" instead of the message it checks)."""
    as_user = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []
    scratch = Path(tempfile.mkdtemp(prefix="bankleser-install-"))
    try:
        scratch.chmod(0o755)
        script = scratch / "install.sh"
        shutil.copyfile(ROOT / "systemd" / "install.sh", script)
        script.chmod(0o755)
        result = subprocess.run([*as_user, "bash", str(script)], capture_output=True, text=True, cwd=scratch)
    finally:
        shutil.rmtree(scratch)
    assert result.returncode == 1 and "sudo" in result.stderr


def boot_tree(tmp_path: Path, firmware: bool = True) -> Path:
    """A Raspberry Pi OS boot partition: /boot/firmware since Bookworm, /boot before."""
    boot = tmp_path / ("boot/firmware" if firmware else "boot")
    boot.mkdir(parents=True)
    (boot / "config.txt").write_text("[all]\ndtparam=audio=on\n")
    (boot / "cmdline.txt").write_text("console=serial0,115200 root=PARTUUID=1234-02 rootwait\n")
    return boot


def test_install_updates_apt_before_installing(tmp_path: Path) -> None:
    out = install(tmp_path).splitlines()
    assert out.index("+ apt-get update") < next(i for i, line in enumerate(out) if line.startswith("+ apt-get install"))


def test_bookworm_and_trixie_both_use_debians_lgpio_in_a_venv_that_sees_it(tmp_path: Path) -> None:
    """Issue 9: lgpio has no wheel for Trixie's Python 3.13; Raspberry Pi OS packages it as python3-lgpio."""
    for system in (BOOKWORM, TRIXIE):
        root = tmp_path / system["codename"]
        out = install(root, "--dry-run", system=system)
        assert f"= system: {system['codename']}, Python {system['python']}; lgpio: Debian's python3-lgpio" in out
        assert "+ apt-get install -y python3-venv python3-dev python3-lgpio sqlite3" in out
        assert "+ python3 -m venv --system-site-packages /opt/bankleser/venv" in out


def test_without_python3_lgpio_311_takes_the_wheel_and_313_stops_with_a_reason(tmp_path: Path) -> None:
    out = install(tmp_path / "a", "--dry-run", system={**BOOKWORM, "lgpio": "0"})
    assert "lgpio: the wheel from PyPI, plain venv" in out and "+ python3 -m venv /opt/bankleser/venv" in out
    assert "python3-lgpio" not in out.split("+ apt-get install", 1)[1].splitlines()[0]
    result = run_install(tmp_path / "b", "--dry-run", system={**TRIXIE, "lgpio": "0"}, check=False)
    assert result.returncode == 1 and "no lgpio wheel for Python 3.13" in result.stderr
    old = run_install(tmp_path / "c", "--dry-run", system={"codename": "bullseye", "python": "3.9", "lgpio": "1"},
                      check=False)
    assert old.returncode == 1 and "needs Python 3.11 or newer" in old.stderr


def test_i2c_runs_at_400_khz_once_whatever_the_boot_folder(tmp_path: Path) -> None:
    for firmware in (True, False):
        root = tmp_path / str(firmware)
        boot = boot_tree(root, firmware)
        install(root)
        install(root)  # idempotent: one line, not two
        text = (boot / "config.txt").read_text()
        assert text.count("dtparam=i2c_arm_baudrate=400000") == 1 and "dtparam=audio=on" in text
    (boot / "config.txt").write_text("dtparam=i2c_arm_baudrate=100000\n")
    out = install(root)
    assert (boot / "config.txt").read_text() == "dtparam=i2c_arm_baudrate=400000\n" and "Reboot once" in out


def test_read_only_root_needs_the_journal_on_its_own_partition(tmp_path: Path) -> None:
    boot = boot_tree(tmp_path)
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/fstab").write_text("PARTUUID=1234-02  /  ext4  defaults,noatime  0  1\n")
    refused = run_install(tmp_path, "--read-only-root", check=False)
    assert refused.returncode == 1 and "not a partition of its own" in refused.stderr
    assert "overlayroot" not in (boot / "cmdline.txt").read_text()
    with (tmp_path / "etc/fstab").open("a") as fstab:
        fstab.write("PARTUUID=1234-03  /var/lib/bankleser  ext4  defaults,noatime  0  2\n")
    out = install(tmp_path, "--read-only-root")
    assert "+ raspi-config nonint do_overlayfs 0" in out and "Reboot once" in out
    install(tmp_path, "--read-only-root")
    cmdline = (boot / "cmdline.txt").read_text()
    assert cmdline.count("overlayroot=tmpfs:recurse=0") == 1 and cmdline.startswith("console=serial0")
    assert "do_overlayfs" not in install(tmp_path / "plain")  # only when asked for


def test_read_only_root_dry_run_changes_nothing(tmp_path: Path) -> None:
    boot_tree(tmp_path)
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/fstab").write_text("PARTUUID=1234-03  /var/lib/bankleser  ext4  defaults  0  2\n")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    out = install(tmp_path, "--read-only-root", "--dry-run")
    assert "+ raspi-config nonint do_overlayfs 0" in out and "overlayroot=tmpfs:recurse=0" in out
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
