"""One boundary between the device and the web, read from the imports of every module.

The web knows the device only through the protocol it owns (webui/backend.py); the device knows the
web only in the one module that adapts to that protocol and starts the server (device/daemon/web.py).
Every import counts: at the top, inside a function, or for type checking only.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BRIDGE = "device.daemon.web"
FORMS = "device.daemon.booking"
"""The phone's booking forms, reckoned on the device's loop for the web adapter alone: they answer in the web's
protocol (webui.protocol), so they are the adapter's second module."""


def imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the absolute names of the modules it imports."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if is_package else parts)
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = module.split(".") if is_package else module.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    names.add(".".join(base + ([node.module] if node.module else [])))
                else:
                    names.add(node.module or "")
        found[module] = names
    return found


def reaching(found: dict[str, set[str]], packages: tuple[str, ...]) -> dict[str, set[str]]:
    return {module: hits for module, names in found.items()
            if (hits := {n for n in names if n.split(".")[0] in packages})}


def test_the_web_imports_neither_the_device_nor_the_drivers() -> None:
    assert reaching(imports("webui"), ("device", "drivers")) == {}


def test_only_the_web_adapter_of_the_device_imports_the_web() -> None:
    found = imports("device")
    assert BRIDGE in found and "device.daemon.service" in found  # the walk reads the modules it names
    assert set(reaching(found, ("webui",))) == {BRIDGE, FORMS}
    assert reaching({FORMS: found[FORMS]}, ("webui",)) == {FORMS: {"webui.protocol"}}  # the answers' types alone


def test_the_walk_sees_every_kind_of_import() -> None:
    """The reader itself: a relative import, one in a function and one under TYPE_CHECKING are all found."""
    found = imports("device")
    assert "device.store.cards" in found["device.daemon.web"]  # ``from ..store.cards import Refused``
    assert "webui.app" in found["device.daemon.web"]  # inside ``load_web()``
    assert "webui.server" in found["device.daemon.web"]  # under TYPE_CHECKING and inside ``start_web()``


def test_the_storage_does_not_import_the_screens() -> None:
    """The store keeps the journal and the family's files; how a name fits a line of the OLED is the panel's
    measure (drivers.measure), which the scenes' layout takes too."""
    store = {module: names for module, names in imports("device").items() if module.startswith("device.store")}
    assert "device.store.editions" in store
    assert {module: hits for module, names in store.items()
            if (hits := {n for n in names if n.startswith("device.scenes")})} == {}


def test_the_shapes_both_sides_share_import_neither_side() -> None:
    """``shapes`` holds what the device hands the web, written once: both sides import it, so it imports neither
    (nor the drivers); the rules it names for mypy alone, under TYPE_CHECKING."""
    found = imports("shapes")
    assert "shapes.reports" in found and "shapes.editions" in found
    assert reaching(found, ("device", "drivers", "webui")) == {}
    ours = {n for names in found.values() for n in names if n.split(".")[0] in ("rules", "words", "msgspec")}
    assert ours <= {"rules", "rules.editions"}
    loaded = subprocess.run([sys.executable, "-c", "import sys, shapes.editions, shapes.reports, shapes.simulation; "
                             "print(' '.join(sorted(sys.modules)))"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    assert not [m for m in loaded if m.split(".")[0] in ("rules", "device", "drivers", "webui", "words")]
