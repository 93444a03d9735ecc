"""The arm64 root booted as a machine: qemu-system-aarch64 (virt, TCG), Debian's arm64 kernel, the unit as shipped.

Run as root: ``.venv/bin/python -m bench.bench_arm64_boot`` (``--root DIR``: an arm64 root in which
``systemd/install.sh`` ran already, e.g. the arm64 test's; without it the cached arm64 root of the tests is
copied and install.sh runs in it under qemu-user-static, about half an hour here). Debian's
``linux-image-arm64`` is installed into a copy of that root (its initramfs made there), the copy becomes an
ext4 image, and the machine boots it: a Cortex-A53 with 512 MB as a Pi Zero 2 W has, no network device.
A check unit in the image prints ``BENCH key=value`` lines on the serial console and powers off:

- READY: from the kernel's start (monotonic 0) and from systemd's start to the unit's READY, and
  the daemon's own start to READY (``InactiveExit`` → ``ActiveEnter``);
- the page: the first ``GET /`` answered, after READY;
- restarts: ``NRestarts`` one minute after READY;
- the hotspot's permission: ``nmcli general permissions`` as the service's user under the unit's settings;
- the clean stop's time and result;
- a fixed pure-Python loop in the guest and here, to say how much slower the emulated machine runs
  Python than this one (and, by the pyperformance factor of docs/measurements.md, than a Pi's core).

Everything here is emulated: the figures are a slow machine's, not a Pi's (docs/measurements.md says
by how much). The unit's ``ConditionPathExists=/dev/gpiochip0`` is met by the virt board's PL061 GPIO
controller: the daemon starts as on a Pi and finds no display, reader or keypad (it degrades).
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
PYTHON_LOOP = ("import time; t = time.perf_counter(); sum(i * i for i in range(2_000_000)); "
               "print(f'{time.perf_counter() - t:.3f}')")
"""The same fixed work in the guest and here: the ratio is the emulation's slowdown for Python."""

CHECK = r"""#!/bin/bash
# The bench's check (bench/bench_arm64_boot.py): key=value lines on the console, then power off.
r() { echo "BENCH $1=$2" >/dev/console; }
trap 'r done 1; systemctl poweroff --no-block' EXIT
show() { systemctl show -P "$1" bankleser.service; }
mono_us() { python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000)'; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1e6 }'; }
for _ in $(seq 1 1800); do [ "$(show ActiveState)" = active ] && break; sleep 1; done
r active "$(show ActiveState)"
start=$(show InactiveExitTimestampMonotonic)
ready=$(show ActiveEnterTimestampMonotonic)
r ready_after_kernel "$(secs 0 "$ready")"
r ready_after_systemd "$(secs "$(systemctl show -P UserspaceTimestampMonotonic)" "$ready")"
r ready_after_start "$(secs "$start" "$ready")"
for _ in $(seq 1 600); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 http://127.0.0.1/)
    [ "$code" = 200 ] && break; sleep 0.5
done
r page_code "$code"
r page_after_ready "$(secs "$ready" "$(mono_us)")"
while [ $(( $(mono_us) - ready )) -lt 60000000 ]; do sleep 1; done
r after_a_minute "$(show ActiveState)"
r n_restarts "$(show NRestarts)"
for _ in $(seq 1 120); do [ "$(nmcli -t -f RUNNING general 2>/dev/null)" = running ] && break; sleep 1; done
perms=$(systemd-run --quiet --wait --pipe --property=User=bankleser --property=Group=bankleser \
    --property=NoNewPrivileges=yes nmcli -t -f PERMISSION,VALUE general permissions 2>&1 |
    grep -E 'network-control|settings.modify.system|wifi.share.protected' | sed 's/.*NetworkManager\.//' | tr '\n' ' ')
r hotspot_permissions "${perms:-none}"
r python_loop_seconds "$(python3 -c "__LOOP__")"
t0=$(mono_us)
systemctl stop bankleser.service
r stop_seconds "$(secs "$t0" "$(mono_us)")"
r stop_result "$(show Result)"
"""

CHECK_UNIT = """[Unit]
Description=The arm64 boot bench's check (bench/bench_arm64_boot.py)
After=multi-user.target

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/bankleser-bench-check
StandardOutput=journal

[Install]
WantedBy=multi-user.target
"""


def _bootroot() -> ModuleType:
    """The tests' root builder (tests/bootroot.py): the same cached arm64 root the arm64 test uses."""
    sys.path.insert(0, str(ROOT / "tests"))
    return importlib.import_module("bootroot")


def nspawn(root: Path, *args: str, timeout: float) -> None:
    argv = ["systemd-nspawn", "--quiet", "--register=no", "--keep-unit", "-D", str(root), *args]
    result = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=timeout)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed in the arm64 root:\n{result.stdout[-3000:]}\n"
                         f"{result.stderr[-3000:]}")


def qemu_system() -> str:
    """qemu-system-aarch64, installed from Debian's qemu-system-arm where missing (as root)."""
    found = shutil.which("qemu-system-aarch64")
    if found is None and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "qemu-system-arm"],
                       check=True, env=env, stdout=subprocess.DEVNULL)
        found = shutil.which("qemu-system-aarch64")
    if found is None:
        raise SystemExit("qemu-system-aarch64 is missing: as root, apt-get install qemu-system-arm")
    return found


def timed(what: str, began: float) -> float:
    now = time.monotonic()
    print(f"{what}: {now - began:.0f} s", flush=True)
    return now


def prepare(work: Path, installed: Path | None) -> Path:
    """A copy of the arm64 root with Bankleser installed by install.sh, Debian's kernel and the check unit."""
    bootroot = _bootroot()
    began = time.monotonic()
    root = work / "root"
    root.mkdir()
    source = installed if installed is not None else bootroot.base_root("arm64")
    subprocess.run(["cp", "-a", "--reflink=auto", f"{source}/.", str(root)], check=True)
    began = timed(f"copy of {source}", began)
    trust = bootroot.pip_trust()
    if installed is None:
        bootroot.copy_checkout(ROOT, root / "root/bankleser")
        nspawn(root, *trust, "--chdir", "/root/bankleser", "bash", "systemd/install.sh", timeout=5400)
        began = timed("install.sh under qemu-user-static", began)
    nspawn(root, "bash", "-c", "set -e; export DEBIAN_FRONTEND=noninteractive; apt-get update -qq; "
           "apt-get install -y -qq --no-install-recommends linux-image-arm64 >/dev/null; apt-get clean", timeout=3600)
    began = timed("linux-image-arm64 and its initramfs under qemu-user-static", began)
    check = root / "usr/local/sbin/bankleser-bench-check"
    check.write_text(CHECK.replace("__LOOP__", PYTHON_LOOP))
    check.chmod(0o755)
    (root / "etc/systemd/system/bankleser-bench-check.service").write_text(CHECK_UNIT)
    wants = root / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    (wants / "bankleser-bench-check.service").unlink(missing_ok=True)
    (wants / "bankleser-bench-check.service").symlink_to("/etc/systemd/system/bankleser-bench-check.service")
    (root / "etc/fstab").write_text("/dev/vda / ext4 rw,noatime 0 1\n")
    (root / "etc/hostname").write_text("bankleser\n")
    return root


def boot(qemu: str, root: Path, image: Path, smp: int, memory: int, timeout: float) -> dict[str, str]:
    began = time.monotonic()
    subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "root", "-d", str(root), str(image), "4G"], check=True)
    began = timed("ext4 image", began)
    kernel = max((root / "boot").glob("vmlinuz-*"))
    initrd = max((root / "boot").glob("initrd.img-*"))
    argv = [qemu, "-M", "virt", "-cpu", "cortex-a53", "-smp", str(smp), "-m", str(memory), "-nographic",
            "-no-reboot", "-nic", "none", "-kernel", str(kernel), "-initrd", str(initrd),
            "-append", "root=/dev/vda rw console=ttyAMA0 panic=-1",
            "-drive", f"if=none,file={image},format=raw,id=hd", "-device", "virtio-blk-device,drive=hd"]
    figures: dict[str, str] = {}
    console = image.with_suffix(".console.txt")
    with console.open("w") as log, subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                                    stdin=subprocess.DEVNULL, text=True, errors="replace") as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            log.write(line)
            found = re.search(r"BENCH (\w+)=(.*)", line)
            if found:
                figures[found[1]] = found[2].strip()
                print(f"  {found[1]} = {found[2].strip()}  ({time.monotonic() - began:.0f} s after qemu's start)",
                      flush=True)
                if found[1] == "active":
                    figures["host_seconds_to_active"] = f"{time.monotonic() - began:.0f}"
            if time.monotonic() - began > timeout:
                proc.kill()
                break
        proc.wait()
    figures["host_seconds_to_poweroff"] = f"{time.monotonic() - began:.0f}"
    print(f"console log: {console}")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, help="an arm64 root in which systemd/install.sh ran already")
    parser.add_argument("--smp", type=int, default=2, help="emulated cores (the Pi Zero 2 W has 4; this host 2)")
    parser.add_argument("--memory", type=int, default=512, help="MB (a Pi Zero 2 W has 512)")
    parser.add_argument("--boots", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="a folder for the root, the image and the console logs")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per boot")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("run as root: it copies a root with its owners, runs systemd-nspawn and makes an ext4 image")
        return 2
    qemu = qemu_system()
    work = args.keep or Path(tempfile.mkdtemp(prefix="arm64-boot-", dir="/var/tmp"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        root = prepare(work, args.root)
        host = subprocess.run([sys.executable, "-c", PYTHON_LOOP], capture_output=True, text=True, check=True)
        for n in range(args.boots):
            figures = boot(qemu, root, work / f"boot{n + 1}.img", args.smp, args.memory, args.timeout)
            figures["python_loop_here"] = host.stdout.strip()
            if figures.get("python_loop_seconds"):
                figures["python_slowdown"] = (f"{float(figures['python_loop_seconds']) / float(host.stdout):.1f}")
            print(f"boot {n + 1}: " + " ".join(f"{k}={v}" for k, v in figures.items()), flush=True)
            (work / f"boot{n + 1}.img").unlink(missing_ok=True)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
