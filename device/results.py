"""What the reader answers: a command's result, a message, pages to read, the verdict words.

A part of :class:`device.ui.Banker` (a mixin): the state lives on the Banker.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

from drivers.screen import Screen
from rules import format_money, net_worth, ranking, reader_text

from .machine import Machine
from .screens import LINE
from .store.ledger import Outcome
from .transitions import State

RESULT_SHOWN = 4.0
"""Seconds a result or a message stays before the reader goes back by itself."""

VERDICTS = {
    "insufficient_funds": "ZU WENIG GELD",
    "amount_out_of_range": "BETRAG?",
    "unknown_player": "UNBEKANNT",
    "unknown_square": "FELD?",
    "not_a_property": "GEHT NICHT",
    "not_owner": "NICHT BESITZER",
    "already_owned": "SCHON VERKAUFT",
    "no_monopoly": "KEINE FARBGRUPPE",
    "group_mortgaged": "HYPOTHEK",
    "uneven_building": "NICHT GLEICHMÄSSIG",
    "max_buildings": "VOLL BEBAUT",
    "no_stock": "BANK LEER",
    "has_buildings": "ERST VERKAUFEN",
    "mortgaged": "HYPOTHEK",
    "not_mortgaged": "KEINE HYPOTHEK",
    "player_bankrupt": "BANKROTT",
    "game_over": "SPIELENDE",
    "bad_command": "UNGÜLTIG",
    "game_running": "SPIEL LÄUFT",
    "not_bankrupt": "NICHT BANKROTT",
    "debt_open": "ERST SCHULD",
    "no_shortage": "KEIN MANGEL",
    "storage_error": "SPEICHERFEHLER",
}
"""A word or two for the OLED; the full German reason goes on the small lines."""


class Results(Machine):
    """Results, messages and pages: left by a key, results and messages also after a few seconds."""

    if TYPE_CHECKING:  # a part above that a result calls (menus.py)
        def _raise_menu(self) -> State:
            ...

    def _submit(self, cmd: dict[str, Any], back: State) -> State:
        outcome = self.ledger.submit(cmd)
        return self._outcome(outcome, back, cmd)

    def _outcome(self, outcome: Outcome, back: State, cmd: dict[str, Any] | None = None) -> State:
        if outcome.ok:
            self.tone("done")
            text = outcome.event.text if outcome.event else "Gebucht"
            if outcome.event and outcome.event.note:  # the 10 % to the bank: first, before the long text is cut
                text = f"{outcome.event.note}\n{text}"
            big = ""
            if self.player and self.game and self.player in self.game.players:
                big = reader_text(self.game.players[self.player].cash, self.game.edition).text
            if self.game and self.game.finished:
                return self._game_over()
            self._show_result("Gebucht", big or "OK", text, back, refused=False)
        else:
            self.tone("refused")
            message = outcome.message
            if outcome.code == "insufficient_funds":  # the big line says it: the lines say how much
                message = message.removeprefix("Nicht genug Geld: ").replace(", es fehlen", ",\nes fehlen", 1)
            self._show_result("Abgelehnt", VERDICTS.get(outcome.code or "", "ABGELEHNT"), message, back,
                              refused=True)
            self.raise_offer = outcome.code == "insufficient_funds" and self.player is not None
            self.raise_creditor = self._creditor(cmd or {})
        return State.RESULT

    def _refused(self, cmd: dict[str, Any], code: str, message: str) -> State:
        return self._outcome(Outcome(False, code, message), State.CARD, cmd)

    def _creditor(self, cmd: dict[str, Any]) -> str | None:
        """Whom a refused command would have paid: a player (transfer, rent) or the bank (None)."""
        if cmd.get("op") == "transfer":
            return str(cmd.get("to"))
        if cmd.get("op") == "rent" and self.game is not None and isinstance(cmd.get("square"), int):
            owner = self.game.deeds[cmd["square"]].owner
            return str(owner) if owner else None
        return None

    def _show_result(self, title: str, big: str, text: str, back: State, *, refused: bool) -> None:
        # A sentence may name its own line breaks ("\n"): the rules' "… hat 1500,\nes fehlen 500".
        lines = tuple(line for part in text.split("\n") for line in textwrap.wrap(part, LINE))[:3]
        self.result = Screen(title=title, big=big, lines=lines, icons="!" if refused else "")
        self.result_at = self.clock()
        self.result_next = back
        self.raise_offer = False

    def _show_message(self, title: str, big: str, text: str, back: State, *, refused: bool = False) -> State:
        """A note or prompt nobody booked (MESSAGE): it leaves like a result, never offers to raise money."""
        lines = tuple(textwrap.wrap(text, LINE))[:3]
        self.message = Screen(title=title, big=big, lines=lines, icons="!" if refused else "")
        self.result_at = self.clock()
        self.result_next = back
        self.raise_offer = False
        return State.MESSAGE

    def _after_message(self, key: str) -> State:
        """OK, C, a tick after a few seconds, or any other key (which then acts): back where it came from."""
        return self._after_result(key)

    def _message_tick(self, now: Any) -> State | None:
        return self._result_tick(now)

    def _after_result(self, key: str) -> State:
        if self.raise_offer and key == "OK":
            self.raise_offer = False
            return self._raise_menu()
        nxt = self.result_next
        if nxt is State.CARD and not self.player:
            nxt = State.IDLE
        if nxt is State.IDLE:
            self.player = None
        return nxt

    def _result_tick(self, now: Any) -> State | None:
        asleep = self._tick(now)
        if asleep is not None:
            return asleep
        if self.clock() - self.result_at >= RESULT_SHOWN and not self.raise_offer:
            return self._after_result("tick")
        return None

    def _game_over(self) -> State:
        state = self.game
        self.tone("end")
        self.player = None
        return self._show_pages([Screen(title="Spielende", big=f"{state.winner or '–'} gewinnt",
                                        lines=self._podium())], State.IDLE)

    def _show_pages(self, pages: list[Screen], back: State) -> State:
        """Screens to read, one per key; they stay until a key (never time out, never sleep)."""
        self.pages = pages
        self.pages_back = back
        return State.PAGES

    def _next_page(self, key: str) -> State:
        """Any key turns the page; C skips the rest (the deal is in the log); after the last, back."""
        self.pages = [] if key == "C" else self.pages[1:]
        if self.pages:
            return State.PAGES
        back = self.pages_back
        if back is State.CARD and not self.player:
            back = State.IDLE
        return back

    def _podium(self, game: Any = None) -> tuple[str, ...]:
        """The three richest, with their net worth: for the ranking and the end of a game."""
        game = game or self.game
        order = ranking(game)[:3]
        return tuple(f"{i}. {n} {format_money(net_worth(game, n), game.edition)}"[:LINE]
                     for i, n in enumerate(order, 1))
