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


def install(tmp_path: Path, *args: str) -> str:
    result = subprocess.run(["bash", str(ROOT / "systemd" / "install.sh"), "--root", str(tmp_path), *args],
                            capture_output=True, text=True, check=True)
    return result.stdout


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
                 "+ usermod -aG gpio bankleser", "+ python3 -m venv /opt/bankleser/venv",
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
