"""The menus: the banker's (no card), a player's (from device/flows.py), a deed's, and their small entries.

A part of :class:`device.ui.Banker` (a mixin): the state lives on the Banker.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from drivers.screen import Screen
from rules import DEEDS, EDITIONS, Mode, level, ranking, square_name
from rules.legal import legal_ops, legal_squares, square_ops

from .flows import PLAYER_FLOWS, Flow
from .lists import Choice, Entry, Option
from .screens import LINE
from .transitions import State


class Menus:
    """Which entries open now (asked of rules/legal.py), and the entries that are one screen."""

    def _open_menu(self, key: str = "MENU") -> State:
        if self.game is None or self.game.finished:
            items = [("Neues Spiel", self._ask_new_game), ("Lautstärke", self._volume),
                     ("Karte anlernen", self._learn), ("Banker-PIN", self._ask_pin)]
        elif self.player is None:
            items = [("Rangliste", self._ranking), ("Storno", self._ask_undo), ("Lautstärke", self._volume),
                     ("Karte anlernen", self._learn), ("Banker-PIN", self._ask_pin),
                     ("Neues Spiel", self._ask_new_game)]
            if self.game.mode is Mode.TIMED:
                items.insert(1, ("Spiel beenden", self._ask_end))
        else:
            legal = set(legal_ops(self.ledger.game, self.player))
            has_undo = self.ledger.game.undoable()
            items = []
            for f in PLAYER_FLOWS:
                if (f.opens_on and not f.opens_on & legal) or (f.label == "Storno" and not has_undo):
                    continue
                if f.each_square:  # one entry per square: "Einkommensteuer" is two presses from the menu
                    items += [(square_name(self.game.edition, sq), lambda f=f, sq=sq: self._square_flow(f, sq))
                              for sq in self._legal(f.square)]
                else:
                    items.append((f.label, lambda f=f: self._start_flow(f)))
        self.stack.clear()
        self.choice = None
        return self._open_choice(Choice(self.player or "Menü", [Option(label, fn) for label, fn in items],
                                        lambda fn: fn(), numbered=self.player is not None))

    def _property_menu(self, square: int) -> State:
        flows: dict[str, tuple[str, Callable[[], State]]] = {
            "buy": ("Kaufen", lambda: self._buy_square(square)),
            "rent": ("Miete zahlen", lambda: self._rent_square(square)),
            "build": ("Bauen", lambda: self._ask_build(square)),
            "sell_building": ("Verkaufen", lambda: self._sell_square(square)),
            "mortgage": ("Hypothek aufnehmen", lambda: self._ask_mortgage(square, True)),
            "unmortgage": ("Hypothek lösen", lambda: self._ask_mortgage(square, False)),
        }
        assert self.player is not None
        items = [flows[op] for op in square_ops(self.ledger.game, self.player, square) if op in flows]
        if not items:
            return self._show_message(square_name(self.game.edition, square)[:LINE], "NICHTS MÖGLICH",
                                      self._deed_info(square), State.CARD, refused=True)
        self.stack.clear()
        self.choice = None
        return self._open_choice(Choice(square_name(self.game.edition, square)[:LINE],
                                        [Option(label, fn) for label, fn in items], lambda fn: fn()))

    def _choose_square(self, title: str, squares: list[int], then: Callable[[int], State]) -> State:
        if not squares:
            return self._show_message(title, "NICHTS DA", "Keine passenden Grundstücke", State.CARD, refused=True)
        edition = self.game.edition if self.game else EDITIONS["classic"]
        options = [Option(f"{sq:2d} {square_name(edition, sq)}", sq) for sq in squares]
        return self._open_choice(Choice(title, options, then))

    def _legal(self, op: str) -> list[int]:
        """The squares the rules accept ``op`` on for the player now (rules/legal.py)."""
        assert self.player is not None
        return legal_squares(self.ledger.game, self.player, op)

    def _own(self, predicate: Callable[[int], bool] = lambda sq: True) -> list[int]:
        return [sq for sq, d in self.game.deeds.items() if d.owner == self.player and predicate(sq)]

    def _start_flow(self, flow: Flow) -> State:
        """Run a declared flow (device/flows.py): its own method, or square/fields → preview → book."""
        if flow.method:
            result: State = getattr(self, flow.method)()
            return result
        cmd: dict[str, Any] = {"op": flow.op, "player": self.player}
        if flow.square:
            return self._choose_square(flow.label, self._legal(flow.square), lambda sq: self._square_flow(flow, sq))
        return self._fields(flow, cmd, 0)

    def _square_flow(self, flow: Flow, square: int) -> State:
        return self._fields(flow, {"op": flow.op, "player": self.player, "square": square}, 0)

    def _fields(self, flow: Flow, cmd: dict[str, Any], i: int) -> State:
        """Type the flow's fields one by one, then confirm the rules' preview."""
        if i == len(flow.fields):
            return self._preview(cmd, flow.label)
        name, prompt = flow.fields[i]
        return self._ask_number(Entry(prompt, lambda amount: self._fields(flow, {**cmd, name: amount}, i + 1),
                                      allow_zero=True, hint="OK: 0"))

    def _raise_menu(self) -> State:
        """After ZU WENIG GELD: what the player could raise, and the ways to raise it or give up."""
        state = self.game
        half = sum(level(state, sq) * state.edition.money(DEEDS[sq].house_price) // 2 for sq in self._own())
        free = self._own(lambda s: not state.deeds[s].mortgaged)
        mortgages = sum(state.edition.money(DEEDS[sq].mortgage) for sq in free)
        return self._open_choice(Choice(f"Beschaffbar {self._money(half + mortgages)}", [
            Option(f"Gebäude ({self._money(half)})", self._sell),
            Option(f"Hypothek ({self._money(mortgages)})", self._mortgage),
            Option("Bankrott", self._bankrupt),
        ], lambda fn: fn(), back=lambda: State.CARD))

    def _ask_undo(self) -> State:
        history = self.ledger.game.history
        if not history:
            return self._show_message("Storno", "NICHTS", "Nichts zu stornieren", State.IDLE, refused=True)
        return self._ask({"op": "undo"}, "Storno?", "STORNO", tuple(textwrap.wrap(history[-1].text, LINE))[:2])

    def _ask_end(self) -> State:
        return self._ask({"op": "end"}, "Zeit um?", "ENDE", ("Spiel jetzt beenden", "OK / C"))

    def _ranking(self) -> State:
        return self._show_pages([Screen(title="Rangliste", big=ranking(self.game)[0], lines=self._podium())],
                                State.CARD if self.player else State.IDLE)

    def _point(self, key: str) -> State | None:
        """The "." key without a card: the volume (seed 000: "Taste . drücken")."""
        return self._volume() if key == "." else None

    def _volume(self, key: Any = None) -> State:
        level_name = self.cycle_volume()
        self.tone("card")
        return self._show_message("Lautstärke", level_name.upper(), "Taste . ändert", State.IDLE)

    def _ask_pin(self) -> State:
        """The banker's PIN for the web admin, typed on the device itself: 4 to 8 digits."""

        def done(pin_number: int) -> State:
            pin = self.entry
            ok = self.set_pin(pin)
            self.tone("done" if ok else "refused")
            self._show_result("Banker-PIN", "GESPEICHERT" if ok else "4-8 ZIFFERN", "für die Web-Seite /admin",
                              State.IDLE, refused=not ok)
            return State.RESULT

        return self._ask_number(Entry("Neue Banker-PIN", done, money=False, hint="4-8 Ziffern, OK"))

    def _learn(self) -> State:
        return self._show_message("Karte anlernen", "AUFLEGEN", "Neue Karte auf den Leser legen", State.IDLE)
