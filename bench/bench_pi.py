"""What the appliance costs on a Pi Zero 2 W's budget: CPU-seconds per operation, memory, writes, start-up.

Run: ``.venv/bin/python -m bench.bench_pi``. Starts `bankleser run --sim` as a separate process
on loopback and reads its own CPU time (utime + stime), resident memory and bytes written from
/proc, so the figures are the server's cost, not the load generator's.

``--startup``: only the start-up with an empty journal, ``RUNS`` (default 5) times.

``--quota``: run every server process under a CPU quota of 1/14 of a core (a cgroup of this
machine's own, v1 or v2; needs root and a writable cgroup tree), so that wall-clock figures
(start-up, latencies) come out as on a Pi Zero 2 W's core rather than multiplied. The process is
pinned to one CPU that a spinner keeps busy between its slices (``SPIN``); ``--cold`` leaves the
spinner out, the pessimistic figure of this virtual machine.

The Pi estimate multiplies this machine's CPU time by 14: a Pi 3B-class Cortex-A53 core (the
Zero 2 W's) runs pure-Python code about 14 times slower than one core of this machine, by the
pyperformance suite's published results for both (range 9–21 over its benchmarks). It is an
estimate; the README lists it under what is not yet measured on a real Pi.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.journal import journal as long_journal
from bench.liveserver import LiveServer
from device.store.journal import Journal
from device.store.ledger import CHECKPOINT_EVERY

PI_FACTOR, PI_RANGE = 14, (9, 21)
TICK = os.sysconf("SC_CLK_TCK")
NEW = {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben", "Cem"]}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mb(pid: int) -> float:
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith("VmRSS"))
    return int(line.split()[1]) / 1024


def written(pid: int) -> int:
    line = next(x for x in Path(f"/proc/{pid}/io").read_text().splitlines() if x.startswith("write_bytes"))
    return int(line.split()[1])


def pi(ms: float) -> str:
    return f"{ms * PI_FACTOR:.0f} ms on a Pi Zero 2 W (×{PI_FACTOR}, {ms * PI_RANGE[0]:.0f}–{ms * PI_RANGE[1]:.0f})"


def fill(state: Path, commands: int, games: int = 1) -> None:
    """``games`` games of ``commands`` commands each, written in one transaction (fast; the same chain)."""
    journal = Journal(state / "journal.sqlite3")
    now = time.time() - games * commands
    lines = [line for game in range(games) for line in long_journal(commands, seed=game + 1, ids=f"g{game}-")]
    journal.append_many((json.loads(line), now + i, None) for i, line in enumerate(lines))
    journal.close()


class Quota:
    """A cgroup with 1/PI_FACTOR of a core: processes started into it run at a Pi core's pace."""

    def __init__(self) -> None:
        self.procs: Path | None = None
        self.dir: Path | None = None
        self.spinner: subprocess.Popen[bytes] | None = None
        self.cpu = max(os.sched_getaffinity(0))

    def open(self) -> Quota:
        # 1 ms in every 14 ms: the smallest quota the kernel takes (1 ms), so that a throttled process
        # waits at most 13 ms for its next share, not most of a 100 ms period (the default).
        quota, period = 1000, 1000 * PI_FACTOR
        v2, v1 = Path("/sys/fs/cgroup/cgroup.controllers"), Path("/sys/fs/cgroup/cpu")
        name = f"bankleser-bench-{os.getpid()}"
        if v2.exists():
            self.dir = v2.parent / name
            self.dir.mkdir()
            (self.dir / "cpu.max").write_text(f"{quota} {period}")
        elif v1.is_dir():
            self.dir = v1 / name
            self.dir.mkdir()
            (self.dir / "cpu.cfs_period_us").write_text(str(period))
            (self.dir / "cpu.cfs_quota_us").write_text(str(quota))
        else:
            raise SystemExit("--quota: no cgroup cpu controller here")
        self.procs = self.dir / "cgroup.procs"
        if "--cold" not in sys.argv:
            self.spinner = subprocess.Popen([sys.executable, "-c", SPIN, str(self.cpu)])
        return self

    def enter(self) -> None:
        """In the child, before exec: the process and everything it starts run under the quota, on the
        spinner's CPU."""
        if self.procs is not None:
            self.procs.write_text(str(os.getpid()))
            os.sched_setaffinity(0, {self.cpu})

    def close(self) -> None:
        if self.spinner is not None:
            self.spinner.kill()
            self.spinner.wait()
        if self.dir is not None:
            with contextlib.suppress(OSError):
                self.dir.rmdir()


SPIN = "import os, sys; os.sched_setaffinity(0, {int(sys.argv[1])}); " \
       "os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))\nwhile True: pass"
"""Keeps the quota's CPU busy between its slices, at SCHED_IDLE: it runs only when nothing else will.
On a virtual machine a CPU that idles for the 13 ms between two 1 ms slices goes back to the host,
whose other guests then evict its caches: the throttled process paid that again at every slice (an
import-heavy start measured up to 1.7 times its unthrottled CPU time; with the spinner, the same).
A Pi's core runs the daemon without such pauses; ``--cold`` leaves the spinner out."""


QUOTA = Quota()


def installed(where: Path) -> list[str]:
    """The command that starts Bankleser as the installer leaves it on the Pi: a plain install
    (``pip install``, byte-compiled, not editable) with what running needs and nothing else, in a
    virtual environment of its own. The checkout's editable install adds an import finder to every
    start (about 10 ms of CPU here, 0.14 s on the Pi), and its test tools change what libraries
    import (msgspec loads typing_extensions where it finds it): the Pi has neither."""
    site = where / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "--target", str(site), str(Path(__file__).resolve().parent.parent)], check=True)
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (next(venv.glob("lib/python3*/site-packages")) / "bankleser.pth").write_text(f"{site}\n")
    return [str(venv / "bin" / "python"), str(site / "bin" / "bankleser")]


COMMAND: list[str] = []
"""How start-up is measured: as installed (``installed``), else the checkout's own ``bankleser``."""


def ready_time(state: Path) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Seconds from exec to the first frame ("Startet…", told as STATUS with it), to READY=1, and to the
    page answering, the process started as systemd would: wall clock, and the process's CPU time then
    (read from /proc as each moment arrives; robust when other work shares the machine)."""
    with tempfile.TemporaryDirectory() as tmp:
        sock_path = str(Path(tmp) / "notify.sock")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(sock_path)
        sock.settimeout(60)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        command = COMMAND or [str(Path(sys.executable).parent / "bankleser")]
        t0 = time.perf_counter()
        # The service's own config file, as the Pi's unit passes it (so tomllib loads as it does there);
        # --sim puts its parts' drivers on the virtual table.
        config = Path(__file__).resolve().parent.parent / "systemd" / "config.toml"
        proc = subprocess.Popen([*command, "run", "--sim", "--config", str(config), "--state-dir", str(state),
                                 "--port", str(port)],
                                env={**os.environ, "NOTIFY_SOCKET": sock_path},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=QUOTA.enter)
        first = first_cpu = None
        while "READY=1" not in (message := sock.recv(4096).decode()):
            if first is None and "STATUS=Startet" in message:
                first, first_cpu = time.perf_counter() - t0, cpu_seconds(proc.pid)
        ready, ready_cpu = time.perf_counter() - t0, cpu_seconds(proc.pid)
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/api/state")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.02)
        page, page_cpu = time.perf_counter() - t0, cpu_seconds(proc.pid)
        proc.terminate()
        proc.wait(10)
        sock.close()
    assert first is not None and first_cpu is not None, "no first frame before READY"
    return (first, ready, page), (first_cpu, ready_cpu, page_cpu)


def open_streams(port: int, count: int) -> list[socket.socket]:
    streams = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        streams.append(s)
    return streams


def drain(streams: list[socket.socket], stop: threading.Event) -> threading.Thread:
    """Read every stream (as phones do) so the server never blocks on a full socket buffer."""
    import selectors

    def run() -> None:
        sel = selectors.DefaultSelector()
        for s in streams:
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ)
        while not stop.is_set():
            for key, _ in sel.select(0.2):
                with contextlib.suppress(BlockingIOError):
                    key.fileobj.recv(65536)  # type: ignore[union-attr]

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def per_command(server: LiveServer, pid: int, phones: int, count: int, start: int) -> float:
    assert server.proc is not None
    streams = open_streams(server.port, phones)
    stop = threading.Event()
    reader = drain(streams, stop)
    time.sleep(0.5)
    before = cpu_seconds(pid)
    walls = []
    for i in range(count):
        cmd = {"op": "credit", "player": "Anna", "amount": 10, "id": f"p{start + i}"}
        t0 = time.perf_counter()
        status, _ = server.post("/api/commands", cmd)
        walls.append((time.perf_counter() - t0) * 1000)
        assert status == 200
    time.sleep(0.3 * (PI_FACTOR if QUOTA.procs else 1))  # the last events reach every phone
    cost = (cpu_seconds(pid) - before) / count * 1000
    walls.sort()
    print(f"  command answered (durable), wall, {phones} open pages: p50 {walls[len(walls) // 2]:.1f} ms, "
          f"p99 {walls[int(len(walls) * 0.99)]:.1f} ms")
    stop.set()
    reader.join(2)
    for s in streams:
        s.close()
    return cost


def startup(state: Path, what: str, target: str = "") -> None:
    (first, ready, page), cpu = ready_time(state)
    wall = f"first frame {first:.2f} s, READY {ready:.2f} s, page {page:.2f} s"
    pace = f"under the quota (a Pi core's pace): {wall}" if QUOTA.procs else wall
    estimate = " / ".join(f"{c * PI_FACTOR:.1f}" for c in cpu)
    print(f"start-up, {what}: {pace}; CPU {' / '.join(f'{c:.2f}' for c in cpu)} s, "
          f"Pi estimate (CPU x{PI_FACTOR}) {estimate} s{target}")


def compiled() -> None:
    """Byte-compile the project as pip does when it installs on the Pi: a start then reads .pyc files
    instead of compiling every module (which it does where PYTHONDONTWRITEBYTECODE is set)."""
    import compileall

    root = Path(__file__).resolve().parent.parent
    for package in ("rules", "drivers", "device", "webui", "shapes"):
        compileall.compile_dir(root / package, quiet=1)


def main() -> None:
    compiled()
    if "--quota" in sys.argv:
        QUOTA.open()
    try:
        if "--startup" in sys.argv:
            start_ups(int(os.environ.get("RUNS", "5")))
        else:
            run()
    finally:
        QUOTA.close()


def start_ups(runs: int) -> None:
    """``--startup``: only the empty journal's start-up, ``RUNS`` times (while working on it)."""
    with tempfile.TemporaryDirectory() as tmp:
        COMMAND[:] = installed(Path(tmp) / "installed")
        for i in range(runs):
            startup(Path(tmp) / f"empty{i}", "empty journal")


def run() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        COMMAND[:] = installed(Path(tmp) / "installed")
        startup(Path(tmp) / "empty", "empty journal")
        full = Path(tmp) / "full"
        fill(full, 10_000)
        startup(full, "10,000-command game, no checkpoint yet (the first start after an update)")
        startup(full, "10,000-command game after a clean stop (checkpoint)",
                "  (target < 0.5 s here, < 7 s on the Pi)")
        journal = Journal(full / "journal.sqlite3")
        journal.append_many(({"op": "go", "player": "Anna"}, time.time(), None) for _ in range(CHECKPOINT_EVERY - 1))
        journal.close()
        startup(full, f"the same after a power cut, {CHECKPOINT_EVERY - 1} commands after the last checkpoint")
        history = Path(tmp) / "history"
        fill(history, 1000, games=100)
        startup(history, "100 past games of 1,000 commands, no checkpoint yet")
        startup(history, "100 past games of 1,000 commands after a clean stop")

        server = LiveServer(full, preexec=QUOTA.enter).start()
        assert server.proc is not None
        pid = server.proc.pid
        server.login()
        assert server.post("/api/commands", {**NEW, "id": "bench-game", "replace": True})[0] == 200
        time.sleep(0.5)
        print(f"resident memory after start-up with 10,000 commands: {rss_mb(pid):.1f} MB (target < 60 MB)")

        conn = http.client.HTTPConnection("127.0.0.1", server.port)
        before = cpu_seconds(pid)
        walls = []
        for _ in range(1000):
            t0 = time.perf_counter()
            conn.request("GET", "/api/state")
            conn.getresponse().read()
            walls.append((time.perf_counter() - t0) * 1000)
        state_ms = (cpu_seconds(pid) - before)
        walls.sort()
        print(f"CPU per /api/state: {state_ms:.3f} ms; {pi(state_ms)}; wall p50 {walls[500]:.1f} ms, "
              f"p99 {walls[990]:.1f} ms")

        costs = {}
        start = 0
        for phones in (0, 20, 100):
            costs[phones] = per_command(server, pid, phones, 100, start)
            start += 100
            print(f"CPU per command with {phones} open pages: {costs[phones]:.2f} ms; {pi(costs[phones])}"
                  + ("  (target < 5 ms here, < 70 ms on the Pi)" if phones == 20 else ""))
        print(f"CPU per event per phone: {(costs[100] - costs[0]) / 100:.3f} ms")
        bare = LiveServer(Path(tmp) / "bare", bare=True, preexec=QUOTA.enter).start()
        assert bare.proc is not None and bare.post("/api/commands", NEW)[0] == 200
        yardstick = per_command(bare, bare.proc.pid, 20, 100, 0)
        bare.stop()
        print(f"the bare stdlib server, same work, 20 open pages: {yardstick:.2f} ms per command; "
              f"Bankleser ×{costs[20] / yardstick:.2f} (target within ×2)")

        for i in range(1000):  # warm-up: caches and allocator arenas reach their size first
            server.post("/api/commands", {"op": "credit", "player": "Ben", "amount": 10, "id": f"w{i}"})
        mem0, io0 = rss_mb(pid), written(pid)
        for i in range(2000):
            server.post("/api/commands", {"op": "credit", "player": "Ben", "amount": 10, "id": f"m{i}"})
        mem1, io1 = rss_mb(pid), written(pid)
        print(f"memory growth: {(mem1 - mem0) / 2:.2f} MB per 1,000 commands (target < 0.5 MB)")
        print(f"bytes written per command: {(io1 - io0) / 2000:,.0f} (journal row, WAL frame, head record)")
        server.stop()


if __name__ == "__main__":
    main()
