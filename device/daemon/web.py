"""The web's adapter: what the status page and the banker's admin may ask of the device, and the start
of the web server. The one module of ``device/`` that imports ``webui/``.

Reads answer from what the loop published (the public state's bytes) or from the journal's own
connections; every change runs on the daemon's loop (:meth:`Daemon.call`) and waits for its answer.
The card administration's rules are the cards' own (:mod:`device.store.cards`); the simulation's verbs
are :mod:`device.daemon.simulation`'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import words
from shapes.forms import Forms, LastBooking
from webui.backend import Worth
from webui.live import Published, Publisher
from webui.protocol import (
    Answer,
    CardInfo,
    CheckResult,
    Command,
    LanguageAnswer,
    Preview,
    RegisterAnswer,
    SubmitAnswer,
    changed,
    check_result,
    done,
    language_chosen,
    refused,
    registered,
)
from webui.protocol import booked as booked_answer

from ..store import clocks
from ..store.cards import Refused
from ..store.editions import Shelf
from ..store.history import History
from ..store.journal import JournalError
from .simulation import Simulation

if TYPE_CHECKING:
    from flask import Flask

    from rules import Game
    from webui.backend import Backend
    from webui.server import WebServer

    from ..store.ledger import Ledger, Outcome
    from .service import Daemon

T = TypeVar("T")


def booked(outcome: Outcome, ledger: Ledger, cmd: Command | None = None) -> SubmitAnswer:
    """The web's answer to a booking: whether it was a repeat of one already booked (its id seen), the
    rules' text, the balances it changed (the answer beside the button says what moved) and the log's newest
    entry after it. Refused ``changed`` (the state moved under the banker's confirmation): the preview of
    ``cmd`` as the rules would book it now, for a fresh confirmation in place of the old one."""
    event = outcome.event
    if not outcome.ok:
        if outcome.code == "changed" and cmd is not None:
            from .booking import preview_command  # the phone's forms: loaded with the web, after READY

            return changed(outcome.message, preview_command(ledger.game, cmd))  # what the rules would book now
        return refused(str(outcome.code), outcome.message)
    if event is None:
        return done()
    state = ledger.game.state
    moved = [name for t in event.transfers for name in (t.payer, t.payee) if name is not None]
    balances = {n: state.players[n].cash for n in dict.fromkeys(moved) if state is not None and n in state.players}
    seq = ledger.log[-1].seq if ledger.log else None
    said = words.say(event.said, state.edition if state is not None else None)
    # The edition the balances are in: after the Storno of a new game it is the restored game's, not the page's.
    edition = state.edition.key if state is not None else None
    return booked_answer(duplicate=event.duplicate, text=said, balances=balances, seq=seq, edition=edition)


class WebBackend:
    """The device as :class:`webui.backend.Backend` sees it: read snapshots freely, change only through the loop."""

    def __init__(self, daemon: Daemon) -> None:
        self._d = daemon
        self._simulation = Simulation(daemon) if daemon.sim else None

    @property
    def url(self) -> str:
        return self._d.url

    @property
    def simulation(self) -> Simulation | None:
        return self._simulation

    def _speaking(self, fn: Callable[[], T]) -> T:
        """``fn`` run on the loop, in the language of the request that asks (its page's, else the appliance's):
        the loop's thread renders the answer's texts, and the request's language is its thread's own."""
        code = words.language()

        def run() -> T:
            with words.speaking(code):
                return fn()

        result: T = self._d.call(run)
        return result

    def published(self) -> Published:
        version, body = self._d.published
        return Published(version, body, self._d.published_in)

    def cards(self) -> list[CardInfo]:
        """Every registered card with its UID (admin only: the public state names numbers, not UIDs)."""

        def run() -> list[CardInfo]:
            cards = self._d.cards
            return [] if cards is None else [CardInfo(uid=c.uid, kind=c.kind, number=c.number, name=c.name,
                                                      square=c.square) for c in cards.all()]

        result: list[CardInfo] = self._d.call(run)
        return result

    def doctor(self) -> list[CheckResult]:
        """`bankleser doctor` as the running service sees itself (admin page)."""
        from .doctor import for_daemon

        d = self._d
        checks = for_daemon(d.config.hardware, d.state_dir, sim=d.sim, watchdog=d.notifier.watchdog_interval,
                            parts=d.hardware.parts() if d.hardware is not None else [])
        return [check_result(str(c["name"]), bool(c["ok"]), str(c["detail"]), str(c["fix"])) for c in checks]

    def worth(self) -> Worth:
        """The version, the net-worth history and whose it is, for the chart (drawn once per version)."""
        ledger = self._d.ledger
        if ledger is None:
            return Worth(0, [], [], None)
        version, points = ledger.worth_history()
        state = ledger.game.state
        if state is None:
            return Worth(version, points, [], None)
        return Worth(version, points, list(state.players), state.edition.key)

    def _no_journal(self) -> Answer:
        """The refusal of a change while the journal cannot be opened: why, as start-up found it."""
        return refused("storage_error", self._why_no_journal())

    def _why_no_journal(self) -> str:
        return self._d.fault or words.text("phone.journal.none")

    def submit(self, cmd: Command) -> SubmitAnswer:
        def run() -> SubmitAnswer:
            if self._d.ledger is None:
                return self._no_journal()
            outcome = self._d.ledger.submit(cmd)
            if self._d.banker is not None:
                self._d.banker.refresh()
            return booked(outcome, self._d.ledger, cmd)

        return self._speaking(run)

    # The banker's booking forms: read on the loop, from the rules' own game. ---------

    def _on_game(self, fn: Callable[[Game], T], idle: T) -> T:
        def run() -> T:
            return idle if self._d.ledger is None else fn(self._d.ledger.game)

        return self._speaking(run)

    def legal(self, player: str | None) -> Forms:
        from .booking import forms_for  # the phone's forms: loaded with the web, after READY

        idle: Forms = {"players": [], "player": None, "forms": []}
        return self._on_game(lambda game: forms_for(game, player), idle)

    def preview(self, raw: Command) -> Preview:
        from .booking import preview_of

        idle: Preview = refused("storage_error", self._why_no_journal())
        return self._on_game(lambda game: preview_of(game, raw), idle)

    def last_booking(self) -> LastBooking:
        from .booking import last_booking

        idle: LastBooking = {"number": None, "text": ""}
        return self._on_game(last_booking, idle)

    # -----------------------------------------------------------------------------------------

    def session_epoch(self) -> int:
        return self._d.session_epoch

    def end_sessions(self) -> None:
        self._d.call(self._d.end_sessions)

    def check_pin(self, pin: str) -> bool | None:
        """True/False for a PIN; None when no PIN is set yet (admin closed until the banker sets one)."""
        import hmac  # OpenSSL: at the first login, not before READY

        from .pin import check_pin

        configured = self._d.config.banker_pin
        if configured:
            return bool(pin) and hmac.compare_digest(pin.encode(), configured.encode())
        journal = self._d.journal
        stored = self._d.call(lambda: journal.setting("banker_pin")) if journal is not None else None
        if not stored:
            return None
        return check_pin(pin, stored)

    def has_pin(self) -> bool:
        result: bool = self._d.call(self._d.has_pin)
        return result

    def use_begin_code(self, code: str) -> bool | None:
        result: bool | None = self._d.call(lambda: self._d.use_begin_code(code))
        return result

    def set_first_pin(self, pin: str) -> Answer:
        """On the loop, checked there again: a PIN set meanwhile (at the device, another phone) is not replaced."""
        from .pin import valid_pin

        def run() -> Answer:
            if self._d.has_pin():
                return refused("pin_set", words.text("phone.login.pin_set"))
            try:
                if not valid_pin(pin) or not self._d.set_pin(pin):
                    return refused("bad_pin", words.text("phone.login.bad_pin"))
            except JournalError as err:
                return refused("storage_error", err.message)
            if self._d.banker is not None:
                self._d.banker.refresh()  # the OLED's code gives way to the address
            return done()

        return self._speaking(run)

    def phone_clock(self, now: object) -> str:
        """The banker's phone's time at login (``Date.now()``): it dates this boot's entries in the reports
        when the Pi's clock is not synchronised (never the play clock). Says which clock dates them."""
        at, pi = clocks.phone_time(now), time.time()
        journal = self._d.journal

        def run() -> str:
            if journal is None:
                return clocks.SOURCES["unknown"]
            boots = clocks.load(journal.setting(clocks.KEY))
            if at is not None and boots and clocks.system_clock_synced() is not True:  # unknown: as unsynced
                boots = clocks.corrected(boots, at, pi)
                journal.set_setting(clocks.KEY, clocks.dump(boots))
            return boots[-1].description if boots else clocks.SOURCES["unknown"]

        result: str = self._speaking(run)
        return result

    def secret_key(self) -> bytes:
        import secrets  # OpenSSL: when the web app is made, after READY

        journal = self._d.journal
        if journal is None:
            return secrets.token_bytes(32)

        def get() -> str:
            key = journal.setting("session_key")
            if key is None:
                key = secrets.token_hex(32)
                journal.set_setting("session_key", key)
            return key

        # Read once at start-up, before the loop runs: the journal is not yet shared.
        return bytes.fromhex(get())

    def rename_card(self, uid: str, name: str) -> Answer:
        def run() -> Answer:
            cards, ledger = self._d.cards, self._d.ledger
            assert cards is not None and ledger is not None
            state = ledger.game.state
            playing = state.players if state is not None and not state.finished else ()
            try:
                cards.rename_player(uid, name, playing=playing)
            except Refused as err:
                return refused(err.code, err.message)
            except JournalError as err:
                return refused("storage_error", err.message)
            ledger.touch()
            return done()

        return self._speaking(run)

    def register_card(self, uid: str, kind: str, square: int | None, name: str | None) -> RegisterAnswer:
        def run() -> RegisterAnswer:
            cards, ledger = self._d.cards, self._d.ledger
            assert cards is not None and ledger is not None
            try:
                card = cards.register(uid, kind, square=square, name=name)
            except Refused as err:
                return refused(err.code, err.message)
            except JournalError as err:
                return refused("storage_error", err.message)
            ledger.touch()
            return registered(card.number) if card.kind == "player" else done()

        return self._speaking(run)

    def choose_language(self, code: str) -> LanguageAnswer:
        """On the loop: the journal keeps it (device.daemon.language), the OLED draws its screen again in it, and
        the state is published again (it names the language), so every open page learns it at once."""
        from . import language

        def run() -> LanguageAnswer:
            answer: LanguageAnswer = language_chosen(code)
            journal = self._d.journal
            try:
                if journal is None:
                    words.use(code)
                    answer = refused("storage_error", self._why_no_journal())
                else:
                    language.choose(journal, code)
            except JournalError as err:  # in force until the next start all the same: degrade, never die
                words.use(code)
                answer = refused("storage_error", err.message)
            if self._d.banker is not None:
                self._d.banker.refresh()
            return answer

        # On the loop as it is, not in the asking page's language: the OLED's screen is drawn in the new one, and
        # the answer waits until the panel shows it ("at once": the display's thread sends it a moment later).
        result: LanguageAnswer = self._d.call(run)
        if self._d.hardware is not None:
            self._d.hardware.display.flush()
        return result

    def wiring_svg(self) -> str:
        from ..prints.wiring import wiring_svg

        return wiring_svg(self._d.config.hardware)

    def history(self) -> History | None:
        """Past games, read from the journal file on a connection of the page threads' own."""
        return self._d.history if self._d.journal is not None else None

    def editions(self) -> Shelf:
        """The shipped and the family's editions (the admin's form saves into the state directory)."""
        return Shelf(self._d.state_dir, self._d.ledger)


def load_web() -> None:
    """Import the web stack (Flask, uvicorn: seconds on a Pi core), beside the loop after READY."""
    import webui.app
    import webui.server  # noqa: F401


def start_web(daemon: Daemon) -> tuple[Flask, WebServer]:
    """The web app over this daemon and its server, bound (``server.port`` is known) but not started.

    From here on the daemon's published states go to the server's :class:`~webui.live.Publisher`.
    """
    from webui.app import create_app
    from webui.server import Front, WebServer

    publisher = Publisher()
    daemon.on_publish = lambda version, body, said: publisher.publish(Published(version, body, said))
    backend: Backend = WebBackend(daemon)
    app = create_app(backend)
    return app, WebServer(Front(app, publisher, stopping=daemon.stop_event, simulation=backend.simulation),
                          daemon.host, daemon.port)
