"""What the web needs of the device: the one boundary between them, owned by the web.

The daemon hands :func:`webui.app.create_app` an adapter that satisfies :class:`Backend`
(``device/daemon/web.py``; mypy checks it there). The web never imports the device or the drivers
(tests/test_web_boundary.py reads the imports both ways).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from .live import Published
from .protocol import (
    Answer,
    BestRow,
    CardInfo,
    CheckAnswer,
    CheckResult,
    Command,
    DeleteAnswer,
    EditionData,
    Figures,
    Forms,
    GameSummary,
    LanguageAnswer,
    LastBooking,
    Overview,
    Point,
    Preview,
    RecordRow,
    RegisterAnswer,
    RestoreAnswer,
    Said,
    SaveAnswer,
    SignalsShown,
    SimCards,
    SubmitAnswer,
)

if TYPE_CHECKING:
    from rules import Edition, Event
    from rules.editions import Problem


class Worth(NamedTuple):
    """The net-worth chart's data at one version of the game."""

    version: int
    points: Sequence[Point]
    """One per booking: the players' net worth by name (and the booking's ``seq`` and ``at``)."""
    players: list[str]
    """In seat order: the chart's lines and legend."""
    edition: str | None
    """Whose money the axis writes (None: no game yet)."""


class Report(Protocol):
    """One game's whole story, for its page and its downloads (``device.store.history.Told``)."""

    @property
    def id(self) -> int: ...
    @property
    def last_seq(self) -> int: ...
    @property
    def seqs(self) -> Sequence[int]:
        """The game's own journal entries (its download)."""
    @property
    def players(self) -> list[str]: ...
    @property
    def points(self) -> Sequence[Point]:
        """Each booking's net worth by name, with its time ``at``: the report's chart."""
    @property
    def log(self) -> Sequence[tuple[float, Event]]:
        """Every booking with its time, as the rules said it: said in the page's language when shown."""
    def board(self) -> Edition:
        """The game's own edition: its names and money say the bookings."""
    def said(self, event: Event) -> str: ...
    def figures(self) -> dict[str, Figures]: ...
    def csv(self) -> str: ...
    def summary(self) -> GameSummary: ...


class PastGames(Protocol):
    """The journal's past games for the pages after the game (``device.store.history.History``)."""

    warming: threading.Event
    """Set while the games are still being told after start-up (the pages say so and come back)."""

    @property
    def progress(self) -> tuple[int, int]: ...
    def games(self) -> list[GameSummary]: ...
    def report(self, game_id: int) -> Report | None: ...
    def jsonl(self, report: Report) -> str: ...
    def best(self, edition: str | None, mode: str | None) -> list[BestRow]: ...
    def records(self, edition: str | None, mode: str | None) -> list[RecordRow]: ...


ToldAs = Callable[["Problem", "Edition"], Said]
"""How the asking page says an edition's problem, given the edition whose names say its squares."""


class Editions(Protocol):
    """The editions as the admin pages see them (``device.store.editions.Shelf``): list, check, save, delete,
    bring back, download."""

    def all(self) -> dict[str, Edition]: ...
    def overview(self) -> Overview: ...
    def check(self, source: str | bytes, told_as: ToldAs | None = None) -> tuple[Edition | None, CheckAnswer]: ...
    def save(self, source: str | bytes, *, replace: bool = False, was: str | None = None,
             told_as: ToldAs | None = None) -> SaveAnswer: ...
    def delete(self, file: str) -> DeleteAnswer: ...
    def restore(self, name: str) -> RestoreAnswer: ...
    def text(self, key: str) -> str | None: ...
    def edition(self, key: str) -> Edition | None: ...
    def data(self, key: str) -> EditionData | None: ...


class Simulation(Protocol):
    """The virtual device of ``bankleser run`` off a Pi: its keys, card reader and OLED."""

    def keys(self) -> frozenset[str]: ...
    def press(self, key: str) -> int: ...
    def tap(self, uid: str) -> int: ...
    def cards(self) -> SimCards: ...
    def signals(self) -> SignalsShown: ...
    def display(self) -> tuple[int, str]: ...
    def display_png(self) -> bytes: ...
    def on_display(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (from the display's thread; it must not block) after each new frame of the OLED."""
    def freeze(self) -> None: ...


class Backend(Protocol):
    """Reads answer from what the device published; every change goes through the device's loop."""

    @property
    def url(self) -> str: ...
    @property
    def simulation(self) -> Simulation | None: ...

    def published(self) -> Published: ...
    def worth(self) -> Worth: ...
    def cards(self) -> list[CardInfo]: ...
    def doctor(self) -> list[CheckResult]: ...
    def submit(self, cmd: Command) -> SubmitAnswer: ...
    def check_pin(self, pin: str) -> bool | None: ...
    def has_pin(self) -> bool:
        """Whether a banker PIN is set (else the admin page offers the login with the device's code)."""
    def use_begin_code(self, code: str) -> bool | None:
        """True for the OLED's one-time code (then spent); False for another; None once a PIN is set."""
    def set_first_pin(self, pin: str) -> Answer:
        """The PIN set from the phone, only while none is set: ``{"ok": …}`` or a refusal's code and message."""
    def session_epoch(self) -> int: ...
    def end_sessions(self) -> None: ...
    def secret_key(self) -> bytes: ...
    def phone_clock(self, now: object) -> str: ...
    def rename_card(self, uid: str, name: str) -> Answer: ...
    def register_card(self, uid: str, kind: str, square: int | None, name: str | None) -> RegisterAnswer: ...
    def wiring_svg(self) -> str: ...
    def choose_language(self, code: str) -> LanguageAnswer:
        """The appliance's language from now on and across restarts (the OLED, and every page that follows
        it: the public state names it, so open pages learn it at once). A journal that cannot keep it: the
        language holds until the next start, and the answer is a ``storage_error``."""
    def history(self) -> PastGames | None: ...
    def editions(self) -> Editions: ...
    # The booking forms: what the rules open, a booking's preview, and what Storno would take back.
    def legal(self, player: str | None) -> Forms: ...
    def preview(self, raw: Command) -> Preview: ...
    def last_booking(self) -> LastBooking: ...
