"""The repository stands alone: every page of its documentation links only to what it holds.

The design, the command contract, the rules digest and the style guide lived beside the repository
(``../shared/design/``), and a maintainer with only the repository lost them.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted(ROOT.glob("*/README.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
OUTSIDE = re.compile(r"(?<![\w.])\.\./|/work/|shared/design")
"""A path that leaves the repository, or names where the design used to live."""


def links(page: Path) -> list[str]:
    return [target for target in LINK.findall(page.read_text(encoding="utf-8"))
            if not re.match(r"[a-z]+:", target) and not target.startswith("#")]


def test_every_link_of_the_docs_is_a_file_in_the_repository() -> None:
    broken = []
    for page in PAGES:
        for target in links(page):
            path = (page.parent / target.split("#")[0]).resolve()
            if not path.is_relative_to(ROOT) or not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []


def test_no_page_names_a_path_outside_the_repository() -> None:
    found = [f"{page.relative_to(ROOT)}:{n}: {line.strip()}" for page in PAGES
             for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1) if OUTSIDE.search(line)]
    assert found == []


def test_the_pages_that_came_in_are_linked_from_the_index() -> None:
    index = links(ROOT / "docs" / "index.md")
    assert {"commands.md", "books.md", "board.md", "style.md", "design.md", "rules.md"} <= set(index)


def test_the_checks_see_a_link_that_leaves() -> None:
    """The reader itself: the old reference is caught by both checks."""
    line = "Every change is a JSON command ([the contract](../shared/design/ARCHITECTURE.md))."
    assert LINK.findall(line) == ["../shared/design/ARCHITECTURE.md"] and OUTSIDE.search(line)
