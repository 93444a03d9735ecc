"""The menus: the banker's (no card), a player's (from device/flows.py), a deed's, and their small entries.

A part of :class:`device.ui.Banker` (a mixin): the state lives on the Banker.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from rules import DEEDS, level, square_name
from rules.legal import legal_ops, square_ops

from .flows import BANKER_MENU, FLOWS, PLAYER_FLOWS, RAISE_MONEY, Flow, Square
from .lists import Choice, Entry, Option
from .runner import FlowRunner
from .screens import LINE
from .transitions import State


class Menus(FlowRunner):
    """Which entries open now (asked of rules/legal.py), and the entries that are one screen."""

    def _open_menu(self, key: str = "MENU") -> State:
        """The banker's menu without a card, a player's with one: the entries of device/flows.py that open now."""
        game = self.ledger.game
        items: list[tuple[str, Flow, dict[str, Any]]]
        if self.player is None:
            flows = [f for f in BANKER_MENU if f.shown is None or f.shown(game)]
            items = [(f.label, f, {}) for f in flows]
        else:
            legal = set(legal_ops(game, self.player))
            items = []
            for f in PLAYER_FLOWS:
                if (f.opens_on and not f.opens_on & legal) or (f.shown is not None and not f.shown(game)):
                    continue
                each = next((s for s in f.steps if isinstance(s, Square) and s.each), None)
                if each is not None:  # one entry per square: "Einkommensteuer" is two presses from the menu
                    items += [(square_name(self.game.edition, sq), f, {each.field: sq})
                              for sq in self._legal(each.legal)]
                else:
                    items.append((f.label, f, {}))
        self.stack.clear()
        self.choice = None
        return self._open_choice(Choice(self.player or "Menü", [Option(label, (f, v)) for label, f, v in items],
                                        lambda picked: self._start_flow(*picked), numbered=self.player is not None))

    def _property_menu(self, square: int) -> State:
        """A deed's tag with a player's card on: the flows the rules open on that square, the square chosen."""
        assert self.player is not None
        on_deed = {op: f for f in PLAYER_FLOWS if f.deed_label for op in f.opens_on}
        flows = [on_deed[op] for op in square_ops(self.ledger.game, self.player, square) if op in on_deed]
        if not flows:
            return self._show_message(square_name(self.game.edition, square)[:LINE], "NICHTS MÖGLICH",
                                      self._deed_info(square), State.CARD, refused=True)
        self.stack.clear()
        self.choice = None
        return self._open_choice(Choice(square_name(self.game.edition, square)[:LINE],
                                        [Option(f.deed_label, f) for f in flows],
                                        lambda f: self._start_flow(f, {"square": square})))

    def _own(self, predicate: Callable[[int], bool] = lambda sq: True) -> list[int]:
        return [sq for sq, d in self.game.deeds.items() if d.owner == self.player and predicate(sq)]

    def _raise_menu(self) -> State:
        """After ZU WENIG GELD: what the player could raise, and the ways to raise it or give up."""
        state = self.game
        half = sum(level(state, sq) * state.edition.money(DEEDS[sq].house_price) // 2 for sq in self._own())
        free = self._own(lambda s: not state.deeds[s].mortgaged)
        mortgages = sum(state.edition.money(DEEDS[sq].mortgage) for sq in free)
        return self._open_choice(Choice(f"Beschaffbar {self._money(half + mortgages)}", [
            Option(f"Gebäude ({self._money(half)})", FLOWS[RAISE_MONEY[0]]),
            Option(f"Hypothek ({self._money(mortgages)})", FLOWS[RAISE_MONEY[1]]),
            Option(RAISE_MONEY[2], FLOWS[RAISE_MONEY[2]]),
        ], self._start_flow, back=lambda: State.CARD))

    def _ask_undo(self) -> State:
        history = self.ledger.game.history
        if not history:
            return self._show_message("Storno", "NICHTS", "Nichts zu stornieren", State.IDLE, refused=True)
        return self._ask({"op": "undo"}, "Storno?", "STORNO", tuple(textwrap.wrap(history[-1].text, LINE))[:2])

    def _ask_end(self) -> State:
        return self._ask({"op": "end"}, "Zeit um?", "ENDE", ("Spiel jetzt beenden", "OK / C"))

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

    def _deed_info(self, square: int) -> str:
        d = self.game.deeds[square]
        if d.owner is None:
            return f"frei, Preis {self._money(self.game.edition.money(DEEDS[square].price))}"
        return f"gehört {d.owner}" + (" (Hypothek)" if d.mortgaged else "")
