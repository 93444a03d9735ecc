"""A card on the reader and the money keys: the card scene, the amount scene, and what a tap does.

The card scene holds its player and, after a second card in the original's transfer order, the
payer; the amount scene its digits, its verb and whose amount it is. A booking unwinds to a
fresh card scene, so nothing of a finished booking stays behind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from drivers.screen import Screen
from rules import DEEDS, parse_amount, square_name
from rules.errors import RuleError

from .inputs import Input, Key, Tap, pressed
from .layout import page
from .lists import type_key
from .manager import Scene
from .notes import ResultScene, balance
from .table import State

if TYPE_CHECKING:
    from .ui import Ui

UNFINISHED = frozenset({State.AMOUNT, State.CHOOSE, State.ENTER, State.CONFIRM})


def german(amount: str) -> str:
    """The reader's notation ("2.5M") with the German decimal comma, as every amount on the OLED."""
    return amount.replace(".", ",")


def card_number(ui: Ui, name: str) -> int:
    return next((c.number for c in ui.cards.players() if c.name == name), 0)


@dataclass
class CardScene(Scene):
    """A bank card is on: number, name, balance. HABEN, SOLL, LOS, a digit, or the menu."""

    kind = State.CARD
    player: str
    payer: str | None = None
    """The card on the reader before this one: an amount typed now is paid by it to this player."""
    booked: bool = False
    """Shown again after a booking: the next card tapped starts afresh (no transfer from a finished booking)."""

    def on_event(self, ui: Ui, inp: Input) -> bool:
        key = pressed(inp)
        if key is None:
            return False
        if key in (Key.HABEN, Key.SOLL):
            ui.scenes.push(AmountScene(self.player, "credit" if key is Key.HABEN else "debit"))
            return True
        if key.is_digit:
            typed = type_key("", key.value, ui)
            if typed is None:
                return False
            ui.scenes.push(AmountScene(self.player, "transfer" if self.payer else "open", self.payer, typed))
            return True
        if key is Key.LOS:
            ui.submit({"op": "go", "player": self.player}, self.player)
            return True
        if key in (Key.MENU, Key.OK, Key.UP, Key.DOWN):
            from .menus import player_menu

            player_menu(ui, self.player)
            return True
        if key is Key.C:
            ui.scenes.back()
            return True
        return False

    def view(self, ui: Ui) -> Screen:
        game = ui.game
        player = game.players[self.player]
        title = f"{self.player} #{card_number(ui, self.player)}"
        big, approx = balance(ui, player.cash)
        lines: list[str] = [approx] if approx else []
        if player.jail_cards:
            lines.append(f"Gefängnis frei: {player.jail_cards}")
        if self.payer:
            lines.append(f"Betrag: {self.payer} zahlt")
        lines.append("Haben Soll LOS Menü")
        return page(title, big, lines, icons="≈" if approx else "")


VERB_TITLE = {"credit": "Haben", "debit": "Soll"}


@dataclass
class AmountScene(Scene):
    """Typing an amount: for Haben or Soll, or before the key (the original's order), or a transfer."""

    kind = State.AMOUNT
    player: str
    verb: str
    """credit, debit, open (HABEN or SOLL will say), transfer (from ``payer`` to the player)."""
    payer: str | None = None
    entry: str = ""

    def on_event(self, ui: Ui, inp: Input) -> bool:
        if isinstance(inp, Tap):
            return self._payee(ui, inp.uid)
        key = pressed(inp)
        if key is None:
            return False
        if key.is_digit:
            typed = type_key(self.entry, key.value, ui)
            if typed is None:
                return False
            self.entry = typed
            return True
        if key is Key.C:
            if self.entry:
                self.entry = ""
            else:
                ui.scenes.back()
            return True
        if key in (Key.HABEN, Key.SOLL):
            verb = "credit" if key is Key.HABEN else "debit"
            if self.entry and self.verb in ("open", "transfer"):  # amount first, then one key books it
                self.verb, self.payer = verb, None
                return self._book(ui)
            self.verb, self.payer = verb, None
            return True
        if key is Key.OK:
            if self.verb == "open":
                ui.tone("refused")
                ui.note = "HABEN oder SOLL"
                return True
            return self._book(ui)
        return False

    def _amount(self, ui: Ui) -> int | None:
        try:
            return parse_amount(self.entry, ui.game.edition)
        except RuleError as err:
            ui.tone("refused")
            ui.scenes.push(ResultScene("Abgelehnt", "BETRAG?", err.message, refused=True))
            return None

    def _book(self, ui: Ui) -> bool:
        amount = self._amount(ui)
        if amount is None:
            return True
        if self.verb == "transfer":
            from .runner import preview

            preview(ui, {"op": "transfer", "from": self.payer, "to": self.player, "amount": amount}, "Überweisung",
                    self.player)
            return True
        ui.submit({"op": self.verb, "player": self.player, "amount": amount}, self.player)
        return True

    def _payee(self, ui: Ui, uid: str) -> bool:
        """Soll, amount, then the payee's card: a transfer, shown for OK."""
        card = ui.cards.get(uid)
        if card is not None and card.name == self.player and card.kind == "player":
            ui.tone("card")
            ui.note = f"{self.player} liegt schon auf"
            return True
        if self.verb not in ("debit", "open") or card is None or card.kind != "player" or not self.entry \
                or ui.game is None or card.name not in ui.game.players:
            return False
        ui.tone("card")
        amount = self._amount(ui)
        if amount is None:
            return True
        from .runner import preview

        preview(ui, {"op": "transfer", "from": self.player, "to": card.name, "amount": amount}, "Überweisung",
                self.player)
        return True

    def view(self, ui: Ui) -> Screen:
        big = german(self.entry) or "0"
        if self.verb == "transfer":
            return page("Überweisung", big, [f"{self.payer} zahlt an {self.player}"],
                        pinned=("OK: ansehen, C zurück",))
        if self.verb == "open":
            return page(f"{self.player}: Betrag", big, ["HABEN oder SOLL bucht", "oder Karte: Überweisung"])
        hints = ["OK bucht", "oder Karte: Überweisung"] if self.verb == "debit" else ["OK bucht", "C korrigiert"]
        return page(f"{self.player}: {VERB_TITLE[self.verb]}", big, hints)


def tapped(ui: Ui, uid: str) -> None:
    """A tap the scene on top has no use for: that card, deed or unknown card, whatever was under way.

    An unfinished input is dropped, and the card scene says so ("Eingabe verworfen").
    """
    ui.tone("card")
    card = ui.cards.get(uid)
    top = ui.scenes.top
    game = ui.game
    if card is None:
        from .menus import unknown_card

        unknown_card(ui, uid)
        return
    current = ui.scenes.find(State.CARD)
    holder = current.player if current is not None else None
    if card.kind == "deed":
        square = card.square
        assert square is not None
        if game is None or game.finished:
            ui.message(f"Feld {square}", "KEIN SPIEL", square_name(_edition(ui), square), unwind=True)
            return
        if holder is None:
            ui.message(f"Feld {square}", square_name(game.edition, square), deed_info(ui, square), unwind=True)
            return
        from .menus import deed_menu

        deed_menu(ui, holder, square)
        return
    if game is None or card.name not in game.players:
        ui.message(f"Karte #{card.number}", card.name, "spielt nicht mit", unwind=True)
        return
    if game.finished:
        ui.message("Spielende", f"{game.winner or '–'} gewinnt", "C lang: neues Spiel", unwind=True)
        return
    if game.players[card.name].bankrupt:
        ui.message(f"{card.name} #{card.number}", "BANKROTT", f"{card.name} spielt nicht mehr mit", refused=True,
                   unwind=True)
        return
    payer = holder if isinstance(top, CardScene) and not top.booked and holder != card.name else None
    ui.scenes.unwind(CardScene(card.name, payer))
    if top.kind in UNFINISHED:
        ui.note = "Eingabe verworfen"


def _edition(ui: Ui):  # type: ignore[no-untyped-def]
    from rules import EDITIONS

    return ui.game.edition if ui.game else EDITIONS["classic"]


def deed_info(ui: Ui, square: int) -> str:
    d = ui.game.deeds[square]
    if d.owner is None:
        return f"frei, Preis {ui.money(ui.game.edition.money(DEEDS[square].price))}"
    return f"gehört {d.owner}" + (" (Hypothek)" if d.mortgaged else "")
