"""Pulled plugs: the daemon killed with SIGKILL at random moments keeps every acknowledged command,
and no money is created or lost."""

from __future__ import annotations

import http.client
import random
import threading
import time
from pathlib import Path

from bench.liveserver import LiveServer
from rules import Game

PLAYERS = ["Anna", "Ben", "Cem"]
START = 1500


def journal_ids(state_dir: Path) -> list[str]:
    from device.store.journal import Journal

    journal = Journal(state_dir / "journal.sqlite3")
    try:
        return [r.cmd["id"] for r in journal.records() if "id" in r.cmd]
    finally:
        journal.close()


def test_sigkill_at_random_moments_loses_no_acknowledged_command(tmp_path: Path) -> None:
    rng = random.Random(2026)
    server = LiveServer(tmp_path / "state").start()
    server.login()
    assert server.post("/api/commands", {"op": "new_game", "edition": "classic", "mode": "standard",
                                         "players": PLAYERS, "id": "start"})[0] == 200
    acknowledged: list[str] = []
    sent = 0
    for cycle in range(12):
        killer = threading.Timer(rng.uniform(0.05, 0.4), server.kill)
        killer.start()
        while server.proc is not None and server.proc.poll() is None:
            sent += 1
            cid = f"c{sent}"
            kind = rng.choice(["credit", "debit", "transfer"])
            a, b = rng.sample(PLAYERS, 2)
            cmd = {"op": kind, "id": cid, "amount": rng.choice([10, 20, 50, 100])}
            cmd.update({"from": a, "to": b} if kind == "transfer" else {"player": a})
            try:
                status, _ = server.post("/api/commands", cmd, timeout=5)
            except (OSError, http.client.HTTPException, ValueError):
                break  # killed mid-request or mid-answer: not acknowledged, may or may not be there
            if status == 200:
                acknowledged.append(cid)
        killer.join()
        server.start()
        server.login()
        ids = set(journal_ids(server.state_dir))
        missing = [c for c in acknowledged if c not in ids]
        assert not missing, f"cycle {cycle}: acknowledged but lost: {missing[:5]}"
    # The state after all those restarts is the replay of the journal, and money adds up.
    state = server.get("/api/state")
    replay = Game()
    from device.store.journal import Journal

    journal = Journal(server.state_dir / "journal.sqlite3")
    created = 0
    for record in journal.records():
        replay.apply(record.cmd)
        if record.cmd["op"] == "credit":
            created += record.cmd["amount"]
        elif record.cmd["op"] == "debit":
            created -= record.cmd["amount"]
    journal.close()
    cash = {p["name"]: p["cash"] for p in state["players"]}
    assert replay.state is not None
    assert cash == {n: p.cash for n, p in replay.state.players.items()}
    assert sum(cash.values()) == START * len(PLAYERS) + created
    assert len(acknowledged) > 100 and sent > len(acknowledged)
    assert server.stop() == 0


def test_a_corrupt_journal_is_reported_without_a_crash_loop(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "journal.sqlite3").write_bytes(b"this is not a database" * 400)
    server = LiveServer(state).start()
    try:
        snapshot = server.get("/api/state")
        assert "Journal" in snapshot["problem"]
        time.sleep(0.5)
        assert server.proc is not None and server.proc.poll() is None  # still up, saying what is wrong
        server.login()
        status, body = server.post("/api/commands", {"op": "new_game", "edition": "classic", "mode": "standard",
                                                     "players": PLAYERS})
        assert status == 503 and body["code"] == "storage_error"
        assert (state / "journal.sqlite3").read_bytes().startswith(b"this is not")  # nothing overwritten
    finally:
        server.stop()
