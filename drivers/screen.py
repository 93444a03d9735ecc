"""The screen model: what the device wants shown, independent of any display.

The device builds a :class:`Screen`; a display driver turns it into pixels. Tests and the
virtual device read :meth:`Screen.text`, so what a player sees is asserted as words.
"""

from __future__ import annotations

import msgspec


class Screen(msgspec.Struct, frozen=True):
    """One OLED screen: a title bar, a big line (usually an amount), small lines, a QR code."""

    title: str = ""
    """Top bar, drawn inverted: the state ("Anna #1", "Haben", "Neues Spiel")."""
    big: str = ""
    """Large text: the amount on the reader ("2.5M") or a one-word verdict ("ZU WENIG GELD")."""
    lines: tuple[str, ...] = ()
    """Up to three lines of small text under the big line."""
    icons: str = ""
    """Short marks drawn at the right of the title bar (e.g. "≈" inexact amount, "🔇" muted as "x")."""
    qr: str | None = None
    """Data for a QR code drawn at the right edge (the status page's URL)."""

    def text(self) -> str:
        """All the words on the screen, one line each, as a player would read them."""
        parts = [f"{self.title} {self.icons}".strip(), self.big, *self.lines]
        return "\n".join(p for p in parts if p)
