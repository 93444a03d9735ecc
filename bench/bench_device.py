"""Benchmarks of the device (figures in the README). Run: ``.venv/bin/python -m bench.bench_device``.

- From a simulated tap or key press to the new frame on the simulated display: median, p99
  (target p99 < 30 ms).
- Durable commit latency, SQLite WAL + synchronous=FULL on this machine's disk (target p99 < 20 ms).
- Frame time off the main loop: what ``Display.show()`` costs the main loop, next to what one
  frame costs the display's own thread (render + luma's real SSD1306 code over an I²C bus that
  takes as long per byte as the Pi's at 100 and 400 kHz).
- Start-up to READY=1 with a 10,000-command journal, the process started as systemd would
  (target < 2 s), and its resident memory (target < 80 MB).
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.journal import journal as long_journal
from device.daemon.config import Config
from device.daemon.notify import Notifier
from device.daemon.service import Daemon
from device.store.journal import Journal
from device.store.ledger import Ledger
from drivers.display import Display, render
from drivers.screen import Screen


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def input_to_frame(rounds: int = 300) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Daemon(Config(), Path(tmp), sim=True, host="127.0.0.1", port=0, notifier=Notifier(""))
        d.start()
        loop = threading.Thread(target=d.run, daemon=True)
        loop.start()
        assert d.ledger is not None and d.hardware is not None
        ledger = d.ledger
        d.call(lambda: ledger.submit({"op": "new_game", "edition": "banking", "mode": "standard",
                                       "players": ["Anna", "Ben"]}))
        assert d.hardware.virtual is not None
        display = d.hardware.virtual.frames  # the frames the display's thread sent
        script = [("tap", "0a000001"), ("key", "HABEN"), ("key", "1"), ("key", "0"), ("key", "K"), ("key", "OK"),
                  ("key", "C"), ("key", "C")]
        times = []
        for i in range(rounds):
            kind, value = script[i % len(script)]
            seq = display.last.seq if display.last else 0
            t0 = time.perf_counter()
            d.events.put((kind, value))
            frame = display.wait_for(seq, 5)
            assert frame is not None, f"no new frame after {kind} {value}"
            times.append((time.perf_counter() - t0) * 1000)
        d.stop()
        loop.join(5)
        d.close()
    print(f"input → new frame on the simulated display ({rounds} inputs): median {statistics.median(times):.2f} ms, "
          f"p99 {pct(times, 0.99):.2f} ms; target p99 < 30 ms")


class TimedBus:
    """An SMBus stand-in for luma's I²C interface that takes the bus time of every block it writes:
    start, address, register, the data, stop; 9 clocks per byte (8 bits and the ACK)."""

    def __init__(self, baud: int) -> None:
        self.baud = baud
        self.bytes = 0

    def write_i2c_block_data(self, addr: int, reg: int, data: list[int]) -> None:
        self.bytes += len(data) + 2
        time.sleep(((len(data) + 2) * 9 + 2) / self.baud)

    def close(self) -> None:
        pass


def display_off_the_loop(shows: int = 120, gap: float = 0.01) -> None:
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    screens = [Screen(title="Anna #1", big=f"{n / 10:.1f}M", lines=("Haben: 500K", "Gefängnis frei: 1"))
               for n in range(shows)]
    for baud in (100_000, 400_000):
        device = ssd1306(i2c(bus=TimedBus(baud), address=0x3C), width=128, height=64)
        frame = []
        for screen in screens[:20]:  # the old way: render and send on the caller's thread
            t0 = time.perf_counter()
            device.display(render(screen))
            frame.append((time.perf_counter() - t0) * 1000)
        display = Display(device)
        calls = []
        for screen in screens:  # the main loop handing over a new screen every 10 ms (a fast knob)
            t0 = time.perf_counter()
            display.show(screen)
            calls.append((time.perf_counter() - t0) * 1000)
            time.sleep(gap)
        display.flush(5)
        drawn = display.drawn
        display.close()
        print(f"display at {baud // 1000} kHz: one frame (render + I²C) median {statistics.median(frame):.1f} ms; "
              f"show() on the main loop median {statistics.median(calls) * 1000:.0f} µs, "
              f"p99 {pct(calls, 0.99):.2f} ms, max {max(calls):.2f} ms; "
              f"{drawn} of {shows} screens drawn (the rest replaced before their turn)")


def commit_latency(count: int = 500) -> None:
    with tempfile.TemporaryDirectory(dir=Path.home()) as tmp:
        ledger = Ledger(Journal(Path(tmp) / "journal.sqlite3"))
        ledger.submit({"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]})
        times = []
        for i in range(count):
            t0 = time.perf_counter()
            assert ledger.submit({"op": "credit", "player": "Anna", "amount": 10, "id": f"b{i}"}).ok
            times.append((time.perf_counter() - t0) * 1000)
        ledger.journal.close()
    print(f"durable commit (check + journal + fdatasync, {count} commands): median {statistics.median(times):.2f} ms, "
          f"p99 {pct(times, 0.99):.2f} ms; target p99 < 20 ms")


def startup(commands: int = 10_000) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "state"
        journal = Journal(state / "journal.sqlite3")
        for line in long_journal(commands):
            import json

            journal.append(json.loads(line))
        journal.close()
        sock_path = str(Path(tmp) / "notify.sock")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(sock_path)
        sock.settimeout(30)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        env = {**os.environ, "NOTIFY_SOCKET": sock_path}
        exe = Path(sys.executable).parent / "bankleser"
        t0 = time.perf_counter()
        proc = subprocess.Popen([str(exe), "run", "--sim", "--state-dir", str(state), "--port", str(port)], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while True:
            msg = sock.recv(4096).decode()
            if "READY=1" in msg:
                break
        ready = time.perf_counter() - t0
        time.sleep(0.5)
        rss = int(next(line for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines()
                       if line.startswith("VmRSS")).split()[1]) / 1024
        proc.terminate()
        proc.wait(10)
        sock.close()
    print(f"start-up to READY=1 with a {commands:,}-command journal: {ready:.2f} s; target < 2 s")
    print(f"resident memory after start-up: {rss:.1f} MB; target < 80 MB")


if __name__ == "__main__":
    display_off_the_loop()
    input_to_frame()
    commit_latency()
    startup()
