"""Start `bankleser run --sim` as a real process and talk to it over HTTP, as a phone would."""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent  # the repository
BANKLESER = Path(sys.executable).parent / "bankleser"
PIN = "4711"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port



STOP_HANG = 30
"""Seconds after SIGTERM before a stop counts as a hang. A stop takes about a second; under the full suite, with
Chromium's live streams open on the page, one took over 10 s in a fresh-clone CI run (the next identical run
passed), so 10 s was a timing, not a hang bound."""

class LiveServer:
    def __init__(self, state_dir: Path, env: dict[str, str] | None = None, *, bare: bool = False,
                 preexec: Callable[[], None] | None = None, log: Path | None = None) -> None:
        self.preexec = preexec
        self.log = log
        """Where the process's output goes (stdout and stderr together); discarded when None."""
        """Run in the child before exec (a benchmark's CPU quota)."""
        self.state_dir = state_dir
        self.bare = bare
        """Run ``bench.bare_server`` (the benchmarks' yardstick) instead of Bankleser."""
        self.port = free_port()
        self.env = {**os.environ, "BANKLESER_BANKER_PIN": PIN, **(env or {})}
        self.proc: subprocess.Popen[bytes] | None = None
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> LiveServer:
        if self.bare:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            argv = [sys.executable, "-m", "bench.bare_server", str(self.state_dir), str(self.port)]
        else:
            cmd = [str(BANKLESER)] if BANKLESER.exists() else [sys.executable, "-m", "device.daemon.cli"]
            argv = [*cmd, "run", "--sim", "--state-dir", str(self.state_dir), "--port", str(self.port)]
        out = self.log.open("ab") if self.log is not None else subprocess.DEVNULL
        self.proc = subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=out,
                                     stderr=subprocess.STDOUT if self.log is not None else subprocess.DEVNULL,
                                     preexec_fn=self.preexec)
        if self.log is not None:
            out.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self.get("/api/state")
                return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"bankleser exited with {self.proc.returncode}") from None
                time.sleep(0.05)
        raise TimeoutError("bankleser did not come up")

    def login(self) -> None:
        self.csrf = self.post("/api/login", {"pin": PIN})[1]["csrf"]

    def get(self, path: str) -> Any:
        with self.opener.open(self.base + path, timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: dict[str, Any], timeout: float = 10) -> tuple[int, Any]:
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        try:
            with self.opener.open(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"{}")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(STOP_HANG)
        return self.proc.returncode
