"""What the tests of the hardware's parts share: callbacks that record what the parts report, and a
configuration with every part simulated but those a test names."""

from __future__ import annotations

from typing import Any

from drivers.hardware import Callbacks, HardwareConfig


class Calls:
    """What the parts reported through their callbacks: the reader's status changes and how often the parts changed."""

    def __init__(self) -> None:
        self.reader: list[tuple[bool, str]] = []
        self.parts = 0

    def callbacks(self) -> Callbacks:
        def parts() -> None:
            self.parts += 1

        return Callbacks(on_key=lambda k: None, on_hold=lambda k: None, on_encoder=lambda e: None,
                         on_tap=lambda u: None, on_reader_status=lambda ok, why: self.reader.append((ok, why)),
                         on_parts=parts)


def only(**real: dict[str, Any]) -> HardwareConfig:
    """Every part simulated (or absent) but those given."""
    base: dict[str, dict[str, Any]] = {"display": {"kind": "sim"}, "keypad": {"kind": "sim"},
                                        "encoder": {"kind": "none"}, "buzzer": {"kind": "sim"},
                                        "led": {"kind": "sim"}, "reader": {"kind": "sim"}}
    return HardwareConfig.from_dict({**base, **real})
