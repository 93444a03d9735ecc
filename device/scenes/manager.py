"""Scenes and their manager: a stack, like the Flipper Zero's ``scene_manager.c``.

A scene is a small object that holds only its own data (an amount scene its digits and whose
amount it is, a list its entries and cursor, a confirmation the previewed command). It answers
inputs in ``on_event`` (True: used) and draws itself in ``view`` — a pure function of the scene
and the game. The manager is the one place the top of the stack changes: each change is logged
"from A to B" and checked against the declared table (``table.py``); strict in the tests.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, ClassVar, Protocol

from drivers.screen import Screen
from rules import GameState

from ..store.cards import Cards
from ..store.ledger import Ledger
from .inputs import Input
from .said import Said, trigger_name
from .table import State, declared

log = logging.getLogger(__name__)


class WifiJoin(Protocol):
    """The appliance's own Wi-Fi to join, while it is open (the daemon's ``hotspot.JoinInfo``)."""

    @property
    def ssid(self) -> str: ...
    @property
    def password(self) -> str: ...
    @property
    def wifi_qr(self) -> str: ...


class Context(Protocol):
    """What a scene may use of the reader (``ui.Context``): services, the manager, and the ways to other scenes.

    Scenes reach one another through these (a menu by ``open_menu``, a one-screen entry by
    ``run_method``), as Flipper scenes go by id through the scene manager: no scene imports the
    reader, and no two scene modules import each other.
    """

    ledger: Ledger
    cards: Cards
    url: str | Callable[[], str]
    scenes: SceneManager
    note: Said
    seen: GameState | None
    seen_running: bool

    def tone(self, name: str) -> None: ...
    def clock(self) -> float: ...
    def cycle_volume(self) -> str: ...
    def new_seed(self) -> int: ...
    def set_pin(self, pin: str) -> bool: ...
    def begin_code(self) -> str | None: ...
    def choose_language(self, code: str) -> bool: ...
    def led(self, on: bool) -> None: ...
    def missing(self) -> list[str]: ...
    def join(self) -> WifiJoin | None: ...

    @property
    def game(self) -> GameState | None: ...
    def money(self, amount: int) -> str: ...
    @property
    def marks(self) -> str: ...
    def say(self, said: Said) -> str: ...
    def submit(self, cmd: dict[str, Any], player: str | None, *, title: Said = "", then: Any = None) -> None: ...
    def to_card(self, player: str | None, scene: Scene | None = None) -> None: ...
    def message(self, title: Said, big: Said, text: Said, *, refused: bool = False, unwind: bool = False) -> None: ...
    def open_menu(self, player: str | None) -> None: ...
    def run_method(self, name: str, player: str | None) -> None: ...
    def raise_money(self, offer: Any) -> None: ...


class Scene:
    """One screen of the reader. Subclasses set ``kind`` and override what they use.

    The scenes that hold data are ``msgspec.Struct``s as well (``class CardScene(Scene, msgspec.Struct)``):
    a Struct's fields are slots, so this base has none of its own and no ``__dict__``.
    """

    __slots__ = ()
    kind: ClassVar[State]
    note_in_title: ClassVar[bool] = False
    """The note of an unused input goes to the title bar (a page read to its end keeps its last line)."""
    player: str | None
    """The player this scene acts for (None or absent: the banker): a scene whose player left the game goes."""

    def on_enter(self, ui: Context) -> None:
        """Shown for the first time."""

    def on_event(self, ui: Context, inp: Input) -> bool:
        """An input: True if this scene used it (an unused one is answered with a tone and a note)."""
        return False

    def on_exit(self, ui: Context) -> None:
        """Left for good (popped or unwound)."""

    def on_sleep(self, ui: Context) -> None:
        """The display went dark: what only made sense to the banker who saw it is forgotten."""

    def view(self, ui: Context) -> Screen:
        raise NotImplementedError


class UndeclaredTransition(AssertionError):
    pass


class SceneManager:
    """The stack of scenes; the bottom one (idle) never leaves."""

    def __init__(self, ui: Context, root: Scene, *, strict: bool = False) -> None:
        self.ui = ui
        self.stack: list[Scene] = [root]
        self.why = "start"
        """The trigger of the input being handled: what a change is checked against."""
        self.strict = strict

    @property
    def top(self) -> Scene:
        return self.stack[-1]

    def _moved(self, old: Scene, how: str, *, check: bool = True) -> None:
        new = self.top
        if new is old:
            return
        if check and not declared(old.kind, self.why, new.kind):
            log.error("undeclared change of scene %s → %s (%s)", old.kind.value, new.kind.value,
                      trigger_name(self.why))
            if self.strict:
                raise UndeclaredTransition(f"undeclared {old.kind.value} → {new.kind.value} ({self.why})")
        log.info("%s → %s (%s, %s)", old.kind.value, new.kind.value, how, trigger_name(self.why))

    def push(self, scene: Scene) -> None:
        old = self.top
        self.stack.append(scene)
        scene.on_enter(self.ui)
        self._moved(old, "push")

    def replace(self, scene: Scene) -> None:
        """The top scene gives way to another (a result's offer becomes the raise-money list)."""
        old = self.top
        if len(self.stack) > 1:
            self.stack.pop().on_exit(self.ui)
        self.stack.append(scene)
        scene.on_enter(self.ui)
        self._moved(old, "replace")

    def back(self) -> None:
        """C: exactly one scene back (never below idle)."""
        old = self.top
        if len(self.stack) > 1:
            self.stack.pop().on_exit(self.ui)
        self._moved(old, "back", check=False)

    def _unwind(self, keep: int) -> None:
        while len(self.stack) > keep:
            self.stack.pop().on_exit(self.ui)

    def unwind(self, *then: Scene, to: State = State.IDLE) -> None:
        """Down to the newest scene of kind ``to`` (the card, or idle at the bottom), then push ``then``."""
        old = self.top
        keep = 1
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].kind is to:
                keep = i + 1
                break
        self._unwind(keep)
        for scene in then:
            self.stack.append(scene)
            scene.on_enter(self.ui)
        self._moved(old, "unwind")

    def find(self, kind: State) -> Scene | None:
        return next((s for s in reversed(self.stack) if s.kind is kind), None)
