"""Each table of values is written once: two modules that need it import it from one.

Two copies drift: the config's check and the wiring diagram each had the SPI pins, and the deed stickers, the
edition page and the status page each had the groups' colours, the last with other colours. Read from the source:
a module-level literal (a dict, tuple, list or set of two values or more) written in two modules is a copy,
unless it is one of the few below that are copies on purpose.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from device.daemon.service import Daemon, WebBackend
from rules.colours import GROUP_COLOURS
from webui.app import create_app

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "drivers", "device", "webui", "shapes", "bench", "words")

ON_PURPOSE = {
    # The MFRC522's model is written from the datasheet, not from the driver: a model that imported the
    # driver's codes would agree with a wrong driver (drivers/mfrc522_model.py).
    frozenset({"drivers.mfrc522_model:(IDLE, TRANSCEIVE, SOFT_RESET)",
               "drivers.rfid:(CMD_IDLE, CMD_TRANSCEIVE, CMD_SOFT_RESET)"}),
    frozenset({"drivers.mfrc522_model:SEL", "drivers.rfid:PICC_CASCADE"}),
    # The command line's languages are parsed before the catalogues load (their import is the rules'):
    # tests/test_words.py holds the two equal.
    frozenset({"device.daemon.cliparse:LANGUAGES", "words:LANGUAGES"}),
}


def tables() -> dict[str, set[str]]:
    """Each module-level literal table, as its source, and where it is written (``module:name``)."""
    found: dict[str, set[str]] = defaultdict(set)
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if not isinstance(node, ast.Assign | ast.AnnAssign):
                    continue
                value = node.value
                if not isinstance(value, ast.Dict | ast.Tuple | ast.List | ast.Set):
                    continue
                if len(value.keys if isinstance(value, ast.Dict) else value.elts) < 2:
                    continue
                try:
                    ast.literal_eval(value)
                except ValueError:
                    continue  # built of names: not a table of values
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                found[ast.dump(value)].add(f"{module}:{ast.unparse(target)}")
    return found


def test_the_reader_finds_a_table() -> None:
    assert any("drivers.hardware:SPI_PINS" in where for where in tables().values())


def test_no_table_is_written_twice() -> None:
    copies = [sorted(where) for where in tables().values() if len(where) > 1 and frozenset(where) not in ON_PURPOSE]
    assert copies == []


def test_the_status_page_edges_a_deed_in_its_stickers_colour(daemon: Daemon) -> None:
    """The page's deeds (``class="deed g-brown"``, app.js) take their colour from the one table, not a style sheet."""
    page = create_app(WebBackend(daemon)).test_client().get("/").get_data(as_text=True)
    assert f".g-brown {{ border-color: {GROUP_COLOURS['brown']} }}" in page
    assert "g-brown" not in (ROOT / "webui" / "static" / "style.css").read_text(encoding="utf-8")
