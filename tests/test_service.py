"""The service: the unit verified by systemd, its exposure score, the notify protocol and the
watchdog as systemd would see them, and the install script against a scratch root."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from install_helpers import BOOKWORM, TRIXIE, install, run_install
from notify_socket import NotifySocket

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
                 "AmbientCapabilities=CAP_NET_BIND_SERVICE", "Environment=LG_WD=%t/bankleser",
                 "RuntimeDirectory=bankleser", "WorkingDirectory=%t/bankleser", "ConfigurationDirectoryMode=0750"):
        assert line in unit


def test_the_unit_starts_without_waiting_for_a_network() -> None:
    """At a friend's house the network the box knows is missing: ordered after network-online.target (and
    pulling it in), the service waited for NetworkManager-wait-online, up to a minute, before its screen
    and its own Wi-Fi. It needs no network to start; the hotspot's watch reacts to the network after READY."""
    lines = [line.strip() for line in TEMPLATE.read_text().splitlines() if not line.lstrip().startswith("#")]
    ordering = [line for line in lines if line.split("=", 1)[0] in ("After", "Wants", "Requires", "BindsTo")]
    assert not [line for line in ordering if "network" in line], ordering


def test_the_first_frame_waits_only_for_the_systems_own_start() -> None:
    """The first frame needs the I2C device, the local file systems and the user; by default systemd orders a
    service after basic.target too (its sockets, timers and paths), which the screen does not need. The unit
    starts right after sysinit.target and still stops before the system does."""
    lines = [line.strip() for line in TEMPLATE.read_text().splitlines() if not line.lstrip().startswith("#")]
    settings = [tuple(line.split("=", 1)) for line in lines if "=" in line]
    assert ("DefaultDependencies", "no") in settings
    assert [value for key, value in settings if key == "After"] == ["sysinit.target"]
    assert ("Requires", "sysinit.target") in settings
    assert ("Conflicts", "shutdown.target") in settings and ("Before", "shutdown.target") in settings


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
                 "+ usermod -aG gpio bankleser", "+ python3 -m venv --system-site-packages /opt/bankleser/releases/1/venv",
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
    (the test failed with "Permission denied" instead of the message it checks)."""
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
    """Lgpio has no wheel for Trixie's Python 3.13; Raspberry Pi OS packages it as python3-lgpio."""
    for system in (BOOKWORM, TRIXIE):
        root = tmp_path / system["codename"]
        out = install(root, "--dry-run", system=system)
        assert (f"= system: {system['codename']}, Python {system['python']}; lgpio: the python3-lgpio package "
                "(Raspberry Pi OS)") in out
        assert "Debian's" not in out  # Debian has no python3-lgpio
        # python3-dev only where lgpio is built (16 packages, 66 MB never used)
        assert "+ apt-get install -y --no-install-recommends python3-venv python3-lgpio sqlite3" in out
        assert "+ python3 -m venv --system-site-packages /opt/bankleser/releases/1/venv" in out


def test_without_python3_lgpio_lgpio_comes_from_pypi_for_every_python(tmp_path: Path) -> None:
    """Plain trixie (DietPi, Armbian) has no python3-lgpio and PyPI no lgpio wheel for 3.13: the
    installer stopped at "install python3-lgpio", which nobody can there. Now lgpio comes from its pinned
    release on PyPI, its wheel or else built from source; python3-dev only for that build."""
    for system in ({**BOOKWORM, "lgpio": "0"}, {**TRIXIE, "lgpio": "0"}):
        result = run_install(tmp_path / system["codename"], "--dry-run", system=system, check=False)
        out = result.stdout
        assert result.returncode == 0, result.stderr
        assert "lgpio: from PyPI" in out and "+ python3 -m venv /opt/bankleser/releases/1/venv" in out
        assert "python3-lgpio" not in out.split("+ apt-get install", 1)[1].splitlines()[0]
        assert "python3-dev" not in out.split("+ apt-get install", 1)[1].splitlines()[0]
        assert "--require-hashes --only-binary :all: -r /opt/bankleser/releases/1/src/systemd/lgpio.lock" in out
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


CHROOT = {**BOOKWORM, "booted": "0"}


def test_in_a_chroot_everything_but_starting_the_service_is_done_and_it_exits_0(tmp_path: Path) -> None:
    """An image build (pi-gen) stopped at `systemctl daemon-reload` with rc 1 after doing the rest."""
    result = run_install(tmp_path, system=CHROOT)
    out = result.stdout
    assert result.returncode == 0
    assert "+ systemctl enable bankleser.service" in out and "starts at the next boot" in out
    for step in ("systemctl daemon-reload", "systemctl restart", "udevadm"):
        assert step not in out
    assert (tmp_path / "etc/systemd/system/bankleser.service").exists()
    assert (tmp_path / "etc/bankleser/config.toml").exists()


def test_plain_debian_gets_a_udev_rule_for_the_device_groups(tmp_path: Path) -> None:
    """Without Raspberry Pi OS's 99-com.rules, gpiochip, spidev and i2c are root-only."""
    out = install(tmp_path / "debian", system={"codename": "bookworm", "python": "3.11", "lgpio": "0"})
    rule = (tmp_path / "debian/etc/udev/rules.d/60-bankleser.rules").read_text()
    for line in ('KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"', 'KERNEL=="spidev*", GROUP="spi", MODE="0660"',
                 'KERNEL=="i2c-[0-9]*", GROUP="i2c", MODE="0660"'):
        assert line in rule
    assert "+ udevadm trigger" in out
    raspios = tmp_path / "raspios"
    (raspios / "etc/udev/rules.d").mkdir(parents=True)
    (raspios / "etc/udev/rules.d/99-com.rules").write_text('SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio"\n')
    out = install(raspios)
    assert "Raspberry Pi OS's udev rules give" in out and not (raspios / "etc/udev/rules.d/60-bankleser.rules").exists()


def test_the_config_folder_gets_the_mode_the_unit_expects(tmp_path: Path) -> None:
    """ConfigurationDirectoryMode=0750; systemd warned at every start of a 0755 folder."""
    out = install(tmp_path)
    assert (tmp_path / "etc/bankleser").stat().st_mode & 0o777 == 0o750
    assert "+ chgrp bankleser " in out


FAKE_SYSTEMCTL = """#!/bin/sh
# systemctl as it answers: disabling a unit whose file is gone fails (rc 1).
echo "systemctl $*" >> "$FAKE_LOG"
case "$1" in
    disable) [ -e "$FAKE_ROOT/etc/systemd/system/bankleser.service" ] || {
        echo "Failed to disable unit: Unit file bankleser.service does not exist." >&2; exit 1; } ;;
esac
exit 0
"""


def test_uninstall_can_run_twice(tmp_path: Path) -> None:
    """The second `--uninstall` ended with systemctl's "Unit file does not exist" (rc 1)."""
    root = tmp_path / "root"
    install(root)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in (("systemctl", FAKE_SYSTEMCTL), ("deluser", '#!/bin/sh\necho "deluser $*" >> "$FAKE_LOG"\n'),
                       ("groupdel", '#!/bin/sh\necho "groupdel $*" >> "$FAKE_LOG"\n'),
                       ("udevadm", '#!/bin/sh\necho "udevadm $*" >> "$FAKE_LOG"\n')):
        (bin_dir / name).write_text(body)
        (bin_dir / name).chmod(0o755)
    log = tmp_path / "calls.log"
    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "BANKLESER_RUN_UNDER_ROOT": "1", "FAKE_LOG": str(log),
           "FAKE_ROOT": str(root)}
    for _ in range(2):
        result = run_install(root, "--uninstall", check=False, extra_env=env)
        assert result.returncode == 0, result.stderr
    assert "= bankleser.service is not installed" in result.stdout
    assert log.read_text().count("systemctl disable --now bankleser.service") == 1
    for _ in range(2):
        assert run_install(root, "--uninstall", "--purge", check=False, extra_env=env).returncode == 0
    assert not (root / "etc/bankleser").exists() and not (root / "opt/bankleser").exists()


def test_lgpio_works_outside_the_journals_folder(tmp_path: Path) -> None:
    """Lgpio left `.lgd-nfy0` in /var/lib/bankleser and chdir()ed the process there."""
    from drivers.hardware import lgpio_workdir

    env = {"XDG_RUNTIME_DIR": str(tmp_path)}
    path = lgpio_workdir(env)
    assert path == tmp_path / "bankleser-lgpio" and env["LG_WD"] == str(path)
    assert path.stat().st_mode & 0o777 == 0o700
    assert lgpio_workdir({"LG_WD": "/run/bankleser"}) == Path("/run/bankleser")  # the unit's, kept


def test_lgpios_own_scratch_folder_goes_when_the_process_ends(tmp_path: Path) -> None:
    """By hand without a runtime directory, each start made a ``bankleser-lgpio-*`` folder in /tmp and left it there:
    one more after every start. The folder made for this process is removed when it ends (a given ``LG_WD`` and
    the runtime directory's fixed folder are kept: they are not this process's alone)."""
    script = ("import os; from drivers.hardware import lgpio_workdir; env = {}; path = lgpio_workdir(env); "
              "open(path / '.lgd-nfy0', 'w').close(); print(path)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT,
                          env={**os.environ, "TMPDIR": str(tmp_path)})
    made = Path(done.stdout.strip())
    assert made.parent == tmp_path and made.name.startswith("bankleser-lgpio-")
    assert not made.exists() and list(tmp_path.iterdir()) == []


def test_a_config_error_is_said_once_and_not_restarted(tmp_path: Path) -> None:
    """Never a restart loop: a bad config exits with EX_CONFIG, which the unit does not restart."""
    assert "RestartPreventExitStatus=78" in TEMPLATE.read_text()
    config = tmp_path / "config.toml"
    config.write_text("[hardware.display]\nadress = 60\n")
    result = subprocess.run([sys.executable, "-m", "device.daemon.cli", "run", "--config", str(config),
                             "--state-dir", str(tmp_path / "state")], capture_output=True, text=True, cwd=ROOT,
                            timeout=60)
    assert result.returncode == 78 and "Traceback" not in result.stderr
    assert "[hardware.display] adress: unbekannter Schlüssel" in result.stderr
