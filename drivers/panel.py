"""What the OLED is, before anything draws on it: 128×64, the turns the layout supports, where it sits by default.

Light on purpose (no Pillow, no luma, no dataclasses): the config's check and the first frame
(:mod:`drivers.splash`) read it before the drawing code is loaded.
"""

from __future__ import annotations

WIDTH, HEIGHT = 128, 64

ROTATIONS = (0, 2)
"""Quarter turns the layout supports: 0 and 2 (upside down). 1 and 3 would need a 64×128 portrait
layout that no screen has, so they are refused instead of drawing a squeezed, cut frame."""

CONTROLLERS = {"ssd1306": "ssd1306", "sh1106": "sh1106"}
"""The one list of the display controllers the appliance drives: ``[hardware.display] kind`` → the class of
``luma.oled.device`` that speaks it. The config's check, the drivers, the first frame's recording and the doctor
take theirs from here; a new controller is a line here (and its bytes in :mod:`drivers.oled_model`)."""
KINDS = tuple(CONTROLLERS)
"""The controllers' names, as ``[hardware.display] kind`` takes them (besides "sim")."""

KIND, I2C_PORT, ADDRESS, ROTATE, CONTRAST = "ssd1306", 1, 0x3C, 0, 0xCF
"""``[hardware.display]``'s defaults (:class:`drivers.hardware.DisplayConfig` takes its own from here)."""


def check_rotate(rotate: int) -> int:
    """Only the rotations the layout supports; a clear config error for the others."""
    if rotate not in ROTATIONS:
        from words import text  # the catalogue only for a wrong value: this module is read before the first frame

        raise ValueError(text("service.config.rotate_refused", rotate=repr(rotate)))
    return rotate
