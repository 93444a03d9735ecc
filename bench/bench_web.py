"""Load benchmark of the status page's server (figures in the README).

Run: ``.venv/bin/python -m bench.bench_web``. Starts `bankleser run --sim` on loopback; 20 phones
hold the event stream while 4 others poll ``/api/state``; reports the p99 latency of
``/api/state`` (target < 10 ms) and the time from a command to its event reaching all 20
streams (target p99 < 30 ms). Then the same load, in the same run, against ``bench.bare_server``
(the same ledger and state on a bare standard-library server): the target is within 2× of it.
Bounded: a fixed number of requests, loopback only.
"""

from __future__ import annotations

import http.client
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path

from bench.liveserver import LiveServer

PHONES, POLLERS, POLLS, COMMANDS = 20, 4, 150, 20


def stream(port: int, ready: threading.Barrier, seen: dict[int, float], target: list[int], stop: threading.Event,
           lock: threading.Lock, idx: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/events")
    resp = conn.getresponse()
    first = True
    buf = b""
    while not stop.is_set():
        chunk = resp.readline()
        if not chunk:
            break
        buf += chunk
        if chunk != b"\n":
            continue
        event, buf = buf, b""
        if not event.startswith(b"event: state"):
            continue
        if first:
            first = False
            ready.wait()
            continue
        data = json.loads(event.split(b"data: ", 1)[1])
        now = time.perf_counter()
        with lock:
            if data["version"] >= target[0] and idx not in seen:
                seen[idx] = now
    conn.close()


def measure(bare: bool) -> tuple[list[float], list[float]]:
    """``/api/state`` latencies and command → all-phones times, in ms, sorted."""
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "state", bare=bare).start()
        server.login()
        server.post("/api/commands", {"op": "new_game", "edition": "banking", "mode": "standard",
                                      "players": ["Anna", "Ben", "Cem", "Dana"]})
        stop = threading.Event()
        lock = threading.Lock()
        fanout: list[float] = []
        latencies: list[float] = []
        ready = threading.Barrier(PHONES + 1)
        seen: dict[int, float] = {}
        target = [10**9]
        phones = [threading.Thread(target=stream, args=(server.port, ready, seen, target, stop, lock, i), daemon=True)
                  for i in range(PHONES)]
        for t in phones:
            t.start()
        ready.wait(30)

        def poll() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            for _ in range(POLLS):
                t0 = time.perf_counter()
                conn.request("GET", "/api/state")
                conn.getresponse().read()
                with lock:
                    latencies.append((time.perf_counter() - t0) * 1000)
                time.sleep(0.01)
            conn.close()

        pollers = [threading.Thread(target=poll) for _ in range(POLLERS)]
        for t in pollers:
            t.start()
        for i in range(COMMANDS):
            version = server.get("/api/state")["version"]
            with lock:
                seen.clear()
                target[0] = version + 1
            t0 = time.perf_counter()
            status, _ = server.post("/api/commands", {"op": "credit", "player": "Anna", "amount": 10_000,
                                                      "id": f"w{i}"})
            assert status == 200
            deadline = time.perf_counter() + 5
            while time.perf_counter() < deadline:
                with lock:
                    if len(seen) == PHONES:
                        break
                time.sleep(0.001)
            with lock:
                assert len(seen) == PHONES, f"only {len(seen)} streams got the event"
                fanout.append((max(seen.values()) - t0) * 1000)
            time.sleep(0.05)
        for t in pollers:
            t.join()
        stop.set()
        server.stop()
    return sorted(latencies), sorted(fanout)


def p99(values: list[float]) -> float:
    return values[min(len(values) - 1, int(len(values) * 0.99))]


def main() -> None:
    ours, bare = measure(bare=False), measure(bare=True)
    for name, (latencies, fanout) in (("Bankleser", ours), ("bare stdlib server", bare)):
        print(f"{name}: /api/state with {PHONES} open event streams and {POLLERS} pollers ({len(latencies)} "
              f"requests): median {statistics.median(latencies):.1f} ms, p99 {p99(latencies):.1f} ms; "
              f"command → event at all {PHONES} streams ({COMMANDS} commands): median "
              f"{statistics.median(fanout):.1f} ms, p99 {p99(fanout):.1f} ms")
    print(f"ratio to the bare server: /api/state p99 ×{p99(ours[0]) / p99(bare[0]):.2f}, "
          f"command → all phones p99 ×{p99(ours[1]) / p99(bare[1]):.2f} (target within ×2); "
          f"targets here: /api/state p99 < 10 ms, command → all phones p99 < 30 ms")


if __name__ == "__main__":
    main()
