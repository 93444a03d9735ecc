"""The declared scenes and the changes between them: one table, checked on every change of scene.

Like the Flipper Zero's ``nfc_scene_config.h``, every scene the reader has is named here, and
every way from one to another: a row says from which scene, on which input, the manager may
bring which scenes to the top (by pushing one, or by unwinding to the card or idle scene and
pushing one). Going back one scene (C, or a result's time running out) pops the stack and needs
no row: it returns to a scene that was itself reached by a row. ``bankleser flows`` prints
this table as text or as a Mermaid diagram, so the graph in docs/playing.md is the one the
device runs.
"""

from __future__ import annotations

from enum import Enum

import msgspec


class State(Enum):
    """The kinds of scene (and SLEEP, the dark display, which is no scene: the stack stays)."""

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
    """What the rules will book (their preview), waiting for OK; after money raised for a refused payment,
    that payment again."""
    RESULT = "result"
    """What came of a command: booked, or refused with the reason (and an offer to raise money)."""
    MESSAGE = "message"
    """A note nobody booked: the reader's status, the volume, "Karte auflegen", a deed's owner."""
    PAGES = "pages"
    """Screens to read until a key: the end of a game, the ranking, the quick game's deal."""
    JOIN = "join"
    """New game: players tap their cards to join."""
    SELFTEST = "selftest"
    """Menü → Selbsttest: keys, knob, buzzer, LED and the reader, each shown as it is used."""
    SLEEP = "sleep"
    """Display off after a minute idle (no scene: the stack stays; the input that wakes acts)."""


S = State
SCENES = frozenset(State) - {S.SLEEP}
FLOW_STEP = frozenset({S.CHOOSE, S.ENTER, S.CONFIRM, S.RESULT, S.MESSAGE, S.PAGES, S.JOIN, S.SELFTEST, S.CARD,
                       S.IDLE})
"""Where a step of a flow may lead: the next list or prompt, the confirmation, the result, a note, or back."""
TAPPED = frozenset({S.CARD, S.CHOOSE, S.MESSAGE})
"""Where a card's tap leads: that player's card, a deed's actions or an unknown card's list, a note."""
MENU_KEYS = ("OK", "MENU", "UP", "DOWN")


class Row(msgspec.Struct, frozen=True):
    source: State
    trigger: str
    """An input's trigger (device/scenes/inputs.py: a key's name, "digit", "hold:C", "tap", "tick") or an event."""
    targets: frozenset[State]


def _row(source: State, trigger: str, *targets: State | frozenset[State]) -> Row:
    flat: set[State] = set()
    for t in targets:
        flat |= t if isinstance(t, frozenset) else {t}
    return Row(source, trigger, frozenset(flat))


_ANYWHERE = tuple(sorted(SCENES, key=lambda s: s.value))

TABLE: tuple[Row, ...] = (
    _row(S.IDLE, "tap", TAPPED),
    *(_row(S.IDLE, k, S.CHOOSE) for k in MENU_KEYS),
    _row(S.IDLE, "digit", S.MESSAGE),
    _row(S.CARD, "tap", TAPPED),
    _row(S.CARD, "HABEN", S.AMOUNT),
    _row(S.CARD, "SOLL", S.AMOUNT),
    _row(S.CARD, "digit", S.AMOUNT),
    _row(S.CARD, "LOS", S.RESULT),
    _row(S.CARD, "LOS", S.CHOOSE),  # under the house rule double_go: over LOS, or exactly on it
    _row(S.CHOOSE, "LOS", S.RESULT, S.PAGES),
    *(_row(S.CARD, k, S.CHOOSE) for k in MENU_KEYS),
    _row(S.AMOUNT, "OK", S.RESULT, S.CONFIRM),
    _row(S.AMOUNT, "HABEN", S.RESULT),
    _row(S.AMOUNT, "SOLL", S.RESULT),
    _row(S.AMOUNT, "tap", S.CONFIRM, S.RESULT, TAPPED),
    _row(S.CHOOSE, "OK", FLOW_STEP),
    _row(S.CHOOSE, "digit", FLOW_STEP),
    _row(S.CHOOSE, "tap", FLOW_STEP, TAPPED),
    _row(S.ENTER, "OK", FLOW_STEP),
    _row(S.ENTER, "tap", TAPPED),
    _row(S.CONFIRM, "OK", S.RESULT, S.PAGES, S.CONFIRM),  # a raise booking: the refused payment again
    _row(S.CONFIRM, "tap", TAPPED),
    _row(S.RESULT, "OK", S.CHOOSE, S.MESSAGE),
    _row(S.RESULT, "tap", TAPPED),
    _row(S.MESSAGE, "tap", TAPPED),
    _row(S.PAGES, "tap", TAPPED),
    _row(S.JOIN, "OK", S.RESULT, S.PAGES),
    *(_row(s, "hold:C", S.CHOOSE) for s in _ANYWHERE),
    *(_row(s, "tick", S.PAGES) for s in _ANYWHERE),
)
"""Every change of scene an input may make; C (back one scene) needs no row."""

EVENTS: tuple[Row, ...] = (
    *(_row(s, "web change", S.IDLE, S.CARD, S.PAGES) for s in SCENES),
    _row(S.CONFIRM, "web change", S.RESULT),  # what it confirms would now be booked otherwise: it says what
    *(_row(s, "reader fault", S.MESSAGE) for s in SCENES),
)
"""Changes that come from elsewhere: the web (new game, undo, end, renamed cards), the reader."""

LOOKUP: dict[tuple[State, str], frozenset[State]] = {}
for _r in TABLE + EVENTS:  # a trigger may have several rows (card --LOS--> result, and choose under a house rule)
    LOOKUP[_r.source, _r.trigger] = LOOKUP.get((_r.source, _r.trigger), frozenset()) | _r.targets


def declared(source: State, trigger: str, target: State) -> bool:
    return target in LOOKUP.get((source, trigger), frozenset())


def graph() -> str:
    """The table as text, one line per row: ``card --LOS--> result``."""
    lines = [f"{r.source.value} --{r.trigger}--> {'|'.join(sorted(s.value for s in r.targets))}"
             for r in TABLE + EVENTS]
    return "\n".join(["any --C--> the scene below (back exactly one)", *lines])


def mermaid() -> str:
    """The table as a Mermaid state diagram (``bankleser flows --mermaid``): one arrow per scene pair,
    labelled with the inputs that make it; the events from elsewhere and the universal rows apart."""
    edges: dict[tuple[State, State], list[str]] = {}
    for r in TABLE:
        if r.trigger in ("hold:C", "tick"):
            continue
        for t in sorted(r.targets, key=lambda s: s.value):
            edges.setdefault((r.source, t), []).append(r.trigger)
    lines = ["stateDiagram-v2", "    [*] --> idle"]
    for (a, b), triggers in edges.items():
        lines.append(f"    {a.value} --> {b.value}: {' '.join(dict.fromkeys(triggers))}")
    lines.append("    note right of idle")
    lines.append("        C: back exactly one scene, from any scene")
    lines.append("        hold:C from any scene: the new game's first list (choose)")
    lines.append("        tick: a timed game's end shows its pages; web change, reader fault: idle, card, message")
    lines.append("        web change under a confirmation the rules would now book otherwise: result")
    lines.append("    end note")
    return "\n".join(lines)
