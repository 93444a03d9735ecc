"""One term per concept (docs/terms.md): no catalogue message uses a variant the language's term list forbids."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from po_read import message_forms, message_key

import words

ROOT = Path(__file__).resolve().parent.parent
TERMS = ROOT / "docs" / "terms.md"
SECTIONS = {"English": "en", "Deutsch": "de"}


def forbidden(code: str, text: str | None = None) -> list[tuple[str, re.Pattern[str]]]:
    """``(concept, pattern)`` for every variant the term list of ``code`` forbids."""
    out: list[tuple[str, re.Pattern[str]]] = []
    section = None
    for line in (text if text is not None else TERMS.read_text()).splitlines():
        if line.startswith("## "):
            section = SECTIONS.get(line[3:].strip())
        elif section == code and line.startswith("| ") and not line.startswith("| concept"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) == 3:
                for variant in re.findall(r"`([^`]+)`", cells[2]):
                    pattern = variant[3:] if variant.startswith("re:") else re.escape(variant)
                    out.append((cells[0], re.compile(pattern)))
    return out


def messages(code: str) -> list[tuple[str, str]]:
    out = []
    for domain in words.DOMAINS:
        with open(Path(words.LOCALE_DIR) / code / "LC_MESSAGES" / f"{domain}.po", "rb") as f:
            for message in read_po(f):
                if message.id:
                    out += [(message_key(message), form) for form in message_forms(message)]
    return out


@pytest.mark.parametrize("code", sorted(SECTIONS.values()))
def test_no_message_uses_a_variant_the_term_list_forbids(code: str) -> None:
    rules = forbidden(code)
    assert len(rules) > 10, "the term list was not read"
    found = [f"{key}: {concept!r} as {pattern.pattern!r}: {text!r}" for key, text in messages(code)
             for concept, pattern in rules if pattern.search(text)]
    assert found == []


def test_the_term_list_refuses_a_variant() -> None:
    """The check itself can fail: a forbidden variant in a message is found."""
    table = "## English\n| concept | term | forbidden variants |\n|---|---|---|\n| jail card | X | `Jail-free`, `re:\\d %` |\n"
    rules = forbidden("en", table)
    assert [c for c, p in rules if p.search("Jail-free card drawn")] == ["jail card"]
    assert [c for c, p in rules if p.search("10 % interest")] == ["jail card"]
    assert not [c for c, p in rules if p.search("Jail Free card drawn")]
