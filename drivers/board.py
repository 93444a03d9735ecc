"""Which board this runs on: a Raspberry Pi means real parts by default (no imports: the first frame asks it)."""

from __future__ import annotations


def on_raspberry_pi() -> bool:
    for model in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
        try:
            with open(model, encoding="utf-8", errors="replace") as f:
                if "raspberry pi" in f.read().lower():
                    return True
        except OSError:
            continue
    return False
