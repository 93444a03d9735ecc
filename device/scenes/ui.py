"""The banker's reader: the one small object the daemon (and the tests) talk to.

It holds the services (ledger, cards, display, buzzer, clocks) and the scene manager; it feeds
each input to the scene on top, in arrival order, and draws what that scene shows. What is
left here is what belongs to no scene: the display's sleep, the input nobody used (answered
with a tone and a note, never silently), the web's changes and the reader's faults.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, cast

import msgspec

import words
from drivers.screen import Screen
from rules import GameState, format_money

from ..store.cards import Cards
from ..store.journal import JournalError
from ..store.ledger import Ledger, Outcome
from .idle import IdleScene
from .inputs import Hold, Input, Key, Press, Tap, Tick, parse_key, trigger
from .layout import page, with_icons, with_note
from .manager import Scene, SceneManager, WifiJoin
from .notes import MessageScene, RaiseOffer, game_over_pages, outcome_scene
from .said import Said, key_name, phrase, say
from .table import State

log = logging.getLogger(__name__)

SLEEP_AFTER = 60.0
"""About a minute idle: the display sleeps (seed 000: "nach ca. 1 Minute … schaltet sich aus")."""

TWO_CARDS = "two_cards"
"""``reader_status(False, TWO_CARDS)``: the reader sees more than one card at once."""


def load_scenes() -> None:
    """The scenes a key or a card opens (menus, the card, the flows' steps, the new game, the self-test) are
    imported where they are first used, not before READY: the idle screen needs none of them, and they cost about
    18 M instructions (≈ 0.07 s at a Pi core's pace). The daemon calls this beside the loop right after READY, so
    the first key finds them loaded."""
    from . import card, menus, runner, taps, wizard  # noqa: F401


def _new_seed() -> int:
    """A new game's seed from ``secrets``, imported here: it loads OpenSSL, which nothing needs before READY."""
    import secrets

    return secrets.randbelow(2**31)


class Ui(msgspec.Struct):
    """The reader. ``show`` draws a screen, ``tone`` plays a tune; ``url`` is the status page."""

    ledger: Ledger
    cards: Cards
    show: Callable[[Screen], Any]
    tone: Callable[[str], None]
    url: str | Callable[[], str] = ""
    """The status page's address, or a function giving it now (it follows a changed Wi-Fi address)."""
    clock: Callable[[], float] = time.monotonic
    sleep_display: Callable[[], None] = lambda: None
    wake_display: Callable[[], None] = lambda: None
    muted: Callable[[], bool] = lambda: False
    """Whether the buzzer is off (the title bar's "x"): its state, never a volume's name in the language in force."""
    cycle_volume: Callable[[], str] = lambda: "hoch"
    new_seed: Callable[[], int] = lambda: _new_seed()
    set_pin: Callable[[str], bool] = lambda pin: False
    begin_code: Callable[[], str | None] = lambda: None
    """The one-time code for a phone's first login while no PIN is set (the idle screen shows it), else None."""
    led: Callable[[bool], None] = lambda on: None
    sleep_after: float = SLEEP_AFTER
    """Seconds without input before the display sleeps (``[ui] sleep_after`` in config.toml)."""
    missing: Callable[[], list[str]] = lambda: []
    """The parts that failed to open and are being retried: the idle screen names them."""
    join: Callable[[], WifiJoin | None] = lambda: None
    """The appliance's own Wi-Fi while it is open (``daemon.hotspot.JoinInfo``), else None."""
    qr_later: bool = False
    """The daemon: the first idle frame without QR codes, which come with the first tick (segno's imports
    after READY)."""
    strict: bool = False
    """Tests: a change of scene missing from the table raises instead of only being logged."""
    scenes: SceneManager = cast("SceneManager", None)
    """Made by ``__post_init__`` (the manager needs the reader itself); never passed."""
    asleep: bool = False
    reader_problem: str = ""
    note: Said = ""
    """Why the last input did nothing (shown on the last line until the next input), said when drawn."""
    last_input: float = 0.0
    last_screen: Screen | None = None
    seen: GameState | None = None
    seen_running: bool = False
    toned: bool = False
    """A tone was played for the input being handled."""

    def __post_init__(self) -> None:
        play = self.tone

        def tone(name: str) -> None:
            self.toned = True
            play(name)

        self.tone = tone

        self.scenes = SceneManager(self, IdleScene(qr=not self.qr_later), strict=self.strict)
        self.last_input = self.clock()
        self.seen = self.game
        self.seen_running = self.game is not None and not self.game.finished
        self.render()

    # What the scenes use ------------------------------------------------------------------

    @property
    def game(self) -> GameState | None:
        return self.ledger.game.state

    def money(self, amount: int) -> str:
        """An amount as the edition writes it, with the decimal sign of the language in force."""
        if self.game is None:
            return str(amount)
        return format_money(amount, self.game.edition).replace(",", words.text("number.decimal"))

    def say(self, said: Said) -> str:
        """A scene's text in the language in force, with the running game's edition (its money, its squares)."""
        return say(said, self.game.edition if self.game else None)

    @property
    def marks(self) -> str:
        """The reader's own marks, drawn in the title bar after the scene's: a reader or storage fault ("!"), the
        sound off ("x"). A scene whose title must fit beside them (a confirmation's keys) reads them here."""
        return ("!" if self.reader_problem or self.ledger.problem else "") + ("x" if self.muted() else "")

    @property
    def state(self) -> State:
        """The kind of scene on top (SLEEP while the display is dark)."""
        return State.SLEEP if self.asleep else self.scenes.top.kind

    @property
    def scene(self) -> Scene:
        return self.scenes.top

    # Inputs --------------------------------------------------------------------------------

    def handle(self, kind: str, value: Any = None) -> None:
        """One input by its wire name ("5", "HABEN", "hold:C", "PUSH"), or "tap" with a UID, or "tick"."""
        if kind == "tap":
            self.feed(Tap(str(value)))
        elif kind == "tick":
            self.feed(Tick())
        else:
            self.feed(parse_key(kind))

    def feed(self, inp: Input) -> None:
        """One input, handled to the end before the next (the daemon's one queue keeps arrival order)."""
        self.follow_game()
        if isinstance(inp, Tick):
            self._tick()
            self.render()
            return
        self.last_input = self.clock()
        self.ledger.clock_resumed = False  # the banker has seen "Uhr läuft"
        if self.asleep:  # the input that wakes the reader also acts (seed 000: the card shows its balance)
            self.asleep = False
            self.wake_display()
        self.note = ""
        self.toned = False
        before = self.screen()
        self.scenes.why = trigger(inp)
        if isinstance(inp, Hold) and inp.key is Key.C:
            from .wizard import ask_new_game

            ask_new_game(self)
        elif not self.scenes.top.on_event(self, inp):
            if isinstance(inp, Tap):
                from .taps import tapped

                tapped(self, inp.uid)  # a tap is never ignored: that card, whatever was under way
            else:
                self.unused(inp)
        if not self.toned and self.screen() == before:
            self.tone("card")  # it acted, and the screen looks the same (the same note again): a click says so
        self.render()

    def unused(self, inp: Input) -> None:
        """An input the scene on top has no use for: a tone and a note saying so, never silence."""
        self.tone("refused")
        if isinstance(inp, Press):
            self.note = phrase("scenes.unused", key=key_name(inp.key))

    def tick(self) -> None:
        """Called about once a second by the main loop."""
        self.feed(Tick())

    def _tick(self) -> None:
        self.scenes.why = "tick"
        left = self.ledger.remaining()
        if left is not None and left <= 0 and self.game is not None and not self.game.finished:
            outcome = self.ledger.submit({"op": "end"})  # time is up: that comes before going to sleep
            if outcome.ok:
                self.wake()
                self.game_over()
                return
        if self.asleep:
            return
        if self.clock() - self.last_input >= self.sleep_after and self.scenes.top.kind is not State.PAGES:
            self.asleep = True  # the end and the ranking stay until a key
            for scene in self.scenes.stack:
                scene.on_sleep(self)
            self.sleep_display()
            return
        self.scenes.top.on_event(self, Tick())

    def wake(self) -> None:
        if self.asleep:
            self.asleep = False
            self.wake_display()
        self.last_input = self.clock()

    # Outcomes the scenes share -----------------------------------------------------------

    def submit(self, cmd: dict[str, Any], player: str | None, *, title: Said = "",
               then: RaiseOffer | None = None) -> None:
        """Book ``cmd``; then the result over the card of ``player`` (a fresh one: no payer left behind).

        ``title``: the confirmation's, kept in a refusal for want of money (the payment comes back under it);
        ``then``: the booking raised money for that refused payment, which comes back instead of the result.
        """
        outcome = self.ledger.submit(cmd)
        self.seen_running = self.game is not None and not self.game.finished
        if outcome.ok and self.game is not None and self.game.finished:
            self.tone("done")
            self.game_over()
            return
        from .runner import come_back

        if outcome.ok and then is not None and come_back(self, then):
            return
        self.tone("done" if outcome.ok else "refused")
        self.to_card(player, outcome_scene(self, outcome, cmd, player, title))

    def choose_language(self, code: str) -> bool:
        """The banker's choice on the device (Menü → Sprache): in force at once, kept in the journal across restarts
        as the admin page's choice is; False when the journal could not keep it (it holds until the restart)."""
        from ..daemon.language import choose

        try:
            choose(self.ledger.journal, code)
        except JournalError as err:
            log.error("language %s not kept in the journal: %s", code, err)
            return False
        return True

    def to_card(self, player: str | None, scene: Scene | None = None) -> None:
        """Unwind to the card of ``player`` (a fresh card scene) or idle, and show ``scene`` over it."""
        live = player is not None and self.game is not None and player in self.game.players \
            and not self.game.players[player].bankrupt
        from .card import CardScene

        below = [CardScene(player, booked=True)] if live and player is not None else []
        self.scenes.unwind(*below, *([scene] if scene else []))

    def message(self, title: Said, big: Said, text: Said, *, refused: bool = False, unwind: bool = False) -> None:
        """A note over the scene on top, or (``unwind``) over the idle scene."""
        if refused:
            self.tone("refused")
        scene = MessageScene(title, big, text, refused=refused)
        if unwind:
            self.scenes.unwind(scene)
        else:
            self.scenes.push(scene)

    def game_over(self) -> None:
        self.tone("end")
        self.scenes.unwind(game_over_pages(self))

    # The ways from one scene to another that would otherwise import each other -------------

    def open_menu(self, player: str | None) -> None:
        """The player's menu (digits that never move), or the banker's without a card."""
        from . import menus

        if player is None:
            menus.banker_menu(self)
        else:
            menus.player_menu(self, player)

    def run_method(self, name: str, player: str | None) -> None:
        """A one-screen entry of the menus by the name flows.py gives it (Storno, Lautstärke …)."""
        from . import menus

        menus.METHODS[name](self, player)

    def raise_money(self, offer: RaiseOffer) -> None:
        from . import menus

        menus.raise_menu(self, offer)

    # Changes from elsewhere ----------------------------------------------------------------

    def refresh(self) -> None:
        """Redraw after a change from elsewhere (a web command, the reader's status)."""
        self.follow_game()
        self.render()

    def follow_game(self) -> None:
        """The web may start a new game, undo, end or rename: never act for a player who is gone.

        A game that ended elsewhere wakes the reader with its ranking; a new game, or a player who
        left, abandons what was under way; a confirmation the web made impossible is withdrawn.
        """
        game = self.game
        replaced = game is not self.seen
        self.seen = game
        was_running, self.seen_running = self.seen_running, game is not None and not game.finished
        self.scenes.why = "web change"
        if not replaced and was_running and game is not None and game.finished:
            self.wake()
            self.game_over()
            return
        stack = self.scenes.stack

        def gone(s: Scene) -> bool:
            who = getattr(s, "player", None)
            return who is not None and (game is None or who not in game.players
                                        or game.players[who].bankrupt or game.finished)

        keep = len(stack)
        for i, s in enumerate(stack):
            if (replaced and i > 0 and s.kind is not State.PAGES) or gone(s):
                keep = i
                break
        if keep < len(stack):
            self.scenes.unwind(*stack[1:keep])
            return
        top = self.scenes.top
        check = getattr(top, "still_legal", None)
        if check is not None and not check(self):
            player = getattr(top, "player", None)
            cmd: dict[str, Any] = getattr(top, "cmd", {})
            error = self.ledger.check(cmd) if cmd.get("expect") else None
            if error is not None and error.code == "changed":  # withdrawn, saying what it would book now
                self.tone("refused")
                edition = self.game.edition if self.game else None
                self.to_card(player, outcome_scene(self, Outcome.refusal(error, edition), cmd, player))
                return
            self.to_card(player)

    def reader_status(self, ok: bool, why: str) -> None:
        self.reader_problem = "" if ok else why
        if not ok:
            self.scenes.why = "reader fault"
            big, text = (phrase("scenes.reader.two_cards"), phrase("scenes.reader.one_card")) if why == TWO_CARDS \
                else (phrase("scenes.reader.missing"), why)  # the driver's cause, as the driver says it
            self.scenes.unwind(MessageScene(phrase("scenes.reader.title"), big, text, refused=True))
        self.render()

    # Drawing -------------------------------------------------------------------------------

    def screen(self) -> Screen:
        """What the OLED shows now: the top scene's view, a storage fault, the note of an unused input."""
        if self.asleep:
            return Screen()
        icons = self.marks
        top = self.scenes.top
        if self.ledger.problem and top.kind in (State.IDLE, State.CARD):
            return page(self.say(phrase("scenes.storage.title")), self.say(phrase("scenes.storage.stop")),
                        [self.ledger.problem], icons=icons)
        shown = top.view(self)
        if self.note:
            shown = with_note(shown, self.say(self.note), title=top.note_in_title)
        return with_icons(shown, icons)

    def render(self) -> None:
        screen = self.screen()
        if screen != self.last_screen:
            self.last_screen = screen
            self.show(screen)

