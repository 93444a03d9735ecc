"""The classic board: 40 squares, 28 deeds, the same shape in every edition.

The shape (which square is a street of which group, a station, a tax …) is what every edition shares. The
values printed here are the classic German board's, which ``rules/editions/classic.toml`` prints too (a test
holds them equal); the rules read each game's values from its edition (:meth:`~rules.editions.Edition.deed`),
never from here.
"""

from __future__ import annotations

from enum import Enum
from typing import TypeAlias

from .phrase import Phrase, phrase
from .record import record

Square: TypeAlias = int
"""A square index on the classic board: 0 = LOS … 39 = Schlossallee."""


class Kind(Enum):
    """What a square is; only streets, stations and utilities have deeds."""

    GO = "go"
    STREET = "street"
    STATION = "station"
    UTILITY = "utility"
    TAX = "tax"
    CHANCE = "chance"
    COMMUNITY = "community"
    JAIL = "jail"
    PARKING = "parking"
    GO_TO_JAIL = "go_to_jail"


@record
class Deed:
    """A Besitzrechtkarte: the printed values of one property (1-unit money)."""

    square: Square
    name: str
    """The classic German name; editions may rename it."""
    kind: Kind
    group: str | None
    """Colour group of a street; ``"station"`` / ``"utility"`` for the others."""
    price: int
    rents: tuple[int, ...]
    """Streets: unbuilt, 1, 2, 3, 4 houses, hotel. Stations: 1–4 owned. Utilities: dice factor for 1 or 2 owned."""
    house_price: int
    """Price of one house on a street (a hotel costs one more); 0 elsewhere."""
    mortgage: int


@record
class SquareInfo:
    """Any square of the board, with its tax where it is a tax square."""

    square: Square
    name: str
    kind: Kind
    tax: int = 0


_STATION_RENTS = (25, 50, 100, 200)
_UTILITY_FACTORS = (4, 10)


def _street(sq: int, name: str, group: str, price: int, rents: tuple[int, ...], house: int) -> Deed:
    return Deed(sq, name, Kind.STREET, group, price, rents, house, price // 2)


DEEDS: dict[Square, Deed] = {
    d.square: d
    for d in (
        _street(1, "Badstraße", "brown", 60, (2, 10, 30, 90, 160, 250), 50),
        _street(3, "Turmstraße", "brown", 60, (4, 20, 60, 180, 320, 450), 50),
        Deed(5, "Südbahnhof", Kind.STATION, "station", 200, _STATION_RENTS, 0, 100),
        _street(6, "Chausseestraße", "lightblue", 100, (6, 30, 90, 270, 400, 550), 50),
        _street(8, "Elisenstraße", "lightblue", 100, (6, 30, 90, 270, 400, 550), 50),
        _street(9, "Poststraße", "lightblue", 120, (8, 40, 100, 300, 450, 600), 50),
        _street(11, "Seestraße", "pink", 140, (10, 50, 150, 450, 625, 750), 100),
        Deed(12, "Elektrizitätswerk", Kind.UTILITY, "utility", 150, _UTILITY_FACTORS, 0, 75),
        _street(13, "Hafenstraße", "pink", 140, (10, 50, 150, 450, 625, 750), 100),
        _street(14, "Neue Straße", "pink", 160, (12, 60, 180, 500, 700, 900), 100),
        Deed(15, "Westbahnhof", Kind.STATION, "station", 200, _STATION_RENTS, 0, 100),
        _street(16, "Münchener Straße", "orange", 180, (14, 70, 200, 550, 750, 950), 100),
        _street(18, "Wiener Straße", "orange", 180, (14, 70, 200, 550, 750, 950), 100),
        _street(19, "Berliner Straße", "orange", 200, (16, 80, 220, 600, 800, 1000), 100),
        _street(21, "Theaterstraße", "red", 220, (18, 90, 250, 700, 875, 1050), 150),
        _street(23, "Museumstraße", "red", 220, (18, 90, 250, 700, 875, 1050), 150),
        _street(24, "Opernplatz", "red", 240, (20, 100, 300, 750, 925, 1100), 150),
        Deed(25, "Nordbahnhof", Kind.STATION, "station", 200, _STATION_RENTS, 0, 100),
        _street(26, "Lessingstraße", "yellow", 260, (22, 110, 330, 800, 975, 1150), 150),
        _street(27, "Schillerstraße", "yellow", 260, (22, 110, 330, 800, 975, 1150), 150),
        Deed(28, "Wasserwerk", Kind.UTILITY, "utility", 150, _UTILITY_FACTORS, 0, 75),
        _street(29, "Goethestraße", "yellow", 280, (24, 120, 360, 850, 1025, 1200), 150),
        _street(31, "Rathausplatz", "green", 300, (26, 130, 390, 900, 1100, 1275), 200),
        _street(32, "Hauptstraße", "green", 300, (26, 130, 390, 900, 1100, 1275), 200),
        _street(34, "Bahnhofstraße", "green", 320, (28, 150, 450, 1000, 1200, 1400), 200),
        Deed(35, "Hauptbahnhof", Kind.STATION, "station", 200, _STATION_RENTS, 0, 100),
        _street(37, "Parkstraße", "darkblue", 350, (35, 175, 500, 1100, 1300, 1500), 200),
        _street(39, "Schlossallee", "darkblue", 400, (50, 200, 600, 1400, 1700, 2000), 200),
    )
}
"""The 28 deeds by square."""

_OTHER_SQUARES = (
    SquareInfo(0, "LOS", Kind.GO),
    SquareInfo(2, "Gemeinschaftsfeld", Kind.COMMUNITY),
    SquareInfo(4, "Einkommensteuer", Kind.TAX, 200),
    SquareInfo(7, "Ereignisfeld", Kind.CHANCE),
    SquareInfo(10, "Gefängnis / nur zu Besuch", Kind.JAIL),
    SquareInfo(17, "Gemeinschaftsfeld", Kind.COMMUNITY),
    SquareInfo(20, "Frei Parken", Kind.PARKING),
    SquareInfo(22, "Ereignisfeld", Kind.CHANCE),
    SquareInfo(30, "Gehen Sie in das Gefängnis", Kind.GO_TO_JAIL),
    SquareInfo(33, "Gemeinschaftsfeld", Kind.COMMUNITY),
    SquareInfo(36, "Ereignisfeld", Kind.CHANCE),
    SquareInfo(38, "Zusatzsteuer", Kind.TAX, 100),
)

SQUARES: tuple[SquareInfo, ...] = tuple(
    sorted(
        [SquareInfo(d.square, d.name, d.kind) for d in DEEDS.values()] + list(_OTHER_SQUARES),
        key=lambda s: s.square,
    )
)
"""All 40 squares in board order."""

GROUPS: dict[str, tuple[Square, ...]] = {}
"""Squares of each group (colour groups, ``station``, ``utility``) in board order."""
for _deed in DEEDS.values():
    assert _deed.group is not None
    GROUPS.setdefault(_deed.group, ())
    GROUPS[_deed.group] += (_deed.square,)

GROUP_NAMES: dict[str, Phrase] = {
    "brown": phrase("rules.group.brown"),
    "lightblue": phrase("rules.group.lightblue"),
    "pink": phrase("rules.group.pink"),
    "orange": phrase("rules.group.orange"),
    "red": phrase("rules.group.red"),
    "yellow": phrase("rules.group.yellow"),
    "green": phrase("rules.group.green"),
    "darkblue": phrase("rules.group.darkblue"),
    "station": phrase("rules.group.station"),
    "utility": phrase("rules.group.utility"),
}
"""The groups' names, for screens and the status page (in the catalogue: ``rules.group.brown`` …)."""

TAX_SQUARES: tuple[Square, ...] = (4, 38)
