"""Scenes and their manager: a stack, like the Flipper Zero's ``scene_manager.c``.

A scene is a small object that holds only its own data (an amount scene its digits and whose
amount it is, a list its entries and cursor, a confirmation the previewed command). It answers
inputs in ``on_event`` (True: used) and draws itself in ``view`` — a pure function of the scene
and the game. The manager is the one place the top of the stack changes: each change is logged
"from A to B" and checked against the declared table (``table.py``); strict in the tests.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, ClassVar

from drivers.screen import Screen

from .inputs import Input
from .table import State, declared

if TYPE_CHECKING:
    from .ui import Ui

log = logging.getLogger(__name__)


class Scene:
    """One screen of the reader. Subclasses set ``kind`` and override what they use."""

    kind: ClassVar[State]
    player: str | None
    """The player this scene acts for (None or absent: the banker): a scene whose player left the game goes."""

    def on_enter(self, ui: Ui) -> None:
        """Shown for the first time."""

    def on_event(self, ui: Ui, inp: Input) -> bool:
        """An input: True if this scene used it (an unused one is answered with a tone and a note)."""
        return False

    def on_exit(self, ui: Ui) -> None:
        """Left for good (popped or unwound)."""

    def view(self, ui: Ui) -> Screen:
        raise NotImplementedError


class UndeclaredTransition(AssertionError):
    pass


class SceneManager:
    """The stack of scenes; the bottom one (idle) never leaves."""

    def __init__(self, ui: Ui, root: Scene, *, strict: bool = False) -> None:
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
            log.error("undeclared change of scene %s → %s (%s)", old.kind.value, new.kind.value, self.why)
            if self.strict:
                raise UndeclaredTransition(f"undeclared {old.kind.value} → {new.kind.value} ({self.why})")
        log.info("%s → %s (%s, %s)", old.kind.value, new.kind.value, how, self.why)

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
