"""The reader's lists, prompts and confirmations: the steps every flow is made of.

A part of :class:`device.ui.Banker` (a mixin): the state lives on the Banker.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules import EDITIONS, parse_amount, square_name
from rules.errors import RuleError

from .results import Results
from .screens import LINE
from .transitions import State


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


class Lists(Results):
    """Choose from a list, type a number, confirm the rules' preview."""

    if TYPE_CHECKING:  # a part above that a list calls (card_keys.py: a tap the list cannot use)
        def _switch(self, uid: str) -> State:
            ...

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
        if choice.multi and option.value is not DONE:
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
        return None

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

    def _preview(self, cmd: dict[str, Any], title: str) -> State:
        """Confirm what the rules will book: their preview's text and amount, never a recomputation."""
        try:
            event = self.ledger.game.preview(cmd)
        except RuleError as err:
            return self._refused(cmd, err.code, err.message)
        amount = max((t.amount for t in event.transfers), default=0)
        lines = ([event.note] if event.note else []) + textwrap.wrap(event.text, LINE)  # the 10 % first
        if len(lines) < 3:
            lines.append("OK bucht, C zurück")
        return self._ask(cmd, title, self._money(amount) if amount else "OK?", tuple(lines[:3]))

    def _confirm(self, key: str) -> State:
        assert self.pending is not None
        pending, self.pending = self.pending, None
        self.choice = None
        self.stack.clear()
        return self._submit(pending.cmd, State.CARD if self.player else State.IDLE)

    def _amount(self) -> int | None:
        """The typed amount, or None after showing why it is not one."""
        try:
            return parse_amount(self.entry, self.game.edition)
        except RuleError as err:
            self.tone("refused")
            self._show_result("Abgelehnt", "BETRAG?", err.message, self.state, refused=True)
            return None

    def _choose_square(self, title: str, squares: list[int], then: Callable[[int], State]) -> State:
        if not squares:
            return self._show_message(title, "NICHTS DA", "Keine passenden Grundstücke", State.CARD, refused=True)
        edition = self.game.edition if self.game else EDITIONS["classic"]
        options = [Option(f"{sq:2d} {square_name(edition, sq)}", sq) for sq in squares]
        return self._open_choice(Choice(title, options, then))


DONE = object()
"""The "Fertig" entry that closes a multiple choice."""
