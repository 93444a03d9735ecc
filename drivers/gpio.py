"""gpiozero's classes the drivers use, imported without ``importlib.metadata``.

gpiozero (``gpiozero/devices.py``, ``gpiozero/pins/mock.py``) imports ``entry_points`` at module level to look
pin factories and mock pin classes up by name. The drivers never ask by name (they make the factory themselves:
lgpio's on the box, the ``MockFactory`` on the virtual table), yet that import alone loads ``importlib.metadata``
with ``email`` and ``zipfile``: about 27 M instructions before READY, ≈ 0.1 s at a Pi core's pace.
gpiozero tries the ``importlib_metadata`` backport first; while it loads, that name is a stand-in whose
``entry_points`` loads the standard library's on the first call, so a lookup by name still works, later.
The stand-in is gone from ``sys.modules`` once gpiozero is in: other libraries see the real module or none.
"""

from __future__ import annotations

import sys
import types
from typing import Any


def _entry_points(**params: Any) -> Any:
    from importlib.metadata import entry_points

    return entry_points(**params)


_standin = types.ModuleType("importlib_metadata")
_standin.entry_points = _entry_points  # type: ignore[attr-defined]
if "gpiozero.devices" not in sys.modules:
    sys.modules.setdefault("importlib_metadata", _standin)
try:
    from gpiozero import LED, Button, DigitalInputDevice, GPIODevice, PWMOutputDevice, RotaryEncoder
    from gpiozero.pins.mock import MockPin, MockSPIDevice
finally:
    if sys.modules.get("importlib_metadata") is _standin:
        del sys.modules["importlib_metadata"]

__all__ = ["LED", "Button", "DigitalInputDevice", "GPIODevice", "MockPin", "MockSPIDevice", "PWMOutputDevice",
           "RotaryEncoder"]
