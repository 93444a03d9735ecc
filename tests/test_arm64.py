"""Bankleser on the Pi's architecture, installed as an image build installs it: install.sh in an arm64 root.

Every CI run (part of ``-m boot``): in a Debian trixie arm64 root (debootstrap, cached like the amd64
one: tests/bootroot.py), every arm64 program running through qemu-user-static's binfmt handler,
``systemd/install.sh`` runs as a Pi image build runs it in its chroot: apt, the virtual environment,
the runtime from its lock with ``--require-hashes``, lgpio from its source release (PyPI has no aarch64
wheel for trixie's Python 3.13) with the build tools installed and removed again, the polkit rule,
the unit enabled. Then, in that root, every module of Bankleser and of the runtime is imported, the
installed ``bankleser run --sim`` says READY and a page answers: what only arm64 can answer (which
wheels PyPI has for aarch64, their compiled code, lgpio's C build, the imports).

pip's own cache is kept between runs (under the boot test's cache), as an image builder keeps it: pip
checks every file against the lock's hashes, and reuses the lgpio wheel it built from the same
hash-checked source release (pip records the release's hash beside the wheel), so a run with its caches
skips only the emulated C build and the downloads, not a single step of install.sh. Missing its tools
in CI, the test fails: a skip is not a pass.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bootroot import CACHE, arch, copy_checkout, copy_of_root, missing_tools, pip_trust
from nspawn import nspawn

pytestmark = pytest.mark.boot

ROOT = Path(__file__).resolve().parent.parent
BINFMT = Path("/proc/sys/fs/binfmt_misc/qemu-aarch64")
PIP_CACHE = CACHE / "arm64-pip-cache"
"""pip's cache of the arm64 root's runs (downloads and the lgpio wheel it built), content-addressed by pip."""
INSTALL_TIMEOUT = 3600.0
"""install.sh emulated: 31 min here without pip's cache, the machine shared (docs/measurements.md)."""


def emulation_missing() -> list[str]:
    """What running arm64 programs here lacks: nothing on an arm64 machine."""
    if arch() == "arm64":
        return []
    try:
        registered = BINFMT.read_text().splitlines()
    except OSError:
        return ["qemu-user-static's binfmt handler for arm64 (qemu-aarch64)"]
    # F: the kernel opens the interpreter at registration, so it runs inside any root without a copy there.
    flags = next((line.split(":", 1)[1] for line in registered if line.startswith("flags:")), "")
    return [] if registered[:1] == ["enabled"] and "F" in flags else [f"qemu-aarch64 registered as {registered}"]


@pytest.fixture
def arm64_root() -> Iterator[Path]:
    missing = missing_tools() + emulation_missing()
    if missing or os.geteuid() != 0:
        why = f"needs root and {', '.join(missing) or 'its tools'} (./dev test installs them)"
        if os.environ.get("CI"):
            pytest.fail(f"the arm64 test cannot run: {why}")
        pytest.skip(why)
    runs = CACHE / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="arm64-", dir=runs))
    try:
        yield copy_of_root(work / "root", "arm64")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def figures_of(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line and " " not in line.split("=", 1)[0])


CHECK = """set -eu
cd /tmp
/opt/bankleser/venv/bin/python /w/inside.py imports
/opt/bankleser/venv/bin/python /w/inside.py daemon /opt/bankleser/venv/bin/bankleser
"""


def test_install_sh_in_an_arm64_root_installs_imports_and_serves(arm64_root: Path, tmp_path: Path) -> None:
    root = arm64_root
    copy_checkout(ROOT, root / "root/bankleser")
    PIP_CACHE.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    install = nspawn(root, *pip_trust(), f"--bind={PIP_CACHE}:/root/.cache/pip", "--chdir", "/root/bankleser",
                     "bash", "systemd/install.sh", timeout=INSTALL_TIMEOUT)
    installed = time.monotonic()
    shutil.copy2(ROOT / "tests/arm64_inside.py", tmp_path / "inside.py")
    check = nspawn(root, f"--bind-ro={tmp_path / 'inside.py'}:/w/inside.py", "bash", "-c", CHECK, timeout=1800)
    figures = figures_of(check.stdout)
    figures.update(install_seconds=f"{installed - began:.0f}", check_seconds=f"{time.monotonic() - installed:.0f}",
                   lgpio_from_source="yes" if "building it from its source release" in install.stdout else "no",
                   lgpio_wheel_from_pips_cache="yes" if "Using cached lgpio-" in install.stdout else "no")
    log = (install.stdout + "\n--- stderr\n" + install.stderr + "\n--- check\n" + check.stdout
           + "\n--- stderr\n" + check.stderr)
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    (ROOT / "test-artifacts" / "arm64-install.txt").write_text(
        "".join(f"{k}={v}\n" for k, v in figures.items()) + "\n" + log)
    print(figures)
    install_log = install.stdout + "\n--- stderr\n" + install.stderr
    assert install.returncode == 0, install_log[-6000:]
    assert "starts at the next boot" in install.stdout
    assert (root / "etc/systemd/system/multi-user.target.wants/bankleser.service").is_symlink()
    assert (root / "etc/polkit-1/rules.d/60-bankleser.rules").exists()
    # A good install says no ERROR (an image build that scans its log would fail it), and leaves no package
    # files and none of the build tools in the image.
    assert [line for line in install_log.splitlines() if "ERROR" in line] == []
    assert not list((root / "var/cache/apt/archives").glob("*.deb"))
    assert not (root / "usr/bin/swig").exists() and not (root / "usr/bin/gcc").exists()
    assert check.returncode == 0, (check.stdout + check.stderr)[-6000:]
    assert [line for line in check.stdout.splitlines() if line.startswith("import_failed=")] == []
    assert figures["page_status"] == "200" and figures["exit_code"] == "0", check.stdout[-6000:]
