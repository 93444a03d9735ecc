"""The scenes flows are made of: a list to choose from, a number to type, a preview to confirm.

Each holds only its own data: the list its entries, cursor and what to do with the choice; the
number its digits and what to do with them; the confirmation its command and the rules' words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec.structs import replace

import words
from drivers.screen import Screen
from rules import parse_amount
from rules.errors import RuleError

from .inputs import Input, Key, Press, Tap, pressed
from .layout import LINE_PX, MORE, fit_title, page, px, rows, scroll_rows, wrap
from .manager import Context, Scene
from .notes import RaiseOffer
from .said import Said, phrase, say
from .table import State

OK_LINE = phrase("scenes.confirm.ok")
"""A confirmation's title bar: what OK and C do ("OK bucht, C zurück")."""
OK_SHORT = phrase("scenes.confirm.ok_short")
"""Its short form ("OK bucht"), where the bar holds the scroll mark and the reader's own marks beside it: what OK
does stays; C goes back on every screen of the reader."""


class Option(msgspec.Struct):
    said: Said
    """The entry as it reads, said when drawn (a function for one that counts or names money)."""
    value: Any = None
    selected: bool = False
    digit: str = ""
    """The entry's own digit in a numbered menu: it never moves, whatever else is offered."""

    @property
    def label(self) -> str:
        """The entry in the language in force."""
        return say(self.said)


DONE = object()
"""The "Fertig" entry that closes a multiple choice."""


def _back_keys(inp: Input) -> bool:
    return isinstance(inp, Press) and inp.key in (Key.C, Key.MENU)


class ListScene(Scene, msgspec.Struct):
    """A list turned with the knob. ``pick`` gets the chosen value (a list of them if ``multi``)."""

    kind = State.CHOOSE
    heading: Said
    """The list's title, said when drawn."""
    options: list[Option]
    pick: Callable[[Context, Any], None]
    player: str | None = None
    index: int = 0
    multi: bool = False
    on_tap: Callable[[Context, str], None] | None = None
    """A player's card tapped picks that player (the trade's partner)."""
    typed: str = ""
    """Square numbers typed: "39" OK picks Schlossallee where it is on the list."""
    setup: bool = False
    """A new game's set-up: a card tapped keeps it (the cards come after), never throws it away."""
    keys: dict[str, Any] = {}
    """A key that picks a value at once, by its name (LOS on the LOS list: the pass over LOS)."""

    @property
    def title(self) -> str:
        """The title in the language in force."""
        return say(self.heading)

    @property
    def numbered(self) -> bool:
        return any(o.digit for o in self.options)

    def on_event(self, ui: Context, inp: Input) -> bool:
        if isinstance(inp, Tap):
            return self._tap(ui, inp.uid)
        key = pressed(inp)
        if key is None:
            return False
        if _back_keys(inp):
            if self.typed:
                self.typed = ""
                return True
            ui.scenes.back()
            return True
        if key in (Key.UP, Key.DOWN):
            if len(self.options) == 1:
                return False  # nothing to turn to: said, not silent
            self.index = (self.index + (-1 if key is Key.UP else 1)) % len(self.options)
            self.typed = ""
            return True
        if key is Key.OK:
            return self._choose(ui)
        if key.value in self.keys:
            self.pick(ui, self.keys[key.value])
            return True
        if key.is_digit:
            return self._digit(ui, key.value)
        return False

    def _choose(self, ui: Context) -> bool:
        if self.typed:
            number, self.typed = int(self.typed), ""
            values = [o.value for o in self.options]
            if number not in values:
                ui.tone("refused")
                ui.note = phrase("scenes.list.not_listed", number=number)
                return True
            self.index = values.index(number)
        option = self.options[self.index]
        if self.multi and option.value is not DONE:
            option.selected = not option.selected
            return True
        self.pick(ui, [o.value for o in self.options if o.selected] if self.multi else option.value)
        return True

    def _digit(self, ui: Context, key: str) -> bool:
        if self.numbered:
            for i, o in enumerate(self.options):
                if o.digit == key:
                    self.index = i
                    return self._choose(ui)
            return False
        if key.isdigit() and any(isinstance(o.value, int) and not isinstance(o.value, bool) for o in self.options) \
                and len(self.typed) < 2:
            self.typed += key
            values = [o.value for o in self.options]
            if int(self.typed) in values:
                self.index = values.index(int(self.typed))
            return True
        return False

    def _tap(self, ui: Context, uid: str) -> bool:
        card = ui.cards.get(uid)
        if card is None:
            return False
        if card.kind == "deed":
            values = [o.value for o in self.options]
            if card.square in values:
                self.index = values.index(card.square)
                ui.tone("card")
                return self._choose(ui)
            if self.multi and any(isinstance(v, int) and not isinstance(v, bool) for v in values):
                ui.tone("refused")  # a trade's marks are kept: said, never thrown away
                ui.note = phrase("scenes.list.not_in_trade")
                return True
            return False
        if self.on_tap is not None and card.name in [o.value for o in self.options]:
            ui.tone("card")
            self.on_tap(ui, card.name)
            return True
        return False

    def view(self, ui: Context) -> Screen:
        lines = self._rows()
        icons = self.typed + (MORE if len(lines) > rows("") - 1 else "")
        title = ui.say(self.heading)
        head = fit_title(title, icons)
        over = wrap(title[len(head):].strip()) if len(head) < len(title) else []
        return Screen(title=head, lines=(*over, *self._window(lines, rows("") - len(over))), icons=icons)

    def _rows(self) -> list[tuple[int, str]]:
        """Each entry as rows: its mark, its digit, its label wrapped (never cut); a continuation is indented
        deeper than any entry's start, in every list, so that it never reads as an entry of its own."""
        lines: list[tuple[int, str]] = []
        for i, option in enumerate(self.options):
            mark = ">" if i == self.index else " "
            tick = "*" if option.selected else ""
            number = f"{option.digit} " if option.digit else ""
            head = f"{mark}{tick}{number}"
            indent = " " * (len(head) + 2)
            parts = wrap(option.label, LINE_PX - px(head)) or [""]
            if len(parts) > 1 and option.label.startswith(parts[0]):  # the rest at the continuation's width
                parts = [parts[0], *wrap(option.label[len(parts[0]):].strip(), LINE_PX - px(indent))]
            elif len(parts) > 1:
                parts = wrap(option.label, LINE_PX - max(px(head), px(indent)))
            lines += [(i, (indent if j else head) + part) for j, part in enumerate(parts)]
        return lines

    def _window(self, lines: list[tuple[int, str]], room: int) -> tuple[str, ...]:
        """The rows shown: the marked entry whole, with the one before it where there is room."""
        mine = [r for r, (i, _) in enumerate(lines) if i == self.index]
        before = [r for r, (i, _) in enumerate(lines) if i == self.index - 1]
        start = before[0] if before else mine[0]
        start = max(0, min(max(start, mine[-1] - room + 1), len(lines) - room))
        return tuple(text for _, text in lines[start:start + room])


class NumberScene(Scene, msgspec.Struct):
    """A number to type for a step: money as the edition writes it, or a plain number."""

    kind = State.ENTER
    title: Said
    done: Callable[[Context, int], Said | None]
    """Takes the number; answers why not (the prompt asks again, saying so) or None."""
    money: bool = True
    zero: bool = False
    """An empty OK means 0 (the hint says "OK: 0")."""
    hint: Said = Key.OK.value
    player: str | None = None
    entry: str = ""
    why: Said = ""
    setup: bool = False
    """A new game's set-up (the minutes): a card tapped keeps it."""
    secret: bool = False
    """A PIN: shown masked while it is typed, as a PIN is."""

    def on_event(self, ui: Context, inp: Input) -> bool:
        key = pressed(inp)
        if key is None:
            return False
        if key is Key.C:
            if self.entry:
                self.entry = ""
                return True
            ui.scenes.back()
            return True
        if key.is_digit:
            typed = type_key(self.entry, key.value, ui, longest=7 if self.money else 8, money=self.money)
            if typed is None:
                return False
            self.entry, self.why = typed, ""
            return True
        if key is not Key.OK:
            return False
        if not self.entry:
            if not self.zero:
                return False
            number = 0
        elif self.money:
            assert ui.game is not None
            try:
                number = parse_amount(self.entry, ui.game.edition)
            except RuleError as err:
                return self._again(ui, err.said)
        else:
            number = int(self.entry)
        why = self.done(ui, number)
        return self._again(ui, why) if why else True

    def _again(self, ui: Context, why: Said) -> bool:
        ui.tone("refused")
        self.why, self.entry = why, ""
        return True

    def view(self, ui: Context) -> Screen:
        hint = phrase("scenes.number.clear") if self.entry and not self.why else \
            phrase("scenes.number.back", hint=ui.say(self.why or self.hint))
        shown = "*" * len(self.entry) if self.secret else self.entry.replace(".", words.text("number.decimal"))
        return page(ui.say(self.title), shown or ("–" if self.secret else "0"), [ui.say(hint)])


def type_key(text: str, key: str, ui: Context, *, longest: int = 7, money: bool = True) -> str | None:
    """``text`` with one more key typed, or None if that key cannot come now (K twice is M)."""
    km = money and ui.game is not None and ui.game.edition.km_notation
    if key == "K" and text.endswith("K") and km:
        return text[:-1] + "M"  # the keypad has one K/M key
    if key in "KM":
        return text + key if km and text and text[-1] not in "KM." else None
    if key == ".":
        return text + key if km and text and "." not in text and text[-1] not in "KM" else None
    if (text and text[-1] in "KM") or len(text) >= longest or (money and not text and key == "0"):
        return None  # an amount never starts with 0 (an empty entry already shows 0)
    return text + key


class ConfirmScene(Scene, msgspec.Struct):
    """What the rules will book, waiting for OK. The title bar says what OK and C do, so every row under the big line
    is the body's (three at the smallest big strike): the key facts of a booking at the longest names need three."""

    kind = State.CONFIRM
    note_in_title = True
    """A key with no use here is said in the title bar for its moment, never over a row of what is to be
    booked; the keys' line comes back with the next input."""
    cmd: dict[str, Any]
    title: Said
    """What is confirmed ("Miete", "Storno?", "Bankrott"): kept with a payment refused for want of money (it comes
    back under it), and said in the big line where the big line is empty (nothing to pay, a bankruptcy) unless
    ``big_line`` is False."""
    big: Said
    body: tuple[Said, ...]
    player: str | None = None
    offset: int = 0
    big_line: bool = True
    """False: no big line at all, not even the title, so the body has the four rows under the keys (a trade: who
    gives and what, for each side)."""
    ok_line: Said = OK_LINE
    """The title bar: what OK and C do."""
    ok_short: Said = OK_SHORT
    """The title bar where ``ok_line`` does not fit beside the marks (the scroll mark, a fault, the sound off)."""
    raising_for: RaiseOffer | None = None
    """This booking raises money for a refused payment (a mortgage, a building sold): after it, that payment
    comes back."""
    shown_again: RaiseOffer | None = None
    """This is a refused payment shown again after money was raised: withdrawn if the phone paid it meanwhile."""

    def on_event(self, ui: Context, inp: Input) -> bool:
        key = pressed(inp)
        if key is None:
            return False
        if key is Key.OK:
            ui.submit(self.cmd, self.player, title=self.title, then=self.raising_for)
            return True
        if _back_keys(inp):
            ui.scenes.back()
            return True
        if key in (Key.UP, Key.DOWN):
            most = scroll_rows("", *self._said(ui))
            step = -1 if key is Key.UP else 1
            if not 0 <= self.offset + step <= most:
                return False
            self.offset += step
            return True
        return False

    def still_legal(self, ui: Context) -> bool:
        """After a change from the phone. A Storno is legal only while the booking it shows is still the last
        one (the rules' check answers None for any undo: OK would undo whatever the phone booked since)."""
        if self.cmd.get("op") == "undo":
            game = ui.ledger.game
            return game.undoable() and bool(game.history) and game.history[-1].number == self.cmd.get("of")
        if self.shown_again is not None and self.shown_again.paid_since(ui):
            return False  # the rules would take it twice (a rent may be paid twice): the phone paid this one
        error = ui.ledger.check(self.cmd)
        return error is None or error.code == "insufficient_funds"

    def _said(self, ui: Context) -> tuple[str, tuple[str, ...]]:
        """The big line (the title where it is empty) and the body, said now."""
        big = ui.say(self.big) or (ui.say(self.title) if self.big_line else "")
        said = (ui.say(line) for line in self.body)
        return big, tuple(line for line in said if line)  # a row with nothing to add is left out, never blank

    def view(self, ui: Context) -> Screen:
        shown = page("", *self._said(ui), offset=self.offset)
        keys = ui.say(self.ok_line)
        if fit_title(keys, shown.icons + ui.marks) != keys:
            keys = ui.say(self.ok_short)
        return replace(shown, title=keys)
