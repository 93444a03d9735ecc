"""The OLED: a screen model in, a crisp 1-bit 128×64 frame out (luma.oled, SSD1306 or SH1106 on I²C).

The font is Terminus (SIL OFL 1.1, shipped in ``drivers/fonts``): a bitmap font whose strikes
render pixel-clean in mode "1" at exactly these sizes, with the umlauts German needs.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .screen import Screen

WIDTH, HEIGHT = 128, 64
FONTS = Path(__file__).resolve().parent / "fonts"
CONTRAST_AWAKE, CONTRAST_DIM = 0xCF, 0x10


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Terminus at one of its bitmap strikes (12, 14, 16, 18, 20, 22, 24, 28, 32 px)."""
    return ImageFont.truetype(str(FONTS / f"terminus-{'bold' if bold else 'normal'}.otb"), size)


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int, height: int, sizes: tuple[int, ...], bold: bool) -> Any:
    """The largest strike that fits the box, so a long verdict shrinks instead of being cut."""
    for size in sizes:
        f = font(size, bold)
        if size <= height and draw.textlength(text, font=f) <= width:
            return f
    return font(sizes[-1], bold)


def _qr(data: str, box: int) -> Image.Image:
    import segno

    code = segno.make(data, error="l", micro=False)
    scale = max(1, box // code.symbol_size(border=1)[0])
    matrix = list(code.matrix_iter(scale=scale, border=1))
    img = Image.new("1", (len(matrix[0]), len(matrix)), 1)
    img.putdata([0 if dark else 1 for row in matrix for dark in row])
    return img


def render(screen: Screen) -> Image.Image:
    """Draw a screen into a 128×64 mode-"1" image (white = lit pixel)."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"  # no anti-aliasing: every pixel is on or off
    right = WIDTH
    if screen.qr:
        code = _qr(screen.qr, 54)
        img.paste(code, (WIDTH - code.width, HEIGHT - code.height))
        right = WIDTH - code.width - 2
    y = 0
    if screen.title or screen.icons:
        draw.rectangle((0, 0, WIDTH - 1, 12), fill=1)
        small = font(12)
        draw.text((2, 0), screen.title, font=small, fill=0)
        if screen.icons:
            w = draw.textlength(screen.icons, font=small)
            draw.text((WIDTH - 2 - w, 0), screen.icons, font=small, fill=0)
        y = 14
    if screen.big:
        room = HEIGHT - y - 12 * min(len(screen.lines), 3)
        big = _fit(draw, screen.big, right - 2, room, (32, 28, 24, 20, 16, 14, 12), True)
        draw.text((1, y), screen.big, font=big, fill=1)
        y += big.size
    small = font(12)
    for line in screen.lines:
        if y + 12 > HEIGHT:
            break
        draw.text((1, y), line, font=small, fill=1)
        y += 12
    return img


class Display:
    """A luma device with sleep and wake. Takes the device, never reaches for a global."""

    def __init__(self, device: Any) -> None:
        self._device = device
        self._lock = threading.Lock()
        self._closed = False
        self.asleep = False
        self.screen: Screen | None = None

    def show(self, screen: Screen) -> Image.Image:
        image = render(screen)
        with self._lock:
            if self._closed:
                return image
            self._device.display(image)
            self.screen = screen
        self._shown(screen, image)
        return image

    def _shown(self, screen: Screen, image: Image.Image) -> None:
        """Hook for the simulated twin."""

    def sleep(self) -> None:
        """Dim, then switch the panel off: an idle OLED burns in and drains nothing useful."""
        with self._lock:
            if not self._closed and not self.asleep:
                self._device.contrast(CONTRAST_DIM)
                self._device.hide()
                self.asleep = True

    def wake(self) -> None:
        with self._lock:
            if not self._closed and self.asleep:
                self._device.show()
                self._device.contrast(CONTRAST_AWAKE)
                self.asleep = False

    def close(self, last: Screen | None = None) -> None:
        """Show a last screen (kept on the panel) and release the bus. Idempotent."""
        if last is not None and not self._closed:
            self.show(last)
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._device.persist = last is not None
            self._device.cleanup()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame the simulated display showed."""

    seq: int
    screen: Screen
    image: Image.Image

    @property
    def text(self) -> str:
        return self.screen.text()


class SimDisplay(Display):
    """The twin: luma's ``dummy`` device, keeping every frame and telling subscribers."""

    def __init__(self, history: int = 500) -> None:
        from luma.core.device import dummy

        super().__init__(dummy(width=WIDTH, height=HEIGHT, mode="1"))
        self.frames: deque[Frame] = deque(maxlen=history)
        self._seq = 0
        self._changed = threading.Condition()
        self._subscribers: list[Callable[[Frame], None]] = []

    def _shown(self, screen: Screen, image: Image.Image) -> None:
        with self._changed:
            self._seq += 1
            frame = Frame(self._seq, screen, image)
            self.frames.append(frame)
            self._changed.notify_all()
        for callback in list(self._subscribers):
            callback(frame)

    def subscribe(self, callback: Callable[[Frame], None]) -> Callable[[], None]:
        """Call ``callback`` with every new frame; returns the unsubscribe function."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    @property
    def last(self) -> Frame | None:
        return self.frames[-1] if self.frames else None

    def wait_for(self, after_seq: int, timeout: float) -> Frame | None:
        """Block until a frame newer than ``after_seq`` exists (for the virtual device's stream)."""
        with self._changed:
            self._changed.wait_for(lambda: self._seq > after_seq or self._closed, timeout)
            return self.last if self._seq > after_seq else None

    @property
    def image(self) -> Image.Image | None:
        img: Image.Image | None = self._device.image
        return img


def open_oled(*, driver: str, port: int, address: int, rotate: int, contrast: int) -> Display:
    """The real panel on I²C. Raises luma's DeviceNotFoundError when the bus or panel is missing."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    kinds = {"ssd1306": ssd1306, "sh1106": sh1106}
    if driver not in kinds:
        raise ValueError(f"unknown OLED driver {driver!r} (ssd1306, sh1106)")
    device = kinds[driver](i2c(port=port, address=address), width=WIDTH, height=HEIGHT, rotate=rotate)
    device.contrast(contrast)
    return Display(device)
