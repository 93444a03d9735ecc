"""The web's protocol in types: what the device answers the web, and what the web answers a phone.

Every answer a phone's script reads has one shape, ``{"ok": true, …}`` or ``{"ok": false, "code", "message"}``,
and it is made here alone, by the makers below (a test reads the web's code for answers built by hand): the phone's
scripts branch on those keys, so a route that spelt them itself could drift from what the scripts expect.
:func:`webui.errors.json_response` sends them and derives their HTTP status.

The types are TypedDicts, not classes: the answers are JSON objects on the wire and plain dicts in the tests, and
mypy checks them key by key. What the device makes and the web passes on (the reports, the editions' answers,
the phone's forms, the virtual device's cards) is typed in ``shapes``, once for both sides: the device's store and
scenes may not import the web. This module imports nothing but the standard library and ``shapes``: the daemon
loads it before READY.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict

from shapes.forms import Form


class Done(TypedDict):
    """A change made, with nothing more to say."""

    ok: Literal[True]


class Refusal(TypedDict):
    """A request refused: a program's code (the scripts branch on it) and the reason in the page's language; a
    refusal of the rules that names a debt (``insufficient_funds``) says what is owed, to raise money for."""

    ok: Literal[False]
    code: str
    message: str
    owed: NotRequired[int]


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


Point = Mapping[str, float]
"""One booking on the net-worth chart: each player's net worth by name, and the booking's ``seq`` and ``at``."""



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


class FormChanged(Refusal):
    """A form booked at once whose choices changed since the page drew it (code ``changed``): the form as it is
    now (None: gone)."""

    form: Form | None


Preview = Previewed | Refusal | FormChanged
"""A booking's preview, or its refusal (``POST /api/banker/preview``)."""

Command = dict[str, object]
"""A command as a phone sent it: a JSON object, checked by the rules before anything is booked."""

Answer = Done | Refusal
"""A change's answer with nothing more to say on success."""
SubmitAnswer = Booked | Done | Changed | Refusal
RegisterAnswer = Registered | Done | Refusal
LanguageAnswer = LanguageChosen | Refusal


def done() -> Done:
    return {"ok": True}


def refused(code: str, message: str, *, owed: int | None = None) -> Refusal:
    """A refusal; ``owed``: the debt the rules named (None: none, and the key is left out)."""
    answer: Refusal = {"ok": False, "code": code, "message": message}
    if owed is not None:
        answer["owed"] = owed
    return answer


def changed(message: str, preview: Preview) -> Changed:
    return {"ok": False, "code": "changed", "message": message, "preview": preview}


def booked(*, duplicate: bool, text: str, balances: dict[str, int], seq: int | None, edition: str | None) -> Booked:
    return {"ok": True, "duplicate": duplicate, "text": text, "balances": balances, "seq": seq, "edition": edition}


def previewed(command: Command, text: str, note: str, *, confirm: bool, transfers: list[Payment]) -> Previewed:
    return {"ok": True, "command": command, "text": text, "note": note, "confirm": confirm, "transfers": transfers}


def form_changed(message: str, form: Form | None) -> FormChanged:
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
