"""The reports' surface: the game reports, the CSV, the Bestenliste, the charts and the printables."""

from __future__ import annotations

import ast
import re
from pathlib import Path

MODULES = ("device/store/history.py", "webui/games.py", "webui/chart.py", "device/prints/labels.py",
           "device/prints/svg.py", "device/prints/wiring.py")

_SAID = r"aria-label|title|alt"
"""Attributes a person reads (a screen reader, a tooltip): never markup, always checked."""
_MARKUP = re.compile(
    rf'(?!(?:{_SAID})=)\b[a-zA-Z][\w:-]*="[^"]*"'  # a whole attribute: x="12", fill="#fff"
    r'|\b[a-zA-Z][\w:-]*="'  # an attribute whose value the code fills in (from the catalogue where it is said)
    r'|</?[a-zA-Z][\w:-]*'  # a tag's name: <polyline, </g
    r'|#[0-9a-fA-F]{3,8}\b'  # a colour
    r'|https?://\S+'  # a namespace
)


def markup(module: str) -> set[str]:
    """The string constants of ``module`` that are only SVG markup once the markup is taken out: tags, attributes
    and colours, which programs (a browser) read. Text between tags and the attributes a person reads
    (aria-label, title, alt) stay in, so a sentence written into markup is still found by the scan."""
    tree = ast.parse((Path(__file__).resolve().parent.parent.parent / module).read_text(encoding="utf-8"))
    return {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and ("<" in node.value or '="' in node.value or node.value.startswith("#"))
            and not re.search(r"[^\W\d_]", _MARKUP.sub("", node.value))}


ALLOWED = {
    # Python's own names (the typing of the pages' cache decorator)
    "Asked", "Found",
    # the history's program words: a game's status (kept in the cache; the pages say them with reports.status.*),
    # the clock sources and the modes as the commands and device.store.clocks write them
    "läuft", "beendet", "ersetzt", "unknown", "pi", "pi_unsynced", "pi_unchecked", "phone", "standard", "quick",
    "timed", "free_parking_pot", "double_go", "no_auctions", "classic", "status", "clock", "mode", "mode_said", "quick_name",
    "started", "ended", "players", "worth", "edition", "edition_title", "winner", "winners", "ranking",
    "name", "games", "wins", "rate", "game", "rent", "build", "mortgage", "bankrupt", "undo", "new_game", "player",
    "square", "rent_paid", "rent_received", "best_deed", "biggest", "buildings", "mortgages", "bankrupt_at", "pot",
    "stamp", "op", "at", "cash", "commands", "last_seq", "house_rules", "id", "utf-8",
    "other code or another journal", "SELECT COALESCE(MAX(seq), 0) FROM commands", "SELECT seq FROM games ORDER BY seq",
    "SELECT link FROM commands WHERE seq = ?", "SELECT value FROM settings WHERE key = ?", ".tmp",
    # the pages' routes, templates, query fields, media types and the HTTP headers programs read
    "/spiele", "/spiele/<int:game_id>", "/spiele/<int:game_id>.jsonl", "/spiele/<int:game_id>.csv",
    "/bestenliste", "spiele.html", "spiel.html", "bestenliste.html", "lesen.html", "Retry-After",
    "Content-Disposition", "attachment; filename=\"", "application/x-ndjson", "text/csv", ".jsonl", ".csv",
    "message", "when", "names", "duration", "mode_title", "clock_name", "rule_names",
    # time formats without words (the language's own formats come from the catalogue)
    "%H:%M", "%H:%M:%S",
    # the SVG's values a browser reads
    "start", "middle", "end", "bold", "normal", "none", "utility", "brown", "lightblue", "pink",
    "orange", "red", "yellow", "green", "darkblue", "station",
    # the keypad's key names (drivers.keypad's layout) and the product's name on its labels
    "HABEN", "SOLL", "LOS", "C", "K", "Bankleser", "MONOPOLY · Bankleser",
    # the Pi's header as the Raspberry Pi documentation names its pins, and the parts' signal names on their boards
    "3V3", "5V", "GND", "VCC", "SDA", "SCL", "3.3V", "RST", "MISO", "MOSI", "SCK", "SDA/CS", "SW", "DT", "CLK",
    "ID-EEPROM (ID_SD)", "ID-EEPROM (ID_SC)", "GPIO", "sim", *(f"GPIO{n}" for n in range(28)),
    # the printables' element ids (tests and stylesheets find a card or a sticker by them), the SVG's namespace
    '<g id="bankkarte-', '<g id="feld-', '<g id="key-', ' transform="rotate(-90 ', "http://www.w3.org/2000/svg",
    # an edition key's form
    "[a-z0-9][a-z0-9-]{0,31}",
} | {fragment for module in MODULES for fragment in markup(module)}
"""Constants in these modules that no person reads as a sentence of ours."""
