"""The arm64 check's own script, run here: a module that does not import is named, and the rest still tried."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_check_names_every_module_that_fails_and_goes_on() -> None:
    # This machine's test environment has no lgpio (the Pi's GPIO library): exactly that one must fail.
    result = subprocess.run([sys.executable, str(ROOT / "tests/arm64_inside.py"), "imports"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    failed = [line.split("=", 1)[1].split(":", 1)[0] for line in result.stdout.splitlines()
              if line.startswith("import_failed=")]
    assert result.returncode == 1
    assert sorted(failed) == ["gpiozero.pins.lgpio", "lgpio"], result.stdout
    modules = int(next(line for line in result.stdout.splitlines() if line.startswith("modules=")).split("=")[1])
    assert modules > 100  # every module of the five packages, not only their top level
