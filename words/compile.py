"""Compile every catalogue's ``.po`` into the ``.mo`` that ships beside it: ``python -m words.compile``.

A development-time tool (Babel is a test extra, not needed to run): the appliance only reads the ``.mo``
with the standard library. tests/test_words.py fails when a committed ``.mo`` is not what this makes of its
``.po``, so an edited text cannot ship uncompiled.
"""

from __future__ import annotations

import io
import os
import sys

from . import DOMAIN, LANGUAGES, LOCALE_DIR


def po_path(code: str) -> str:
    return os.path.join(LOCALE_DIR, code, "LC_MESSAGES", DOMAIN + ".po")


def compiled(code: str) -> bytes:
    """The ``.mo`` bytes Babel makes of ``code``'s ``.po`` (fuzzy entries left out, as gettext's msgfmt does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(po_path(code), "rb") as f:
        catalog = read_po(f, locale=code, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def main() -> int:
    for code in LANGUAGES:
        target = po_path(code)[:-3] + ".mo"
        with open(target, "wb") as f:
            f.write(compiled(code))
        print(f"{target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
