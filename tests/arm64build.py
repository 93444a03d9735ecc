"""What the arm64 check installs, made where it is cheap and kept by content (tests/test_arm64.py).

Under qemu-user every arm64 instruction is emulated: on this 2-core machine install.sh took 31 minutes in
the arm64 root, most of it apt, pip and a C compiler running emulated. Only some of that needs the Pi's
architecture, so the rest is done natively and kept:

- the runtime's wheels for aarch64 and CPython 3.13 (trixie's Python) come from PyPI by the lock, hash
  checked, downloaded here in seconds (pip's ``--platform``): PyPI has an aarch64 wheel for every locked
  package but lgpio, or the download fails and says which;
- lgpio has no aarch64 wheel for Python 3.13, so a Pi builds it from its source release: that build runs
  once in the arm64 root (its C compiler emulated, minutes) and its wheel is kept, with the pip wheel of
  trixie's python3-venv, until the lock or the root changes;
- Bankleser's own wheel is pure Python, built here.

Kept under the boot test's cache (``/var/cache/bankleser-test``), each in a folder named by a digest of
what made it, so a changed lock makes a new one and never reuses a stale one.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from bootroot import CACHE, _locked, base_root, host_ca_bundle

ROOT = Path(__file__).resolve().parent.parent
RUNTIME_LOCK = ROOT / "systemd/requirements.lock"
LGPIO_LOCK = ROOT / "systemd/lgpio.lock"
PYTHON = "3.13"
"""trixie's Python, as the root runs it (a Pi image of Raspberry Pi OS trixie too)."""
GLIBC_MINOR = 41
"""trixie's glibc 2.41: every manylinux wheel up to it runs there."""
BUILD_PACKAGES = ("python3-venv", "gcc", "libc6-dev", "swig", "python3-dev")
"""What install.sh installs to build lgpio from its source release, and python3-venv for trixie's pip."""


def _digest(*parts: bytes) -> str:
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:12]


def _pip_isolated() -> list[str]:
    """This interpreter's pip, deaf to the machine's pip configuration (its indexes, links, constraints):
    the lock says what is installed, from PyPI, as on a Pi."""
    ca = host_ca_bundle()
    return [sys.executable, "-m", "pip", "--isolated", "--disable-pip-version-check", "--quiet",
            *(["--cert", str(ca)] if ca else [])]


def runtime_wheels() -> Path:
    """The locked runtime's aarch64 wheels for trixie's Python, hash checked against the lock."""
    folder = CACHE / f"arm64-wheels-{_digest(RUNTIME_LOCK.read_bytes(), PYTHON.encode())}"
    with _locked():
        if (folder / ".complete").exists():
            return folder
        shutil.rmtree(folder, ignore_errors=True)
        platforms = [f"--platform=manylinux_2_{minor}_aarch64" for minor in range(17, GLIBC_MINOR + 1)]
        result = subprocess.run([*_pip_isolated(), "download", "--only-binary=:all:", "--no-deps", "--require-hashes",
                                 *platforms, "--platform=manylinux2014_aarch64", "--implementation=cp",
                                 f"--python-version={PYTHON}", f"--abi=cp{PYTHON.replace('.', '')}",
                                 "-r", str(RUNTIME_LOCK), "-d", str(folder)],
                                capture_output=True, text=True, timeout=900)
        if result.returncode != 0:
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError(f"PyPI lacks an aarch64 wheel of the lock for Python {PYTHON}:\n{result.stderr[-3000:]}")
        (folder / ".complete").touch()
        return folder


def bankleser_wheel(into: Path) -> Path:
    """This checkout as a wheel (pure Python: built here, installed there), from a fresh copy: setuptools'
    build/ folder in the checkout would carry a module deleted since into the wheel."""
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "src"
        shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(
            ".venv", ".git", "build", "__pycache__", "test-artifacts", "node_modules", ".mypy_cache", ".ruff_cache",
            ".pytest_cache", ".hypothesis", "*.egg-info"))
        subprocess.run([*_pip_isolated(), "wheel", "--no-deps", "--no-build-isolation", "-w", str(into), str(source)],
                       check=True, capture_output=True, timeout=600)
    return next(into.glob("bankleser-*.whl"))


def built_on_arm64(nspawn_in: Callable[..., subprocess.CompletedProcess[str]]) -> Path:
    """lgpio's wheel built from its hash-checked source release in the arm64 root, and trixie's pip wheel.

    ``nspawn_in(root, *args, timeout=)`` runs a command in a root (tests/test_boot.py's ``nspawn``)."""
    base = base_root("arm64")
    folder = CACHE / f"arm64-built-{_digest(LGPIO_LOCK.read_bytes(), base.name.encode(), ' '.join(BUILD_PACKAGES).encode())}"
    with _locked():
        if (folder / ".complete").exists():
            return folder
    runs = CACHE / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="arm64-build-", dir=runs))
    try:
        root = work / "root"
        root.mkdir()
        subprocess.run(["cp", "-a", "--reflink=auto", f"{base}/.", str(root)], check=True)
        out = work / "out"
        out.mkdir()
        shutil.copy2(LGPIO_LOCK, out / "lgpio.lock")
        ca = host_ca_bundle()
        trust = [f"--bind-ro={ca}:/etc/bankleser-test-ca.crt", "--setenv=PIP_CERT=/etc/bankleser-test-ca.crt"] if ca else []
        script = ("set -eu; export DEBIAN_FRONTEND=noninteractive; apt-get update -qq; "
                  f"apt-get install -y -qq --no-install-recommends {' '.join(BUILD_PACKAGES)} >/dev/null; "
                  # pip run from its wheel: a venv's own copy costs two minutes emulated (ensurepip).
                  "python3 -m venv --without-pip /tmp/build; "
                  # As install.sh builds it (PYPI=1: lg's own library linked in statically).
                  "pip=$(echo /usr/share/python-wheels/pip-*.whl)/pip; "
                  "PYPI=1 /tmp/build/bin/python $pip wheel --quiet "
                  "--disable-pip-version-check --no-deps --require-hashes --no-binary lgpio -r /out/lgpio.lock -w /out; "
                  "cp /usr/share/python-wheels/pip-*.whl /out/")
        result = nspawn_in(root, f"--bind={out}:/out", *trust, "bash", "-c", script, timeout=2400)
        if result.returncode != 0 or not list(out.glob("lgpio-*.whl")) or not list(out.glob("pip-*.whl")):
            raise RuntimeError(f"building lgpio in the arm64 root failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
        (out / "lgpio.lock").unlink()
        with _locked():
            shutil.rmtree(folder, ignore_errors=True)
            shutil.copytree(out, folder)
            (folder / ".complete").touch()
        return folder
    finally:
        shutil.rmtree(work, ignore_errors=True)
