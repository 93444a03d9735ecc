"""The OLED: a screen model in, a crisp 1-bit 128×64 frame out (luma.oled, SSD1306 or SH1106 on I²C).

The font is Terminus (SIL OFL 1.1, shipped in ``drivers/fonts``): a bitmap font whose strikes
render pixel-clean in mode "1" at exactly these sizes, with the umlauts German needs.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .panel import CONTROLLERS, HEIGHT, WIDTH, check_rotate
from .screen import Screen

log = logging.getLogger(__name__)

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


QR_BOX = 54
"""The QR code's box under a title bar (its light border may reach into the bar, which is lit as well)."""


def qr_image(data: str, box: int) -> Image.Image:
    """The code at as many pixels per module as fit ``box`` (with a 1-module light border). UTF-8, as the
    phones' decoders guess it best (segno would pick ISO 8859-1 for an SSID with an umlaut, which they misread)."""
    import segno

    code = segno.make(data, error="l", micro=False, encoding="utf-8")
    scale = max(1, box // code.symbol_size(border=1)[0])
    matrix = [list(row) for row in code.matrix_iter(scale=scale, border=1)]
    img = Image.new("1", (len(matrix[0]), len(matrix)), 1)
    img.putdata([0 if dark else 1 for row in matrix for dark in row])
    return img


def qr_box(screen: Screen) -> int:
    """A screen without a title gives its code the panel's full height: the Wi-Fi's payload needs a version-3
    code (29 modules), which is 2 px per module only in 62 px; the reader's marks then sit left of it."""
    return QR_BOX if screen.title else HEIGHT


def render(screen: Screen) -> Image.Image:
    """Draw a screen into a 128×64 mode-"1" image (white = lit pixel)."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"  # no anti-aliasing: every pixel is on or off
    right = bar = WIDTH
    code = qr_image(screen.qr, qr_box(screen)) if screen.qr else None
    if code is not None:
        right = WIDTH - code.width - 2
        bar = WIDTH if screen.title else right  # a full-height code: the bar (marks only) ends before it
    y = 0
    if screen.title or screen.icons:
        draw.rectangle((0, 0, bar - 1, 12), fill=1)
        small = font(12)
        draw.text((2, 0), screen.title, font=small, fill=0)
        if screen.icons:
            w = draw.textlength(screen.icons, font=small)
            draw.text((bar - 2 - w, 0), screen.icons, font=small, fill=0)
        y = 14
    if code is not None:  # after the bar, which it may reach into (lit, as its light border): drawn whole
        img.paste(code, (WIDTH - code.width, HEIGHT - code.height))
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
    """A luma device with sleep and wake, drawn from its own thread. Takes the device, never reaches for a global.

    A full frame over I²C takes ~24 ms at 400 kHz and ~93 ms at the Pi's default 100 kHz; drawn
    on the main loop it would hold up keys and taps. ``show()`` only hands the screen over: the
    display's thread renders and sends the newest screen, and screens that were replaced before
    it got to them are dropped (nobody needs to see them). Sleep and wake go the same way, so no
    caller ever waits for the bus. ``threaded=False`` draws at once (the UI tests, which read each frame
    right after each key). ``on_frame(screen, image)`` is told each frame sent to the panel (the virtual
    device's page shows them: :mod:`drivers.virtual`).
    """

    def __init__(self, device: Any, *, contrast: int = CONTRAST_AWAKE, threaded: bool = True,
                 on_frame: Callable[[Screen, Image.Image], None] | None = None) -> None:
        self._device = device
        self._on_frame = on_frame
        self.contrast = contrast
        """The configured contrast, restored at every wake."""
        self._lock = threading.Lock()  # the device: one user at a time
        self._handover = threading.Condition()
        self._pending: Screen | None = None
        self._want_asleep = False
        self._panel_asleep = False
        self._closed = False
        self._busy = False
        self.asleep = False
        self.screen: Screen | None = None
        self.drawn = 0
        """Frames sent to the panel (intermediate screens dropped are not counted)."""
        self._thread: threading.Thread | None = None
        if threaded:
            self._thread = threading.Thread(target=self._run, name="display", daemon=True)
            self._thread.start()

    def show(self, screen: Screen) -> None:
        """The next screen. Returns at once; the display's thread draws the newest one."""
        with self._handover:
            if self._closed:
                return
            self.screen = screen
            if self._thread is not None:
                self._pending = screen
                self._handover.notify_all()
                return
        self._draw(screen)

    def attach(self, device: Any, contrast: int) -> None:
        """Draw on ``device`` from now on, starting with the current screen: a panel that came up late
        (a loose wire fixed while the box runs). Until then the display drew on a stand-in."""
        with self._lock:
            old, self._device = self._device, device
            self.contrast = contrast
            self._panel_asleep = False  # a panel just initialised is on
        try:
            old.cleanup()
        except Exception:
            log.debug("stand-in cleanup failed", exc_info=True)
        with self._handover:
            if self._closed:
                return
            self._pending = self.screen
            self._handover.notify_all()
        if self._thread is None and self.screen is not None:
            self._draw(self.screen)

    def sleep(self) -> None:
        """Dim, then switch the panel off: an idle OLED burns in and drains nothing useful."""
        self._power(asleep=True)

    def wake(self) -> None:
        """Panel on again, at the configured contrast."""
        self._power(asleep=False)

    def _power(self, *, asleep: bool) -> None:
        with self._handover:
            if self._closed:
                return
            self.asleep = self._want_asleep = asleep
            if self._thread is not None:
                self._handover.notify_all()
                return
        self._apply_power()

    def _apply_power(self) -> None:
        with self._lock:
            want = self._want_asleep
            if want and not self._panel_asleep:
                self._device.contrast(CONTRAST_DIM)
                self._device.hide()
            elif not want and self._panel_asleep:
                self._device.show()
                self._device.contrast(self.contrast)
            self._panel_asleep = want

    def _draw(self, screen: Screen) -> None:
        image = render(screen)
        with self._lock:
            self._device.display(image)
            self.drawn += 1
        if self._on_frame is not None:
            self._on_frame(screen, image)

    def _run(self) -> None:
        while True:
            with self._handover:
                self._handover.wait_for(lambda: self._pending is not None or self._closed
                                       or self._want_asleep != self._panel_asleep)
                screen, self._pending = self._pending, None
                closing = self._closed
                self._busy = True
            try:
                if not self._want_asleep:
                    self._apply_power()  # wake before drawing
                if screen is not None:
                    self._draw(screen)
                self._apply_power()  # sleep after the last frame
            except Exception:  # a glitch on the bus must not end the display
                log.exception("display update failed")
            with self._handover:
                self._busy = False
                self._handover.notify_all()
                if closing and self._pending is None:
                    return

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until the thread has drawn everything handed to it (tests, benchmarks, shutdown)."""
        if self._thread is None:
            return True
        with self._handover:
            return self._handover.wait_for(lambda: self._pending is None and not self._busy
                                          and self._want_asleep == self._panel_asleep, timeout)

    def close(self, last: Screen | None = None) -> None:
        """Show a last screen (kept on the panel) and release the bus. Idempotent."""
        with self._handover:
            if self._closed:
                return
            if last is not None:
                self.screen = self._pending = last
                self._want_asleep = self.asleep = False
            self._closed = True
            self._handover.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=2)
        elif last is not None:
            self._apply_power()
            self._draw(last)
        with self._lock:
            self._device.persist = last is not None
            self._device.cleanup()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def stand_in() -> Display:
    """A display with no panel (luma's dummy device): the loop draws on, a late panel is attached."""
    from luma.core.device import dummy

    return Display(dummy(width=WIDTH, height=HEIGHT, mode="1"))


def open_panel(*, driver: str, port: int, address: int, rotate: int, contrast: int) -> Any:
    """The luma device of the real panel, initialised (luma talks to it once: a wrong address raises here)."""
    import luma.oled.device
    from luma.core.interface.serial import i2c

    if driver not in CONTROLLERS:
        from words import text

        raise ValueError(text("service.display.driver", driver=repr(driver), known=", ".join(CONTROLLERS)))
    controller = getattr(luma.oled.device, CONTROLLERS[driver])
    serial = i2c(port=port, address=address)
    try:
        device = controller(serial, width=WIDTH, height=HEIGHT, rotate=check_rotate(rotate))
        device.contrast(contrast)
    except BaseException:
        serial.cleanup()  # the bus stays open otherwise, once per retry
        raise
    return device
