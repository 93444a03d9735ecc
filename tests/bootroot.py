"""A Debian root for booting the service under a real systemd (tests/test_boot.py).

Made with debootstrap once and kept outside the clone (``/var/cache/bankleser-test``, or
``$BANKLESER_TEST_CACHE``), so CI on a new machine builds it (about 2 minutes) and later runs copy it
(seconds). It is rebuilt when missing, when what it should hold changed, or when older than
``MAX_AGE`` (Debian's point releases move on). Each test boots a copy of its own, never the cache.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CACHE = Path(os.environ.get("BANKLESER_TEST_CACHE", "/var/cache/bankleser-test"))
SUITE = "trixie"
"""What a new Raspberry Pi image runs (and the issue's trial); the host may be older (Debian 12 here)."""
MIRROR = "http://deb.debian.org/debian"
PACKAGES = ("systemd", "systemd-sysv", "dbus", "adduser", "python3", "curl", "ca-certificates", "network-manager",
            "iproute2")
"""A plain Debian as a hobbyist's image has it: systemd as PID 1, Python, NetworkManager (as on Raspberry Pi
OS; without polkitd, which Debian's network-manager only recommends), no Bankleser's packages (python3-venv,
sqlite3, polkitd and the build tools are install.sh's to install); curl for the check, ip for a cable."""
MAX_AGE = 14 * 86_400
STAMP = ".bankleser-test-root.json"
TOOLS = ("debootstrap", "systemd-nspawn")


def arch() -> str:
    return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                          check=True).stdout.strip()


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


@contextmanager
def _locked() -> Iterator[None]:
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two runs at once build it once
        yield


def _wanted(architecture: str) -> dict[str, object]:
    return {"suite": SUITE, "mirror": MIRROR, "packages": list(PACKAGES), "arch": architecture}


def _fresh(base: Path, architecture: str) -> bool:
    stamp = base / STAMP
    try:
        return (json.loads(stamp.read_text()) == _wanted(architecture)
                and time.time() - stamp.stat().st_mtime < MAX_AGE)
    except (OSError, ValueError):
        return False


def base_root(architecture: str | None = None) -> Path:
    """The cached root for this machine's architecture (or another one, run through qemu-user-static's
    binfmt handler), built first if missing or stale. Its name carries a digest of what it holds, so
    checkouts that want different roots on one machine keep one each instead of rebuilding in turn."""
    architecture = architecture or arch()
    wanted = _wanted(architecture)
    digest = hashlib.sha256(json.dumps(wanted, sort_keys=True).encode()).hexdigest()[:8]
    base = CACHE / f"{SUITE}-{architecture}-{digest}"
    with _locked():
        if _fresh(base, architecture):
            return base
        building = base.with_name(base.name + ".building")
        shutil.rmtree(building, ignore_errors=True)
        result = subprocess.run(["debootstrap", "--variant=minbase", f"--arch={architecture}",
                                 "--include=" + ",".join(PACKAGES), SUITE, str(building), MIRROR],
                                capture_output=True, text=True, timeout=3600)
        if result.returncode != 0:
            raise RuntimeError(f"debootstrap failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
        (building / STAMP).write_text(json.dumps(wanted))
        shutil.rmtree(base, ignore_errors=True)
        building.rename(base)
        return base


def copy_of_root(into: Path, architecture: str | None = None) -> Path:
    """A throw-away copy of the cached root (cp -a keeps owners, modes, device nodes and links)."""
    base = base_root(architecture)
    into.mkdir(parents=True)
    subprocess.run(["cp", "-a", "--reflink=auto", f"{base}/.", str(into)], check=True)
    return into


def host_ca_bundle() -> Path | None:
    """The host's CA bundle, where PyPI is reached through a TLS-inspecting proxy its store trusts."""
    for name in (os.environ.get("PIP_CERT"), os.environ.get("SSL_CERT_FILE"), "/etc/ssl/certs/ca-certificates.crt"):
        if name and Path(name).is_file():
            return Path(name)
    return None


CHECKOUT_LEFT_OUT = (".venv", ".git", "build", "__pycache__", "test-artifacts", "node_modules", ".mypy_cache",
                     ".ruff_cache", ".pytest_cache", ".hypothesis", "*.egg-info")
"""What of a checkout install.sh neither needs nor should carry into a root: the tools' and the tests' own."""


def copy_checkout(source: Path, into: Path) -> None:
    """The checkout ``source`` copied to ``into`` inside a root, as an image build copies it before install.sh."""
    shutil.copytree(source, into, symlinks=True, ignore=shutil.ignore_patterns(*CHECKOUT_LEFT_OUT))


def pip_trust() -> list[str]:
    """systemd-nspawn's arguments that let pip in a root trust the host's CA bundle (none where there is none)."""
    ca = host_ca_bundle()
    return [f"--bind-ro={ca}:/etc/bankleser-test-ca.crt", "--setenv=PIP_CERT=/etc/bankleser-test-ca.crt"] if ca else []
