"""systemd-nspawn for the tests that boot or run a Debian root (the boot test, the arm64 check)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def nspawn(root: Path, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """systemd-nspawn in ``root``; on a time-out SIGTERM first (a booted container powers off), then SIGKILL."""
    # --register=no --keep-unit: this host's PID 1 is no systemd (nothing to register with).
    argv = ["systemd-nspawn", "--quiet", "--register=no", "--keep-unit", "-D", str(root), *args]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                          text=True) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                out, err = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
            raise AssertionError(f"systemd-nspawn {' '.join(args)} took over {timeout} s:\n{out[-3000:]}\n"
                                 f"{err[-3000:]}") from None
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)
