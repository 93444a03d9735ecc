"""A game never changes after the fact: "A game's journal keeps the edition it was started with (its
data, not only its key): editing, renaming or deleting the file later changes neither a running game nor any past
game, its report or its replay, and a downloaded game replays on another box that lacks the file. Journals written
before this change replay exactly as before." """

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from told import told

from device.store.journal import Journal
from device.store.ledger import Ledger
from device.store.replay import replay_lines
from rules import EDITIONS, Game, square_name, to_json
from rules.editions import Edition, read_edition
from rules.snapshot import game_from_data, game_to_data

HAMBURG = '''key = "hamburg"
title = "MONOPOLY Hamburg"
base = "classic"
start_capital = 2000

[names]
39 = "Jungfernstieg"

[buildings]
house = { singular = "Speicher", plural = "Speicher", gender = "m" }

[deeds.39]
price = 440
rents = [55, 220, 660, 1540, 1870, 2200]
house_price = 220
mortgage = 220
'''


def family(text: str = HAMBURG) -> dict[str, Edition]:
    checked = read_edition(text, EDITIONS)
    assert checked.edition is not None, [str(p) for p in checked.problems]
    return {**EDITIONS, checked.edition.key: checked.edition}


def play(ledger: Ledger) -> None:
    for cmd in ({"op": "new_game", "edition": "hamburg", "players": ["Anna", "Ben"]},
                {"op": "buy", "player": "Anna", "square": 39},
                {"op": "rent", "player": "Ben", "square": 39}):
        outcome = ledger.submit(cmd)
        assert outcome.ok, outcome.message


def test_the_journal_keeps_the_whole_edition_with_the_new_game(tmp_path: Path) -> None:
    ledger = Ledger(Journal(tmp_path / "j.sqlite3"), editions=family())
    play(ledger)
    first = next(iter(ledger.journal.records())).cmd
    assert first["edition"] == "hamburg" and first["edition_data"]["names"]["39"] == "Jungfernstieg"
    assert first["edition_data"]["deeds"]["39"]["price"] == 440 and "base" in first["edition_data"]


def test_a_game_replays_the_same_after_its_file_was_changed_and_after_it_was_deleted(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    ledger = Ledger(Journal(path), editions=family())
    play(ledger)
    before = to_json(ledger.game.state) if ledger.game.state else None
    assert before is not None and before["players"][0]["cash"] == 2000 - 440 + 55
    ledger.journal.close()
    changed = family(HAMBURG.replace('"Jungfernstieg"', '"Ballindamm"').replace("price = 440", "price = 480"))
    for editions in (changed, dict(EDITIONS)):  # the file edited; the file deleted
        again = Ledger(Journal(path), editions=editions)
        assert again.game.state is not None and to_json(again.game.state) == before
        assert square_name(again.game.state.edition, 39) == "Jungfernstieg"
        assert again.game.state.edition.deed(39).price == 440
        again.journal.close()


def test_a_running_game_keeps_its_edition_when_the_file_changes_under_it(tmp_path: Path) -> None:
    editions = family()
    ledger = Ledger(Journal(tmp_path / "j.sqlite3"), editions=editions)
    play(ledger)
    ledger.editions = family(HAMBURG.replace('"Jungfernstieg"', '"Ballindamm"'))  # edited on /admin meanwhile
    outcome = ledger.submit({"op": "mortgage", "player": "Anna", "square": 39})
    assert outcome.ok and outcome.event is not None and "Jungfernstieg (220)" in told(outcome.event, ledger.game)


def test_a_downloaded_game_replays_on_a_box_that_lacks_the_file(tmp_path: Path) -> None:
    ledger = Ledger(Journal(tmp_path / "j.sqlite3"), editions=family())
    play(ledger)
    lines = [json.dumps(r.cmd, ensure_ascii=False) for r in ledger.journal.records()]
    results = list(replay_lines(lines, journal=True))  # another box: only the shipped editions
    assert all(r.get("ok") for r in results[:-1])
    state: dict[str, Any] = results[-1]["state"]
    assert state["edition"] == "hamburg" and state["players"][1]["cash"] == 2000 - 55


def test_a_checkpoint_keeps_the_edition_too() -> None:
    game = Game()
    editions = family()
    from rules.newgame import with_edition_data

    game.apply(with_edition_data({"op": "new_game", "edition": "hamburg", "players": ["Anna", "Ben"]}, editions))
    restored = game_from_data(json.loads(json.dumps(game_to_data(game))))
    assert restored.state is not None and restored.state.edition == editions["hamburg"]


def test_a_journal_written_before_has_no_edition_data_and_plays_the_shipped_edition() -> None:
    """The golden journals (tests/golden) hold new games without ``edition_data``: they replay as before
    (test_rules_old_journals.py checks every state after every command)."""
    game = Game()
    game.apply({"op": "new_game", "edition": "skylanders", "players": ["Anna", "Ben"]}, replaying=True)
    assert game.state is not None and game.state.edition is EDITIONS["skylanders"]
