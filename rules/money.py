"""Money: integers in the edition's unit, the card reader's 5-character notation, typed entries.

The banking reader shows at most 5 characters: 100,000 as ``100K``, 1,000,000 as ``1M``,
2,500,000 as ``2.5M``. An amount that cannot be shown exactly in 5 characters (say
12,340,000) is rounded *down* to the nearest value that fits (``12.3M``) and flagged as
inexact, so the screen can add a mark and print the full amount beside it: the reader
never shows more money than there is.
"""

from __future__ import annotations

from typing import TypeAlias

from .editions import Edition
from .errors import BadCommand
from .phrase import phrase
from .record import record

Money: TypeAlias = int
"""An amount in the edition's currency unit (banking: euros). Never a float."""

READER_WIDTH = 5
_SUFFIX = {"K": 1_000, "M": 1_000_000}


@record
class ReaderAmount:
    """What the 5-character display shows for an amount."""

    text: str
    exact: bool
    """False when ``text`` is rounded down to fit; the screen marks it (≈)."""


def _scaled(amount: int, unit: int, suffix: str) -> str:
    """``amount / unit`` with as few decimals as it needs, then the suffix (exact only)."""
    whole, rest = divmod(amount, unit)
    if not rest:
        return f"{whole}{suffix}"
    decimals = f"{rest:0{len(str(unit)) - 1}d}".rstrip("0")
    return f"{whole}.{decimals}{suffix}"


def _candidates(amount: Money, km: bool) -> list[str]:
    out = []
    if not km:
        out.append(str(amount))
    if amount >= 1_000_000 and amount % 1_000 == 0:
        out.append(_scaled(amount, 1_000_000, "M"))
    if amount >= 1_000 and amount % 1_000 == 0:
        out.append(_scaled(amount, 1_000, "K"))
    if km and amount < 1_000:
        out.append(str(amount))
    return out


def reader_text(amount: Money, edition: Edition) -> ReaderAmount:
    """The card reader's notation for ``amount``: exact if it fits in 5 characters."""
    if amount < 0:
        raise ValueError("amounts are never negative")
    for text in _candidates(amount, edition.km_notation):
        if len(text) <= READER_WIDTH:
            return ReaderAmount(text, exact=True)
    # Does not fit exactly: drop precision (rounding down) until it does.
    for unit, suffix in ((1_000_000, "M"), (1_000, "K")):
        if amount >= unit:
            for decimals in (2, 1, 0):
                step = unit // 10**decimals
                text = _scaled(amount - amount % step, unit, suffix)
                if len(text) <= READER_WIDTH:
                    return ReaderAmount(text, exact=False)
    return ReaderAmount("99M+", exact=False)  # 1e9 and more; no game gets here


def format_money(amount: Money, edition: Edition) -> str:
    """An amount for German text: ``15,025M`` and ``500K`` (banking), ``1500`` elsewhere. Exact, and as the
    banker would type it: a million and more in M, less in K, the decimals after a comma (review 11: never
    thousands of K such as ``15025K``, never a dot)."""
    if not edition.km_notation or amount == 0:
        return str(amount)
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    unit, suffix = (1_000_000, "M") if amount >= 1_000_000 else (1_000, "K")
    return sign + _scaled(amount, unit, suffix).replace(".", ",")


def parse_amount(text: str, edition: Edition) -> Money:
    """What the banker typed (``2.5M``, ``500K``, ``200``) as an integer amount.

    Malformed entries raise :class:`BadCommand` saying why. Whether the amount is
    allowed (10K–20M …) is the rules' business, not the parser's.
    """
    raw = text.strip().upper().replace(",", ".")
    if not raw:
        raise BadCommand(phrase("rules.entry.empty"))
    suffix = raw[-1] if raw[-1] in _SUFFIX else ""
    number = raw[:-1] if suffix else raw
    whole, dot, frac = number.partition(".")
    if not whole.isdigit() or (dot and not frac.isdigit()) or number.count(".") > 1:
        raise BadCommand(phrase("rules.entry.invalid", entry=text.strip()))
    if edition.km_notation and not suffix:
        raise BadCommand(phrase("rules.entry.suffix"))
    unit = _SUFFIX.get(suffix, 1)
    if dot and len(frac) > len(str(unit)) - 1:
        raise BadCommand(phrase("rules.entry.decimals", entry=text.strip()))
    frac_value = int(frac.ljust(len(str(unit)) - 1, "0")) if dot and unit > 1 else 0
    return int(whole) * unit + frac_value
