"""What the daemon says about the table's parts: the start screen, and the lines for the pages.

The parts themselves, their stand-ins and retries live in :mod:`drivers.hardware`; this is only
their wording for the banker. A part's hint holds one line per cause ("GPIO: cause – fix"); one cause
often keeps several parts out (no GPIO: keypad, knob, buzzer, LED and reader), and is said once, with
the parts it affects, beside every other cause found at the same start.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from drivers.hardware import Hardware
from drivers.screen import Screen
from words import text


def causes(parts: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """Each cause once, in the parts' order, with the names of the parts it keeps out."""
    out: dict[str, list[str]] = {}
    for part in parts:
        if not part["ok"]:
            for hint in part["hint"].splitlines():
                out.setdefault(hint, []).append(part["name"])
    return list(out.items())


def cause_line(hint: str, names: list[str]) -> str:
    """"GPIO (Tastatur, LED): cause – fix"; a part's own cause ("Display: …") stays as it is."""
    label, _, rest = hint.partition(": ")
    return hint if names == [label] else f"{label} ({', '.join(names)}): {rest}"


def missing_names(parts: list[dict[str, Any]], *, but: Iterable[str] = ()) -> list[str]:
    """The short names for the OLED: a cause that keeps several parts out by its subject ("GPIO"), else the part
    ("Tastatur", "RFID-Leser"), each once, leaving out the causes that only affect the parts whose identifiers are
    in ``but`` (the display does not show its own absence)."""
    skip = {part["name"] for part in parts if part["id"] in set(but)}
    names: list[str] = []
    for hint, affected in causes(parts):
        label = hint.partition(": ")[0] if len(affected) > 1 else affected[0]
        if not set(affected) <= skip and label not in names:
            names.append(label)
    return names


def start_screen(hardware: Hardware) -> Screen:
    """The first screen: while the journal is read, say what is missing (if the OLED works, it shows)."""
    missing = missing_names(hardware.parts())
    lines = (text("start.reading"),) if not missing else (text("start.missing", parts=", ".join(missing)),
                                                          text("start.see_page"))
    return Screen(title="Bankleser", big=text("start.starting"), lines=lines)


def parts_problem(parts: list[dict[str, Any]]) -> str | None:
    """The status page's problem lines: one per cause, naming the parts it affects, with its fix."""
    lines = [cause_line(hint, names) for hint, names in causes(parts)]
    return "\n".join(lines) if lines else None
