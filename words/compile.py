"""Compile every catalogue's ``.po`` into the ``.mo`` that ships beside it: ``python -m words.compile``.

A development-time tool (Babel is a test extra, not needed to run): the appliance only reads the ``.mo``
with the standard library. tests/test_words.py fails when a committed ``.mo`` does not say what this makes of
its ``.po`` (messages, not bytes: another Babel writes another header), so an edited text cannot ship
uncompiled.
"""

from __future__ import annotations

import io
import os
import sys

from . import DOMAIN, DOMAINS, LANGUAGES, LOCALE_DIR


def po_path(code: str, domain: str = DOMAIN) -> str:
    return os.path.join(LOCALE_DIR, code, "LC_MESSAGES", domain + ".po")


def po_files() -> list[tuple[str, str]]:
    """(language, domain) of every ``.po`` there is: the first domain always, the others once written."""
    return [(code, domain) for code in LANGUAGES for domain in DOMAINS
            if domain == DOMAIN or os.path.exists(po_path(code, domain))]


def compiled(code: str, domain: str = DOMAIN) -> bytes:
    """The ``.mo`` bytes Babel makes of a ``.po`` (fuzzy entries left out, as gettext's msgfmt does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(po_path(code, domain), "rb") as f:
        catalog = read_po(f, locale=code, domain=domain)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def main() -> int:
    for code, domain in po_files():
        target = po_path(code, domain)[:-3] + ".mo"
        with open(target, "wb") as f:
            f.write(compiled(code, domain))
        print(f"{target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
