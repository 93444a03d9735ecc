"""`bankleser replay FILE`: exactly the contract's output, line by line (ARCHITECTURE.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BANKLESER = Path(sys.executable).parent / "bankleser"


def run_replay(tmp_path: Path, lines: list[str]) -> list[dict[str, object]]:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cmd = [str(BANKLESER)] if BANKLESER.exists() else [sys.executable, "-m", "device.cli"]
    out = subprocess.run([*cmd, "replay", str(path)], capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def test_replay_prints_one_result_per_command_then_the_state(tmp_path: Path) -> None:
    results = run_replay(tmp_path, [
        '{"op": "new_game", "edition": "banking", "mode": "standard", "players": ["Anna", "Ben"]}',
        '{"op": "buy", "player": "Anna", "square": 39}',
        'this is not json',
        '{"op": "debit", "player": "Ben", "amount": 99000000}',
        '',
        '{"op": "credit", "player": "Ben", "amount": 2000000, "id": "x"}',
        '{"op": "credit", "player": "Ben", "amount": 2000000, "id": "x"}',
    ])
    assert results[:6] == [
        {"ok": True},
        {"ok": True},
        {"ok": False, "code": "bad_command", "message": "Zeile ist kein gültiges JSON"},
        {"ok": False, "code": "amount_out_of_range", "message": "Betrag 99M geht nicht: erlaubt 10K bis 20M in Schritten von 10K"},
        {"ok": True},
        {"ok": True},
    ]
    assert results[6] == {"state": {
        "edition": "banking", "mode": "standard", "finished": False, "winner": None,
        "players": [
            {"name": "Anna", "cash": 11_000_000, "net_worth": 15_000_000, "bankrupt": False, "jail_cards": 0,
             "properties": [{"square": 39, "houses": 0, "hotel": False, "mortgaged": False}]},
            {"name": "Ben", "cash": 17_000_000, "net_worth": 17_000_000, "bankrupt": False, "jail_cards": 0,
             "properties": []},
        ],
        "bank": {"houses": 32, "hotels": 12},
        "ranking": ["Ben", "Anna"],
    }}


def test_replay_of_an_empty_file_has_no_state(tmp_path: Path) -> None:
    assert run_replay(tmp_path, []) == [{"state": None}]
