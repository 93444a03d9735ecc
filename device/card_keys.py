"""A card on the reader and the money keys: taps, learning cards, Haben, Soll, LOS and transfers.

A part of :class:`device.ui.Banker` (a mixin): the state lives on the Banker.
"""

from __future__ import annotations

from rules import DEEDS, EDITIONS, square_name

from .lists import Choice, Option
from .menus import Menus
from .transitions import State


class CardKeys(Menus):
    """A player's card, a deed's tag or an unknown card; amounts typed for Haben, Soll and transfers."""

    def _on_tap(self, uid: str) -> State:
        self.tone("card")
        self.pending = None
        self.pages = []  # the deal is in the log: a tap ends its walk-through
        card = self.cards.get(uid)
        if card is None:
            return self._unknown_card(uid)
        if card.kind == "deed":
            return self._deed_tapped(card.square)
        if self.game is None or card.name not in self.game.players:
            return self._show_message(f"Karte #{card.number}", card.name, "spielt nicht mit", State.IDLE)
        if self.game.players[card.name].bankrupt:
            self.player = None
            return self._show_message(f"{card.name} #{card.number}", "BANKROTT", f"{card.name} spielt nicht mehr mit",
                                      State.IDLE, refused=True)
        previous = self.player if self.state is State.CARD else None
        self.payer = previous if previous not in (None, card.name) else None
        self.player = card.name
        self.card_number = card.number
        return State.CARD

    def _switch(self, uid: str) -> State:
        """A tap the current step cannot use: drop the unfinished input and take that card, saying so."""
        card = self.cards.get(uid)
        unfinished = self.state in (State.AMOUNT, State.CHOOSE, State.ENTER, State.CONFIRM)
        self.choice = None
        self.stack.clear()
        self.prompt = None
        self.entry = ""
        nxt = self._on_tap(uid)
        if unfinished and card is not None and card.kind == "player" and nxt is State.CARD:
            self.note = "Eingabe verworfen"
        return nxt

    def _unknown_card(self, uid: str) -> State:
        def register(kind: str) -> State:
            if kind == "player":
                card = self.cards.register_player(uid)
                self.ledger.touch()
                self._show_result("Angelernt", f"Karte #{card.number}", f"{card.name}: Name im Web einstellbar",
                                  State.IDLE, refused=False)
                self.tone("done")
                return State.RESULT
            if kind == "deed":
                return self._choose_square("Welches Grundstück?", sorted(DEEDS), lambda sq: self._tag_deed(uid, sq))
            return self._to_idle()

        return self._open_choice(Choice("Unbekannte Karte", [
            Option("Bankkarte anlernen", "player"),
            Option("Besitzrecht anlernen", "deed"),
            Option("Abbrechen", None),
        ], register, back=self._to_idle))

    def _tag_deed(self, uid: str, square: int) -> State:
        self.cards.register_deed(uid, square)
        self.tone("done")
        edition = self.game.edition if self.game else EDITIONS["classic"]
        self._show_result("Angelernt", "Besitzrecht", square_name(edition, square), State.IDLE, refused=False)
        return State.RESULT

    def _deed_tapped(self, square: int) -> State:
        """A deed's tag: with a player's card on, the actions for that property."""
        if self.game is None:
            return State.IDLE
        if self.player is None:
            return self._show_message(f"Feld {square}", square_name(self.game.edition, square)[:14],
                                      self._deed_info(square), State.IDLE)
        return self._property_menu(square)

    def _start_amount(self, key: str) -> State:
        verb = "credit" if key == "HABEN" else "debit"
        if self.state is State.AMOUNT and self.action == "open" and self.entry:
            self.action = verb  # the original's order: amount first, then one key books it
            return self._book_amount(key) or State.AMOUNT
        self.action = verb
        self.entry = ""
        self.prompt = None
        self.payer = None
        return State.AMOUNT

    def _start_typed(self, key: str) -> State:
        """A digit on the card screen: the original's order, the amount before the key.

        After two cards (the original's transfer order) the amount is paid by the first card
        to the second; otherwise HABEN or SOLL books it at once.
        """
        self.action = "transfer" if self.payer else "open"
        self.entry = ""
        self.prompt = None
        self._type(key)
        return State.AMOUNT

    def _type(self, key: str) -> State | None:
        km = self.game is not None and self.game.edition.km_notation
        text = self.entry
        if key == "K" and text.endswith("K"):
            text = text[:-1] + "M"  # K twice is a million: the keypad has one K/M key
        elif key in "KM":
            if not text or text[-1] in "KM." or not km:
                return None
            text += key
        elif key == ".":
            if not km or "." in text or not text or text[-1] in "KM":
                return None
            text += key
        else:
            longest = 8 if self.state is State.ENTER and self.prompt and not self.prompt.money else 7
            if (text and text[-1] in "KM") or len(text) >= longest:
                return None
            text += key
        self.entry = text
        return None

    def _clear(self, key: str) -> State | None:
        if self.entry:
            self.entry = ""
            return None
        return self._back(key) if self.state is State.ENTER else State.CARD

    def _book_amount(self, key: str) -> State | None:
        if self.action == "open":
            return None  # HABEN or SOLL says which
        amount = self._amount()
        if amount is None:
            return State.RESULT
        if self.action == "transfer":
            payer, self.payer = self.payer, None
            return self._preview({"op": "transfer", "from": payer, "to": self.player, "amount": amount},
                                 "Überweisung")
        return self._submit({"op": self.action, "player": self.player, "amount": amount}, State.CARD)

    def _payee(self, uid: str) -> State | None:
        """Soll, amount, then the payee's card: a transfer, shown for OK."""
        card = self.cards.get(uid)
        if card is not None and card.name == self.player:
            return None  # the payer's own card again: nothing to switch to
        if self.action not in ("debit", "open") or card is None or card.kind != "player" or not self.entry:
            return self._switch(uid)
        self.tone("card")
        amount = self._amount()
        if amount is None:
            return State.RESULT
        return self._preview({"op": "transfer", "from": self.player, "to": card.name, "amount": amount},
                             "Überweisung")

    def _go(self, key: str) -> State:
        self.payer = None
        return self._submit({"op": "go", "player": self.player}, State.CARD)
