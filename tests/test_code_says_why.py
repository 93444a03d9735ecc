"""The code says why in its own words: a comment that cites "issue 27" or "issue 28 #9" tells a later reader
nothing, since the tracker's numbers have no index in the repository (CONTRIBUTING.md)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("rules", "drivers", "device", "webui", "shapes", "bench", "words", "systemd", "stubs", ".ci", "tests", "docs")
SUFFIXES = {".py", ".pyi", ".js", ".css", ".html", ".sh", ".toml", ".service", ".rules", ".po", ".md", ""}
CITED = re.compile(r"\bissues? #?\d+", re.IGNORECASE)
THIS = Path(__file__).resolve()
"""This test names the form it refuses."""


def files() -> list[Path]:
    found = [ROOT / "pyproject.toml", ROOT / "dev", ROOT / "README.md"]
    for top in SOURCES:
        found += [p for p in (ROOT / top).rglob("*") if p.is_file() and p.suffix in SUFFIXES
                  and "__pycache__" not in p.parts]
    return sorted(found)


def test_no_source_file_cites_an_issue_number_for_its_reason() -> None:
    cited = []
    for path in files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file has no comments
        cited += [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
                  if CITED.search(line) and path != THIS]
    assert cited == []
