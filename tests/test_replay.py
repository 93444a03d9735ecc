"""`bankleser replay FILE`: exactly the contract's output, line by line (docs/commands.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BANKLESER = Path(sys.executable).parent / "bankleser"


def run_replay(tmp_path: Path, lines: list[str]) -> list[dict[str, object]]:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cmd = [str(BANKLESER)] if BANKLESER.exists() else [sys.executable, "-m", "device.daemon.cli"]
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
        {"ok": False, "code": "amount_out_of_range", "message": "Betrag 99M geht nicht: erlaubt 10K bis 20M"},
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


def replay_bytes(tmp_path: Path, data: bytes) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "raw.jsonl"
    path.write_bytes(data)
    cmd = [str(BANKLESER)] if BANKLESER.exists() else [sys.executable, "-m", "device.daemon.cli"]
    return subprocess.run([*cmd, "replay", str(path)], capture_output=True, text=True)


NEW_GAME = b'{"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]}'
CREDIT = b'{"op": "credit", "player": "Anna", "amount": 10}'


def test_a_bad_line_is_a_contract_error_and_the_replay_goes_on(tmp_path: Path) -> None:
    """A UTF-8 BOM, a byte \\xff, a lone surrogate and JSON nested 1,000 deep each printed a traceback."""
    lines = [
        b"\xef\xbb\xbf" + NEW_GAME,                                   # BOM from a Windows editor: accepted
        b'{"op": "credit", "player": "Anna", "amount": 10, "x": "\xff"}',  # not UTF-8
        b'{"op": "credit", "player": "Anna", "amount": 10, "id": "x\\ud800"}',  # lone surrogate
        b"[" * 1000 + b"]" * 1000,                                     # nested too deep
        CREDIT,
    ]
    proc = replay_bytes(tmp_path, b"\n".join(lines) + b"\n")
    assert proc.returncode == 0 and proc.stderr == ""
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    assert results[0] == {"ok": True}
    assert [r.get("code") for r in results[1:4]] == ["bad_command"] * 3
    assert results[4] == {"ok": True}
    assert results[5]["state"]["players"][0]["cash"] == 1510


def test_a_missing_file_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    cmd = [str(BANKLESER)] if BANKLESER.exists() else [sys.executable, "-m", "device.daemon.cli"]
    proc = subprocess.run([*cmd, "replay", str(tmp_path / "nope.jsonl")], capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0 and "nope.jsonl" in proc.stderr and "Traceback" not in proc.stderr


def test_replay_into_head_ends_quietly(tmp_path: Path) -> None:
    """`bankleser replay FILE | head` ended in a BrokenPipeError traceback. A reader that
    stops early is not an error: the replay stops, says nothing, and exits as a pipe's writer does."""
    path = tmp_path / "long.jsonl"
    path.write_bytes(NEW_GAME + b"\n" + (CREDIT + b"\n") * 5000)
    cmd = [str(BANKLESER)] if BANKLESER.exists() else [sys.executable, "-m", "device.daemon.cli"]
    proc = subprocess.Popen([*cmd, "replay", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert json.loads(proc.stdout.readline()) == {"ok": True}  # head -1
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=30) in (0, 141) and err == ""
