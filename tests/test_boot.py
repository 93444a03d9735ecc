"""The box boots: Debian trixie made with debootstrap, systemd/install.sh run in it as docs/building.md
says, then booted under a real systemd with systemd-nspawn.

The service as shipped never became ready on a real box (its own system-call filter killed it) and no
test ran it under its unit. Here: the unit becomes active and READY, is not restarted within two
minutes (NRestarts=0), answers its page, survives a failed update untouched, stops cleanly, and
uninstalls twice. No Pi parts are there, as on a box whose wiring is missing: the daemon must degrade,
not die. Part of every ``./dev test`` (CI); ``-m "not boot"`` leaves it out locally. Where the tools
are missing it is skipped locally, but fails under CI (``./dev`` installs them): a skip is not a pass.
The figures (READY, stop, the test's own time) go to test-artifacts/boot.txt and docs/measurements.md.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bootroot import CACHE, copy_checkout, copy_of_root, missing_tools, pip_trust
from nspawn import nspawn

from device.daemon.hotspot import POLKIT_ACTIONS

pytestmark = pytest.mark.boot

ROOT = Path(__file__).resolve().parent.parent
SRC_IN_ROOT = "/root/bankleser"
"""Where the checkout lies in the booted root, as `git clone … bankleser` leaves it."""
RESULTS = "/var/lib/bankleser-boot-check"

CHECK = r"""#!/bin/bash
# The boot check (tests/test_boot.py): runs in the booted container, writes key=value lines, powers off.
out=__RESULTS__
mkdir -p "$out"
exec >"$out/log" 2>&1
trap 'echo done=1 >>"$out/result"; systemctl poweroff --no-block' EXIT
r() { echo "$1=$2" >>"$out/result"; }
mono_us() { python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000)'; }
show() { systemctl show -P "$1" bankleser.service; }
page() { curl -sS -o "$out/$1" -w '%{http_code}' --max-time 10 http://127.0.0.1/; }
set -x

# Type=notify: the unit is active only once the daemon said READY=1.
for _ in $(seq 1 900); do [ "$(show ActiveState)" = active ] && break; sleep 0.1; done
r active "$(show ActiveState)"
start=$(show InactiveExitTimestampMonotonic)
ready=$(show ActiveEnterTimestampMonotonic)
booted=$(systemctl show -P UserspaceTimestampMonotonic)
r ready_seconds "$(awk -v a="$start" -v b="$ready" 'BEGIN { printf "%.2f", (b - a) / 1e6 }')"
# From the container's systemd to READY: what a box at a friend's house waits before its screen is live.
r ready_after_boot "$(awk -v a="$booted" -v b="$ready" 'BEGIN { printf "%.2f", (b - a) / 1e6 }')"
# From the container's systemd to the daemon's start: what the unit's ordering costs before the first frame,
# which follows the start by the splash's own time (bench.bench_pi --startup; no OLED here to draw it on).
r started_after_boot "$(awk -v a="$booted" -v b="$start" 'BEGIN { printf "%.2f", (b - a) / 1e6 }')"
r wait_online "$(systemctl show -P ActiveState NetworkManager-wait-online.service)"
r wait_online_seconds "$(awk -v a="$(systemctl show -P InactiveExitTimestampMonotonic NetworkManager-wait-online.service)" -v b="$(systemctl show -P ActiveEnterTimestampMonotonic NetworkManager-wait-online.service)" 'BEGIN { if (a > 0 && b > a) printf "%.2f", (b - a) / 1e6; else print "-" }')"
# The page follows READY (the web server's start is its own thread): it must answer within 30 s.
for _ in $(seq 1 300); do code=$(page page.html); [ "$code" = 200 ] && break; sleep 0.1; done
r page_code "$code"
r page_seconds "$(awk -v a="$start" -v b="$(mono_us)" 'BEGIN { printf "%.2f", (b - a) / 1e6 }')"
r page_after_ready "$(awk -v a="$ready" -v b="$(mono_us)" 'BEGIN { printf "%.2f", (b - a) / 1e6 }')"
curl -sS --max-time 10 http://127.0.0.1/api/state >"$out/state.json"

# What NetworkManager lets the service's user do, asked as that user under the unit's own settings.
for _ in $(seq 1 300); do [ "$(nmcli -t -f RUNNING general 2>/dev/null)" = running ] && break; sleep 0.1; done
r nm_running "$(nmcli -t -f RUNNING general 2>/dev/null)"
systemd-run --quiet --wait --pipe --property=User=bankleser --property=Group=bankleser \
    --property=NoNewPrivileges=yes --property=ProtectSystem=strict --property=PrivateTmp=yes \
    nmcli -t -f PERMISSION,VALUE general permissions >"$out/permissions.txt" 2>&1
r permissions_rc $?
r polkitd "$(systemctl show -P ActiveState polkit.service)"
nmcli -t -f NAME,DEVICE,STATE connection show >"$out/connections.txt" 2>&1

# Two minutes after the start: still the same process, never restarted.
while [ $(( $(mono_us) - start )) -lt 120000000 ]; do sleep 1; done
r after_two_minutes "$(show ActiveState)"
r n_restarts "$(show NRestarts)"
pid=$(show MainPID)

# An update that fails half-way (no network here: pip finds nothing) leaves the box as it was.
current=$(readlink /opt/bankleser/current)
PIP_NO_CACHE_DIR=1 PIP_INDEX_URL=http://127.0.0.1:9/simple PIP_RETRIES=0 PIP_TIMEOUT=2 \
    bash __SRC__/systemd/install.sh >"$out/update.txt" 2>&1
r update_rc $?
r current_kept "$([ "$(readlink /opt/bankleser/current)" = "$current" ] && echo yes || echo no)"
r releases "$(ls /opt/bankleser/releases | tr '\n' ' ')"
r same_process "$([ "$(show MainPID)" = "$pid" ] && echo yes || echo no)"
r page_code_after_update "$(page page-after-update.html)"

# A clean stop: SIGTERM, exit 0, inactive (not failed).
t0=$(mono_us)
systemctl stop bankleser.service
r stop_seconds "$(awk -v a="$t0" -v b="$(mono_us)" 'BEGIN { printf "%.2f", (b - a) / 1e6 }')"
r stop_result "$(show Result)"
r stop_status "$(show ExecMainStatus)"
r stopped "$(show ActiveState)"
journalctl -u bankleser.service --no-pager -o short-monotonic >"$out/journal.txt"

# Uninstalled, twice.
bash __SRC__/systemd/install.sh --uninstall >"$out/uninstall1.txt" 2>&1
r uninstall1_rc $?
bash __SRC__/systemd/install.sh --uninstall >"$out/uninstall2.txt" 2>&1
r uninstall2_rc $?
r unit_left "$([ -e /etc/systemd/system/bankleser.service ] && echo yes || echo no)"
r program_left "$([ -e /opt/bankleser ] && echo yes || echo no)"
r polkit_rule_left "$(ls /etc/polkit-1/rules.d/ 2>/dev/null | grep -c bankleser)"
bash __SRC__/systemd/install.sh --uninstall --purge >"$out/purge.txt" 2>&1
r purge_rc $?
r groups_left "$(getent group gpio spi i2c bankleser | cut -d: -f1 | tr '\n' ' ')"
"""

CABLE_UNIT = """[Unit]
Description=A cable whose other end answers no DHCP (tests/test_boot.py)
DefaultDependencies=no
Before=NetworkManager.service network-pre.target
Wants=network-pre.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/sbin/ip link add nm0 type veth peer name nm1
ExecStart=/usr/sbin/ip link set nm1 up

[Install]
WantedBy=multi-user.target
"""
"""The network a box knows, out of reach at a friend's house: a veth pair whose far end is up (a carrier)
but answers no DHCP. NetworkManager leaves veths unmanaged unless told, so its config manages nm0 only."""

NM_CONF = """[main]
no-auto-default=*

[keyfile]
unmanaged-devices=interface-name:nm1

[device-bankleser-test]
match-device=interface-name:nm0
managed=1
"""

HOME_PROFILE = """[connection]
id=Zuhause-Kabel
type=ethernet
interface-name=nm0
autoconnect=true

[ipv4]
method=auto

[ipv6]
method=ignore
"""

APT_KEEP = """// tests/test_boot.py: every package apt installs is kept in the test's cache before install.sh cleans up.
DPkg::Pre-Install-Pkgs { "grep -F .deb | xargs -r cp -n -t /var/cache/bankleser-test-apt; true"; };
"""

BUILD_LEFTOVER = re.compile(r"^(binutils.*|gcc.*|cpp.*|swig.*|libjs-.*|libc-dev-bin|libc6-dev|linux-libc-dev|"
                            r"lib.*-dev|python3.*-dev|rpcsvc-proto|libtirpc-dev|libcrypt-dev)$")
"""Packages only the lgpio build needs: none may stay in an image after the install."""
READY_BOUND = 20.0
"""Seconds from the container's systemd to READY with a network that never comes up. Measured here: 62.1 s
with the unit ordered after network-online.target (NetworkManager-wait-online's 60 s time-out, then failed)."""

CHECK_UNIT = """[Unit]
Description=Bankleser boot check (tests/test_boot.py)
After=bankleser.service

[Service]
Type=exec
ExecStart=/usr/local/sbin/bankleser-boot-check

[Install]
WantedBy=multi-user.target
"""


def results(root: Path) -> dict[str, str]:
    path = root / RESULTS.lstrip("/") / "result"
    lines = path.read_text().splitlines() if path.exists() else []
    return dict(line.split("=", 1) for line in lines if "=" in line)


def record(figures: dict[str, str]) -> None:
    out = ROOT / "test-artifacts" / "boot.txt"
    out.parent.mkdir(exist_ok=True)
    out.write_text("".join(f"{k}={v}\n" for k, v in figures.items()))
    print(figures)


@pytest.fixture
def booted_root() -> Iterator[Path]:
    missing = missing_tools()
    if missing or os.geteuid() != 0:
        why = f"needs root and {', '.join(missing) or 'its tools'} (./dev test installs them)"
        if os.environ.get("CI"):
            pytest.fail(f"the boot test cannot run in CI: {why}")
        pytest.skip(why)
    runs = CACHE / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    for stale in runs.iterdir():  # left by a run that was killed
        if time.time() - stale.stat().st_mtime > 86_400:
            shutil.rmtree(stale, ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix="boot-", dir=runs))
    try:
        yield copy_of_root(work / "root")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def installed_packages(root: Path) -> set[str]:
    out = subprocess.run(["dpkg-query", f"--admindir={root}/var/lib/dpkg", "-W", "-f=${Package} ${Status}\n"],
                         capture_output=True, text=True, check=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.endswith(" ok installed")}


def write(path: Path, body: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    path.chmod(mode)


def enable(root: Path, unit: str, body: str) -> None:
    write(root / "etc/systemd/system" / unit, body)
    wants = root / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    (wants / unit).symlink_to(f"/etc/systemd/system/{unit}")


def test_the_installed_service_boots_ready_stays_up_stops_and_uninstalls(booted_root: Path) -> None:
    began = time.monotonic()
    root = booted_root
    problems: list[str] = []
    copy_checkout(ROOT, root / SRC_IN_ROOT.lstrip("/"))

    # 1. Install as docs/building.md says, in the root as an image build would (no systemd running yet).
    # The host's network; its CA bundle where PyPI is reached through a TLS-inspecting proxy. The packages
    # apt fetches are kept in the test's cache (install.sh empties the root's own, as an image wants).
    trust = pip_trust()
    kept = CACHE / "apt-archives"
    kept.mkdir(parents=True, exist_ok=True)
    archives = root / "var/cache/apt/archives"
    for deb in kept.glob("*.deb"):
        shutil.copy2(deb, archives / deb.name)
    write(root / "etc/apt/apt.conf.d/99bankleser-test-keep", APT_KEEP)
    before = installed_packages(root)
    installed = nspawn(root, f"--bind={kept}:/var/cache/bankleser-test-apt", *trust,
                       "--chdir", SRC_IN_ROOT, "bash", "systemd/install.sh", timeout=1800)
    (root / "etc/apt/apt.conf.d/99bankleser-test-keep").unlink()
    assert installed.returncode == 0, installed.stdout[-4000:] + installed.stderr[-4000:]
    assert "starts at the next boot" in installed.stdout
    # Plain trixie has no python3-lgpio and PyPI no lgpio wheel for its Python 3.13 on this machine: built
    # from source, and the build tools are gone again, with all they brought, and apt's downloads too.
    assert "building it from its source release" in installed.stdout, installed.stdout[-4000:]
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    (ROOT / "test-artifacts" / "boot-install.txt").write_text(installed.stdout + "\n--- stderr\n" + installed.stderr)
    errors = [line for line in (installed.stdout + installed.stderr).splitlines() if "ERROR" in line]
    if errors:
        problems.append(f"a successful install printed ERROR lines: {errors}")
    added = sorted(installed_packages(root) - before)
    leftovers = [p for p in added if BUILD_LEFTOVER.match(p)]
    if leftovers:
        problems.append(f"the build left {leftovers}")
    debs = sorted(p.name for p in archives.glob("*.deb"))
    if debs:
        problems.append(f"apt's {len(debs)} downloaded packages left in the image")
    install_seconds = time.monotonic() - began

    # 2. Boot it. The unit's ConditionPathExists=/dev/gpiochip0 (only on a Pi) is met by a character
    # device that is no GPIO chip (/dev/null bound there): the unit starts as on a Pi, and every part
    # then fails to open, as on a Pi with nothing wired: the daemon must degrade, not die. The network it
    # knows is a cable that never gets an address (a friend's house): the box must not wait for it.
    write(root / "usr/local/sbin/bankleser-boot-check", CHECK.replace("__RESULTS__", RESULTS)
          .replace("__SRC__", SRC_IN_ROOT), 0o755)
    enable(root, "bankleser-boot-check.service", CHECK_UNIT)
    enable(root, "bankleser-test-cable.service", CABLE_UNIT)
    write(root / "etc/NetworkManager/conf.d/90-bankleser-test.conf", NM_CONF)
    write(root / "etc/NetworkManager/system-connections/Zuhause-Kabel.nmconnection", HOME_PROFILE, 0o600)
    boot_began = time.monotonic()
    booted = nspawn(root, "--boot", "--private-network", "--bind=/dev/null:/dev/gpiochip0", "--console=pipe",
                    timeout=600)
    figures = results(root)
    log_dir = root / RESULTS.lstrip("/")
    permissions = dict(line.split(":", 1) for line in (log_dir / "permissions.txt").read_text().splitlines()
                       if ":" in line) if (log_dir / "permissions.txt").exists() else {}
    figures.update(install_seconds=f"{install_seconds:.0f}", boot_seconds=f"{time.monotonic() - boot_began:.0f}",
                   test_seconds=f"{time.monotonic() - began:.0f}", packages_added=" ".join(added),
                   hotspot_permissions=" ".join(f"{a.rsplit('.', 1)[1]}={permissions.get(a, '?')}"
                                                for a in POLKIT_ACTIONS))
    record(figures)
    logs = "".join(f"\n--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in sorted(log_dir.glob("*.txt"))
                   if log_dir.exists()) + booted.stdout[-2000:] + booted.stderr[-2000:]
    assert figures.get("done") == "1", logs

    assert figures["active"] == "active" and figures["page_code"] == "200", logs
    if float(figures["ready_after_boot"]) > READY_BOUND:
        problems.append(f"READY {figures['ready_after_boot']} s after boot (bound {READY_BOUND} s; "
                        f"network-online wait: {figures['wait_online']}, {figures['wait_online_seconds']} s)")
    refused = [a for a in POLKIT_ACTIONS if permissions.get(a) != "yes"]
    if refused:
        problems.append(f"NetworkManager refuses the service's user {refused}: {permissions}")
    extra = [a for a, v in permissions.items() if v == "yes" and a not in POLKIT_ACTIONS]
    if extra:
        problems.append(f"the service's user may do more than the hotspot needs: {extra}")
    assert figures["after_two_minutes"] == "active" and figures["n_restarts"] == "0", logs
    assert figures["update_rc"] != "0" and figures["current_kept"] == "yes", logs
    assert figures["same_process"] == "yes" and figures["page_code_after_update"] == "200", logs
    assert figures["releases"].split() == ["1"], logs  # the incomplete one is gone
    assert (figures["stop_result"], figures["stop_status"], figures["stopped"]) == ("success", "0", "inactive"), logs
    assert figures["uninstall1_rc"] == figures["uninstall2_rc"] == "0", logs
    assert figures["unit_left"] == figures["program_left"] == "no", logs
    if figures.get("polkit_rule_left") != "0":
        problems.append("the uninstall left the polkit rule")
    if figures.get("purge_rc") != "0" or figures.get("groups_left", "").split():
        problems.append(f"--purge (rc {figures.get('purge_rc')}) left the groups {figures.get('groups_left')}")
    second = (log_dir / "uninstall2.txt").read_text()
    assert [line for line in second.splitlines() if line.startswith("+ ")] == [], second
    page = (log_dir / "page.html").read_text(errors="replace")
    assert "Bankleser" in page
    assert problems == [], logs
