"""The pages after the game with 100 past games of 1,000 commands each (figures in the README).

Run: ``.venv/bin/python -m bench.bench_history``. Writes such a journal (each game played to its
end by bankruptcies), starts `bankleser run --sim` on it and times start-up, the list of games
(the first look replays the whole journal once; later looks replay only the newest games), one
game's report, its downloads and the Bestenliste, as wall time and as the server's CPU time with
the Pi Zero 2 W estimate (× 14, see ``bench.bench_pi``). Loopback only, bounded.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from bench.bench_pi import PI_FACTOR, cpu_seconds, ready_time
from bench.journal import PLAYERS
from bench.journal import journal as bot_journal
from bench.liveserver import LiveServer
from device.store.journal import Journal

GAMES, LENGTH = 100, 1000


def fill(state: Path) -> None:
    journal = Journal(state / "journal.sqlite3")
    start = time.time() - GAMES * 3600
    items = []
    for game in range(GAMES):
        lines = [json.loads(line) for line in bot_journal(LENGTH - len(PLAYERS) + 1, seed=game + 1, ids=f"g{game}-")]
        lines += [{"op": "bankrupt", "player": p} for p in PLAYERS[1:]]  # the game ends: one player is left
        items += [(cmd, start + game * 3600 + i * 3, None) for i, cmd in enumerate(lines)]
    journal.append_many(items)
    journal.close()


def fetch(base: str, path: str) -> tuple[float, bytes]:
    t0 = time.perf_counter()
    with urllib.request.urlopen(base + path, timeout=120) as r:
        body = r.read()
    return (time.perf_counter() - t0) * 1000, body


def booking(server: LiveServer, count: int, tag: str) -> list[float]:
    """Wall ms per durable command, as the banker's keypad would book them."""
    out = []
    for i in range(count):
        t0 = time.perf_counter()
        status, _ = server.post("/api/commands", {"op": "go", "player": "Anna", "id": f"{tag}{i}"})
        out.append((time.perf_counter() - t0) * 1000)
        assert status == 200
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "state"
        fill(state)
        for what in ("no checkpoint yet", "after a clean stop"):
            t = ready_time(state)
            print(f"start-up to READY=1 with {GAMES} past games of {LENGTH} commands, {what}: {t:.2f} s "
                  f"(Pi estimate {t * PI_FACTOR:.1f} s)")
        (state / "history-cache.json").unlink(missing_ok=True)  # the first start after an update
        server = LiveServer(state).start()
        assert server.proc is not None
        pid = server.proc.pid
        t0, cpu0 = time.perf_counter(), cpu_seconds(pid)

        def page(path: str, label: str, repeat: int = 1) -> bytes:
            walls, cpus, body = [], [], b""
            for _ in range(repeat):
                before = cpu_seconds(pid)
                wall, body = fetch(server.base, path)
                walls.append(wall)
                cpus.append((cpu_seconds(pid) - before) * 1000)
            cpu = statistics.median(cpus)
            print(f"{label}: wall {statistics.median(walls):.0f} ms, server CPU {cpu:.0f} ms "
                  f"(Pi estimate {cpu * PI_FACTOR / 1000:.1f} s)")
            return body

        server.login()
        assert server.post("/api/commands", {"op": "new_game", "edition": "classic", "mode": "standard",
                                             "players": ["Anna", "Ben"]})[0] == 200
        busy: list[float] = []
        while True:  # the banker books while the past games are told beside the loop
            busy += booking(server, 1, f"b{len(busy)}")
            try:
                fetch(server.base, "/spiele")
                break
            except urllib.error.HTTPError as err:
                assert err.code == 503  # "Einen Moment": told after start-up
            time.sleep(0.05)
        warm, warm_cpu = time.perf_counter() - t0, cpu_seconds(pid) - cpu0
        quiet = booking(server, 30, "q")
        print(f"{GAMES} past games told after start-up, beside the loop: {warm:.1f} s wall, {warm_cpu:.1f} s CPU "
              f"(Pi estimate {warm_cpu * PI_FACTOR:.0f} s, once per journal and update: kept in history-cache.json)")
        print(f"booking meanwhile ({len(busy)} commands): p50 {statistics.median(busy):.1f} ms, max {max(busy):.1f} ms "
              f"(after it: p50 {statistics.median(quiet):.1f} ms, max {max(quiet):.1f} ms)")
        page("/spiele", "/spiele, again", repeat=5)
        listing = page("/spiele", "/spiele, again")
        ids = [int(x.split(b'"')[0]) for x in listing.split(b'href="/spiele/')[1:]]
        first = ids[len(ids) // 2]  # a game from the middle of the journal
        page(f"/spiele/{first}", f"/spiele/<id>, a report of {LENGTH} commands", repeat=3)
        page(f"/spiele/{first}.jsonl", "its download as JSON lines", repeat=3)
        page(f"/spiele/{first}.csv", "its download as CSV", repeat=3)
        page("/bestenliste", "/bestenliste", repeat=5)
        page("/bestenliste?mode=standard&edition=classic", "/bestenliste filtered", repeat=5)
        server.stop()


if __name__ == "__main__":
    main()
