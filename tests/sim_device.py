"""The virtual device driven over the daemon's sim API (``POST /api/sim/key``, ``/api/sim/tap``, the display
read back), as the simulation's /device page drives it: shared by the tests that play through the whole daemon."""

from __future__ import annotations

import re
from typing import Any

from device.daemon.service import Daemon
from device.store.cards import SIM_PLAYER_CARDS

UID = {name: uid for uid, name in SIM_PLAYER_CARDS.items()}


class Device:
    """The virtual device as its page drives it: keys and taps through the sim API, the screen read back."""

    def __init__(self, daemon: Daemon) -> None:
        self.client = daemon.app.test_client()
        self.daemon = daemon

    def press(self, *keys: str) -> None:
        for key in keys:
            assert self.client.post("/api/sim/key", json={"key": key}).status_code == 200

    def type(self, text: str) -> None:
        self.press(*text)

    def tap(self, name: str) -> None:
        assert self.client.post("/api/sim/tap", json={"uid": UID[name]}).status_code == 200

    def text(self) -> str:
        body: dict[str, Any] = self.client.get("/api/sim/display").get_json()
        return str(body["text"])

    def choose(self, label: str) -> None:
        """Turn the knob until the marked entry reads ``label`` (a number prefix aside), then push."""
        for _ in range(20):
            marked = [line[1:] for line in self.text().splitlines() if line.startswith(">")]
            shown = re.sub(r"^\*?(\d )?", "", marked[0]) if marked else ""
            if shown and label.startswith(shown) and len(shown) >= min(len(label), 12):  # a long entry wraps
                self.press("PUSH")
                return
            self.press("DOWN")
        raise AssertionError(f"{label!r} not found: {self.text()!r}")
