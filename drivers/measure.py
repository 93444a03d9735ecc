"""What a text measures on the OLED: its width in the display's font, and the room of a line and of the title bar.

Here, beside the drawing code, so that what lays out the screens (:mod:`device.scenes.layout`) and what checks a
family's edition before it is stored (:mod:`device.store.editions`: does each name fit a line?) measure alike
without the storage reaching into the screens.
"""

from __future__ import annotations

from .display import font
from .panel import WIDTH

TITLE_PX = WIDTH - 4
"""The title bar's text room (it starts at x=2, the icons end 2 pixels before the edge)."""
LINE_PX = WIDTH - 1
"""A small line's room (it starts at x=1)."""


def px(text: str, *, bold: bool = False, size: int = 12) -> float:
    """The width the display will draw ``text`` at."""
    return float(font(size, bold).getlength(text))
