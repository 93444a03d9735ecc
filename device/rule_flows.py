"""The rules-aware flows of a player: buy or auction, rent, build, sell, mortgage, jail, bankruptcy, trade.

A part of :class:`device.ui.Banker` (a mixin): the state lives on the Banker.
"""

from __future__ import annotations

from typing import Any

from rules import DEEDS, Kind, square_name
from rules.errors import RuleError

from .lists import DONE, Choice, Entry, Option
from .screens import LINE
from .transitions import State


class RuleFlows:
    """Flows whose steps differ from the generic square → preview → book."""

    def _buy(self) -> State:
        return self._choose_square("Kaufen: welches?", self._legal("buy"), self._buy_square)

    def _buy_square(self, square: int) -> State:
        price = self.game.edition.money(DEEDS[square].price)
        name = square_name(self.game.edition, square)

        def how(auction: bool) -> State:
            if not auction:
                return self._preview({"op": "buy", "player": self.player, "square": square}, "Kaufen")
            return self._ask_number(Entry("Auktion: Gebot", lambda bid: self._preview(
                {"op": "buy", "player": self.player, "square": square, "price": bid}, "Auktion")))

        return self._open_choice(Choice(name[:LINE], [Option(f"Preis {self._money(price)}", False),
                                                      Option("Auktion: Gebot", True)], how))

    def _rent(self) -> State:
        return self._choose_square("Miete für?", self._legal("rent"), self._rent_square)

    def _rent_square(self, square: int) -> State:
        def ask(dice: int | None) -> State | None:
            cmd: dict[str, Any] = {"op": "rent", "player": self.player, "square": square}
            if dice is not None:
                cmd["dice"] = dice
                error = self.ledger.check(cmd)
                if error is not None and error.code == "amount_out_of_range":
                    return self._reprompt(f"nur {top}")  # the rules' range, retyped at once
            return self._preview(cmd, "Miete")

        top = "2-15" if self.game.speed_die else "2-12"
        if DEEDS[square].kind is Kind.UTILITY:
            return self._ask_number(Entry("Augenzahl?", ask, money=False, hint=f"{top}, OK"))
        return ask(None) or State.CARD

    def _ask_build(self, square: int) -> State:
        return self._preview({"op": "build", "player": self.player, "square": square}, "Bauen")

    def _sell(self) -> State:
        return self._choose_square("Verkaufen: wo?", self._legal("sell_building"), self._sell_square)

    def _sell_square(self, square: int) -> State:
        ed = self.game.edition
        cmd: dict[str, Any] = {"op": "sell_building", "player": self.player, "square": square}
        if self.game.deeds[square].hotel:
            return self._open_choice(Choice(f"{ed.hotel} verkaufen", [
                Option("ganz verkaufen", False), Option(f"zurück in {ed.houses}", True)],
                lambda to_houses: self._preview({**cmd, "to_houses": to_houses}, "Verkaufen")))
        return self._preview(cmd, "Verkaufen")

    def _mortgage(self) -> State:
        return self._choose_square("Hypothek auf?", self._legal("mortgage"), lambda sq: self._ask_mortgage(sq, True))

    def _ask_mortgage(self, square: int, take: bool) -> State:
        return self._preview({"op": "mortgage" if take else "unmortgage", "player": self.player, "square": square},
                             "Hypothek" if take else "Hypothek lösen")

    def _jail(self) -> State:
        fine = self._money(self.game.edition.jail_fine)
        options = [Option(f"Strafe zahlen {fine}", "fine"), Option("Frei-Karte gezogen", 1),
                   Option("Frei-Karte eingesetzt", -1)]

        def pick(what: Any) -> State:
            if what == "fine":
                return self._preview({"op": "jail_fine", "player": self.player}, "Gefängnis")
            return self._submit({"op": "jail_card", "player": self.player, "delta": what}, State.CARD)

        return self._open_choice(Choice("Gefängnis", options, pick))

    def _bankrupt(self) -> State:
        others = [n for n, p in self.game.players.items() if n != self.player and not p.bankrupt]
        options = [Option(f"an {n}", n) for n in others] + [Option("an die Bank", None)]
        values = [o.value for o in options]
        start = values.index(self.raise_creditor) if self.raise_creditor in values else 0
        return self._open_choice(Choice("Bankrott: Gläubiger?", options, lambda creditor: self._ask(
            {"op": "bankrupt", "player": self.player, **({"creditor": creditor} if creditor else {})},
            "Bankrott", self.player or "", (f"Gläubiger: {creditor or 'Bank'}", "OK: unwiderruflich?")),
            index=start))

    def _trade(self) -> State:
        others = [n for n, p in self.game.players.items() if n != self.player and not p.bankrupt]
        return self._open_choice(Choice("Tausch mit? (Karte)", [Option(n, n) for n in others],
                                        self._trade_with, on_tap=self._trade_with))

    def _trade_with(self, other: str) -> State:
        me = self.player
        trade: dict[str, Any] = {"op": "trade", "a": me, "b": other, "a_gives": {}, "b_gives": {}}
        ed = self.game.edition

        def squares(owner: str) -> list[Option]:
            """The owner's deeds and Gefängnis-frei-Karten: all of it can change hands."""
            own = [sq for sq, d in self.game.deeds.items() if d.owner == owner]
            cards = [Option("Gefängnis-frei-Karte", ("jail", i)) for i in range(self.game.players[owner].jail_cards)]
            return [Option(f"{sq:2d} {square_name(ed, sq)}", sq) for sq in own] + cards + [Option("Fertig", DONE)]

        def side(key: str, chosen: list[Any]) -> None:
            trade[key]["squares"] = [c for c in chosen if isinstance(c, int)]
            jail = sum(1 for c in chosen if isinstance(c, tuple))
            if jail:
                trade[key]["jail_cards"] = jail

        def summary() -> State:
            try:
                event = self.ledger.game.preview(trade)
            except RuleError as err:
                return self._refused(trade, err.code, err.message)
            give, take = trade["a_gives"], trade["b_gives"]
            to_bank = sum(t.amount for t in event.transfers if t.payee is None)  # fees and lifting, as booked
            return self._ask(trade, "Tausch", f"{me}⇄{other}"[:12], (
                f"{me}: {_cards(len(give.get('squares', [])))} {self._money(give.get('cash', 0))}"[:LINE],
                f"{other}: {_cards(len(take.get('squares', [])))} {self._money(take.get('cash', 0))}"[:LINE],
                f"an die Bank: {self._money(to_bank)}"[:LINE] if to_bank else "OK bucht, C zurück"))

        def lift(chosen: list[int]) -> State:
            if chosen:
                trade["lift"] = chosen
            return summary()

        def their_cash(amount: int) -> State:
            trade["b_gives"]["cash"] = amount
            mortgaged = [sq for sq in trade["a_gives"]["squares"] + trade["b_gives"]["squares"]
                         if self.game.deeds[sq].mortgaged]
            if not mortgaged:
                return summary()
            return self._open_choice(Choice("Hypothek gleich lösen?", [
                *(Option(f"{sq:2d} {square_name(ed, sq)}", sq) for sq in mortgaged), Option("Fertig", DONE)],
                lift, multi=True))

        def their_squares(chosen: list[Any]) -> State:
            side("b_gives", chosen)
            return self._ask_number(Entry(f"Geld von {other}?", their_cash, allow_zero=True, hint="OK: 0"))

        def my_cash(amount: int) -> State:
            trade["a_gives"]["cash"] = amount
            return self._open_choice(Choice(f"{other} gibt:", squares(other), their_squares, multi=True))

        def my_squares(chosen: list[Any]) -> State:
            side("a_gives", chosen)
            return self._ask_number(Entry(f"Geld von {me}?", my_cash, allow_zero=True, hint="OK: 0"))

        return self._open_choice(Choice(f"{me} gibt:", squares(me or ""), my_squares, multi=True))


def _cards(n: int) -> str:
    return "1 Karte" if n == 1 else f"{n} Karten"
