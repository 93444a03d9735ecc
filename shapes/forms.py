"""The banker's phone forms as the device draws them and the web passes them on (``GET /api/banker/legal``), and
what Storno would take back (``GET /api/banker/undo``).

The device reckons them on its loop from the rules' legal commands (``device.scenes.places`` the fields,
``device.daemon.booking`` the forms); the page's script draws a field by its ``kind`` and books what was typed.
"""

# No ``from __future__ import annotations``: Python 3.11 counts a NotRequired key written as a string as
# required (``__required_keys__``), and what reads these types at run time would then expect a key not sent.

from typing import Literal, NotRequired, TypedDict

FieldKind = Literal["select", "multi", "money", "number", "check"]
"""How the page draws a field: a choice of one or of several options, an amount in the edition's notation, a whole
number, a tick."""


class Option(TypedDict):
    """A choice of a select or multi field: the value sent, its words, and what the page reads beside it:
    ``flags`` (a utility's square, a hotel, a player as creditor) for the fields shown ``when`` it is chosen, and
    a trade's deed its ``owner``."""

    value: int | str
    label: str
    flags: NotRequired[list[str]]
    owner: NotRequired[str]


class Field(TypedDict):
    """One field of a form, named after the command's field (``a_gives.cash``: nested); ``optional``: may be left
    empty; ``when``: shown only while the field it names has an option with that flag chosen; ``partner``: its
    options are the trade partner's (the page shows those of the one chosen)."""

    name: str
    kind: FieldKind
    label: str
    options: NotRequired[list[Option]]
    optional: NotRequired[bool]
    when: NotRequired[list[str]]
    partner: NotRequired[bool]


class Form(TypedDict):
    """A booking the rules open now, in the device's words: the op, the form's title, the device's flow and menu
    entry for it, which command field names the player, whether the preview asks to confirm, the fields, and a
    digest of the fields as drawn (a form booked at once books only the choices the banker saw)."""

    op: str
    label: str
    flow: str
    menu: str
    who: str
    confirm: bool
    fields: list[Field]
    version: str


class Forms(TypedDict):
    """The players still in the game (seat order) and, for the one chosen, every form the rules open, in the
    device's order; ``message`` when there is none to offer (no game, the game over, a player not in it); the
    edition and whether it types amounts as "2,5M" (``km``); ``dropped``: what the page says when a switch of
    player drops what was typed."""

    players: list[str]
    player: str | None
    forms: list[Form]
    message: NotRequired[str]
    edition: NotRequired[str]
    km: NotRequired[bool]
    dropped: NotRequired[str]


class LastBooking(TypedDict):
    """What Storno would take back now: its number (an undo's ``of``; None: nothing) and the rules' text of it."""

    number: int | None
    text: str
