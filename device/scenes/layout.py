"""The layout step: every line measured with the shipped font before it is drawn.

The OLED (drivers/display.py) draws a title bar and small lines in Terminus 12 and the big line
in the largest bold strike that fits. Nothing here counts characters: text is measured in
pixels, wrapped at spaces (a word wider than a line is broken, never cut), and a body longer
than the rows left scrolls with the knob. A refusal that offers to raise money pins its last line
("OK: Geld beschaffen") so it is always seen; a confirmation says its keys in the title bar.
"""

from __future__ import annotations

from functools import cache

from msgspec.structs import replace

from drivers.display import QR_BOX, qr_box, qr_image
from drivers.measure import LINE_PX as LINE_PX  # the scenes take the panel's measures from here
from drivers.measure import TITLE_PX as TITLE_PX
from drivers.measure import px as px
from drivers.panel import HEIGHT, WIDTH
from drivers.screen import Screen

ROW = 12
TITLE_ROWS = 14
MORE = "↓"
"""In the title bar: the body goes on below (turn the knob)."""


def rows(big: str) -> int:
    """Small lines under the title (and the big line at its smallest strike, 12 px)."""
    used = TITLE_ROWS + (ROW if big else 0)
    return (HEIGHT - used) // ROW


def split(text: str, room: float = LINE_PX, *, at_spaces: bool = True) -> list[str]:
    """``text`` as lines that fit ``room`` pixels with every character kept, spaces too (a network's name):
    broken after the last space that fits (``at_spaces``), else where the line is full."""
    out: list[str] = []
    while text:
        cut = len(text)
        while cut > 1 and px(text[:cut]) > room:
            cut -= 1
        space = text.rfind(" ", 0, cut)
        if at_spaces and cut < len(text) and space > 0:
            cut = space + 1  # the space stays at the line's end, where it takes no room the eye sees
        out.append(text[:cut])
        text = text[cut:]
    return out


def wrap(text: str, room: float = LINE_PX) -> list[str]:
    """``text`` as lines that fit ``room`` pixels: broken at spaces; a word wider than a line is split."""
    out: list[str] = []
    for part in text.split("\n"):
        line = ""
        for word in part.split():
            candidate = f"{line} {word}" if line else word
            if px(candidate) <= room:
                line = candidate
                continue
            if line:
                out.append(line)
            line = word
            while px(line) > room:  # one word wider than the line: split it, keep every letter
                cut = len(line)
                while cut > 1 and px(line[:cut]) > room:
                    cut -= 1
                out.append(line[:cut])
                line = line[cut:]
        if line:
            out.append(line)
    return out


def big_fits(big: str, room: float = LINE_PX - 1) -> bool:
    """The display shrinks the big line down to 12 px bold; it fits if that strike does."""
    return px(big, bold=True) <= room


def page(title: str, big: str = "", body: tuple[str, ...] | list[str] = (), *, pinned: tuple[str, ...] = (),
         offset: int = 0, icons: str = "") -> Screen:
    """A screen from texts of any length: wrapped, the body from line ``offset`` (the knob), ``pinned`` kept.

    A title too wide for the bar moves its rest to the body's top; a big line too wide even at
    12 px becomes body lines too. :func:`scroll_rows` says how far the knob goes.
    """
    head, lines = _body(title, big, body, icons)
    big = big if big_fits(big) else ""
    room = max(1, rows(big) - len(pinned))
    offset = max(0, min(offset, len(lines) - room))
    window = lines[offset:offset + room]
    marks = icons + (MORE if offset + room < len(lines) else "")
    return Screen(title=head, big=big, lines=(*window, *pinned), icons=marks)


def scroll_rows(title: str, big: str = "", body: tuple[str, ...] | list[str] = (), pinned: int = 0,
                icons: str = "") -> int:
    """How many body lines lie below the first screen: the knob's range."""
    _, lines = _body(title, big, body, icons)
    return max(0, len(lines) - max(1, rows(big if big_fits(big) else "") - pinned))


def _body(title: str, big: str, body: tuple[str, ...] | list[str], icons: str) -> tuple[str, list[str]]:
    head = fit_title(title, icons + MORE)
    rest = title[len(head):].strip()
    lines = wrap(rest) if rest else []
    if big and not big_fits(big):
        lines += wrap(big)
    for text in body:
        lines += wrap(text) if text else [""]
    return head, lines


def fit_title(title: str, icons: str = "") -> str:
    """The longest head of ``title`` (whole words) that fits the bar beside ``icons``."""
    room = TITLE_PX - (px(icons) + 4 if icons else 0)
    if px(title) <= room:
        return title
    words = title.split()
    head = ""
    for word in words:
        candidate = f"{head} {word}" if head else word
        if px(candidate) > room:
            break
        head = candidate
    if not head:  # one word wider than the bar: its head, the rest below
        head = wrap(title, room)[0]
    return head


def problems(screen: Screen, *, qr: int = 0) -> list[str]:
    """What does not fit: the title bar, the big line at its smallest strike, each small line, the rows."""
    out = []
    qr = qr or screen_qr_px(screen)
    right = WIDTH - (qr + 2 if qr else 0)
    bar = TITLE_PX - (0 if screen.title or not qr else qr + 2)  # marks without a title end before the code
    if px(screen.title) + (px(screen.icons) + 4 if screen.icons else 0) > bar:
        out.append(f"title {screen.title!r} {screen.icons!r}")
    if screen.big and not big_fits(screen.big, right - 2):
        out.append(f"big {screen.big!r}")
    for line in screen.lines:
        if px(line) > (right if qr else LINE_PX):
            out.append(f"line {line!r}")
    if len(screen.lines) > rows(screen.big):
        out.append(f"{len(screen.lines)} lines under {screen.big!r}")
    return out


@cache
def qr_px(url: str, box: int = QR_BOX) -> int:
    """The QR code's width as the display draws it (lines beside it end before it): under a title bar in
    ``QR_BOX``, on a screen without a title in the panel's height (:func:`drivers.display.qr_box`)."""
    return int(qr_image(url, box).width)


def screen_qr_px(screen: Screen) -> int:
    """The width of ``screen``'s QR code as drawn; 0 without one."""
    return qr_px(screen.qr, qr_box(screen)) if screen.qr else 0


def line_room(screen: Screen) -> float:
    """A small line's room on ``screen``: the full width, or what the QR code leaves."""
    return WIDTH - screen_qr_px(screen) - 2 if screen.qr else LINE_PX


def with_icons(screen: Screen, icons: str) -> Screen:
    """The reader's own marks (a reader or storage fault, the sound off) after the scene's."""
    return replace(screen, icons=screen.icons + icons) if icons else screen


def with_note(screen: Screen, note: str, *, title: bool = False) -> Screen:
    """The note of an unused input on the last line, or in the title bar where the line has no room for it (beside
    the QR code) or the lines must stay (``title``: a ranking, a confirmation's rows, a refusal's offer). Beside a
    code that takes the panel's height (the Wi-Fi's) it stays in the lines: a title would shrink the code
    to half its size."""
    tall_code = screen.qr is not None and not screen.title
    if (title or px(note) > line_room(screen)) and px(note) <= TITLE_PX and not tall_code:
        return replace(screen, title=note, icons="")
    said = wrap(note, line_room(screen))
    lines = list(screen.lines[: rows(screen.big)])
    return replace(screen, lines=(*lines[: max(0, rows(screen.big) - len(said))], *said))
