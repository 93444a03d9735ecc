"""The five editions as data: every rule difference of RULES.md is a named field here.

Themed editions keep classic values ("Die Werte entsprechen denen aus dem originalen
Monopoly"); they differ in money scale, names and a handful of rule details.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from .board import Square


class Mode(Enum):
    """How a game is played and when it ends."""

    STANDARD = "standard"
    """Start capital each; ends when one player is left, who wins."""
    QUICK = "quick"
    """Deeds dealt at the start, hotels after fewer houses, ends at a bankruptcy; richest wins."""
    TIMED = "timed"
    """MONOPOLY AUF ZEIT: ends when the agreed time is up (``end``); richest wins."""


@dataclass(frozen=True, slots=True)
class QuickRules:
    """The edition's short game (banking "Schnellspiel", skylanders "kurzes Spiel")."""

    deeds_each: int
    """Deeds the banker deals to each player at the start."""
    deal_paid: bool
    """Whether players pay the printed price for the dealt deeds."""
    houses_per_hotel: int
    """Houses on every street of the group before a hotel; the hotel replaces them."""
    ends_at_bankruptcy: int
    """The game ends when this many players have gone bankrupt."""


SCHNELLSPIEL = QuickRules(deeds_each=2, deal_paid=True, houses_per_hotel=3, ends_at_bankruptcy=2)
"""Seed 000: 2 paid deeds, 3 Apartments → Hotel, ends when the second player is bankrupt."""

KURZES_SPIEL = QuickRules(deeds_each=3, deal_paid=False, houses_per_hotel=3, ends_at_bankruptcy=1)
"""Seed 004: 3 free deeds, 3 Hütten → Schloss, ends at the first bankruptcy."""


@dataclass(frozen=True, slots=True)
class Edition:
    """One MONOPOLY edition: its money, its names and its rule flags."""

    key: str
    title: str
    scale: int
    """Every board value is multiplied by this (banking: 10,000)."""
    km_notation: bool
    """Amounts are typed and shown with K and M (banking) rather than as plain digits."""
    currency: str
    """Short currency label for screens: "€", "Ringe" …; empty where the books print none."""
    house: str
    houses: str
    hotel: str
    hotels: str
    stations: str
    utilities: str
    double_rent_with_mortgaged_group: bool
    """An unbuilt street's rent doubles for the whole group even if another street of it is mortgaged."""
    quick: QuickRules
    bankruptcy_mortgage_fee: bool
    """A creditor receiving mortgaged deeds from a bankrupt player pays the bank 10 % at once."""
    auction_min_bid: int
    """Lowest auction bid (already scaled)."""
    hotel_sale_returns_houses: bool = False
    """Selling a hotel gives back the houses it replaced, on the street, plus half the hotel's price
    (schalke, sonic, skylanders: "erhalten Sie von der Bank die ursprünglich eingetauschten 4 …")."""
    speed_die_bonus: int = 0
    """Extra start money with the speed die (schalke "Schnelleres Spiel"); 0: no speed die."""
    square_names: Mapping[Square, str] = field(default_factory=lambda: MappingProxyType({}))
    """Themed names where the seed gives them; other squares keep their classic German name."""

    @property
    def start_capital(self) -> int:
        return 1500 * self.scale

    @property
    def salary(self) -> int:
        return 200 * self.scale

    @property
    def jail_fine(self) -> int:
        return 50 * self.scale

    @property
    def min_entry(self) -> int:
        """Smallest amount the banker may type (banking: 10K)."""
        return self.scale

    @property
    def max_entry(self) -> int:
        """Largest amount the banker may type (banking: 20M, a hotel rent on Schlossallee)."""
        return 2000 * self.scale

    def money(self, amount: int) -> int:
        """A board value (1-unit money) in this edition's money."""
        return amount * self.scale


def _names(**by_square: str) -> Mapping[Square, str]:
    return MappingProxyType({int(k.lstrip("_")): v for k, v in by_square.items()})


EDITIONS: dict[str, Edition] = {
    e.key: e
    for e in (
        Edition(
            key="banking",
            title="MONOPOLY Banking",
            scale=10_000,
            km_notation=True,
            currency="€",
            house="Apartment",
            houses="Apartments",
            hotel="Hotel",
            hotels="Hotels",
            stations="Verkehrszentren",
            utilities="Medienzentren",
            double_rent_with_mortgaged_group=True,
            quick=SCHNELLSPIEL,
            bankruptcy_mortgage_fee=False,
            auction_min_bid=10_000,
            square_names=_names(_12="Sony-Center", _28="Fernsehturm"),
        ),
        Edition(
            key="classic",
            title="MONOPOLY",
            scale=1,
            km_notation=False,
            currency="",
            house="Haus",
            houses="Häuser",
            hotel="Hotel",
            hotels="Hotels",
            stations="Bahnhöfe",
            utilities="Werke",
            double_rent_with_mortgaged_group=True,
            quick=SCHNELLSPIEL,
            bankruptcy_mortgage_fee=False,
            auction_min_bid=1,
        ),
        Edition(
            key="schalke",
            title="MONOPOLY FC Schalke 04",
            scale=1,
            km_notation=False,
            currency="Dollar",
            house="Tribüne",
            houses="Tribünen",
            hotel="Stadion",
            hotels="Stadien",
            stations="Tribünen-Felder",
            utilities="Stadien-Felder",
            double_rent_with_mortgaged_group=False,
            quick=SCHNELLSPIEL,
            bankruptcy_mortgage_fee=True,
            auction_min_bid=1,
            hotel_sale_returns_houses=True,
            speed_die_bonus=1000,
            square_names=_names(_28="Parkstadion"),
        ),
        Edition(
            key="sonic",
            title="MONOPOLY Sonic",
            scale=1,
            km_notation=False,
            currency="Ringe",
            house="Labor",
            houses="Labore",
            hotel="Hightech-Anlage",
            hotels="Hightech-Anlagen",
            stations="Fahrzeuge",
            utilities="Eggman-Feder/1-UP",
            double_rent_with_mortgaged_group=False,
            quick=SCHNELLSPIEL,
            bankruptcy_mortgage_fee=True,
            auction_min_bid=1,
            hotel_sale_returns_houses=True,
            square_names=_names(_12="Eggman-Feder", _28="1-UP", _4="Zeit vorbei!", _38="Verlorene Ringe!"),
        ),
        Edition(
            key="skylanders",
            title="MONOPOLY Skylanders Swap Force",
            scale=1,
            km_notation=False,
            currency="",
            house="Hütte",
            houses="Hütten",
            hotel="Schloss",
            hotels="Schlösser",
            stations="Transporte",
            utilities="Werke",
            double_rent_with_mortgaged_group=False,
            quick=KURZES_SPIEL,
            bankruptcy_mortgage_fee=True,
            auction_min_bid=1,
            hotel_sale_returns_houses=True,
            square_names=_names(
                _5="Flynns Ballon-Touren",
                _15="Luftpiraten-Express",
                _25="Molekin-Minenzug",
                _35="Schreckliche Schiffstransporte",
                _12="Lichtkern Elektro",
                _28="Drill-X' Beat-Boxring",
                _4="Aurics Reisebüro-Gebühr",
                _38="Persephones Juwelen-Laden",
            ),
        ),
    )
}
"""The editions by key."""


GENDERS = {"Apartment": "n", "Haus": "n", "Hotel": "n", "Tribüne": "f", "Stadion": "n", "Labor": "n",
           "Hightech-Anlage": "f", "Hütte": "f", "Schloss": "n"}
"""The grammatical gender of every edition's building words (issue 18: "ein Tribüne", "das Hightech-Anlage")."""

_ARTICLES = {"ein": {"m": "einen", "f": "eine", "n": "ein"}, "kein": {"m": "keinen", "f": "keine", "n": "kein"},
             "der": {"m": "den", "f": "die", "n": "das"}}


def article(kind: str, word: str) -> str:
    """``word`` with its article ("ein", "kein" or "der", accusative; nominative is the same but for
    masculine words, which no edition has): "eine Tribüne", "das Stadion"."""
    return f"{_ARTICLES[kind][GENDERS.get(word, 'n')]} {word}"
