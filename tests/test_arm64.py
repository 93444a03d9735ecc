"""install.sh in an arm64 Debian trixie root, as an image build for a 64-bit Pi runs it.

A Pi runs arm64; CI runs amd64. What only shows on arm64 (which wheels PyPI has for aarch64, lgpio
built from source there, the import check under the Pi's architecture) is caught here, in every CI
run: the root is made by debootstrap for arm64 and cached like the amd64 one (tests/bootroot.py), and
everything in it runs through qemu-user-static's binfmt handler (``./dev test`` installs and
registers it when asked for this test). Part of ``-m boot``.

Not yet in every CI run: measured on this 2-core machine (shared), the root's debootstrap took 22 min
(once per machine and fortnight) and the install under emulation 31 min (docs/measurements.md), more
than the ~15 minutes a CI run may grow by. It runs with ``BANKLESER_ARM64_TEST=1 ./dev test tests/test_arm64.py``;
asked for and missing its tools, it fails: a skip is not a pass.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bootroot import CACHE, arch, copy_of_root, host_ca_bundle, missing_tools
from nspawn import nspawn

pytestmark = pytest.mark.boot

ROOT = Path(__file__).resolve().parent.parent
BINFMT = Path("/proc/sys/fs/binfmt_misc/qemu-aarch64")
ASKED = os.environ.get("BANKLESER_ARM64_TEST") == "1"


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
    if not ASKED:
        pytest.skip("31 min under emulation here (+22 min once for the root): BANKLESER_ARM64_TEST=1 runs it")
    missing = missing_tools() + emulation_missing()
    if missing or os.geteuid() != 0:
        pytest.fail(f"the arm64 install test needs root and {', '.join(missing) or 'its tools'} "
                    "(BANKLESER_ARM64_TEST=1 ./dev test installs them)")
    runs = CACHE / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="arm64-", dir=runs))
    try:
        yield copy_of_root(work / "root", "arm64")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_install_in_an_arm64_root_as_an_image_build_runs_it(arm64_root: Path) -> None:
    began = time.monotonic()
    root = arm64_root
    shutil.copytree(ROOT, root / "root/bankleser", symlinks=True, ignore=shutil.ignore_patterns(
        ".venv", ".git", "__pycache__", "test-artifacts", "node_modules", ".mypy_cache", ".ruff_cache",
        ".pytest_cache", ".hypothesis", "*.egg-info"))
    ca = host_ca_bundle()
    trust = [f"--bind-ro={ca}:/etc/bankleser-test-ca.crt", "--setenv=PIP_CERT=/etc/bankleser-test-ca.crt"] if ca else []
    result = nspawn(root, *trust, "--chdir", "/root/bankleser", "bash", "systemd/install.sh", timeout=3600)
    seconds = time.monotonic() - began
    out = result.stdout + "\n--- stderr\n" + result.stderr
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    (ROOT / "test-artifacts" / "arm64-install.txt").write_text(f"seconds={seconds:.0f}\n{out}")
    print(f"arm64 install under qemu-user-static: {seconds:.0f} s")
    assert result.returncode == 0, out[-6000:]
    assert "starts at the next boot" in result.stdout
    assert (root / "etc/systemd/system/multi-user.target.wants/bankleser.service").is_symlink()
    assert (root / "opt/bankleser/venv/bin/bankleser").exists()
    assert (root / "etc/polkit-1/rules.d/60-bankleser.rules").exists()
    assert [line for line in out.splitlines() if "ERROR" in line] == []
    assert not list((root / "var/cache/apt/archives").glob("*.deb"))
