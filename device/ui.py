"""The banker's reader as an explicit state machine.

Every input (device/inputs.py: key, hold, encoder, tap, tick) arrives at :meth:`Banker.feed`,
which looks the (state, trigger) pair up in ``device/transitions.py``; a pair that is not
there is logged and ignored.
Each handler returns the next state; every change of state is logged "from A to B". The
machine never touches money itself: it builds commands and hands them to the ledger, and
shows "done" (tone and screen) only after the ledger has made them durable.
"""

from __future__ import annotations

import logging
import re
import secrets
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from drivers.screen import Screen
from rules import (
    DEEDS,
    EDITIONS,
    Kind,
    Mode,
    format_money,
    level,
    net_worth,
    parse_amount,
    ranking,
    reader_text,
    square_name,
)
from rules.errors import RuleError
from rules.game import new_game_state
from rules.legal import legal_ops, legal_squares, square_ops

from .cards import Cards
from .flows import PLAYER_FLOWS, Flow
from .inputs import Hold, Input, Key, Press, Tap, Tick, parse_key, trigger
from .ledger import Ledger, Outcome
from .screens import LINE, _quick_name, screen
from .transitions import LOOKUP, State

log = logging.getLogger(__name__)

SLEEP_AFTER = 60.0
"""About a minute idle: the display sleeps (seed 000: "nach ca. 1 Minute … schaltet sich aus")."""
RESULT_SHOWN = 4.0
TWO_CARDS = "two_cards"
"""``reader_status(False, TWO_CARDS)``: the reader sees more than one card at once."""

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
    "storage_error": "SPEICHERFEHLER",
}
"""A word or two for the OLED; the full German reason goes on the small lines."""


@dataclass
class Option:
    label: str
    value: Any = None
    selected: bool = False


@dataclass
class Choice:
    """A list to choose from; ``pick`` gets the chosen value and returns the next state."""

    title: str
    options: list[Option]
    pick: Callable[[Any], State]
    index: int = 0
    multi: bool = False
    """Several can be marked (trade); the last option "Fertig" finishes."""
    back: Callable[[], State] | None = None
    on_tap: Callable[[str], State | None] | None = None
    typed: str = ""
    numbered: bool = False
    """Entries shown with 1-9; a digit picks its entry at once (the player's menu: fewer presses)."""


@dataclass
class Entry:
    """A number to type for a step of a flow."""

    title: str
    done: Callable[[int], State | None]
    money: bool = True
    hint: str = "OK"
    allow_zero: bool = False


@dataclass
class Pending:
    """A command waiting for OK."""

    cmd: dict[str, Any]
    title: str
    big: str
    lines: tuple[str, ...]


@dataclass
class Banker:
    """The state machine. ``show`` draws a screen, ``tone`` plays a tune; ``url`` is the page."""

    ledger: Ledger
    cards: Cards
    show: Callable[[Screen], Any]
    tone: Callable[[str], None]
    url: str | Callable[[], str] = ""
    """The status page's address, or a function giving it now (it follows a changed Wi-Fi address)."""
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time
    sleep_display: Callable[[], None] = lambda: None
    wake_display: Callable[[], None] = lambda: None
    volume: Callable[[], str] = lambda: "hoch"
    cycle_volume: Callable[[], str] = lambda: "hoch"
    new_seed: Callable[[], int] = lambda: secrets.randbelow(2**31)
    set_pin: Callable[[str], bool] = lambda pin: False
    state: State = State.IDLE
    player: str | None = None
    card_number: int = 0
    """The bank card's number of the player on the reader, shown in the title."""
    entry: str = ""
    action: str = "credit"
    choice: Choice | None = None
    stack: list[Choice] = field(default_factory=list)
    prompt: Entry | None = None
    pending: Pending | None = None
    result: Screen | None = None
    result_at: float = 0.0
    result_next: State = State.IDLE
    raise_offer: bool = False
    joined: list[str] = field(default_factory=list)
    new_game: dict[str, Any] = field(default_factory=dict)
    pages: list[Screen] = field(default_factory=list)
    """PAGES: screens read one after the other (the end, the ranking, the deal); the first is shown."""
    pages_back: State = State.IDLE
    reader_problem: str = ""
    seen: Any = None
    """The game (its state object) the machine's player, menus and prompts belong to."""
    raise_creditor: str | None = None
    note: str = ""
    payer: str | None = None
    """The card on the reader before this one: digits typed now pay from it to this player."""
    """A one-off line on the card screen ("Eingabe verworfen"), gone with the next input."""
    """Whom the refused payment was owed to: the bankruptcy's preselected creditor (None: the bank)."""
    before_sleep: State = State.IDLE
    last_input: float = 0.0
    last_screen: Screen | None = None
    strict: bool = False
    """Tests: a transition missing from the table raises instead of only being logged."""

    def __post_init__(self) -> None:
        self.last_input = self.clock()
        self.seen = self.game
        self.render()

    # The one entry point ----------------------------------------------------------------

    def handle(self, kind: str, value: Any = None) -> None:
        """One input by its wire name ("5", "HABEN", "hold:C", "PUSH"), or "tap" with a UID, or "tick"."""
        if kind == "tap":
            self.feed(Tap(str(value)))
        elif kind == "tick":
            self.feed(Tick())
        else:
            self.feed(parse_key(kind))

    def feed(self, inp: Input) -> None:
        """One typed input: look (state, trigger) up in the table, run its action, go where it says."""
        trig = trigger(inp)
        value: Any = inp.uid if isinstance(inp, Tap) else None
        if isinstance(inp, Press | Hold):
            value = Key.OK.value if inp.key is Key.PUSH else inp.key.value
        if not isinstance(inp, Tick):
            self.last_input = self.clock()
            self.ledger.clock_resumed = False  # the banker has seen "Uhr läuft"
            if self.state is State.SLEEP:
                self._go_to(self._wake(), "any input")
                self.render()
                return  # the key that wakes the reader does nothing else
        self._follow_game()
        if not isinstance(inp, Tick):
            self.note = ""
        if self.state is State.RESULT and isinstance(inp, Press) and self._result_passes(value):
            self._run("key", value)
        self._run(trig, value)
        self.render()

    def _run(self, trig: str, value: Any) -> None:
        row = LOOKUP.get((self.state, trig))
        if row is None:
            log.debug("%s: %s ignored", self.state.value, trig)
            return
        nxt = getattr(self, row.action)(value)
        if isinstance(nxt, State):
            self._go_to(nxt, trig)

    def _go_to(self, nxt: State, why: str) -> None:
        """The one place the state changes: logged "from A to B", checked against the table."""
        if nxt is self.state:
            return
        row = LOOKUP.get((self.state, why))
        if row is None or nxt not in row.targets:
            log.error("undeclared transition %s → %s (%s)", self.state.value, nxt.value, why)
            if self.strict:
                raise AssertionError(f"undeclared transition {self.state.value} → {nxt.value} ({why})")
        log.info("%s → %s (%s)", self.state.value, nxt.value, why)
        self.state = nxt

    def _result_passes(self, key: str) -> bool:
        """A key on a plain result leaves it and then acts (no swallowed keys after a booking).

        OK and C only dismiss; a result that waits for a key (the deal, the end, the raise-money
        offer) takes the key itself.
        """
        waits = self.raise_offer
        return key not in ("OK", "C", "PUSH") and not waits

    def refresh(self) -> None:
        """Redraw after a change from elsewhere (a web command, the reader's status)."""
        self._follow_game()
        self.render()

    def _follow_game(self) -> None:
        """The web may start a new game, undo, end or rename: never act for a player who is gone.

        A new game (another state object), or a player on the reader who is no longer playing,
        abandons whatever was under way and goes back to the idle screen.
        """
        game = self.game
        replaced = game is not self.seen
        self.seen = game
        gone = self.player is not None and (game is None or self.player not in game.players
                                            or game.players[self.player].bankrupt or game.finished)
        if self.state in (State.SLEEP, State.IDLE):
            if replaced or gone:
                self.before_sleep = State.IDLE
                self.player = None
            return
        if (replaced and self.state not in (State.IDLE, State.RESULT, State.PAGES)) or gone:
            self._to_idle()
            self.pages = []
            self._go_to(State.IDLE, "web change")
            return
        if self.pending is not None and self.state is State.CONFIRM and self.ledger.check(self.pending.cmd):
            self.pending = None
            self._go_to(State.CARD if self.player else State.IDLE, "web change")

    def reader_status(self, ok: bool, why: str) -> None:
        self.reader_problem = "" if ok else why
        if not ok and why == TWO_CARDS:
            self._show_result("Leser", "ZWEI KARTEN", "Eine Karte auflegen", State.IDLE, refused=True)
            self._go_to(State.RESULT, "reader fault")
        elif not ok:
            self._show_result("Leser", "LESER FEHLT", why, State.IDLE, refused=True)
            self._go_to(State.RESULT, "reader fault")
        self.render()

    # Helpers -----------------------------------------------------------------------------

    @property
    def game(self) -> Any:
        return self.ledger.game.state

    def _money(self, amount: int) -> str:
        return format_money(amount, self.game.edition) if self.game else str(amount)

    def _submit(self, cmd: dict[str, Any], back: State) -> State:
        outcome = self.ledger.submit(cmd)
        return self._outcome(outcome, back, cmd)

    def _outcome(self, outcome: Outcome, back: State, cmd: dict[str, Any] | None = None) -> State:
        if outcome.ok:
            self.tone("done")
            text = outcome.event.text if outcome.event else "Gebucht"
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

    def _podium(self) -> tuple[str, ...]:
        """The three richest, with their net worth: for the ranking and the end of a game."""
        order = ranking(self.game)[:3]
        return tuple(f"{i}. {n} {self._money(net_worth(self.game, n))}"[:LINE] for i, n in enumerate(order, 1))

    # Cards ---------------------------------------------------------------------------------

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
            self._show_result(f"Karte #{card.number}", card.name, "spielt nicht mit", State.IDLE, refused=False)
            return State.RESULT
        if self.game.players[card.name].bankrupt:
            self._show_result(f"{card.name} #{card.number}", "BANKROTT", f"{card.name} spielt nicht mehr mit",
                              State.IDLE, refused=True)
            self.player = None
            return State.RESULT
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
            self._show_result(f"Feld {square}", square_name(self.game.edition, square)[:14], self._deed_info(square),
                              State.IDLE, refused=False)
            return State.RESULT
        return self._property_menu(square)

    def _deed_info(self, square: int) -> str:
        d = self.game.deeds[square]
        if d.owner is None:
            return f"frei, Preis {self._money(self.game.edition.money(DEEDS[square].price))}"
        return f"gehört {d.owner}" + (" (Hypothek)" if d.mortgaged else "")

    # Haben, Soll, LOS, transfer ------------------------------------------------------------

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

    def _amount(self) -> int | None:
        """The typed amount, or None after showing why it is not one."""
        try:
            return parse_amount(self.entry, self.game.edition)
        except RuleError as err:
            self.tone("refused")
            self._show_result("Abgelehnt", "BETRAG?", err.message, self.state, refused=True)
            return None

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

    # Choices --------------------------------------------------------------------------------

    def _open_choice(self, choice: Choice) -> State:
        if self.choice is not None and self.state in (State.CHOOSE, State.ENTER):
            self.stack.append(self.choice)
        self.choice = choice
        return State.CHOOSE

    def _move(self, key: str) -> None:
        assert self.choice is not None
        step = -1 if key == "UP" else 1
        self.choice.index = (self.choice.index + step) % len(self.choice.options)

    def _choose(self, key: str) -> State | None:
        choice = self.choice
        assert choice is not None
        if choice.typed:
            return self._pick_typed(choice)
        option = choice.options[choice.index]
        if choice.multi and option.value is not _DONE:
            option.selected = not option.selected
            return None
        if choice.multi:
            return choice.pick([o.value for o in choice.options if o.selected])
        return choice.pick(option.value)

    def _type_choice(self, key: str) -> State | None:
        """Square numbers can be typed: "39" OK picks Schlossallee where it is on the list.

        In a numbered list a digit picks its entry at once.
        """
        assert self.choice is not None
        if self.choice.numbered:
            if key.isdigit() and 1 <= int(key) <= min(9, len(self.choice.options)):
                self.choice.index = int(key) - 1
                return self._choose("OK")
            return None
        if key.isdigit() and len(self.choice.typed) < 2:
            self.choice.typed += key
            values = [o.value for o in self.choice.options]
            number = int(self.choice.typed)
            if number in values:
                self.choice.index = values.index(number)

    def _pick_typed(self, choice: Choice) -> State | None:
        number = int(choice.typed)
        choice.typed = ""
        for i, option in enumerate(choice.options):
            if option.value == number:
                choice.index = i
                return self._choose("OK")
        return None

    def _tap_choice(self, uid: str) -> State | None:
        assert self.choice is not None
        card = self.cards.get(uid)
        if card is None:
            return self._switch(uid)
        if card.kind == "deed":
            values = [o.value for o in self.choice.options]
            if card.square in values:
                self.choice.index = values.index(card.square)
                self.tone("card")
                return self._choose("OK")
            return None
        if self.choice.on_tap is not None:
            self.tone("card")
            return self.choice.on_tap(card.name)
        if card.name == self.player:
            return None
        return self._switch(uid)

    def _back(self, key: str = "C") -> State:
        if self.state is State.CONFIRM:
            self.pending = None  # back to the list it came from, else to the card
            if self.choice is not None:
                return State.CHOOSE
            return State.CARD if self.player else State.IDLE
        if self.stack:
            self.choice = self.stack.pop()
            return State.CHOOSE
        if self.choice is not None and self.choice.back is not None:
            back = self.choice.back
            self.choice = None
            return back()
        self.choice = None
        return State.CARD if self.player else State.IDLE

    def _to_idle(self, key: Any = None) -> State:
        self.player = None
        self.payer = None
        self.choice = None
        self.stack.clear()
        self.pending = None
        self.entry = ""
        return State.IDLE

    def _ask_number(self, entry: Entry) -> State:
        if self.choice is not None and self.state is State.CHOOSE:
            self.stack.append(self.choice)
        self.prompt = entry
        self.entry = ""
        return State.ENTER

    def _enter_done(self, key: str) -> State | None:
        assert self.prompt is not None
        if self.prompt.money:
            if not self.entry and self.prompt.allow_zero:
                return self.prompt.done(0)
            amount = self._amount()
            return State.RESULT if amount is None else self.prompt.done(amount)
        if not self.entry or not self.entry.isdigit():
            if self.prompt.allow_zero:
                return self.prompt.done(0)
            return None
        return self.prompt.done(int(self.entry))

    def _reprompt(self, why: str) -> State | None:
        """A typed number the step cannot take: say why on the prompt and let the banker retype."""
        assert self.prompt is not None
        self.tone("refused")
        self.prompt.hint = why
        self.entry = ""
        return None

    def _ask(self, cmd: dict[str, Any], title: str, big: str, lines: tuple[str, ...]) -> State:
        self.pending = Pending(cmd, title, big, lines)
        return State.CONFIRM

    def _confirm(self, key: str) -> State:
        assert self.pending is not None
        pending, self.pending = self.pending, None
        self.choice = None
        self.stack.clear()
        return self._submit(pending.cmd, State.CARD if self.player else State.IDLE)

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

    # Menus ------------------------------------------------------------------------------------

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
            self._show_result(square_name(self.game.edition, square)[:LINE], "NICHTS MÖGLICH",
                              self._deed_info(square), State.CARD, refused=True)
            return State.RESULT
        self.stack.clear()
        self.choice = None
        return self._open_choice(Choice(square_name(self.game.edition, square)[:LINE],
                                        [Option(label, fn) for label, fn in items], lambda fn: fn()))

    def _choose_square(self, title: str, squares: list[int], then: Callable[[int], State]) -> State:
        if not squares:
            self._show_result(title, "NICHTS DA", "Keine passenden Grundstücke", State.CARD, refused=True)
            return State.RESULT
        edition = self.game.edition if self.game else EDITIONS["classic"]
        options = [Option(f"{sq:2d} {square_name(edition, sq)}", sq) for sq in squares]
        return self._open_choice(Choice(title, options, then))

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

    def _legal(self, op: str) -> list[int]:
        """The squares the rules accept ``op`` on for the player now (rules/legal.py)."""
        assert self.player is not None
        return legal_squares(self.ledger.game, self.player, op)

    def _preview(self, cmd: dict[str, Any], title: str) -> State:
        """Confirm what the rules will book: their preview's text and amount, never a recomputation."""
        try:
            event = self.ledger.game.preview(cmd)
        except RuleError as err:
            return self._refused(cmd, err.code, err.message)
        amount = max((t.amount for t in event.transfers), default=0)
        lines = textwrap.wrap(event.text, LINE)
        if len(lines) < 3:
            lines.append("OK bucht, C zurück")
        return self._ask(cmd, title, self._money(amount) if amount else "OK?", tuple(lines[:3]))

    def _refused(self, cmd: dict[str, Any], code: str, message: str) -> State:
        return self._outcome(Outcome(False, code, message), State.CARD, cmd)

    def _own(self, predicate: Callable[[int], bool] = lambda sq: True) -> list[int]:
        return [sq for sq, d in self.game.deeds.items() if d.owner == self.player and predicate(sq)]

    # The rules-aware flows ----------------------------------------------------------------------

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
            return [Option(f"{sq:2d} {square_name(ed, sq)}", sq) for sq in own] + cards + [Option("Fertig", _DONE)]

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
            return self._ask(trade, "Tausch", f"{me}↔{other}"[:12], (
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
                *(Option(f"{sq:2d} {square_name(ed, sq)}", sq) for sq in mortgaged), Option("Fertig", _DONE)],
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

    def _ask_undo(self) -> State:
        history = self.ledger.game.history
        if not history:
            self._show_result("Storno", "NICHTS", "Nichts zu stornieren", State.IDLE, refused=True)
            return State.RESULT
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
        self._show_result("Lautstärke", level_name.upper(), "Taste . ändert", State.IDLE, refused=False)
        return State.RESULT

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
        self._show_result("Karte anlernen", "AUFLEGEN", "Neue Karte auf den Leser legen", State.IDLE,
                          refused=False)
        return State.RESULT

    # New game ------------------------------------------------------------------------------------

    def _ask_new_game(self, key: Any = None) -> State:
        self.tone("new_game")
        self.stack.clear()
        self.choice = None
        self.player = None
        running = self.game is not None and not self.game.finished
        title, yes = ("Spiel ersetzen?", "Ja: ersetzen") if running else ("Neues Spiel?",
                                                                                    "Ja: alle Stände neu")
        return self._open_choice(Choice(title, [Option(yes, True), Option("Nein", False)],
                                        lambda ok: self._pick_edition(running) if ok else self._to_idle()))

    def _pick_edition(self, replace: bool = False) -> State:
        """The wizard; over a running game the command says so (``replace``), and Storno brings it back."""
        self.new_game = {"op": "new_game", **({"replace": True} if replace else {})}
        keys = list(EDITIONS)
        last = self.game.edition.key if self.game is not None else keys[0]  # the last game's: OK keeps it
        return self._open_choice(Choice("Ausgabe", [Option(e.title.replace("MONOPOLY ", "") or e.title, k)
                                                    for k, e in EDITIONS.items()], self._pick_mode,
                                        index=keys.index(last) if last in keys else 0))

    def _pick_mode(self, edition: str) -> State:
        self.new_game["edition"] = edition
        options = [Option("Standard", ("standard", False)), Option(_quick_name(EDITIONS[edition]), ("quick", False)),
                   Option("Auf Zeit", ("timed", False))]
        if EDITIONS[edition].speed_die_bonus:
            options.append(Option("Mit Tempo-Würfel", ("standard", True)))
        index = 0
        if self.game is not None:
            last = (self.game.mode.value, self.game.speed_die)
            index = next((i for i, o in enumerate(options) if o.value == last), 0)
        return self._open_choice(Choice("Spielart", options, self._picked_mode, index=index))

    def _picked_mode(self, mode: tuple[str, bool]) -> State:
        self.new_game["mode"], speed = mode
        if speed:
            self.new_game["speed_die"] = True
        if mode[0] == "timed":
            return self._ask_number(Entry("Minuten?", self._minutes, money=False))
        return self._start_join()

    def _minutes(self, minutes: int) -> State | None:
        try:  # asked of the rules now, not after every player has tapped
            new_game_state({**self.new_game, "minutes": minutes, "players": ["Probe1", "Probe2"]})
        except RuleError as err:
            limits = re.search(r"\(([^)]*)\)$", err.message)
            return self._reprompt(f"nur {limits.group(1)}" if limits else err.message[:LINE])
        self.new_game["minutes"] = minutes
        return self._start_join()

    def _start_join(self) -> State:
        """Players join by tapping; the last game's players are already in (C clears them)."""
        last = self.game
        known = {c.name for c in self.cards.players()}
        self.joined = [n for n in last.players if n in known] if last is not None else []
        self.choice = None
        self.stack.clear()
        return State.JOIN

    def _join_clear(self, key: str) -> State | None:
        """C: first empties the list of players (the last game's), then leaves the wizard."""
        if self.joined:
            self.joined = []
            return None
        return self._to_idle()

    def _join(self, uid: str) -> State | None:
        card = self.cards.get(uid)
        if card is not None and card.kind == "deed":
            return None
        if card is None:
            card = self.cards.register_player(uid)
            self.ledger.touch()
        if card.name not in self.joined and len(self.joined) < 8:
            self.joined.append(card.name)
            self.tone("card")
        return None

    def _start_game(self, key: str) -> State | None:
        if len(self.joined) < 2:
            self.tone("refused")
            return None
        cmd = {**self.new_game, "players": list(self.joined)}
        if cmd["mode"] == "quick":
            cmd["seed"] = self.new_seed()
        outcome = self.ledger.submit(cmd)
        if not outcome.ok:
            return self._outcome(outcome, State.IDLE)
        self.tone("new_game")
        state = self.game
        if state.mode is Mode.QUICK:  # the deal, shown player by player: OK shows the next
            deal = [Screen(title="Austeilen", big=name, lines=tuple(
                f"{sq:2d} {square_name(state.edition, sq)}"[:LINE]
                for sq, d in state.deeds.items() if d.owner == name)[:3]) for name in state.players]
            first = Screen(title="Neues Spiel", big=f"{len(self.joined)} Spieler",
                           lines=(state.edition.title[:LINE], "OK: Karten zeigen"))
            return self._show_pages([first, *deal], State.IDLE)
        self.result = Screen(title="Neues Spiel", big=f"{len(self.joined)} Spieler",
                             lines=(state.edition.title[:LINE], ""))
        self.result_at = self.clock()
        self.result_next = State.IDLE
        return State.RESULT

    # Time ---------------------------------------------------------------------------------------

    def _tick(self, now: Any = None) -> State | None:
        left = self.ledger.remaining()
        if left is not None and left <= 0:  # time is up: that comes before going to sleep
            outcome = self.ledger.submit({"op": "end"})
            if outcome.ok:
                return self._game_over()
        pinned = self.state is State.PAGES  # the end and the ranking stay until a key
        if self.clock() - self.last_input >= SLEEP_AFTER and self.state is not State.SLEEP and not pinned:
            self.before_sleep = self.state
            self.sleep_display()
            return State.SLEEP
        return None

    def tick(self) -> None:
        """Called about once a second by the main loop."""
        if self.state is State.SLEEP:
            left = self.ledger.remaining()
            if left is None or left > 0:
                return
            self._go_to(self._wake(), "any input")  # time is up: wake everybody
        self.feed(Tick())

    def _wake(self, key: Any = None) -> State:
        self.wake_display()
        return self.before_sleep

    # Screens ------------------------------------------------------------------------------------

    def screen(self) -> Screen:
        return screen(self)

    def render(self) -> None:
        screen = self.screen()
        if screen != self.last_screen:
            self.last_screen = screen
            self.show(screen)

def _cards(n: int) -> str:
    return "1 Karte" if n == 1 else f"{n} Karten"


_DONE = object()
"""The "Fertig" entry that closes a multiple choice."""
