"""The banker's reader as an explicit state machine: its state, the one entry point, the one change of state.

Every input (device/inputs.py: key, hold, encoder, tap, tick) arrives at :meth:`Banker.feed`,
which looks the (state, trigger) pair up in ``device/transitions.py``; a pair that is not
there is logged and ignored.
Each handler returns the next state; every change of state is logged "from A to B". The
machine never touches money itself: it builds commands and hands them to the ledger, and
shows "done" (tone and screen) only after the ledger has made them durable.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from drivers.screen import Screen
from rules import format_money

from .inputs import Hold, Input, Key, Press, Tap, Tick, parse_key, trigger
from .screens import screen
from .store.cards import Cards
from .store.ledger import Ledger
from .transitions import LOOKUP, State

if TYPE_CHECKING:
    from .lists import Choice, Entry, Pending

log = logging.getLogger(__name__)


SLEEP_AFTER = 60.0
"""About a minute idle: the display sleeps (seed 000: "nach ca. 1 Minute … schaltet sich aus")."""

TWO_CARDS = "two_cards"
"""``reader_status(False, TWO_CARDS)``: the reader sees more than one card at once."""


@dataclass
class Machine:
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
    """RESULT: what came of the banker's command (booked, or refused with the reason)."""
    message: Screen | None = None
    """MESSAGE: a note or prompt nobody booked (the reader's status, the volume, "Karte auflegen")."""
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
    """Whom the refused payment was owed to: the bankruptcy's preselected creditor (None: the bank)."""
    note: str = ""
    """A one-off line on the card screen ("Eingabe verworfen"), gone with the next input."""
    payer: str | None = None
    """The card on the reader before this one: digits typed now pay from it to this player."""
    before_sleep: State = State.IDLE
    last_input: float = 0.0
    last_screen: Screen | None = None
    strict: bool = False
    """Tests: a transition missing from the table raises instead of only being logged."""


    if TYPE_CHECKING:  # parts above the core that it calls (results.py)
        def _show_message(self, title: str, big: str, text: str, back: State, *, refused: bool = False) -> State:
            ...

        def _game_over(self) -> State:
            ...

    def __post_init__(self) -> None:
        self.last_input = self.clock()
        self.seen = self.game
        self.render()

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
        if self.state in (State.RESULT, State.MESSAGE) and isinstance(inp, Press) and self._result_passes(value):
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
        if (replaced and self.state not in (State.IDLE, State.RESULT, State.MESSAGE, State.PAGES)) or gone:
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
            self._go_to(self._show_message("Leser", "ZWEI KARTEN", "Eine Karte auflegen", State.IDLE, refused=True),
                        "reader fault")
        elif not ok:
            self._go_to(self._show_message("Leser", "LESER FEHLT", why, State.IDLE, refused=True), "reader fault")
        self.render()

    @property
    def game(self) -> Any:
        return self.ledger.game.state

    def _money(self, amount: int) -> str:
        return format_money(amount, self.game.edition) if self.game else str(amount)

    def tick(self) -> None:
        """Called about once a second by the main loop."""
        if self.state is State.SLEEP:
            left = self.ledger.remaining()
            if left is None or left > 0:
                return
            self._go_to(self._wake(), "any input")  # time is up: wake everybody
        self.feed(Tick())

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

    def _wake(self, key: Any = None) -> State:
        self.wake_display()
        return self.before_sleep

    def screen(self) -> Screen:
        return screen(self)

    def render(self) -> None:
        screen = self.screen()
        if screen != self.last_screen:
            self.last_screen = screen
            self.show(screen)

    def _result_passes(self, key: str) -> bool:
        """A key on a plain result leaves it and then acts (no swallowed keys after a booking).

        OK and C only dismiss; a result that waits for a key (the deal, the end, the raise-money
        offer) takes the key itself.
        """
        waits = self.raise_offer
        return key not in ("OK", "C", "PUSH") and not waits

    def _to_idle(self, key: Any = None) -> State:
        self.player = None
        self.payer = None
        self.choice = None
        self.stack.clear()
        self.pending = None
        self.entry = ""
        return State.IDLE
