"""gpiozero's classes the drivers use, imported without ``importlib.metadata``.

gpiozero (``gpiozero/devices.py``, ``gpiozero/pins/mock.py``) imports ``entry_points`` at module level to look
pin factories and mock pin classes up by name. The drivers never ask by name (they make the factory themselves:
lgpio's on the box, the ``MockFactory`` on the virtual table), yet that import alone loads ``importlib.metadata``
with ``email`` and ``zipfile``: about 27 M instructions before READY, ≈ 0.1 s at a Pi core's pace.
gpiozero tries the ``importlib_metadata`` backport first; while it loads, that name is a stand-in whose
``entry_points`` loads the standard library's on the first call, so a lookup by name still works, later.
The stand-in is gone from ``sys.modules`` once gpiozero is in: other libraries see the real module or none.

``gpiozero/boards.py`` likewise tries the ``importlib_resources`` backport before the standard library's
``importlib.resources``, which it needs only to read the fonts of a seven-segment display (never on this box);
importing it loads ``tempfile`` and ``shutil`` with ``zlib``, ``bz2`` and ``lzma`` as well, about 12 M instructions
before READY. Its stand-in's ``files`` is the standard library's, imported on the first call.
"""

from __future__ import annotations

import sys
import types
from typing import Any


def _entry_points(**params: Any) -> Any:
    from importlib.metadata import entry_points

    return entry_points(**params)


def _files(*args: Any, **kwargs: Any) -> Any:
    from importlib.resources import files

    return files(*args, **kwargs)


_standin = types.ModuleType("importlib_metadata")
_standin.entry_points = _entry_points  # type: ignore[attr-defined]
_resources = types.ModuleType("importlib_resources")
_resources.files = _files  # type: ignore[attr-defined]
_STANDINS = {"importlib_metadata": _standin, "importlib_resources": _resources}
if "gpiozero.devices" not in sys.modules:
    for _name, _module in _STANDINS.items():
        sys.modules.setdefault(_name, _module)
try:
    from gpiozero import LED, Button, DigitalInputDevice, GPIODevice, PWMOutputDevice, RotaryEncoder
    from gpiozero.pins.mock import MockPin, MockSPIDevice
finally:
    for _name, _module in _STANDINS.items():
        if sys.modules.get(_name) is _module:
            del sys.modules[_name]

__all__ = ["LED", "Button", "DigitalInputDevice", "GPIODevice", "MockPin", "MockSPIDevice", "PWMOutputDevice",
           "RotaryEncoder"]
