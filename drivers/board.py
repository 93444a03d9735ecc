"""Which board this runs on: a Raspberry Pi means real parts by default (no import beyond pathlib: the
first frame asks it)."""

from __future__ import annotations

from pathlib import Path


def on_raspberry_pi() -> bool:
    for model in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
        try:
            if "raspberry pi" in Path(model).read_text(errors="replace").lower():
                return True
        except OSError:
            continue
    return False
