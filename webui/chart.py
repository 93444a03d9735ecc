"""The net-worth chart, drawn on the server as SVG: no script library, no CDN, no internet."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from rules import EDITIONS, Edition
from rules.colours import PLAYER_COLOURS
from words import localised, money, text

from .protocol import Point


def _edition(edition: str | Edition | None) -> Edition:
    """The edition itself (a game's own, a family's too), or the shipped one of that key; classic if unknown."""
    return edition if isinstance(edition, Edition) else EDITIONS.get(edition or "classic", EDITIONS["classic"])


def money_label(edition: str | Edition | None) -> Callable[[int], str]:
    """Amounts as the edition writes them ("2M", "1500") in the language in force ("2,5M", "2.5M"), for axes and
    tables; classic if unknown."""
    ed = _edition(edition)
    return lambda amount: text("reports.amount", amount=money(int(amount), ed))


def money_unit(edition: str | Edition) -> Callable[[int], str]:
    """:func:`money_label` with the edition's currency where it has one, where the language puts it ("18M €",
    "£3000"; a currency word after the amount: "4723 Ringe"): for an amount read beside other editions' amounts."""
    label, unit = money_label(edition), localised(_edition(edition)).currency
    if not unit:
        return label
    key = "reports.money.word" if any(c.isalpha() for c in unit) else "reports.money.symbol"
    return lambda amount: text(key, amount=label(amount), unit=unit)


W, H, PAD = 360, 200, 40
"""The width a phone shows at 1:1 or a little smaller: 12-unit text stays over 9 px on a 320 px phone."""
PER_ROW, ROW = 3, 18
"""The legend: three names a row under the chart (eight players never overlap)."""


def empty(width: int, height: int) -> str:
    """The chart of a game without bookings yet: says so, in the language in force."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img">'
            '<text x="50%" y="50%" text-anchor="middle" fill="#666" font-size="13">'
            f'{escape(text("reports.chart.empty"))}</text></svg>')


def worth_svg(history: Sequence[Point], players: list[str], label: Any) -> str:
    """One line per player over the game's transactions; ``label`` formats the y-axis money."""
    if not history or not players:
        return empty(W, H)
    step = max(1, len(history) // 300)
    points = [*history[::step], *([history[-1]] if (len(history) - 1) % step else [])]
    top = max(max(int(p.get(n, 0)) for n in players) for p in points) or 1
    n = max(1, len(points) - 1)
    rows = -(-len(players) // PER_ROW)
    height = H + rows * ROW

    def xy(i: int, value: int) -> str:
        return f"{PAD + i * (W - PAD - 8) / n:.1f},{H - 12 - value * (H - 24) / top:.1f}"

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {height}" role="img" '
           f'aria-label="{escape(text("reports.chart.worth"))}" font-family="sans-serif" font-size="12">',
           f'<line x1="{PAD}" y1="{H - 12}" x2="{W - 8}" y2="{H - 12}" stroke="#999"/>',
           f'<text x="{PAD - 4}" y="16" text-anchor="end" fill="#444">{escape(label(top))}</text>',
           f'<text x="{PAD - 4}" y="{H - 12}" text-anchor="end" fill="#444">0</text>']
    for k, name in enumerate(players):
        colour = PLAYER_COLOURS[k % len(PLAYER_COLOURS)]
        line = " ".join(xy(i, int(p.get(name, 0))) for i, p in enumerate(points))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="{line}"/>')
        x, y = 8 + (k % PER_ROW) * (W - 16) / PER_ROW, H + 6 + (k // PER_ROW) * ROW
        out.append(f'<rect x="{x:.1f}" y="{y - 10}" width="10" height="10" fill="{colour}"/>'
                   f'<text x="{x + 14:.1f}" y="{y}" fill="#222">{escape(name)}</text>')
    out.append("</svg>")
    return "".join(out)


TW, TH, TPAD = 360, 210, 40


def timeline_svg(points: Sequence[Point], players: list[str], label: Any) -> str:
    """Net worth over the time of day, one line per player, sized to be read on a 320 px phone.

    ``points`` carry ``at`` (wall time of the booking); the names go in a legend beside the chart
    (HTML), so eight of them never overlap in the drawing.
    """
    if len(points) < 2 or not players:
        return empty(TW, TH)
    step = max(1, len(points) // 300)
    shown = [*points[::step], *([points[-1]] if (len(points) - 1) % step else [])]
    t0: float = shown[0]["at"]
    t1: float = shown[-1]["at"]
    span = (t1 - t0) or 1.0
    top = max(max(int(p.get(n, 0)) for n in players) for p in shown) or 1
    left, right, bottom = TPAD + 8, TW - 6, TH - 24

    def x(at: float) -> float:
        return left + (at - t0) * (right - left) / span

    def y(value: int) -> float:
        return bottom - value * (bottom - 10) / top

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {TW} {TH}" role="img" '
           f'aria-label="{escape(text("reports.chart.timeline"))}" font-family="sans-serif" font-size="12">',
           f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#999"/>',
           f'<text x="{left - 3}" y="16" text-anchor="end" fill="#444">{escape(label(top))}</text>',
           f'<text x="{left - 3}" y="{bottom}" text-anchor="end" fill="#444">0</text>']
    out += [f'<text x="{x(at):.1f}" y="{TH - 6}" text-anchor="{anchor}" fill="#444">{tick}</text>'
            for at, anchor, tick in time_ticks(t0, span)]
    for k, name in enumerate(players):
        line = " ".join(f"{x(p['at']):.1f},{y(int(p.get(name, 0))):.1f}" for p in shown)
        colour = PLAYER_COLOURS[k % len(PLAYER_COLOURS)]
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{line}">'
                   f'<title>{escape(name)}</title></polyline>')
    out.append("</svg>")
    return "".join(out)


def time_ticks(t0: float, span: float) -> list[tuple[float, str, str]]:
    """Up to four times of day along the axis, each label once: minutes, or seconds for a short game
    (a two-minute game read "23:29 23:29 23:29 23:29")."""
    ats = [t0 + span * k / 3 for k in range(4)]
    for fmt in ("%H:%M", "%H:%M:%S"):
        labels = [time.strftime(fmt, time.localtime(at)) for at in ats]
        if len(set(labels)) == len(labels):
            break
    shown: list[tuple[float, str, str]] = []
    for k, (at, label) in enumerate(zip(ats, labels, strict=True)):
        if not shown or shown[-1][2] != label:
            shown.append((at, ("start", "middle", "middle", "end")[k], label))
    return shown
