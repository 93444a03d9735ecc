"""Things to print at true size (SVG in millimetres; print at 100 %, "actual size"):
the keypad overlay, the players' bank cards, and the deed stickers with the edition's own names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules import DEEDS, EDITIONS, Edition, square_name
from rules.colours import GROUP_COLOURS, PLAYER_COLOURS
from rules.phrase import Cash, phrase
from words import LANGUAGES, catalogue, language, say, text

from . import svg

A4 = (210.0, 297.0)
PAGE_MARGIN = 10.0
CUT = 'stroke="#888" stroke-width="0.2" stroke-dasharray="1.5 1"'
"""Cut lines: thin and dashed, so a slightly-off cut leaves no black edge."""

KEYPAD_MM = (69.0, 76.0)
"""The common 4×4 membrane keypad's outline (data sheets: 69 × 76 mm)."""
KEYPAD_HEAD_MM = 8.0
"""The strip above the keys (where the cable leaves); the keys fill the rest."""
KEY_CAPTIONS = {"HABEN": ("reports.keypad.haben", ""), "SOLL": ("reports.keypad.soll", ""),
                "C": ("", "reports.keypad.c_hint"), "K": ("", "reports.keypad.k_hint"),
                "LOS": ("reports.keypad.los", "")}
"""What a key says to the banker (German: the seeds' words), and a hint where a key does more; a key without a
caption says its own name (C, K, the digits)."""
ONE_LANGUAGE = False
"""The overlay's default: every language's key words, the print's own first (``bankleser print keypad
--one-language``: only the print's). The overlay is printed once but the
OLED speaks the banker's language, switchable at any time: a key printed in one language would be named on the
OLED in a word it does not carry (an English family reading "CREDIT" above a key that says Haben)."""

CARD_MM = (85.6, 53.98)
CARD_RADIUS = 3.18
"""ISO/IEC 7810 ID-1, the size of every bank card and of the RFID cards sold with readers."""

STICKER_MM = (44.0, 22.0)
"""A deed sticker: covers a 25 mm RFID tag on the back of a Besitzrechtkarte; 4 × 7 fill one A4 sheet."""


def key_words(key: str, languages: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What a key's cell says: its caption in each language (each word once) and its hint in each."""
    caption, more = KEY_CAPTIONS.get(key, ("", ""))

    def each(message: str) -> tuple[str, ...]:
        said = [catalogue(code).gettext(message) for code in languages]
        return tuple(dict.fromkeys(said))

    return (each(caption) if caption else (key,)), (each(more) if more else ())


def keypad_overlay(layout: Sequence[Sequence[str]], *, one_language: bool = ONE_LANGUAGE) -> str:
    """One overlay the size of the membrane, a cell per key with what the key does: in every language, the print's
    own first and largest, or (``one_language``) in the print's only."""
    w, h = KEYPAD_MM
    rows, cols = len(layout), max(len(r) for r in layout)
    cw, ch = w / cols, (h - KEYPAD_HEAD_MM) / rows
    x0 = y0 = PAGE_MARGIN
    own = language()
    spoken = (own,) if one_language else (own, *(code for code in LANGUAGES if code != own))
    body = [f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" rx="2" fill="none" {CUT}/>',
            svg.text(x0 + w / 2, y0 + 5.5, "Bankleser", 4, weight="bold")]
    for r, row in enumerate(layout):
        for c, key in enumerate(row):
            x, y = x0 + c * cw, y0 + KEYPAD_HEAD_MM + r * ch
            (big, *other), hints = key_words(key, spoken)
            shade = "#2b8a3e" if key == "HABEN" else "#c92a2a" if key == "SOLL" else "#f1f3f5"
            ink = "#fff" if key in ("HABEN", "SOLL") else "#111"
            body.append(f'<g id="key-{key}">')
            body.append(f'<rect x="{x + 1:g}" y="{y + 1:g}" width="{cw - 2:g}" height="{ch - 2:g}" rx="1.5" '
                        f'fill="{shade}" stroke="#111" stroke-width="0.3"/>')
            size = 7 if len(big) <= 2 else 4.5
            lift = (1.6 if other else 0.0) + 2.4 * max(0, len(hints) - 1)  # room for a hint in each language
            body.append(svg.text(x + cw / 2, y + ch / 2 + size * 0.35 - lift, big, size, weight="bold", fill=ink,
                                 fit=cw - 4))
            for i, word in enumerate(other):
                body.append(svg.text(x + cw / 2, y + ch / 2 + 2.6 + 2.8 * i, word, 3.2, fill=ink, fit=cw - 4))
            for i, hint in enumerate(reversed(hints)):
                body.append(svg.text(x + cw / 2, y + ch - 2.5 - 2.4 * i, hint, 2.2, fill=ink, fit=cw - 3))
            body.append("</g>")
    page_w, page_h = w + 2 * PAGE_MARGIN, h + 2 * PAGE_MARGIN + (9.5 if one_language else 6)
    body.append(svg.text(x0, y0 + h + 5, text("reports.keypad.print", width=f"{w:g}", height=f"{h:g}"), 2.5,
                         anchor="start"))
    body.append(svg.text(x0, y0 + h + 8.5, text("reports.keypad.cut"), 2.5, anchor="start"))
    if one_language:  # the OLED must then name the keys in the print's language: the builder is told how
        body.append(svg.text(x0, y0 + h + 12, text("reports.keypad.config", language=own),
                             2.5, anchor="start"))
    return svg.document(page_w, page_h, body, unit="mm", title=text("reports.keypad.title"))


def player_cards(count: int = 6) -> str:
    """Labels for the players' bank cards: number and colour, the card's own size, on A4."""
    if not 1 <= count <= len(PLAYER_COLOURS):
        raise ValueError(text("reports.cards.count", n=len(PLAYER_COLOURS)))
    w, h = CARD_MM
    per_row = int((A4[0] - 2 * PAGE_MARGIN + 4) // (w + 4))
    body = []
    for n in range(1, count + 1):
        col, row = (n - 1) % per_row, (n - 1) // per_row
        x, y = PAGE_MARGIN + col * (w + 4), PAGE_MARGIN + row * (h + 4)
        colour = PLAYER_COLOURS[(n - 1) % len(PLAYER_COLOURS)]
        body += [
            f'<g id="bankkarte-{n}">',
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{CARD_RADIUS}" fill="#fff" {CUT}/>',
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="12" fill="{colour}"/>',
            svg.text(x + 5, y + 8.5, "MONOPOLY · Bankleser", 4.5, anchor="start", weight="bold", fill="#fff"),
            svg.text(x + w / 2, y + 39, str(n), 24, weight="bold", fill=colour),
            svg.text(x + w / 2, y + h - 4, text("reports.cards.card", n=n), 4),
            "</g>",
        ]
    return svg.document(A4[0], A4[1], body, unit="mm", title=text("reports.cards.title"))


def deed_stickers(edition_key: str | Edition, editions: Mapping[str, Edition] = EDITIONS) -> str:
    """One sticker per deed: the group's colour, the edition's name for the square, its printed price (a family's
    edition: its own, from ``editions``, the state directory's files beside the shipped ones)."""
    if isinstance(edition_key, Edition):
        edition = edition_key
    elif edition_key in editions:
        edition = editions[edition_key]
    else:
        raise ValueError(text("reports.deeds.unknown", edition=repr(edition_key), known=", ".join(editions)))
    w, h = STICKER_MM
    per_row = int((A4[0] - 2 * PAGE_MARGIN + 2) // (w + 2))
    body = [svg.text(PAGE_MARGIN, PAGE_MARGIN - 3, text("reports.deeds.heading", edition=edition.title), 3.5,
                     anchor="start")]
    for i, deed in enumerate(DEEDS.values()):
        col, row = i % per_row, i // per_row
        x, y = PAGE_MARGIN + col * (w + 2), PAGE_MARGIN + row * (h + 2)
        colour = GROUP_COLOURS[deed.group or "utility"]
        name, price = square_name(edition, deed.square), edition.deed(deed.square).price
        body += [
            f'<g id="feld-{deed.square}">',
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="1.5" fill="#fff" {CUT}/>',
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="5" fill="{colour}"/>',
            svg.text(x + w / 2, y + 11.5, name, 3.6, weight="bold", fit=w - 4),
            svg.text(x + w / 2, y + 17.5, say(phrase("reports.deeds.square", square=deed.square, price=Cash(price)),
                                              edition), 3, fit=w - 4),
            "</g>",
        ]
    return svg.document(A4[0], A4[1], body, unit="mm", title=text("reports.deeds.title", edition=edition.title))
