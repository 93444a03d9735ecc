"""Start-up from a checkpoint: exactly what a replay of the journal gives, or a replay when in doubt."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from told import told

from bench.journal import journal as bot_journal
from device.store import ledger as ledger_module
from device.store.journal import Journal
from device.store.ledger import CHECKPOINT_EVERY, Ledger
from rules import Game, RuleError
from rules.game import UNDO_DEPTH
from rules.snapshot import game_from_data, game_to_data

NEW = {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben", "Cem"]}


def mixed_commands(seed: int, length: int) -> list[dict[str, Any]]:
    """A bot's game with replacing new games and Stornos thrown in (some of them refused, as at a table)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for line in bot_journal(length, seed):
        cmd = json.loads(line)
        out.append(cmd)
        roll = rng.random()
        if roll < 0.08:
            out.extend({"op": "undo"} for _ in range(rng.randint(1, 4)))
        elif roll < 0.1:
            out.append({**NEW, "replace": True, "edition": rng.choice(["classic", "banking"])})
    return out


def comparable(ledger: Ledger) -> dict[str, Any]:
    """The ledger's memory, less the play time measured while each replaced game ran (a clock, not data)."""
    memory = ledger._memory()
    memory["views"] = [view[:-1] for view in memory["views"]]
    return memory


def fill(path: Path, commands: list[dict[str, Any]]) -> Ledger:
    ledger = Ledger(Journal(path))
    for cmd in commands:
        ledger.submit(cmd)
    return ledger


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_checkpoint_restores_exactly_what_a_replay_gives(tmp_path: Path, seed: int) -> None:
    commands = mixed_commands(seed, 700)
    ledger = fill(tmp_path / "j.sqlite3", commands[:400])
    ledger.checkpoint()
    for cmd in commands[400:]:
        ledger.submit(cmd)
    journal = ledger.journal

    from_checkpoint = Ledger(journal)
    with sqlite3.connect(journal.path) as db:
        db.execute("DELETE FROM checkpoints")
    replayed = Ledger(journal)
    assert replayed.skipped == 0
    assert comparable(from_checkpoint) == comparable(replayed) == comparable(ledger)
    assert from_checkpoint.snapshot() == replayed.snapshot()
    # And they go on alike: the same Stornos, back over the same bookings, to the same refusal.
    for _ in range(UNDO_DEPTH + 5):
        assert undo(from_checkpoint.game) == undo(replayed.game)
    assert comparable(from_checkpoint) == comparable(replayed)


def undo(game: Game) -> Any:
    try:
        event = game.apply({"op": "undo"})
    except RuleError as err:
        return err.code, err.said
    return event.said, event.transfers, event.changes


def test_start_up_replays_only_what_came_after_the_checkpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = fill(tmp_path / "j.sqlite3", [NEW] + [{"op": "credit", "player": "Anna", "amount": 10}] * 30)
    ledger.checkpoint()
    ledger.submit({"op": "go", "player": "Ben"})
    applied: list[str] = []
    real = Game.apply

    def counting(self: Game, cmd: Any, *, replaying: bool = False) -> Any:
        applied.append(cmd["op"])
        return real(self, cmd, replaying=replaying)

    monkeypatch.setattr(Game, "apply", counting)
    again = Ledger(ledger.journal)
    assert applied == ["go"]
    assert again.snapshot()["state"] == ledger.snapshot()["state"]


def test_a_long_replay_leaves_a_checkpoint_so_the_next_start_is_short(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    for line in bot_journal(CHECKPOINT_EVERY + 10):
        journal.append(json.loads(line))
    Ledger(journal)
    found = journal.read_checkpoint()
    assert found is not None and found[0] == journal.last_seq


def test_bookings_write_a_checkpoint_every_so_many_commands(tmp_path: Path) -> None:
    ledger = fill(tmp_path / "j.sqlite3", [NEW] + [{"op": "credit", "player": "Anna", "amount": 1}] * CHECKPOINT_EVERY)
    found = ledger.journal.read_checkpoint()
    assert found is not None and found[0] == CHECKPOINT_EVERY


def test_a_checkpoint_of_other_code_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A newer version may judge an old command differently: it replays the journal itself."""
    ledger = fill(tmp_path / "j.sqlite3", [NEW, {"op": "credit", "player": "Anna", "amount": 10}])
    ledger.checkpoint()
    found = ledger.journal.read_checkpoint()
    assert found is not None
    body = json.loads(found[1])
    body["game"]["state"]["players"][0]["cash"] = 999_999  # the checkpoint claims what the journal does not
    _rewrite(ledger.journal, json.dumps(body))
    assert Ledger(ledger.journal).snapshot()["state"]["players"][0]["cash"] == 999_999  # the cache is used …
    monkeypatch.setattr(ledger_module, "code_version", lambda: "other")
    assert Ledger(ledger.journal).snapshot()["state"]["players"][0]["cash"] == 1510  # … unless the code changed


def _rewrite(journal: Journal, body: str) -> None:
    from device.store.journal import row_checksum

    with sqlite3.connect(journal.path) as db:
        db.execute("UPDATE checkpoints SET body = ?, crc = ?", (body, row_checksum(body)))


def test_a_damaged_checkpoint_is_ignored_and_the_journal_replayed(tmp_path: Path) -> None:
    ledger = fill(tmp_path / "j.sqlite3", [NEW, {"op": "credit", "player": "Anna", "amount": 10}])
    ledger.checkpoint()
    with sqlite3.connect(ledger.journal.path) as db:
        db.execute("UPDATE checkpoints SET body = '{\"code\": 1' ")  # a flipped byte: the checksum fails
    assert Ledger(ledger.journal).snapshot()["state"]["players"][0]["cash"] == 1510
    _rewrite(ledger.journal, '{"code": "x"')  # checksum right, text broken
    assert Ledger(ledger.journal).snapshot()["state"]["players"][0]["cash"] == 1510


def test_a_checkpoint_that_belongs_to_another_chain_is_ignored(tmp_path: Path) -> None:
    """A journal restored from a backup or salvaged has other links: its old checkpoint never matches."""
    ledger = fill(tmp_path / "j.sqlite3", [NEW, {"op": "credit", "player": "Anna", "amount": 10}])
    ledger.checkpoint()
    with sqlite3.connect(ledger.journal.path) as db:
        db.execute("UPDATE checkpoints SET link = 'elsewhere'")
    assert ledger.journal.read_checkpoint() is None


def test_a_game_round_trips_through_its_data() -> None:
    game = Game()
    for line in bot_journal(300, seed=5):
        game.apply(json.loads(line))
    game.apply({**NEW, "replace": True})
    game.apply({"op": "credit", "player": "Cem", "amount": 5})
    data = json.loads(json.dumps(game_to_data(game)))
    assert game_to_data(game_from_data(data)) == data


def test_a_checkpoint_keeps_the_order_of_the_bankruptcies() -> None:
    """The ranking puts who went bankrupt last above those before: a start-up from a checkpoint ranks them
    as the replay does, and a Storno after it takes back the very place it gave."""
    from rules import ranking

    game = Game()
    game.apply({**NEW, "players": ["Anna", "Ben", "Cem", "Dana"]})
    game.apply({"op": "bankrupt", "player": "Anna"})
    game.apply({"op": "bankrupt", "player": "Ben"})
    restored = game_from_data(json.loads(json.dumps(game_to_data(game))))
    assert restored.state is not None and ranking(restored.state)[2:] == ["Ben", "Anna"]
    for g in (game, restored):
        g.apply({"op": "undo"})
        g.apply({"op": "bankrupt", "player": "Dana"})
    assert game.state is not None and ranking(restored.state) == ranking(game.state) == ["Ben", "Cem", "Dana", "Anna"]


def test_storno_walks_back_the_last_bookings_but_no_further_than_the_bound() -> None:
    """Storno reaches back over every booking the log still shows (UNDO_DEPTH), and says so at the end."""
    game = Game()
    game.apply(NEW)
    for _ in range(UNDO_DEPTH + 20):
        game.apply({"op": "credit", "player": "Anna", "amount": 1})
    for _ in range(UNDO_DEPTH):
        game.apply({"op": "undo"})
    assert game.state is not None and game.state.players["Anna"].cash == 1500 + 20
    with pytest.raises(RuleError) as err:
        game.apply({"op": "undo"})
    assert f"höchstens {UNDO_DEPTH} Buchungen" in told(err)
    assert not game.undoable()


def test_start_up_checks_the_rows_it_replays_and_the_history_is_checked_after(tmp_path: Path) -> None:
    """Start-up reads only what follows the checkpoint, so it does not grow with years of past games; a
    damaged old row is still found (by the check beside the loop) and named, and booking goes on."""
    path = tmp_path / "j.sqlite3"
    ledger = fill(path, [NEW] + [{"op": "credit", "player": "Anna", "amount": 10}] * 20)
    ledger.checkpoint()
    ledger.journal.close()
    with sqlite3.connect(path) as db:  # bit rot in a row from before the checkpoint
        db.execute("UPDATE commands SET cmd = replace(cmd, '10', '90') WHERE seq = 5")
    journal = Journal(path)  # opens: the running game comes from the checkpoint and verified rows
    err = journal.verify_history()
    assert err is not None and err.message == "Journal beschädigt" and "Eintrag 5" in err.detail
    assert Ledger(journal).submit({"op": "go", "player": "Ben"}).ok


def test_damage_after_the_checkpoint_still_stops_start_up(tmp_path: Path) -> None:
    from device.store.journal import JournalError

    path = tmp_path / "j.sqlite3"
    ledger = fill(path, [NEW] + [{"op": "credit", "player": "Anna", "amount": 10}] * 5)
    ledger.checkpoint()
    ledger.submit({"op": "go", "player": "Ben"})
    ledger.journal.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE commands SET cmd = replace(cmd, 'Ben', 'Cem') WHERE seq = 7")
    with pytest.raises(JournalError, match="beschädigt"):
        Journal(path)


def test_a_retried_command_is_not_applied_twice_within_the_recent_ids() -> None:
    """"A command whose id was already applied is acknowledged again and not applied twice (a phone that
    retries)": a retry comes within seconds, so the game remembers the last RECENT_IDS ids, not all."""
    from rules.game import RECENT_IDS

    game = Game()
    game.apply(NEW)
    for i in range(RECENT_IDS + 50):
        game.apply({"op": "credit", "player": "Anna", "amount": 1, "id": f"c{i}"})
    assert game.apply({"op": "credit", "player": "Anna", "amount": 1, "id": f"c{RECENT_IDS + 49}"}).duplicate
    assert game.apply({"op": "credit", "player": "Anna", "amount": 1, "id": f"c{50}"}).duplicate
    assert len(game.applied_ids) == RECENT_IDS


def test_the_appliance_names_damage_in_past_games_and_books_on(tmp_path: Path) -> None:
    """The daemon checks the history beside its loop: the page names the damage, booking goes on."""
    import threading
    import time

    from device.daemon.config import Config
    from device.daemon.notify import Notifier
    from device.daemon.service import Daemon, WebBackend

    state = tmp_path / "state"
    state.mkdir()
    ledger = fill(state / "journal.sqlite3", [NEW] + [{"op": "credit", "player": "Anna", "amount": 10}] * 20)
    ledger.checkpoint()
    ledger.journal.close()
    with sqlite3.connect(state / "journal.sqlite3") as db:
        db.execute("UPDATE commands SET cmd = replace(cmd, '10', '90') WHERE seq = 5")
    daemon = Daemon(Config(banker_pin="4711"), state, sim=True, host="127.0.0.1", port=0, notifier=Notifier(""))
    daemon.start()
    loop = threading.Thread(target=daemon.run, daemon=True)
    loop.start()
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and b"Verlauf" not in daemon.published[1]:
            time.sleep(0.05)
        problem = json.loads(daemon.published[1])["problem"]
        assert "Verlauf: Journal beschädigt" in problem and "Eintrag 5" in problem
        assert WebBackend(daemon).submit({"op": "go", "player": "Ben"})["ok"]
    finally:
        daemon.stop()
        loop.join(5)
        daemon.close()



def test_a_command_older_rules_accepted_does_not_widen_the_replay(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a refused Storno means the window was too short; any other refusal is a journal of older rules."""
    journal = Journal(tmp_path / "j.sqlite3")
    for game in range(4):
        journal.append({**NEW, "id": f"g{game}"})
        journal.append({"op": "credit", "player": "Anna", "amount": 10**9})  # out of range today
    applied: list[str] = []
    real = Game.apply

    def counting(self: Game, cmd: Any, *, replaying: bool = False) -> Any:
        applied.append(cmd.get("op"))
        return real(self, cmd, replaying=replaying)

    monkeypatch.setattr(Game, "apply", counting)
    ledger = Ledger(journal)
    assert ledger.skipped == 2 and len(applied) == 4  # the last two games, once
