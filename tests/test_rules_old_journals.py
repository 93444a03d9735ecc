"""Journals written before the bankruptcy's debt and the shortage auction replay to the very same states ("Journals written before keep
replaying"; `bankrupt` had no `owed`, trades no typing limit, the 10 % had no debt to fall back on).

The golden files were recorded by the rules of commit 4c9a850 (``tests/old_journals.py``): each line a
command and the digest of the contract's state after it, the last line the whole final state.

One thing has changed on purpose since: the derived ``ranking`` among bankrupt players. The recording code put
them in seat order; today who went bankrupt last ranks above those before. :func:`as_recorded`
undoes exactly that before the comparison, so balances, deeds, buildings and everything else must still be
identical, and so must the ranking of the players still in the game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from old_journals import GOLDEN, digest_of, random_journal

from device.store.replay import replay_lines
from rules import Game, to_json

FILES = sorted(GOLDEN.glob("*.jsonl"))


def load(path: Path) -> tuple[list[dict[str, Any]], list[str], dict[str, Any]]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [line["cmd"] for line in lines[:-1]], [line["after"] for line in lines[:-1]], lines[-1]["state"]


def as_recorded(state: dict[str, Any] | None) -> dict[str, Any] | None:
    """The contract's state as the recording code ranked it: bankrupt players last in seat order.

    Today's ranking must still put every bankrupt player last, after the same players in the same order as
    before, and the bankrupt ones by the order they went bankrupt in; only that order is put back to seats.
    """
    if state is None:
        return None
    bankrupt = [p["name"] for p in state["players"] if p["bankrupt"]]  # in seat order
    ranking = state["ranking"]
    still_in = len(ranking) - len(bankrupt)
    assert sorted(ranking[still_in:]) == sorted(bankrupt), f"bankrupt players not last: {ranking}"
    return {**state, "ranking": ranking[:still_in] + bankrupt}


def recorded_digest(game: Game) -> str:
    return digest_of(as_recorded(None if game.state is None else to_json(game.state)))


def test_as_recorded_changes_only_the_order_of_the_bankrupt_players() -> None:
    """The comparison stays strict: any other difference, also in the ranking of those still in, shows."""
    state = {"players": [{"name": n, "bankrupt": n in ("Anna", "Ben")} for n in ("Anna", "Ben", "Cem", "Dana")],
             "ranking": ["Dana", "Cem", "Ben", "Anna"]}
    assert as_recorded(state) == {**state, "ranking": ["Dana", "Cem", "Anna", "Ben"]}
    assert as_recorded({**state, "ranking": ["Cem", "Dana", "Ben", "Anna"]}) != as_recorded(state)
    with pytest.raises(AssertionError, match="not last"):
        as_recorded({**state, "ranking": ["Dana", "Ben", "Cem", "Anna"]})


def test_the_golden_journals_are_there() -> None:
    assert len(FILES) >= 30
    assert any('"op": "bankrupt"' in f.read_text(encoding="utf-8") for f in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_journal_written_before_replays_to_the_same_state_after_every_command(path: Path) -> None:
    """As the appliance replays its own journal at start-up (``replaying=True``)."""
    commands, digests, final = load(path)
    game = Game()
    for n, (cmd, expected) in enumerate(zip(commands, digests, strict=True)):
        game.apply(cmd, replaying=True)
        assert recorded_digest(game) == expected, f"state differs after command {n}: {cmd}"
    assert game.state is not None and as_recorded(to_json(game.state)) == final


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_bankleser_replay_of_a_journal_written_before_gives_the_same_state(path: Path) -> None:
    """`bankleser replay --journal FILE` ("Done means"): the same state, every command accepted, also
    the Banking trade for 5K that the reader's range refuses today."""
    commands, _, final = load(path)
    results = list(replay_lines((json.dumps(cmd) for cmd in commands), journal=True))
    assert all(r == {"ok": True} for r in results[:-1])
    assert results[-1].keys() == {"state"} and as_recorded(results[-1]["state"]) == final


@pytest.mark.parametrize("seed", range(100, 112))
def test_a_random_old_format_game_replays_as_it_was_played(seed: int) -> None:
    """Old-format commands (bankrupt without owed) played live and replayed from their journal agree."""
    journal = random_journal(seed)
    live = Game()
    for cmd in journal:
        live.apply(cmd)
    replayed = Game()
    for cmd in journal:
        replayed.apply(cmd, replaying=True)
    assert live.state is not None and replayed.state is not None
    assert to_json(replayed.state) == to_json(live.state)


def test_bankleser_replay_judges_a_plain_file_by_todays_rules() -> None:
    """The contract: "A new_game while a game is running (not finished) is refused with game_running unless it
    carries replace: true" — an audit file is judged as the banker's command would be; only ``--journal``
    replays as the appliance replays what it once accepted."""
    new = {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]}
    lines = [json.dumps(new), json.dumps(new)]
    assert list(replay_lines(lines))[1]["code"] == "game_running"
    assert list(replay_lines(lines, journal=True))[1] == {"ok": True}
