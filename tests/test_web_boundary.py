"""Issue 18: the web knows the device only through its Backend protocol."""

from __future__ import annotations

import ast
from pathlib import Path


def test_the_web_app_imports_neither_drivers_nor_the_device() -> None:
    """webui/app.py imported drivers.keypad.KEYS for the sim keys and device.cards' sim tags; the input
    names and the sim's cards now come through the Backend (input_names, sim_cards)."""
    tree = ast.parse((Path(__file__).resolve().parent.parent / "webui" / "app.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not {m for m in imported if m.split(".")[0] in ("drivers", "device")}
