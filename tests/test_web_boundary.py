"""The web knows the device only through its Backend protocol."""

from __future__ import annotations

import ast
from pathlib import Path

from device.daemon.service import Daemon


def test_the_web_app_imports_neither_drivers_nor_the_device() -> None:
    """webui/app.py imported drivers.keypad.KEYS for the sim keys and device.cards' sim tags; the input
    names and the sim's cards now come through the Backend (input_names, sim_cards)."""
    tree = ast.parse((Path(__file__).resolve().parent.parent / "webui" / "app.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not {m for m in imported if m.split(".")[0] in ("drivers", "device")}


def test_the_virtual_devices_deed_tags_use_the_editions_names(daemon: Daemon) -> None:
    """The tag buttons kept classic names while the OLED used the edition's."""
    from device.daemon.service import WebBackend

    web = WebBackend(daemon)
    assert web.submit({"op": "new_game", "edition": "sonic", "mode": "standard", "players": ["Anna", "Ben"]})["ok"]
    page = daemon.app.test_client().get("/device").get_data(as_text=True)
    assert "12 Eggman-Feder" in page and "12 Elektrizitätswerk" not in page
