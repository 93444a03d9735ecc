"""What an edition is, as the rules read it: money, names, words and rule flags, all data.

Every value here comes from an edition's file (:mod:`rules.editions.fileformat`, its keys in
:mod:`rules.editions.schema`); nothing about any one edition is written in code. Amounts are in the edition's own
money (banking: euros, 10,000 for a classic 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, replace
from enum import Enum
from types import MappingProxyType
from typing import Literal, NamedTuple

from ..board import SQUARES, Deed, Square
from ..record import record

Gender = Literal["m", "f", "n"]


class Mode(Enum):
    """How a game is played and when it ends."""

    STANDARD = "standard"
    """Start capital each; ends when one player is left, who wins."""
    QUICK = "quick"
    """Deeds dealt at the start, hotels after fewer houses, ends at a bankruptcy; richest wins."""
    TIMED = "timed"
    """MONOPOLY AUF ZEIT: ends when the agreed time is up (``end``); richest wins."""


class Word(NamedTuple):
    """A building word as the edition prints it, with its grammatical gender, which gives it its article in a
    German sentence ("eine Tribüne", "das Stadion"; said by ``words``, English "a" and "the" for all three). A
    NamedTuple: cheaper to define at import than a dataclass."""

    singular: str
    plural: str
    gender: Gender


class Terms(NamedTuple):
    """An edition's words in one language other than its board's: what its file gives under ``[words.<code>]``.
    A word not given (None) is the language's own (the catalogue's ``edition.*``): a family that names its
    houses "Speicher" and gives no English word plays in English with "house" (``words.localised``)."""

    house: Word | None = None
    hotel: Word | None = None
    stations: str | None = None
    utilities: str | None = None
    currency: str | None = None
    """None: the board's own currency label, a sign like "£" or "€" being the same in every language."""
    quick: str | None = None


@record
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
    name: str
    """What the edition's book calls it (banking "Schnellspiel", Skylanders "kurzes Spiel"): the edition's own
    word, from its file."""


@record
class Edition:
    """One MONOPOLY edition: its money, its names, its words and its rule flags, as its file gives them."""

    key: str
    title: str
    scale: int
    """The smallest amount, of which every amount is a multiple (banking: 10,000, the reader's 10K)."""
    km_notation: bool
    """Amounts are typed and shown with K and M (banking) rather than as plain digits."""
    currency: str
    """Short currency label for screens: "€", "Ringe" …; empty where the books print none."""
    house_word: Word
    hotel_word: Word
    stations: str
    """The stations as a group ("Bahnhöfe", "Verkehrszentren")."""
    utilities: str
    names: tuple[str, ...]
    """The 40 squares' names on this edition's board, LOS first: what the pages, reports and printables say."""
    short_names: tuple[str, ...]
    """The 40 squares as the OLED names them: the file's ``[short]`` name where it gives one, else the name (one
    line of the display for every square a booking names: ``schema.MAX_DISPLAY_NAME``)."""
    deeds: Mapping[Square, Deed]
    """The printed deeds in this edition's money (a utility's rents are its dice factors, times ``scale``)."""
    taxes: Mapping[Square, int]
    start_capital: int
    salary: int
    jail_fine: int
    max_entry: int
    """Largest amount the banker may type in one go (banking: 20M, a hotel rent on Schlossallee)."""
    auction_min_bid: int
    """Lowest auction bid."""
    speed_die_bonus: int
    """Extra start money with the speed die (schalke "Schnelleres Spiel"); 0: no speed die."""
    houses_in_box: int
    hotels_in_box: int
    quick: QuickRules
    double_rent_with_mortgaged_group: bool
    """An unbuilt street's rent doubles for the whole group even if another street of it is mortgaged."""
    bankruptcy_mortgage_fee: bool
    """A creditor receiving mortgaged deeds from a bankrupt player pays the bank 10 % at once."""
    hotel_sale_returns_houses: bool
    """Selling a hotel gives back the houses it replaced, on the street, plus half the hotel's price
    (schalke, sonic, skylanders: "erhalten Sie von der Bank die ursprünglich eingetauschten 4 …")."""
    building_auction_at_house_price: bool
    """The bank's building auction in a shortage starts at the lowest printed house price (000: "Als
    Mindestgebot gilt der niedrigste, gedruckte Preis"); otherwise at ``auction_min_bid`` (001/003/004:
    "mit einem Mindestgebot von 1 beginnen")."""
    base: str | None = None
    """The edition this one was written against (its file gave only what differs)."""
    language: str = "de"
    """The language the board prints (its words above are that language's): "de" for the German books, "en" for
    the English boards."""
    words: Mapping[str, Terms] = field(default_factory=lambda: MappingProxyType({}))
    """The board's words in other languages, by language code (``[words.en]``): what ``words.localised`` says
    where the language in force is not the board's."""

    # Compatible names (other modules read these) -----------------------------------------

    @property
    def house(self) -> str:
        return self.house_word.singular

    @property
    def houses(self) -> str:
        return self.house_word.plural

    @property
    def hotel(self) -> str:
        return self.hotel_word.singular

    @property
    def hotels(self) -> str:
        return self.hotel_word.plural

    @property
    def square_names(self) -> Mapping[Square, str]:
        """The names that differ from the classic German board's."""
        return MappingProxyType({sq: n for sq, n in enumerate(self.names) if n != SQUARES[sq].name})

    def displayed(self) -> Edition:
        """This edition as the OLED says it: the same, with each square named by its short name. The device says
        its phrases and names its squares with it (``device/scenes/said.py``); everything else keeps ``names``."""
        return self if self.short_names == self.names else replace(self, names=self.short_names)

    @property
    def min_entry(self) -> int:
        """Smallest amount the banker may type (banking: 10K)."""
        return self.scale

    def money(self, amount: int) -> int:
        """A classic board value (1-unit money) in this edition's money: kept for callers written before the
        editions had their own deeds; prefer :meth:`deed`."""
        return amount * self.scale

    def deed(self, square: Square) -> Deed:
        """The printed deed of ``square`` in this edition (its name, its money)."""
        return self.deeds[square]

    def word(self, hotel: bool) -> Word:
        return self.hotel_word if hotel else self.house_word
