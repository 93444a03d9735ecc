"""The web's protocol in types: what the device answers the web, and what the web answers a phone.

Every answer a phone's script reads has one shape, ``{"ok": true, …}`` or ``{"ok": false, "code", "message"}``,
and it is made here alone, by the makers below (a test reads the web's code for answers built by hand): the phone's
scripts branch on those keys, so a route that spelt them itself could drift from what the scripts expect.
:func:`webui.errors.json_response` sends them and derives their HTTP status.

The types are TypedDicts, not classes: the answers are JSON objects on the wire and plain dicts in the tests, and
mypy checks them key by key. The device's side conforms to them structurally (its store may not import the web).
This module imports nothing but the standard library: the daemon loads it before READY.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

if TYPE_CHECKING:
    from rules import Event


class Done(TypedDict):
    """A change made, with nothing more to say."""

    ok: Literal[True]


class Refusal(TypedDict):
    """A request refused: a program's code (the scripts branch on it) and the reason in the page's language."""

    ok: Literal[False]
    code: str
    message: str


class Changed(Refusal):
    """A confirmation the state moved under (code ``changed``): the preview as the rules would book it now."""

    preview: Preview


class Booked(TypedDict):
    """A booking from the forms: a repeat told apart (its id seen), the rules' text, the balances it changed, the
    log's newest entry after it and the edition those balances are in."""

    ok: Literal[True]
    duplicate: bool
    text: str
    balances: dict[str, int]
    seq: int | None
    edition: str | None


class Repeat(TypedDict):
    """A keypad command sent again (its id seen): booked once, answered as such."""

    ok: Literal[True]
    duplicate: Literal[True]


class Registered(TypedDict):
    """A bank card registered: its number (a deed tag has none, and is answered :class:`Done`)."""

    ok: Literal[True]
    number: int


class LanguageChosen(TypedDict):
    ok: Literal[True]
    language: str


class SignedIn(TypedDict):
    """A banker's login: the session's CSRF token, which clock dates the reports, and whether the phone came with
    the OLED's one-time code (then it sets the PIN before anything else)."""

    ok: Literal[True]
    csrf: str
    clock: str
    set_pin: bool


class NewSession(TypedDict):
    """The first PIN set: every session ended, this phone's renewed."""

    ok: Literal[True]
    csrf: str


class Pressed(TypedDict):
    """A key or a card on the virtual device: the input's number, for the page to wait for its frame."""

    ok: Literal[True]
    seq: int


class Session(TypedDict):
    banker: bool
    csrf: str | None
    pin_first: bool


class Frame(TypedDict):
    """The virtual device's OLED as text: its frame's number and what it shows."""

    seq: int
    text: str


class CardInfo(TypedDict):
    """A registered card as the admin lists it (UIDs only here: the public state names numbers)."""

    uid: str
    kind: str
    number: int
    name: str
    square: int


class CheckResult(TypedDict):
    """One line of the self-check: what was looked at, whether it works, what was seen and what to do."""

    name: str
    ok: bool
    detail: str
    fix: str


class SimCards(TypedDict):
    """The virtual device's cards: players and deed tags by UID, and the deeds' names in the running edition."""

    players: dict[str, str]
    deeds: dict[str, int]
    names: dict[int, str]


class SignalsShown(TypedDict):
    """What the virtual device shows beside the OLED: the tunes played (their count and the last), the LED, and the
    ledger's version (its buttons follow a new game or a card learned)."""

    tones: int
    tone: str
    led: bool
    version: int


class GameSummary(TypedDict):
    """A game in the list (/spiele), at the head of its report, and counted in the Bestenliste: its times, edition
    and mode (and the rules' phrase for the mode, said when shown), players, status (a program word the pages say:
    läuft, beendet, ersetzt), the winners and the end's ranking, net worth and cash, and which clock dated it."""

    id: int
    started: float
    ended: float
    last_seq: int
    edition: str
    edition_title: str
    mode: str
    mode_said: list[object]
    players: list[str]
    house_rules: list[str]
    status: str
    winner: str | None
    winners: list[str]
    ranking: list[str]
    worth: dict[str, int]
    cash: dict[str, int]
    commands: int
    clock: str


class Figures(TypedDict):
    """A player's figures in a report: rent paid and received, the deed that earned most (square, amount), the
    biggest payment (amount, booking), buildings bought, mortgages taken, when bankrupt."""

    rent_paid: int
    rent_received: int
    best_deed: tuple[int, int] | None
    biggest: tuple[int, Event] | None
    buildings: int
    mortgages: int
    bankrupt_at: float | None


class BestRow(TypedDict):
    """A player's line of the Bestenliste: games finished, games won, and the share won."""

    name: str
    games: int
    wins: int
    rate: float


class RecordRow(TypedDict):
    """The best net worth at the end of a quick or timed game, one per edition and mode: who, how much, which game."""

    edition: str
    edition_title: str
    mode: str
    mode_said: list[object]
    name: str
    worth: int
    game: int


class Said(TypedDict):
    """A problem of an edition as the admin's page says it: where (a file's line, a form's field), the rules' key,
    the message beside its place and the text for the list; ``note``: a form's problem that is only a warning."""

    path: str
    line: int | None
    code: str
    message: str
    text: str
    note: NotRequired[bool]


class EditionEntry(TypedDict):
    """An edition on the box: shipped or the family's (then its file), and the notes its file gave."""

    key: str
    title: str
    base: str | None
    family: bool
    file: str | None
    warnings: list[Said]


class BrokenFile(TypedDict):
    """A family's file that does not play, with why."""

    file: str
    problems: list[Said]


class PreviousVersion(TypedDict):
    """A replaced or deleted file kept to bring back: its name in the folder, its own name, and when."""

    name: str
    file: str
    at: str


class Overview(TypedDict):
    editions: list[EditionEntry]
    broken: list[BrokenFile]
    previous: list[PreviousVersion]


class CheckAnswer(TypedDict):
    """An edition checked (and saved, when it plays): its key, its problems and notes, and its text (the store's
    own; the web answers without it)."""

    ok: bool
    key: str | None
    problems: list[Said]
    warnings: list[Said]
    text: NotRequired[str]


class ToReplace(CheckAnswer):
    """Not saved: it would replace a file (code ``exists``); the ``question`` the page asks before it sends again."""

    code: str
    question: str


class FileRefused(TypedDict):
    """A file not deleted or brought back: not there (``no_file``), or the card refused (``not_saved``)."""

    ok: Literal[False]
    code: str
    problems: list[Said]


class Deleted(TypedDict):
    ok: Literal[True]
    kept: str


class Restored(TypedDict):
    ok: Literal[True]
    key: str | None
    file: str


class DeedData(TypedDict):
    price: int
    rents: list[int]
    house_price: int
    mortgage: int


class EditionData(TypedDict):
    """An edition's data as its file holds it, as far as the admin's form reads it (the rest rides along to the
    form's script): names, short names and taxes by square, deeds, the stations' and utilities' words, and the
    words of other languages."""

    key: str
    title: str
    base: NotRequired[str]
    language: NotRequired[str]
    currency: str
    names: dict[int, str]
    short: NotRequired[dict[int, str]]
    taxes: dict[int, int]
    deeds: dict[int, DeedData]
    groups: dict[str, str]
    words: NotRequired[dict[str, dict[str, object]]]


SaveAnswer = CheckAnswer | ToReplace
DeleteAnswer = Deleted | FileRefused
RestoreAnswer = Restored | FileRefused

Point = Mapping[str, float]
"""One booking on the net-worth chart: each player's net worth by name, and the booking's ``seq`` and ``at``."""

Forms = Mapping[str, object]
"""The booking forms the rules open for a player (``GET /api/banker/legal``): a JSON object whose fields the forms'
own module defines; the web passes it through untouched."""


class Payment(TypedDict):
    """One payment of a previewed booking (None: the bank)."""

    payer: str | None
    payee: str | None
    amount: int


class Previewed(TypedDict):
    """A booking as the rules would book it (``POST /api/banker/preview``): the command to book it with (its
    ``expect`` holds the preview's digest), the rules' text and note, whether the form asks to confirm, and the
    payments."""

    ok: Literal[True]
    command: Command
    text: str
    note: str
    confirm: bool
    transfers: list[Payment]


class Owing(Refusal):
    """A refusal of the rules that names a debt (``insufficient_funds``: what is owed, to raise money for)."""

    owed: NotRequired[int]


class FormChanged(Refusal):
    """A form booked at once whose choices changed since the page drew it (code ``changed``): the form as it is
    now (None: gone)."""

    form: Mapping[str, object] | None


Preview = Previewed | Owing | FormChanged
"""A booking's preview, or its refusal (``POST /api/banker/preview``)."""
LastBooking = Mapping[str, object]
"""What Storno would take back (``GET /api/banker/undo``): as :data:`Forms`, defined with the forms."""

Command = dict[str, object]
"""A command as a phone sent it: a JSON object, checked by the rules before anything is booked."""

Answer = Done | Refusal
"""A change's answer with nothing more to say on success."""
SubmitAnswer = Booked | Done | Changed | Refusal
RegisterAnswer = Registered | Done | Refusal
LanguageAnswer = LanguageChosen | Refusal


def done() -> Done:
    return {"ok": True}


def refused(code: str, message: str) -> Refusal:
    return {"ok": False, "code": code, "message": message}


def changed(message: str, preview: Preview) -> Changed:
    return {"ok": False, "code": "changed", "message": message, "preview": preview}


def booked(*, duplicate: bool, text: str, balances: dict[str, int], seq: int | None, edition: str | None) -> Booked:
    return {"ok": True, "duplicate": duplicate, "text": text, "balances": balances, "seq": seq, "edition": edition}


def previewed(command: Command, text: str, note: str, *, confirm: bool, transfers: list[Payment]) -> Previewed:
    return {"ok": True, "command": command, "text": text, "note": note, "confirm": confirm, "transfers": transfers}


def owing(code: str, message: str, owed: int | None) -> Owing:
    answer: Owing = {"ok": False, "code": code, "message": message}
    if owed is not None:
        answer["owed"] = owed
    return answer


def form_changed(message: str, form: Mapping[str, object] | None) -> FormChanged:
    return {"ok": False, "code": "changed", "message": message, "form": form}


def repeat() -> Repeat:
    return {"ok": True, "duplicate": True}


def registered(number: int) -> Registered:
    return {"ok": True, "number": number}


def language_chosen(language: str) -> LanguageChosen:
    return {"ok": True, "language": language}


def signed_in(csrf: str, clock: str, set_pin: bool) -> SignedIn:
    return {"ok": True, "csrf": csrf, "clock": clock, "set_pin": set_pin}


def new_session(csrf: str) -> NewSession:
    return {"ok": True, "csrf": csrf}


def pressed(seq: int) -> Pressed:
    return {"ok": True, "seq": seq}


def check_result(name: str, ok: bool, detail: str, fix: str) -> CheckResult:
    """A self-check's line (its ``ok`` is the part's, not a request's: the admin page lists them all)."""
    return {"name": name, "ok": ok, "detail": detail, "fix": fix}
