"""The few SVG helpers the pictures share: escaped text, a document, a check that it parses."""

from __future__ import annotations

from html import escape
from xml.etree import ElementTree

NS = "http://www.w3.org/2000/svg"


def text(x: float, y: float, body: str, size: float, *, anchor: str = "middle", fit: float | None = None,
         weight: str = "normal", fill: str = "#111", rotate: bool = False) -> str:
    """One line of text. ``fit``: the width it may take; a longer line is squeezed to it rather than
    running off its label (the width is estimated from an average glyph: 0.55 em, bold 0.65 em)."""
    extra = ""
    if fit is not None and len(body) * size * (0.65 if weight == "bold" else 0.55) > fit:
        extra = f' textLength="{fit:g}" lengthAdjust="spacingAndGlyphs"'
    turn = f' transform="rotate(-90 {x:g} {y:g})"' if rotate else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}"{extra}{turn}>{escape(body)}</text>')


def document(width: float, height: float, body: list[str], *, unit: str = "", title: str = "") -> str:
    """A standalone SVG. ``unit="mm"``: width and height in millimetres, one user unit = 1 mm."""
    head = (f'<svg xmlns="{NS}" width="{width:g}{unit}" height="{height:g}{unit}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family="DejaVu Sans, Arial, sans-serif">')
    parts = [head, f"<title>{escape(title)}</title>"] if title else [head]
    return "\n".join([*parts, *body, "</svg>"]) + "\n"


def parse(svg: str) -> ElementTree.Element:
    """The SVG as XML (raises ``ElementTree.ParseError`` if it is not well-formed)."""
    return ElementTree.fromstring(svg)
