"""What the OLED shows: pure functions of the machine's state (no input, no change, no I/O).

``screen(banker)`` is all :meth:`device.ui.Banker.render` draws; tests and the virtual device
read its words.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from drivers.screen import Screen
from rules import Edition, Mode, reader_text
from rules.editions import KURZES_SPIEL

from .transitions import State

if TYPE_CHECKING:
    from .machine import Machine

LINE = 21
"""Characters on a small line of the OLED."""


def screen(b: Machine) -> Screen:
    icons = ("!" if b.reader_problem or b.ledger.problem else "") + ("x" if b.volume() == "aus" else "")
    state = b.state
    if state is State.SLEEP:
        return Screen()
    if b.ledger.problem and state in (State.IDLE, State.CARD):
        return Screen(title="Speicherproblem", big="STOPP", icons=icons,
                      lines=tuple(textwrap.wrap(b.ledger.problem, LINE))[:2])
    if state is State.IDLE:
        return _idle_screen(b, icons)
    if state is State.CARD:
        return _card_screen(b, icons)
    if state in (State.AMOUNT, State.ENTER):
        return _entry_screen(b, icons)
    if state is State.CHOOSE:
        return _choice_screen(b, icons)
    if state is State.CONFIRM and b.pending:
        return Screen(title=b.pending.title, big=b.pending.big, lines=b.pending.lines, icons=icons)
    if state is State.JOIN:
        names = ", ".join(b.joined) or "–"
        hint = "OK: los, C: leeren" if b.joined else "OK: los, C: Abbruch"
        return Screen(title="Karten auflegen", big=f"{len(b.joined)} Spieler", icons=icons,
                      lines=(*textwrap.wrap(names, LINE)[:2], hint))
    if state is State.PAGES and b.pages:
        page = b.pages[0]
        return Screen(title=page.title, big=page.big, lines=page.lines, icons=page.icons + icons)
    if state is State.RESULT and b.result:
        extra = ("OK: Geld beschaffen",) if b.raise_offer else ()
        lines = (*b.result.lines[: 3 - len(extra)], *extra)
        return Screen(title=b.result.title, big=b.result.big, lines=lines,
                      icons=b.result.icons + icons)
    if state is State.MESSAGE and b.message:
        m = b.message
        return Screen(title=m.title, big=m.big, lines=m.lines, icons=m.icons + icons)
    return Screen(title="Bankleser", big="…", icons=icons)

def _idle_screen(b: Machine, icons: str) -> Screen:
    state = b.game
    if state is None:
        big, line = "Bereit", "C lang: neu"
    elif state.finished:
        big, line = "Ende", f"{state.winner or '–'} gewinnt"
    elif (remaining := b.ledger.remaining()) is not None:
        left = int(remaining)
        line = "Uhr läuft" if b.ledger.clock_resumed else "Karte drauf"  # it went on from where it stood
        big = f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}"
    else:
        big = {Mode.STANDARD: "Standard", Mode.QUICK: _quick_name(state.edition).split()[0]}.get(state.mode, "")
        line = "Karte drauf"
    url = b.url() if callable(b.url) else b.url
    lines = (line[:12], *_address_lines(url))
    return Screen(title="Bankleser", big=big, lines=lines, icons=icons, qr=url or None)

def _card_screen(b: Machine, icons: str) -> Screen:
    state = b.game
    player = state.players[b.player]
    title = f"{b.player} #{b.card_number}"
    if player.bankrupt:
        return Screen(title=title, big="BANKROTT", icons=icons)
    shown = reader_text(player.cash, state.edition)
    lines = []
    if not shown.exact:
        lines.append(f"genau: {b._money(player.cash)}")
        icons = "≈" + icons
    if player.jail_cards:
        lines.append(f"Gefängnis frei: {player.jail_cards}")
    if b.payer:
        lines.append(f"Betrag: {b.payer} zahlt"[:LINE])
    lines.append(b.note or "Haben Soll LOS Menü")
    return Screen(title=title, big=shown.text, lines=tuple(lines), icons=icons)

def _entry_screen(b: Machine, icons: str) -> Screen:
    if b.state is State.ENTER and b.prompt is not None:
        hint = "OK, C zurück" if b.entry else b.prompt.hint + ", C zurück"
        return Screen(title=b.prompt.title, big=b.entry or "0", lines=(hint,), icons=icons)
    if b.action == "transfer":
        return Screen(title="Überweisung", big=b.entry or "0", icons=icons,
                      lines=(f"{b.payer} zahlt", f"an {b.player}", "OK: ansehen, C zurück"))
    if b.action == "open":
        return Screen(title=f"{b.player}: Betrag", big=b.entry or "0", icons=icons,
                      lines=("HABEN oder SOLL bucht", "oder Karte: Überweisung"))
    verb = "Haben" if b.action == "credit" else "Soll"
    hints = ("OK bucht", "oder Karte: Überweisung") if b.action == "debit" else ("OK bucht", "C korrigiert")
    return Screen(title=f"{b.player}: {verb}", big=b.entry or "0", lines=hints, icons=icons)

def _choice_screen(b: Machine, icons: str) -> Screen:
    choice = b.choice
    assert choice is not None
    n = len(choice.options)
    start = max(0, min(choice.index - 1, n - 3))
    lines = []
    for i in range(start, min(start + 3, n)):
        option = choice.options[i]
        mark = ">" if i == choice.index else " "
        tick = "*" if option.selected else ""
        number = f"{i + 1} " if choice.numbered and i < 9 else ""
        lines.append(f"{mark}{tick}{number}{option.label}"[:LINE])
    return Screen(title=choice.title[:LINE], lines=tuple(lines), icons=icons + (choice.typed or ""))


def _quick_name(edition: Edition) -> str:
    """The short game's name in the edition's rule book: Skylanders' is "Kurzes Spiel"."""
    return "Kurzes Spiel" if edition.quick == KURZES_SPIEL else "Schnellspiel"


def _address_lines(url: str) -> tuple[str, ...]:
    """The page's address beside the QR code, 12 characters a line, never split so it misreads.

    The host breaks only after a dot (the dot stays, so the line reads unfinished) and the port
    gets its own line that says it is a port: "192.168.1.20" / "Port 8080".
    """
    rest = url.split("//")[-1].rstrip("/")
    host, _, port = rest.rpartition(":") if rest.count(":") == 1 else (rest, "", "")
    parts: list[str] = []
    while len(host) > 12:
        cut = host.rfind(".", 0, 12)
        cut = 11 if cut < 0 else cut
        parts.append(host[: cut + 1])
        host = host[cut + 1:]
    parts.append(host)
    if port:
        parts.append(f"Port {port}")
    return tuple(p for p in parts if p)
