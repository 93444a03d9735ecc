"""Presses per action on the device against the original reader (seed 000: insert card, type, one key).

Run: ``.venv/bin/python -m bench.presses``. Each action is played on the real state machine
(simulated display, real journal) and checked to have booked; a press is a key or a turn or
push of the knob, the cards' taps are counted apart. Prints the README's table.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from device.scenes import Ui
from device.store.cards import SIM_PLAYER_CARDS, Cards
from device.store.journal import Journal
from device.store.ledger import Ledger
from drivers.virtual import recorded_display

UID = {name: uid for uid, name in SIM_PLAYER_CARDS.items()}


@dataclass(frozen=True)
class Action:
    name: str
    original: str
    """The original reader: taps (card insertions) and presses, from the rule book (seed 000)."""
    edition: str
    script: tuple[str, ...]
    """Taps as "@Name", keys by their wire names."""
    booked: Callable[[Ledger, str], bool]
    """Checked after the script, with the OLED's text: it booked (or reached the screen named)."""
    rules: tuple[str, ...] = ()
    setup: tuple[dict[str, object], ...] = ()
    """Commands booked before (a house to renovate, a pot to take)."""


def _screen(title: str) -> Callable[[Ledger, str], bool]:
    def check(ledger: Ledger, text: str) -> bool:
        return text.startswith(title)

    return check


def _cash(name: str, amount: int) -> Callable[[Ledger, str], bool]:
    def check(ledger: Ledger, text: str) -> bool:
        state = ledger.game.state
        return state is not None and state.players[name].cash == amount

    return check


ACTIONS = (
    Action("Haben 2M", "1 Karte, 2 K K, Haben: 4", "banking", ("@Anna", "HABEN", "2", "K", "K", "OK"),
           _cash("Anna", 17_000_000)),
    Action("Haben 2M, original order", "1 Karte, 2 K K, Haben: 4", "banking", ("@Anna", "2", "K", "K", "HABEN"),
           _cash("Anna", 17_000_000)),
    Action("Soll 500K", "1 Karte, 5 0 0 K, Soll: 5", "banking", ("@Anna", "SOLL", "5", "0", "0", "K", "OK"),
           _cash("Anna", 14_500_000)),
    Action("LOS", "1 Karte, LOS: 1", "banking", ("@Anna", "LOS"), _cash("Anna", 17_000_000)),
    Action("Überweisung 2M", "2 Karten, 2 K K, Soll: 4", "banking", ("@Anna", "SOLL", "2", "K", "K", "@Ben", "OK"),
           _cash("Ben", 17_000_000)),
    Action("Überweisung 2M, original order", "2 Karten, 2 K K, Soll: 4", "banking",
           ("@Anna", "@Ben", "2", "K", "K", "OK", "OK"), _cash("Ben", 17_000_000)),
    Action("Steuer 200", "1 Karte, 2 0 0, Soll: 4", "classic", ("@Anna", "MENU", "3", "OK", "OK"),
           _cash("Anna", 1300)),
    Action("Gefängnis 50", "1 Karte, 5 0, Soll: 3", "classic", ("@Anna", "MENU", "4", "OK", "OK"),
           _cash("Anna", 1450)),
    Action("Kaufen Schlossallee", "1 Karte, 4 0 0, Soll: 4", "classic",
           ("@Anna", "MENU", "1", "3", "9", "OK", "OK", "OK"), _cash("Anna", 1100)),
    Action("Renovierung: to its prompt", "1 Karte, Betrag, Soll", "classic", ("@Anna", "MENU", "8", "3"),
           _screen("Je Haus?"), setup=({"op": "buy", "player": "Anna", "square": 1},
                                       {"op": "buy", "player": "Anna", "square": 3},
                                       {"op": "build", "player": "Anna", "square": 1})),
    Action("Frei Parken (pot)", "1 Karte, Betrag, Haben", "classic", ("@Anna", "MENU", "0", "1", "OK"),
           _cash("Anna", 1700), rules=("free_parking_pot",), setup=({"op": "tax", "player": "Ben", "square": 4},)),
)


def play(action: Action, tmp: Path) -> tuple[int, int]:
    journal = Journal(tmp / f"{action.name}.sqlite3")
    ledger = Ledger(journal)
    cards = Cards(journal)
    cards.seed_simulated()
    display, frames = recorded_display(threaded=False)
    rules = {"house_rules": list(action.rules)} if action.rules else {}
    assert ledger.submit({"op": "new_game", "edition": action.edition, "mode": "standard",
                          "players": ["Anna", "Ben"], **rules}).ok
    for cmd in action.setup:
        assert ledger.submit(cmd).ok, cmd
    bank = Ui(ledger=ledger, cards=cards, show=display.show, tone=lambda _: None, strict=True)
    taps = presses = 0
    for step in action.script:
        if step.startswith("@"):
            bank.handle("tap", UID[step[1:]])
            taps += 1
        else:
            bank.handle(step)
            presses += 1
    last = frames.last
    assert action.booked(ledger, last.text if last else ""), action.name
    journal.close()
    return taps, presses


def table() -> str:
    rows = ["| action | original reader (taps, presses) | Bankleser taps | Bankleser presses |", "|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for action in ACTIONS:
            taps, presses = play(action, Path(tmp))
            rows.append(f"| {action.name} | {action.original} | {taps} | {presses} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
