"""The idle scene, at the bottom of the stack: the mode or a timed game's clock, the page's address."""

from __future__ import annotations

import words
from drivers.screen import Screen
from rules import Edition, Mode, editions

from .inputs import Input, Key, Press, Tick
from .layout import wrap
from .manager import Context, Scene, WifiJoin
from .said import Said, phrase
from .table import State

ADDRESS_CHARS = 12
"""Beside the QR code: 12 characters of Terminus 12 (72 px) fit left of it."""


JOIN_SHOWN = 10.0
"""Seconds each QR code stays while the own Wi-Fi is open: first the network's, then (after its name and
password) the page's, in turn, so whoever comes to the table later finds all without a key (the keys here open
the menu)."""
PASSWORD_SHOWN = 20.0
"""Seconds the network's name and password stay (after its code, before the page's): long enough to type the
password on a phone whose camera cannot read the code."""


class IdleScene(Scene):
    kind = State.IDLE

    def __init__(self, *, qr: bool = True) -> None:
        self.qr = qr
        """False for the daemon's first frame: the codes come with the first tick (segno after READY)."""
        self.phase = 0
        """While the own Wi-Fi is open: its code (0), its name and password (1), the page's code (2), in turn."""
        self.since: float | None = None

    def on_event(self, ui: Context, inp: Input) -> bool:
        if isinstance(inp, Tick):
            self.qr = True
            now = ui.clock()
            if ui.join() is None:
                self.phase, self.since = 0, None  # the next time it opens, the network's code first
            elif self.since is None:
                self.since = now
            elif now - self.since >= (PASSWORD_SHOWN if self.phase == 1 else JOIN_SHOWN):
                self.phase, self.since = (self.phase + 1) % 3, now
            return True
        if not isinstance(inp, Press):
            return False
        if inp.key in (Key.OK, Key.PUSH, Key.MENU, Key.UP, Key.DOWN):
            ui.open_menu(None)
            return True
        if inp.key is Key.POINT:
            ui.run_method("volume", None)
            return True
        return False

    def view(self, ui: Context) -> Screen:
        join = ui.join()
        if join is not None and self.phase < 2:
            return join_screen(join, qr=self.qr and self.phase == 0)
        state = ui.game
        big: Said
        line: Said
        if state is None:
            code = ui.begin_code()
            # No PIN yet: the code a phone at the table types to become the banker, large (only here, never on
            # the Wi-Fi); "Handy-Code" under it fits one line, so the address keeps its lines beside the QR code.
            big, line = (code, phrase("scenes.idle.phone_code")) if code else (
                phrase("scenes.idle.ready"), phrase("scenes.idle.hold_c"))
        elif state.finished:
            from .notes import verdict

            big, line = phrase("scenes.idle.over"), verdict(state)
        elif (remaining := ui.ledger.remaining()) is not None:
            left = int(remaining)
            # it went on from where it stood
            line = phrase("scenes.idle.clock_runs" if ui.ledger.clock_resumed else "scenes.idle.card")
            big = f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}"
        else:
            quick = phrase("scenes.idle.short" if state.edition.quick == editions.KURZES_SPIEL else "scenes.idle.quick")
            big = {Mode.STANDARD: phrase("scenes.mode.standard"), Mode.QUICK: quick}.get(state.mode, "")
            if state.speed_die:  # each fits beside the QR code
                big = phrase("scenes.idle.speed")
            line = phrase("scenes.idle.card")
        url = ui.url() if callable(ui.url) else ui.url
        status, address = wrap(ui.say(line), 6 * ADDRESS_CHARS), address_lines(url)
        lines = address if len(status) + len(address) > 3 else (*status, *address)
        return Screen(title=missing_title(ui.missing()), big=ui.say(big), lines=lines,
                      qr=(url or None) if self.qr else None)


def join_code_lines() -> tuple[str, ...]:
    """Beside the network's code, which takes the panel's height (62 px: 2 px per module): 10 characters a line."""
    return tuple(words.text("scenes.join_wifi.code").split("\n"))


def join_screen(join: WifiJoin, *, qr: bool) -> Screen:
    """The own Wi-Fi: its QR code (``WIFI:S:…;T:WPA;P:…;;``) as large as the panel allows, no title so it takes
    the full height; or, in turn after it, its name and password to type where a camera cannot read the code.

    The 12-character password needs 72 px: beside the code (64 px are left) it would be split, which misleads
    whoever types it; so it has a screen of its own, whole on one line under "Passwort:". The name keeps every
    character (spaces too) and breaks where a line is full: 32 bytes take two lines.
    """
    if qr:
        return Screen(lines=join_code_lines(), qr=join.wifi_qr)
    from .layout import rows, split

    password = split(join.password, at_spaces=False)
    name = split(join.ssid)
    if len(name) + 1 + len(password) > rows(""):
        name = split(join.ssid, at_spaces=False)
    return Screen(title=words.text("scenes.join_wifi.title"),
                  lines=(*name, words.text("scenes.join_wifi.password"), *password))


def missing_title(missing: list[str]) -> str:
    """The title bar while a part is missing: it lasts until the retry takes the part in, and the
    page (the QR code below) says the cause and the fix. "Bankleser" when all is there."""
    if not missing:
        return words.text("scenes.idle.name")
    from .layout import TITLE_PX, px

    named = words.text("scenes.idle.missing", parts=words.text("list.separator").join(missing))
    return named if px(named) <= TITLE_PX - px("!") else words.plural("scenes.idle.missing_count", len(missing))


def quick_name(edition: Edition) -> Said:
    """The short game's name in the edition's rule book: Skylanders' is "Kurzes Spiel"."""
    return phrase("scenes.mode.short" if edition.quick == editions.KURZES_SPIEL else "scenes.mode.quick")


def address_lines(url: str) -> tuple[str, ...]:
    """The page's address beside the QR code, 12 characters a line, never split so it misreads.

    The host breaks only after a dot (the dot stays, so the line reads unfinished) and the port
    gets its own line that says it is a port: "192.168.1.20" / "Port 8080".
    """
    rest = url.split("//")[-1].rstrip("/")
    host, _, port = rest.rpartition(":") if rest.count(":") == 1 else (rest, "", "")
    parts: list[str] = []
    while len(host) > ADDRESS_CHARS:
        cut = host.rfind(".", 0, ADDRESS_CHARS)
        cut = ADDRESS_CHARS - 1 if cut < 0 else cut
        parts.append(host[: cut + 1])
        host = host[cut + 1:]
    parts.append(host)
    if port:
        parts.append(words.text("scenes.idle.port", port=port))
    return tuple(p for p in parts if p)
