"""What the reader answers: a command's result, a note nobody booked, pages to read.

A result or a note goes back one scene by itself after a few seconds, or with OK or C; any
other key leaves it and then acts on the scene below (no key is swallowed after a booking).
Pages (the end, the ranking, the deal) stay until a key.
"""

from __future__ import annotations

from typing import Any

import msgspec

import words
from drivers.screen import Screen
from rules import Event, GameState, format_money, net_worth, ranking, reader_text, winners
from rules.ops import DEBTS

from ..store.ledger import Outcome
from .inputs import Input, Key, Press, Tick, pressed
from .layout import page, scroll_rows
from .manager import Context, Scene
from .said import Phrase, Said, phrase
from .table import State

RAISE_LINE = phrase("scenes.raise.offer")
"""The last line of a refusal for want of money ("OK: Geld beschaffen"), pinned: the knob scrolls the text above it."""

RESULT_SHOWN = 4.0
"""Seconds a result or a message stays before the reader goes back by itself."""

VERDICTS = {
    "insufficient_funds": "scenes.verdict.insufficient_funds",
    "amount_out_of_range": "scenes.verdict.amount_out_of_range",
    "unknown_player": "scenes.verdict.unknown_player",
    "unknown_square": "scenes.verdict.unknown_square",
    "not_a_property": "scenes.verdict.not_a_property",
    "not_owner": "scenes.verdict.not_owner",
    "already_owned": "scenes.verdict.already_owned",
    "no_monopoly": "scenes.verdict.no_monopoly",
    "group_mortgaged": "scenes.verdict.group_mortgaged",
    "uneven_building": "scenes.verdict.uneven_building",
    "max_buildings": "scenes.verdict.max_buildings",
    "no_stock": "scenes.verdict.no_stock",
    "has_buildings": "scenes.verdict.has_buildings",
    "mortgaged": "scenes.verdict.mortgaged",
    "not_mortgaged": "scenes.verdict.not_mortgaged",
    "player_bankrupt": "scenes.verdict.player_bankrupt",
    "not_bankrupt": "scenes.verdict.not_bankrupt",
    "game_over": "scenes.verdict.game_over",
    "bad_command": "scenes.verdict.bad_command",
    "game_running": "scenes.verdict.game_running",
    "debt_open": "scenes.verdict.debt_open",
    "no_shortage": "scenes.verdict.no_shortage",
    "storage_error": "scenes.verdict.storage_error",
}
"""A word or two for the OLED by the rules' refusal code; the full reason goes on the small lines."""


class RaiseOffer(msgspec.Struct, frozen=True):
    """A payment refused for want of money: who could raise it, what they owe, and to whom; and the payment
    itself, to come back to once money is raised (seed 001: "Können Sie Ihre Schulden danach immer noch nicht
    ausgleichen, sind Sie BANKROTT" — the debt stays owed after a mortgage, it is not forgotten)."""

    player: str
    owed: int
    creditor: str | None
    cmd: dict[str, Any] = {}
    """The refused command, as the banker confirmed (or booked) it."""
    on_card: str | None = None
    """The card it was booked on (the collector's, for "Von allen kassieren"): it comes back over that card."""
    title: Said = ""
    """Its confirmation's title ("Miete", "Überweisung")."""
    since: Event | None = None
    """The newest booking when it was refused (``newest``): what the phone booked after it is told by this."""
    needs: int = 0
    """The whole sum the refused command asked, as the rules reckoned it (a bid too, which is no debt): what the
    raise-money list measures its "reicht nicht" against."""

    def paid_since(self, ui: Context) -> bool:
        """The phone booked this payment after it was refused: the same op, money from the payer to the creditor
        (to anyone, when the bank or every player is owed). The rules cannot say so: a rent may be paid twice."""
        later = booked_after(ui, self.since)
        return any(e.op == self.cmd.get("op") and any(
            t.payer == self.player and (self.creditor is None or t.payee == self.creditor) for t in e.transfers)
            for e in later)


def newest(ui: Context) -> Event | None:
    """The newest booking of the game (each is an object of its own): a mark to tell later ones by."""
    history = ui.ledger.game.history
    return history[-1] if history else None


def booked_after(ui: Context, mark: Event | None) -> list[Event]:
    """The bookings after ``mark``; none if it is gone (undone, or a new game): then nothing is known to be new."""
    history = list(ui.ledger.game.history)
    for i in range(len(history) - 1, -1, -1):
        if history[i] is mark:
            return history[i + 1:]
    return []


class MessageScene(Scene, msgspec.Struct):
    """A note or prompt nobody booked; a result is one that also says what came of a command."""

    kind = State.MESSAGE
    note_in_title = True
    """A turn at its end is said in the title bar: the lines (the refusal, "OK: Geld beschaffen") stay."""
    title: Said
    big: Said
    text: Said
    refused: bool = False
    offer: RaiseOffer | None = None
    code: str = ""
    """The rules' refusal code, if a command was refused."""
    balance_of: str | None = None
    """A booking's result shows this player's balance, read from the ledger whenever it is drawn."""
    named: bool = False
    """The balance says whose it is ("Ben: 1500"): a booking between players, or one made without a card."""
    shown_at: float = 0.0
    offset: int = 0
    read: bool = False
    """The banker has turned through it: it stays until a key, however long the reading takes."""

    def on_enter(self, ui: Context) -> None:
        self.shown_at = ui.clock()

    def on_event(self, ui: Context, inp: Input) -> bool:
        if isinstance(inp, Tick):
            if ui.clock() - self.shown_at >= RESULT_SHOWN and self.offer is None and not self.read:
                ui.scenes.back()
            return True
        key = pressed(inp)
        if key is None:
            return False
        if key is Key.OK and self.offer is not None:
            ui.raise_money(self.offer)
            return True
        most = self._most(ui)
        if key in (Key.UP, Key.DOWN) and (most > 0 or self.offer is not None):
            offset = max(0, min(most, self.offset + (-1 if key is Key.UP else 1)))
            if offset == self.offset:
                return False  # at the end already, or all on the screen: said, the refusal and its offer kept
            self.offset, self.read = offset, True
            return True
        ui.scenes.back()
        if key in (Key.OK, Key.C, Key.UP, Key.DOWN):
            return True  # a turn puts the result away: what comes back shows as it was, not moved on unseen
        return ui.scenes.top.on_event(ui, inp)  # the key acts where the result came back to

    def _shown(self, ui: Context) -> tuple[str, tuple[str, ...], bool]:
        """The big line and the body, said now: a booking's balance as the ledger has it now (≈ and the exact
        amount when the reader's notation rounds it)."""
        game = ui.game
        text = ui.say(self.text)
        if self.balance_of is not None and game is not None and self.balance_of in game.players:
            big, approx = balance(ui, game.players[self.balance_of].cash)
            if self.named:
                big = ui.say(phrase("scenes.result.balance", player=self.balance_of, amount=big))
            return big, ((approx, text) if approx else (text,)), bool(approx)
        return ui.say(self.big), (text,), False

    def _pinned(self, ui: Context) -> tuple[str, ...]:
        return (ui.say(RAISE_LINE),) if self.offer else ()

    def _most(self, ui: Context) -> int:
        big, body, _ = self._shown(ui)
        return scroll_rows(ui.say(self.title), big, body, pinned=len(self._pinned(ui)))

    def view(self, ui: Context) -> Screen:
        big, body, approx = self._shown(ui)
        icons = ("≈" if approx else "") + ("!" if self.refused else "")
        return page(ui.say(self.title), big, body, pinned=self._pinned(ui), offset=self.offset, icons=icons)


class ResultScene(MessageScene):
    kind = State.RESULT


def _taken_back(said: Phrase) -> Phrase:
    """What a Storno took back, under the title "Storno" (the rules' "Storno: …" put that word before the booking's
    own key facts): the booking as the rules said it; after a new game's Storno, the game that goes on."""
    if said.key == "rules.undo.new_game":
        return phrase("scenes.result.game_goes_on", edition=said.get("edition") or "")
    booking = said.get("booking")
    return booking if isinstance(booking, Phrase) else said


def outcome_scene(ui: Context, outcome: Outcome, cmd: dict[str, Any], player: str | None, title: Said = "",
                  since: Event | None = None) -> MessageScene:
    """"Gebucht" with the player's new balance (≈ and the exact amount when rounded), or the refusal; one for want
    of money offers to raise it, and keeps the payment (``title``: its confirmation's; ``since``: when it was
    first refused, if it was before) to come back to."""
    game = ui.game
    if outcome.ok:
        event = outcome.event
        booked: Phrase = event.said if event else phrase("scenes.result.booked")
        title = phrase("scenes.result.booked")
        if event is not None and event.op == "undo":
            title, booked = phrase("scenes.result.undone"), _taken_back(event.said)
        text: Said = booked
        if event and event.note:  # the 10 % to the bank, or what stays owed: first
            note = event.note
            text = lambda: f"{ui.say(note)}\n{ui.say(booked)}"  # noqa: E731
        moved = [who for t in event.transfers for who in (t.payee, t.payer) if who] if event else []
        carded = bool(player)
        if not player and game is not None and game is ui.seen:  # not a game a Storno brought back
            # a booking made without a card (the banker's Storno): the balance that changed, not "OK"
            player = next((who for who in moved if who in game.players), None)
        if player and game is not None and player in game.players:
            # a booking between players, or one without a card: whose balance this is, said in the
            # big line, where a 12-letter name fits beside it (the title bar holds "Gebucht: " and 10 letters)
            named = any(who != player for who in moved) or not carded
            return ResultScene(title, "", text, balance_of=player, named=named)
        return ResultScene(title, "", text)
    said = outcome.said
    message: Said = said if said is not None else outcome.message
    offer = None
    if outcome.code == "insufficient_funds":  # the big line says it: the lines say how much
        detail = said.get("detail") if said is not None else None

        def short() -> str:
            """The rules' detail without the verdict the big line says ("Nicht genug Geld. …")."""
            if isinstance(detail, Phrase):
                return ui.say(detail)
            return ui.say(said) if said is not None else outcome.message

        message = short
        payer = _payer(ui, cmd)
        if payer is not None and game is not None and payer in game.players:
            # The debt as the rules reckoned it (a rent or a tax names none); a purchase is no debt.
            owed = (outcome.owed or 0) if cmd.get("op") in DEBTS else 0
            asked = {k: v for k, v in cmd.items() if k != "expect"}  # previewed afresh when it comes back
            offer = RaiseOffer(payer, owed, _creditor(ui, cmd), asked, player,
                               title or TITLES.get(str(cmd.get("op")), phrase("scenes.title.payment")),
                               newest(ui) if since is None else since, needs=outcome.owed or 0)
    verdict = phrase(VERDICTS.get(outcome.code or "", "scenes.verdict.refused"))
    return ResultScene(phrase("scenes.result.refused"), verdict, message, refused=True, offer=offer,
                       code=outcome.code or "")


TITLES: dict[str, Said] = {"debit": phrase("scenes.title.debit")}
"""The title a payment booked without a confirmation gets when it comes back to be confirmed."""


def balance(ui: Context, cash: int) -> tuple[str, str]:
    """A balance as the reader shows it (the language's decimal sign), and "genau: …" when that is rounded."""
    assert ui.game is not None
    shown = reader_text(cash, ui.game.edition)
    exact = "" if shown.exact else ui.say(phrase("scenes.balance.exact", amount=ui.money(cash)))
    return shown.text.replace(".", words.text("number.decimal")), exact


def _payer(ui: Context, cmd: dict[str, Any]) -> str | None:
    """Who cannot pay: the payer of a transfer or a payment, or, when a player collects from all
    ("Von allen kassieren"), the first of the others whose cash is short (seed 000: bankrupt is "einer, der mehr
    schuldet als er bezahlen kann" — the one who pays, never the one who collects)."""
    if cmd.get("op") == "collect_all":
        amount, game = cmd.get("amount"), ui.game
        assert game is not None
        return next((n for n in _others(ui, cmd) if isinstance(amount, int) and game.players[n].cash < amount),
                    None)
    who = cmd.get("from") if cmd.get("op") == "transfer" else cmd.get("player")
    return str(who) if who else None


def _others(ui: Context, cmd: dict[str, Any]) -> list[str]:
    game = ui.game
    if game is None:
        return []
    return [n for n, p in game.players.items() if n != cmd.get("player") and not p.bankrupt]


def _creditor(ui: Context, cmd: dict[str, Any]) -> str | None:
    """Whom a refused command would have paid: a player (transfer, rent, the collector of "Von allen kassieren")
    or the bank (None).

    "An alle zahlen" owes every other player at once. Seed 000 knows two kinds of bankruptcy: to "Der Mitspieler,
    dem Sie mehr Geld schulden" (one player takes everything) and "Schulden bei der Bank" (the deeds go back to the
    bank and are auctioned). Giving the whole estate to one of several equal creditors would favour one player the
    book does not name; so a debt to all goes the bank's way, where the auction gives every player the same chance.
    """
    if cmd.get("op") == "transfer":
        return str(cmd.get("to"))
    if cmd.get("op") == "collect_all":
        return str(cmd.get("player"))
    if cmd.get("op") == "rent" and ui.game is not None and isinstance(cmd.get("square"), int):
        owner = ui.game.deeds[cmd["square"]].owner
        return str(owner) if owner else None
    return None


class PagesScene(Scene, msgspec.Struct):
    """Screens read one after the other (the end, the ranking, the deal); they never time out."""

    kind = State.PAGES
    note_in_title = True
    pages: list[tuple[Said, Said, tuple[Said, ...]]]
    index: int = 0
    offset: int = 0

    def _page(self, ui: Context) -> tuple[str, str, tuple[str, ...]]:
        """The page shown, said now."""
        title, big, body = self.pages[self.index]
        return ui.say(title), ui.say(big), tuple(ui.say(line) for line in body)

    def on_event(self, ui: Context, inp: Input) -> bool:
        if isinstance(inp, Tick):
            return True
        if not isinstance(inp, Press):
            return False
        most = scroll_rows(*self._page(ui))
        last = self.index + 1 == len(self.pages)
        if inp.key in (Key.UP, Key.DOWN) and (most or last):
            offset = max(0, min(most, self.offset + (-1 if inp.key is Key.UP else 1)))
            if offset == self.offset and inp.key is Key.DOWN:
                # docs/playing.md: turning past the end says so in the title bar, the last line kept
                ui.tone("refused")
                ui.note = phrase("scenes.pages.end")  # the end is reached; the turn does nothing
                return True
            if offset == self.offset:
                return False  # at the start already: said, not silent
            self.offset = offset
            return True
        if inp.key is Key.C or self.index + 1 == len(self.pages):
            ui.scenes.back()  # C skips the rest (the deal is in the log)
            return True
        self.index += 1
        self.offset = 0
        return True

    def view(self, ui: Context) -> Screen:
        return page(*self._page(ui), offset=self.offset)


def podium(ui: Context, game: GameState) -> tuple[Said, ...]:
    """Every player in the ranking's order, with their net worth (the knob scrolls past the third), in the
    notation of that game's edition (the last game's may be another) and the decimal sign said when drawn."""
    def line(i: int, name: str) -> Said:
        worth = format_money(net_worth(game, name), game.edition)
        return lambda: ui.say(phrase("scenes.podium.line", place=i, player=name,
                                     amount=worth.replace(",", words.text("number.decimal"))))
    return tuple(line(i, n) for i, n in enumerate(ranking(game), 1))


def game_over_pages(ui: Context) -> PagesScene:
    game = ui.game
    assert game is not None
    return PagesScene([(phrase("scenes.end.title"), verdict(game), podium(ui, game))])


def verdict(game: GameState) -> Said:
    """The end's big line: who won, or "Gleichstand" when several are as rich (``rules.winners``)."""
    shared = winners(game)
    return phrase("scenes.end.tie") if len(shared) > 1 else phrase("scenes.end.wins", player=game.winner or "–")
