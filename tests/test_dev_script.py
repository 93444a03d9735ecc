"""`./dev run --port N` announces the address the server really uses (issue 10, defect 14)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize("args", [["--port", "9123"], ["--port=9123"]])
def test_dev_run_prints_the_port_it_was_given(args: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = subprocess.run([str(ROOT / "dev"), "run", *args, "--help"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120, check=True).stdout
    announced = [line for line in out.splitlines() if line.startswith("Bankleser (Simulation)")]
    assert announced == ["Bankleser (Simulation): virtuelles Gerät auf http://127.0.0.1:9123/device, "
                         "Stand auf http://127.0.0.1:9123/"]
