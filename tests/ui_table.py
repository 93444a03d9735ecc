"""The appliance on the table for the UI tests: simulated display and buzzer, real journal, fake clock."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from in_play import in_play

from device.scenes import Ui, places
from device.scenes.lists import ListScene
from device.store.cards import SIM_DEED_TAGS, SIM_PLAYER_CARDS, Cards
from device.store.journal import Journal
from device.store.ledger import Ledger
from drivers.screen import Screen
from drivers.signals import Buzzer
from drivers.virtual import recorded_display
from rules import DEEDS, Kind
from rules.ops import BY_NAME

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
        self.display, self.frames = recorded_display(threaded=False)
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
        last = self.frames.last
        return last.text if last else ""

    def screen(self) -> Screen:
        """The screen drawn last (its title bar, big line and rows apart)."""
        last = self.frames.last
        assert last is not None, "nothing drawn yet"
        return last.screen

    def cash(self, name: str) -> int:
        return in_play(self.ledger).players[name].cash

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


# Complete as well as sound: what the rules accept, found without rules.legal, and what the menu offers --

PLACES: dict[tuple[str, ...], str] = {
    tuple(p.menu.split(".")): "jail" if p.flow == "scenes.flow.jail" else p.op
    for p in places.PLACES if p.menu and p.op in BY_NAME}
"""Each op's place in a player's menu, read off the device's table (``device/scenes/places.py``), as docs/playing.md
says: "1 Kaufen, 2 Miete zahlen, 3 Steuer, 4 Gefängnis, 5 Bauen, 6 Gebäude verkaufen, 7 Hypothek (1 aufnehmen, 2
auflösen), 8 Ereigniskarte (1 An alle zahlen, 2 Von allen kassieren, 3 Renovierung), 9 Tausch, 0 Mehr (1 Frei Parken,
2 Storno, 3 Rangliste, 4 Schuld zahlen, 5 Bauversteigerung)". The Rangliste books nothing: no kind."""

JAIL = {("jail_fine", 0): "jail_fine", ("jail_card", 1): "jail_card_drawn", ("jail_card", -1): "jail_card_used"}
"""The Gefängnis list (MENU 4): an entry for each of the three ways, known by the command it books (its label is
said in the language in force, which the device's own menu may change in the middle of a session)."""

WHOLE = frozenset(kind for kind in PLACES.values() if kind != "jail"
                  and all(row.squares is None for row in BY_NAME[kind].legal))
"""Kinds without a square: their entry is the whole offer."""

ELSEWHERE = {
    "go": "the card's LOS key", "go_exact": "the card's LOS key, then 'genau auf LOS' (house rule double_go)",
    "credit": "the card's HABEN key", "debit": "the card's SOLL key",
    "transfer": "SOLL, the amount, the payee's card", "bankrupt": "only after ZU WENIG GELD (Geld beschaffen)",
    "new_game": "the banker: C held", "end": "the banker's menu (Spiel beenden)",
}
"""The ops a player's menu does not hold, and where docs/playing.md puts them instead."""

OWN_CASES = frozenset({"buy", "rent", "build_auction", "jail", "repairs", "trade", "undo"})
"""The menu's kinds whose candidates :func:`_values` writes out (a price or dice beside the square, a trade's
sides, the Gefängnis' three ways, zero for one kind of building) or that book no values (Storno)."""
BY_FIELDS = sorted(set(PLACES.values()) - OWN_CASES)
"""The menu's kinds asked of the rules with every value of their fields' types."""


def _by_its_fields(op: str, values: dict[str, list[Any]], player: str) -> list[dict[str, Any]]:
    """Every command of ``op`` the values of its fields' declared types make (the player's name for ``player``):
    the candidates of a booking that asks a square or an amount, without a case of its own in :func:`_values`."""
    cands: list[dict[str, Any]] = [{"op": op}]
    for f in dataclasses.fields(BY_NAME[op].command):
        if f.name in ("id", "expect"):
            continue
        kind = "player" if f.name == "player" else str(f.type)
        assert kind in values, f"{op}: no values for its field {f.name} ({f.type}): give it a case in _values"
        cands = [{**c, f.name: v} for c in cands for v in values[kind]]
    return cands


def _values(game: Any, player: str) -> dict[str, list[dict[str, Any]]]:
    """Candidate commands of each kind, with the values a banker may give them (amounts the edition allows, every
    square, both dice ranges, every partner and deed of a trade). A kind of the menu without a case of its own here
    is asked with every value of its fields' types (:func:`_by_its_fields`)."""
    state = game.state
    ed = state.edition
    cash = state.players[player].cash
    amounts = sorted({ed.min_entry, ed.money(10), ed.money(100), ed.money(500), ed.max_entry})
    bids = sorted({ed.auction_min_bid, ed.min_entry, ed.money(100), max(cash, 1)})
    squares = range(40)
    others = [n for n, p in state.players.items() if n != player and not p.bankrupt]
    own = {n: [sq for sq, d in state.deeds.items() if d.owner == n] for n in state.players}
    p = {"player": player}

    def trades() -> list[dict[str, Any]]:
        out = []
        for other in others:
            gives = [{"cash": a} for a in (ed.min_entry, cash) if a] + [{"squares": [sq]} for sq in own[player]]
            gives += [{"jail_cards": 1}] if state.players[player].jail_cards else []
            takes = [{"cash": a} for a in (ed.min_entry, state.players[other].cash) if a]
            takes += [{"squares": [sq]} for sq in own[other]]
            takes += [{"jail_cards": 1}] if state.players[other].jail_cards else []
            out += [{"op": "trade", "a": player, "b": other, "a_gives": g, "b_gives": {}} for g in gives]
            out += [{"op": "trade", "a": player, "b": other, "a_gives": {}, "b_gives": t} for t in takes]
        return out

    cases = {
        "buy": [{"op": "buy", **p, "square": sq, **({"price": b} if b else {})} for sq in squares
                for b in (None, *bids)],
        "rent": [{"op": "rent", **p, "square": sq, **({"dice": d} if d else {})} for sq in squares
                 for d in ((None, *range(2, 16)) if sq in DEEDS and DEEDS[sq].kind is Kind.UTILITY else (None,))],
        "build_auction": [{"op": "build_auction", **p, "square": sq, "price": b} for sq in squares
                          for b in (*bids, 10**9)],
        "jail_fine": [{"op": "jail_fine", **p}],
        "jail_card_drawn": [{"op": "jail_card", **p, "delta": 1}],
        "jail_card_used": [{"op": "jail_card", **p, "delta": -1}],
        "repairs": [{"op": "repairs", **p, "per_house": h, "per_hotel": t} for h in (0, *amounts)
                    for t in (0, *amounts)],
        "trade": trades(),
        "go_exact": [{"op": "go", **p, "exact": True}],
    }
    typed: dict[str, list[Any]] = {"player": [player], "Money": amounts, "Square": list(squares),
                                   "bool": [False, True]}
    return {**cases, **{kind: _by_its_fields(kind, typed, player) for kind in BY_FIELDS}}


def rules_accept(game: Any, player: str) -> dict[str, set[int | None]]:
    """What the rules accept for ``player`` now, with some valid values (asked of ``Game.check`` directly, never
    through ``rules.legal``): each kind of the menu with the squares it is accepted on (None: no square). A lack of
    money counts as accepted: the device offers it and answers ZU WENIG GELD with the ways to raise it."""
    state = game.state
    if state is None or state.finished or player not in state.players or state.players[player].bankrupt:
        return {}
    found: dict[str, set[int | None]] = {}
    for kind, cmds in _values(game, player).items():
        for cmd in cmds:
            square = cmd.get("square")
            if square in found.get(kind, ()):
                continue
            error = game.check(cmd)
            if error is None or error.code == "insufficient_funds":
                found.setdefault(kind, set()).add(square)
    if game.undoable():
        found["undo"] = {None}
    return found


def menu_offers(table: Table, player: str, only: set[str] | None = None) -> dict[str, set[int | None]]:
    """What the device offers ``player`` at the places docs/playing.md gives: a second reader on the same ledger
    and cards (nothing booked: each place opened, read and left with C), the card tapped, MENU, every digit.

    ``only``: the kinds whose squares (or Gefängnis entries) matter; the others are read from the menu's entries
    alone, without opening them (each opening asks the rules again: the generator checks often)."""
    from device.scenes.flows import Entry
    from device.scenes.notes import MessageScene

    probe = Ui(ledger=table.ledger, cards=table.cards, show=lambda screen: None, tone=lambda name: None,
               clock=lambda: table.now, strict=True)
    uid = next(c.uid for c in table.cards.players() if c.name == player)  # a card learned at the table too

    def menu() -> Any:
        probe.handle("tap", uid)  # a fresh card: whatever the last place left behind is gone
        probe.handle("MENU")
        return probe.scene

    top = menu()
    if not isinstance(top, ListScene) or top.title != player:
        return {}  # no menu: the game is over, or the player is out
    found: dict[str, set[int | None]] = {}

    def read(path: tuple[str, ...]) -> None:
        kind = PLACES.get(path)
        wanted = only is None or kind in only or (kind == "jail" and bool(only & set(JAIL.values())))
        if kind is not None and (not wanted or (only is not None and kind in WHOLE)):
            found[kind] = {None}  # offered: its entry is on the menu
            return
        menu()
        for digit in path:
            probe.handle(digit)
        scene = probe.scene
        if kind is None:
            pass  # Rangliste: no booking
        elif kind == "jail":
            assert isinstance(scene, ListScene), f"MENU 4: {scene}"
            for cmd in (o.value for o in scene.options):
                found.setdefault(JAIL[(cmd["op"], cmd.get("delta", 0))], set()).add(None)
        elif isinstance(scene, ListScene) and scene.options and all(
                isinstance(o.value, int) and not isinstance(o.value, bool) for o in scene.options):
            found[kind] = {o.value for o in scene.options}  # the squares to choose from
        elif isinstance(scene, MessageScene) and scene.refused and scene.offer is None:
            pass  # offered, then refused at once (not for want of money, which leads on): not reachable
        else:
            found[kind] = {None}

    if "double_go" in in_play(table.ledger).house_rules:  # LOS asks over or exactly on it (never books here)
        menu()
        probe.handle("C")
        probe.handle("LOS")
        if isinstance(probe.scene, ListScene) and True in [o.value for o in probe.scene.options]:
            found["go_exact"] = {None}
    for option in list(top.options):
        entry: Entry = option.value
        if len(entry.flows) == 1:
            read((entry.digit,))
            continue
        menu()
        probe.handle(entry.digit)
        sub = probe.scene
        assert isinstance(sub, ListScene) and sub.title == entry.label, f"{entry.label}: {sub}"
        digits = [o.digit for o in sub.options]
        for digit in digits:
            read((entry.digit, digit))
    return found


def shown(cmd: dict[str, Any]) -> dict[str, Any]:
    """A confirmation's command without the digest of its preview (``expect``), which every confirmation carries."""
    return {k: v for k, v in cmd.items() if k != "expect"}
