"""A card on the reader and the money keys: the card scene, the amount scene, and what a tap does.

The card scene holds its player and, after a second card in the original's transfer order, the
payer; the amount scene its digits, its verb and whose amount it is. A booking unwinds to a
fresh card scene, so nothing of a finished booking stays behind.
"""

from __future__ import annotations

import msgspec

import words
from drivers.screen import Screen
from rules import parse_amount
from rules.errors import RuleError

from .inputs import Input, Key, Tap, pressed
from .layout import page
from .lists import ListScene, Option, type_key
from .manager import Context, Scene
from .notes import ResultScene, balance
from .runner import preview
from .said import Said, key_prompt, phrase
from .table import State


def german(amount: str) -> str:
    """The reader's notation ("2.5M") with the decimal sign of the language in force ("2,5M" in German), as every
    amount on the OLED."""
    return amount.replace(".", words.text("number.decimal"))


def card_number(ui: Context, name: str) -> int:
    return next((c.number for c in ui.cards.players() if c.name == name), 0)


class CardScene(Scene, msgspec.Struct):
    """A bank card is on: number, name, balance. HABEN, SOLL, LOS, a digit, or the menu."""

    kind = State.CARD
    player: str
    payer: str | None = None
    """The card on the reader before this one: an amount typed now is paid by it to this player."""
    booked: bool = False
    """Shown again after a booking: the next card tapped starts afresh (no transfer from a finished booking)."""

    def on_sleep(self, ui: Context) -> None:
        """After the dark the next card starts afresh: no transfer armed by a card laid on before it."""
        self.payer, self.booked = None, True

    def on_event(self, ui: Context, inp: Input) -> bool:
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
            go(ui, self.player)
            return True
        if key in (Key.MENU, Key.OK, Key.UP, Key.DOWN):
            ui.open_menu(self.player)
            return True
        if key is Key.C:
            ui.scenes.back()
            return True
        return False

    def view(self, ui: Context) -> Screen:
        game = ui.game
        assert game is not None
        player = game.players[self.player]
        title = ui.say(phrase("scenes.card.title", player=self.player, number=card_number(ui, self.player)))
        big, approx = balance(ui, player.cash)
        lines: list[Said] = [approx] if approx else []
        if player.jail_cards:
            lines.append(phrase("scenes.card.jail_cards", n=player.jail_cards))
        if self.payer:
            lines.append(phrase("scenes.card.payer", player=self.payer))
        lines.append(key_prompt("scenes.card.keys"))
        return page(title, big, [ui.say(line) for line in lines], icons="≈" if approx else "")


def go(ui: Context, player: str) -> None:
    """LOS: the salary at once; under the house rule "doppeltes Gehalt auf LOS" (seed 001) the banker says which it
    was, over LOS or exactly on it (twice the salary), and LOS again is the pass."""
    game = ui.game
    if game is None or "double_go" not in game.house_rules:
        ui.submit({"op": "go", "player": player}, player)
        return
    salary = game.edition.salary

    def book(ui: Context, exact: bool) -> None:
        ui.submit({"op": "go", "player": player, **({"exact": True} if exact else {})}, player,
                  title=phrase("scenes.go.title"))

    ui.scenes.push(ListScene(phrase("scenes.go.title"),
                             [Option(lambda: ui.say(phrase("scenes.go.over", amount=ui.money(salary))), False),
                              Option(lambda: ui.say(phrase("scenes.go.exact", amount=ui.money(2 * salary))), True)],
                             book, player=player, keys={Key.LOS.value: False}))


VERB_TITLE = {"credit": phrase("scenes.title.credit"), "debit": phrase("scenes.title.debit")}


class AmountScene(Scene, msgspec.Struct):
    """Typing an amount: for Haben or Soll, or before the key (the original's order), or a transfer."""

    kind = State.AMOUNT
    player: str
    verb: str
    """credit, debit, open (HABEN or SOLL will say), transfer (from ``payer`` to the player)."""
    payer: str | None = None
    entry: str = ""

    def on_event(self, ui: Context, inp: Input) -> bool:
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
            if self.entry and self.verb in ("open", "transfer", verb):  # amount first, then one key books it
                self.verb, self.payer = verb, None
                return self._book(ui)
            if verb == self.verb:  # the entry's own key again, nothing typed: said, never silent
                ui.tone("refused")
                ui.note = phrase("scenes.amount.first")
                return True
            self.verb, self.payer = verb, None
            return True
        if key is Key.OK:
            if self.verb == "open":
                ui.tone("refused")
                ui.note = key_prompt("scenes.amount.which_key")
                return True
            return self._book(ui)
        return False

    def _amount(self, ui: Context) -> int | None:
        assert ui.game is not None
        try:
            return parse_amount(self.entry, ui.game.edition)
        except RuleError as err:
            ui.tone("refused")
            ui.scenes.push(ResultScene(phrase("scenes.result.refused"), phrase("scenes.verdict.amount_out_of_range"),
                                       err.said, refused=True))
            return None

    def _book(self, ui: Context) -> bool:
        amount = self._amount(ui)
        if amount is None:
            return True
        if self.verb == "transfer":
            # the payer's balance after it, as after SOLL and the payee's card: one order or the other, the same screen
            preview(ui, {"op": "transfer", "from": self.payer, "to": self.player, "amount": amount},
                    phrase("scenes.title.transfer"), self.payer)
            return True
        ui.submit({"op": self.verb, "player": self.player, "amount": amount}, self.player)
        return True

    def _payee(self, ui: Context, uid: str) -> bool:
        """Soll, amount, then the payee's card: a transfer, shown for OK."""
        card = ui.cards.get(uid)
        if card is not None and card.name == self.player and card.kind == "player":
            ui.tone("card")
            ui.note = phrase("scenes.amount.same_card", player=self.player)
            return True
        if self.verb not in ("debit", "open") or card is None or card.kind != "player" or not self.entry \
                or ui.game is None or card.name not in ui.game.players:
            return False
        ui.tone("card")
        amount = self._amount(ui)
        if amount is None:
            return True
        preview(ui, {"op": "transfer", "from": self.player, "to": card.name, "amount": amount},
                phrase("scenes.title.transfer"), self.player)
        return True

    def view(self, ui: Context) -> Screen:
        big = german(self.entry) or "0"
        if self.verb == "transfer":
            return page(ui.say(phrase("scenes.title.transfer")), big,
                        [ui.say(phrase("scenes.amount.transfer", payer=self.payer or "", payee=self.player))],
                        pinned=(ui.say(phrase("scenes.amount.look")),))
        or_card = phrase("scenes.amount.or_card")
        if self.verb == "open":
            title = phrase("scenes.card.title", player=self.player, number=card_number(ui, self.player))
            return page(ui.say(title), big,
                        [ui.say(key_prompt("scenes.amount.keys")), ui.say(or_card)])
        hints = (phrase("scenes.amount.ok"), or_card if self.verb == "debit" else phrase("scenes.amount.correct"))
        return page(ui.say(phrase("scenes.amount.verb", player=self.player, verb=VERB_TITLE[self.verb])), big,
                    [ui.say(hint) for hint in hints])
