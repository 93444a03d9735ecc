"""What the daemon says about the table's parts: the start screen, and the line for the pages.

The parts themselves, their stand-ins and retries live in :mod:`drivers.hardware`; this is only
their wording for the banker.
"""

from __future__ import annotations

from typing import Any

from drivers.hardware import Hardware
from drivers.screen import Screen


def start_screen(hardware: Hardware) -> Screen:
    """The first screen: while the journal is read, say which part is missing (if the OLED works, it shows)."""
    missing = [name for name in hardware.faults]
    lines = ("Journal wird gelesen",) if not missing else ("Fehlt: " + ", ".join(missing), "Siehe Web-Seite")
    return Screen(title="Bankleser", big="Startet…", lines=lines)


def parts_problem(parts: list[dict[str, Any]]) -> str | None:
    """One sentence for the status page's problem line, naming each missing part with its fix."""
    missing = [p["hint"] for p in parts if not p["ok"]]
    return " · ".join(missing) if missing else None
