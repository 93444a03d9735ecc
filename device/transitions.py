"""The banker's reader as a table: from which state, on which input, by which action, to where.

Every change of state goes through :meth:`device.machine.Machine._go_to`, which logs "from A to B"
and checks the destination against this table (strict in the tests), so the graph that
``bankleser flows`` prints is the graph the device runs.

A step of a declared banker flow (``device/flows.py``, run by ``device/runner.py``) may lead to
any of ``FLOW_STEP``: a flow is a chain of lists, prompts and a confirmation that ends in a
result. The runner only answers the next state; this table's row is what moves there.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class State(Enum):
    IDLE = "idle"
    """Waiting for a card; shows the mode, a timed game's clock, the page's address and QR code."""
    CARD = "card"
    """A bank card is on: number, name, balance. HABEN, SOLL, LOS or MENU."""
    AMOUNT = "amount"
    """Typing an amount for Haben or Soll (a payee's tap turns Soll into a transfer)."""
    CHOOSE = "choose"
    """A list on the OLED, turned with the encoder: menus, properties, players, options."""
    ENTER = "enter"
    """Typing a number for a step of a flow: an auction price, dice, minutes, trade cash."""
    CONFIRM = "confirm"
    """What the rules will book (their preview), waiting for OK."""
    RESULT = "result"
    """What came of a command: booked, or refused with the reason (and an offer to raise money)."""
    MESSAGE = "message"
    """A note or prompt nobody booked: the reader's status, the volume, "Karte auflegen", a deed's owner."""
    PAGES = "pages"
    """Screens to read until a key: the end of a game, the ranking, the quick game's deal."""
    JOIN = "join"
    """New game: players tap their cards to join."""
    SLEEP = "sleep"
    """Display off after a minute idle; any key or tap wakes it."""


S = State
FLOW_STEP = frozenset({S.CHOOSE, S.ENTER, S.CONFIRM, S.RESULT, S.MESSAGE, S.PAGES, S.JOIN, S.CARD, S.IDLE})
"""Where a step of a flow may lead: the next list or prompt, the confirmation, the result, a note, or back."""
TAPPED = frozenset({S.CARD, S.CHOOSE, S.MESSAGE, S.IDLE})
"""Where a card's tap leads: that player's card, a deed's actions or an unknown card's list, a note."""


@dataclass(frozen=True)
class Transition:
    source: State
    trigger: str
    """An input's trigger (device/inputs.py: a key's name, "digit", "hold:C", "tap", "tick") or an event."""
    action: str
    """The Banker's method that does the work and answers the destination (None: stay)."""
    targets: frozenset[State]
    """Where the action may lead; empty: it never leaves the source."""


def _row(source: State, trigger: str, action: str, *targets: State | frozenset[State]) -> Transition:
    flat: set[State] = set()
    for t in targets:
        flat |= t if isinstance(t, frozenset) else {t}
    return Transition(source, trigger, action, frozenset(flat))


_MENU_KEYS = ("OK", "MENU", "UP", "DOWN")

TABLE: tuple[Transition, ...] = (
    _row(S.IDLE, "tap", "_on_tap", TAPPED),
    *(_row(S.IDLE, k, "_open_menu", S.CHOOSE) for k in _MENU_KEYS),
    _row(S.IDLE, "hold:C", "_ask_new_game", S.CHOOSE),
    _row(S.IDLE, "digit", "_point", S.MESSAGE),
    _row(S.IDLE, "tick", "_tick", S.SLEEP, S.PAGES),
    _row(S.CARD, "tap", "_on_tap", TAPPED),
    _row(S.CARD, "HABEN", "_start_amount", S.AMOUNT),
    _row(S.CARD, "SOLL", "_start_amount", S.AMOUNT),
    _row(S.CARD, "LOS", "_go", S.RESULT),
    _row(S.CARD, "digit", "_start_typed", S.AMOUNT),
    *(_row(S.CARD, k, "_open_menu", S.CHOOSE) for k in _MENU_KEYS),
    _row(S.CARD, "C", "_to_idle", S.IDLE),
    _row(S.CARD, "hold:C", "_ask_new_game", S.CHOOSE),
    _row(S.CARD, "tick", "_tick", S.SLEEP, S.PAGES),
    _row(S.AMOUNT, "digit", "_type"),
    _row(S.AMOUNT, "C", "_clear", S.CARD),
    _row(S.AMOUNT, "OK", "_book_amount", S.RESULT, S.CONFIRM),
    _row(S.AMOUNT, "HABEN", "_start_amount", S.AMOUNT, S.RESULT),
    _row(S.AMOUNT, "SOLL", "_start_amount", S.AMOUNT, S.RESULT),
    _row(S.AMOUNT, "tap", "_payee", S.CONFIRM, S.RESULT, TAPPED),
    _row(S.AMOUNT, "hold:C", "_ask_new_game", S.CHOOSE),
    _row(S.AMOUNT, "tick", "_tick", S.SLEEP, S.PAGES),
    _row(S.CHOOSE, "UP", "_move"),
    _row(S.CHOOSE, "DOWN", "_move"),
    _row(S.CHOOSE, "OK", "_choose", FLOW_STEP),
    _row(S.CHOOSE, "C", "_back", S.CHOOSE, S.CARD, S.IDLE),
    _row(S.CHOOSE, "MENU", "_back", S.CHOOSE, S.CARD, S.IDLE),
    _row(S.CHOOSE, "digit", "_type_choice", FLOW_STEP),
    _row(S.CHOOSE, "tap", "_tap_choice", FLOW_STEP, TAPPED),
    _row(S.CHOOSE, "hold:C", "_ask_new_game", S.CHOOSE),
    _row(S.CHOOSE, "tick", "_tick", S.SLEEP, S.PAGES),
    _row(S.ENTER, "digit", "_type"),
    _row(S.ENTER, "C", "_clear", S.CHOOSE, S.CARD, S.IDLE),
    _row(S.ENTER, "OK", "_enter_done", FLOW_STEP),
    _row(S.ENTER, "tap", "_switch", TAPPED),
    _row(S.ENTER, "hold:C", "_ask_new_game", S.CHOOSE),
    _row(S.ENTER, "tick", "_tick", S.SLEEP, S.PAGES),
    _row(S.CONFIRM, "OK", "_confirm", S.RESULT, S.PAGES),
    _row(S.CONFIRM, "C", "_back", S.CHOOSE, S.CARD, S.IDLE),
    _row(S.CONFIRM, "MENU", "_back", S.CHOOSE, S.CARD, S.IDLE),
    _row(S.CONFIRM, "tap", "_switch", TAPPED),
    _row(S.CONFIRM, "tick", "_tick", S.SLEEP, S.PAGES),
    _row(S.RESULT, "OK", "_after_result", S.CARD, S.IDLE, S.RESULT, S.CHOOSE, S.AMOUNT, S.ENTER),
    _row(S.RESULT, "C", "_after_result", S.CARD, S.IDLE, S.RESULT, S.CHOOSE, S.AMOUNT, S.ENTER),
    _row(S.RESULT, "key", "_after_result", S.CARD, S.IDLE, S.RESULT, S.AMOUNT, S.ENTER),
    _row(S.RESULT, "tap", "_on_tap", TAPPED),
    _row(S.RESULT, "hold:C", "_ask_new_game", S.CHOOSE),
    _row(S.RESULT, "tick", "_result_tick", S.SLEEP, S.CARD, S.IDLE, S.AMOUNT, S.ENTER, S.PAGES),
    *(_row(S.MESSAGE, k, "_after_message", S.CARD, S.IDLE) for k in ("OK", "C", "key")),
    _row(S.MESSAGE, "tap", "_on_tap", TAPPED),
    _row(S.MESSAGE, "hold:C", "_ask_new_game", S.CHOOSE),
    _row(S.MESSAGE, "tick", "_message_tick", S.SLEEP, S.CARD, S.IDLE, S.PAGES),
    _row(S.JOIN, "tap", "_join"),
    _row(S.JOIN, "OK", "_start_game", S.RESULT, S.PAGES),
    _row(S.JOIN, "C", "_join_clear", S.IDLE),
    _row(S.JOIN, "tick", "_tick", S.SLEEP, S.PAGES),
    *(_row(s, "any input", "_wake", frozenset(State) - {S.SLEEP}) for s in (S.SLEEP,)),
    _row(S.SLEEP, "tick", "_tick", S.PAGES),
    *(_row(S.PAGES, k, "_next_page", S.PAGES, S.CARD, S.IDLE)
      for k in ("OK", "C", "HABEN", "SOLL", "LOS", "MENU", "UP", "DOWN", "digit")),
    _row(S.PAGES, "tap", "_on_tap", TAPPED),
    _row(S.PAGES, "hold:C", "_ask_new_game", S.CHOOSE),
)
"""Every (state, trigger) the device acts on; a pair not here is logged and ignored.

RESULT and MESSAGE "key": any other key on a plain result or a message leaves it (to where the result returns) and then
acts there at once, so no key is swallowed after a booking.
"""

EVENTS: tuple[Transition, ...] = (
    _row(S.CARD, "web change", "_follow_game", S.IDLE),
    _row(S.AMOUNT, "web change", "_follow_game", S.IDLE),
    _row(S.CHOOSE, "web change", "_follow_game", S.IDLE),
    _row(S.ENTER, "web change", "_follow_game", S.IDLE),
    _row(S.CONFIRM, "web change", "_follow_game", S.IDLE, S.CARD),
    _row(S.JOIN, "web change", "_follow_game", S.IDLE),
    *(_row(s, "reader fault", "reader_status", S.MESSAGE) for s in State if s is not S.MESSAGE),
    _row(S.PAGES, "web change", "_follow_game", S.IDLE),
)
"""Changes that come from elsewhere: the web (new game, undo, end, renamed cards), the reader."""

LOOKUP: dict[tuple[State, str], Transition] = {(t.source, t.trigger): t for t in TABLE + EVENTS}


def graph() -> str:
    """The table as text, one line per transition: ``card --LOS/_go--> result``."""
    lines = []
    for t in TABLE + EVENTS:
        to = "|".join(sorted(s.value for s in t.targets)) or t.source.value
        lines.append(f"{t.source.value} --{t.trigger}/{t.action.lstrip('_')}--> {to}")
    return "\n".join(lines)
