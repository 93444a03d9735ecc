"""systemd/install.sh run into a scratch root, with the answers of the machine it asks faked (os-release,
python3's version, apt's python3-lgpio, whether systemd and udev run): the install tests of the service and of
the releases share it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BOOKWORM = {"codename": "bookworm", "python": "3.11", "lgpio": "1"}
TRIXIE = {"codename": "trixie", "python": "3.13", "lgpio": "1"}


def run_install(tmp_path: Path, *args: str, system: dict[str, str] = BOOKWORM, check: bool = True,
                extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The install script with this machine's answers faked: os-release, python3's version, apt's python3-lgpio."""
    os_release = tmp_path.parent / f"{tmp_path.name}-os-release"
    os_release.write_text(f'PRETTY_NAME="Raspberry Pi OS"\nVERSION_CODENAME={system["codename"]}\n')
    extra_env = extra_env or {}
    env = {**os.environ, "BANKLESER_OS_RELEASE": str(os_release), "BANKLESER_PYTHON_VERSION": system["python"],
           "BANKLESER_HAS_PYTHON3_LGPIO": system["lgpio"], "BANKLESER_SYSTEMD_BOOTED": system.get("booted", "1"),
           "BANKLESER_UDEV_RUNNING": system.get("booted", "1"), **extra_env}
    return subprocess.run(["bash", str(ROOT / "systemd" / "install.sh"), "--root", str(tmp_path), *args],
                          capture_output=True, text=True, check=check, env=env)


def install(tmp_path: Path, *args: str, system: dict[str, str] = BOOKWORM) -> str:
    return run_install(tmp_path, *args, system=system).stdout
