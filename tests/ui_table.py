"""The appliance on the table for the UI tests: simulated display and buzzer, real journal, fake clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.scenes import Ui
from device.scenes.lists import ListScene
from device.store.cards import SIM_DEED_TAGS, SIM_PLAYER_CARDS, Cards
from device.store.journal import Journal
from device.store.ledger import Ledger
from drivers.display import SimDisplay
from drivers.signals import Buzzer

UID = {name: uid for uid, name in SIM_PLAYER_CARDS.items()}
DEED = {sq: uid for uid, sq in SIM_DEED_TAGS.items()}


class Table:
    """The appliance on the table: simulated display and buzzer, a real journal, a fake clock."""

    def __init__(self, path: Path) -> None:
        self.now = 1000.0
        self.wall = 1_800_000_000.0
        self.journal = Journal(path / "journal.sqlite3")
        self.ledger = Ledger(self.journal, clock=lambda: self.wall, mono=lambda: self.now)
        self.cards = Cards(self.journal)
        self.cards.seed_simulated()
        self.display = SimDisplay()
        self.buzzer = Buzzer(None, pin_factory=None)
        self.asleep = False
        self.bank = Ui(ledger=self.ledger, cards=self.cards, show=self.display.show, tone=self.buzzer.play,
                           url="http://192.168.1.20:8080/", clock=lambda: self.now,
                           sleep_display=lambda: setattr(self, "asleep", True),
                           wake_display=lambda: setattr(self, "asleep", False), new_seed=lambda: 7, strict=True)

    def press(self, *keys: str) -> None:
        for key in keys:
            self.bank.handle(key)

    def type(self, text: str) -> None:
        self.press(*text)

    def tap(self, who: str | int) -> None:
        self.bank.handle("tap", UID[who] if isinstance(who, str) else DEED[who])

    def book(self, *cmds: dict[str, Any]) -> None:
        """Commands booked from elsewhere (the phone, the test's set-up), each accepted; the reader follows."""
        for cmd in cmds:
            outcome = self.ledger.submit(cmd)
            assert outcome.ok, (cmd, outcome.message)
        self.bank.refresh()
        self.tones()

    def text(self) -> str:
        last = self.display.last
        return last.text if last else ""

    def cash(self, name: str) -> int:
        return self.ledger.game.state.players[name].cash

    def tones(self) -> list[str]:
        played, self.buzzer.played[:] = list(self.buzzer.played), []
        return played

    def start(self, *names: str, edition: str = "banking", mode: str = "standard", **extra: object) -> None:
        assert self.ledger.submit({"op": "new_game", "edition": edition, "mode": mode, "players": list(names),
                                   **extra}).ok
        self.bank.refresh()
        self.tones()

    @property
    def choice(self) -> ListScene:
        scene = self.bank.scene
        assert isinstance(scene, ListScene), f"no list on the OLED: {scene}"
        return scene

    def labels(self) -> list[str]:
        """The labels of the list on the OLED now (all of them, not only the ones shown)."""
        return [o.label for o in self.choice.options]

    def choose(self, label: str) -> None:
        """Turn the encoder to the entry that reads ``label`` and push: menus named, not counted."""
        labels = self.labels()
        assert label in labels, f"{label!r} not offered: {labels}"
        choice = self.choice
        while labels[choice.index] != label:
            self.press("DOWN")
        self.press("OK")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.buzzer.close()
    t.journal.close()
