"""The daemon: drivers, journal replay, the banker's state machine and the web server, on one loop.

Every input becomes an event on one queue; one thread (the loop) owns the game, the journal
and the state machine. Hardware callbacks and web requests only enqueue, and a web request
that changes something waits for the loop's answer. The loop pings systemd's watchdog only
while it turns and every driver thread lives.
"""

from __future__ import annotations

import gc
import logging
import queue
import signal
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from drivers.hardware import Callbacks, Hardware, HardwareConfig, open_hardware
from drivers.screen import Screen
from drivers.signals import Volume
from words import LANGUAGES, appliance_language, print_keys, speaking, text
from words import use as use_language

from ..scenes import Ui
from ..scenes.inputs import Tap, parse_key
from ..store import clocks
from ..store.cards import Cards
from ..store.editions import LazyEditions
from ..store.history import History
from ..store.journal import Journal, JournalError
from ..store.ledger import Ledger
from . import language
from .config import Config
from .notify import Notifier
from .parts import missing_names, parts_problem, start_screen
from .public import public_body

__all__ = ["Daemon", "WebBackend", "run_daemon"]

if TYPE_CHECKING:
    from .hotspot import Hotspot, JoinInfo
    from .web import WebBackend


def __getattr__(name: str) -> Any:
    """``WebBackend``, the web's side of the daemon, imported when asked for: with it come the web's protocol and
    live streams (about 13 M instructions), which the loop needs only once the web stack loads, after READY."""
    if name == "WebBackend":
        from .web import WebBackend

        return WebBackend
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

log = logging.getLogger(__name__)

WEB_STALL = 10.0
"""Seconds without a turn of the web server's loop before the watchdog stops being fed."""
CLOCK_EVERY = 5.0
"""Seconds between stores of a timed game's play clock (and refreshes of the phones' countdown)."""
JOURNAL_RETRY = 5.0
"""Seconds between attempts to open a journal that failed for a cause that may pass (a full card)."""

VOLUME_NAMES = {Volume.OFF: "service.volume.off", Volume.LOW: "service.volume.low", Volume.HIGH: "service.volume.high"}
"""The keys of the buzzer's volumes as the menu says them (rendered when said: the language may change)."""


def lan_address() -> str:
    """The address phones reach us at: the interface the default route leaves by (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: routing lookup only, never contacted
            addr: str = sock.getsockname()[0]
            return addr
        except OSError:
            return "127.0.0.1"


class Daemon(msgspec.Struct):
    config: Config
    state_dir: Path
    sim: bool
    host: str
    port: int
    notifier: Notifier
    pin_factory: Any = None
    language_flag: str = ""
    """``--language`` as given on the command line: it wins over the journal's choice (and the log says so)."""

    # What the daemon makes and keeps while it runs, never passed:
    events: queue.Queue[tuple[Any, ...]] = msgspec.field(default_factory=queue.Queue)
    stop_event: threading.Event = msgspec.field(default_factory=threading.Event)
    signalled: bool = False
    """SIGTERM or SIGINT came: the loop stops at its next turn (within half a second). The signal handler sets only
    this: Python runs it between two bytecodes of the main thread, which may hold the event queue's lock just then
    (inside ``Queue.get``); a ``put`` from the handler waited for that lock for ever, and the service never stopped
    (seen in a CI run: SIGTERM right after READY, the process still there twenty minutes later)."""
    hardware: Hardware | None = None
    banker: Ui | None = None
    ledger: Ledger | None = None
    journal: Journal | None = None
    cards: Cards | None = None
    journal_error: JournalError | None = None
    """The journal could not be opened: said where it is shown (:attr:`fault`)."""
    history_error: JournalError | None = None
    """Damage in past games' rows, found after start-up: shown, booking goes on (:attr:`history_fault`)."""
    history_check: Journal | None = None
    """A journal whose past games' rows are still to be checked."""
    history: History | None = None
    """The past games of the journal, for the pages after the game (told beside the loop)."""
    server: Any = None
    app: Any = None
    frozen: threading.Event = msgspec.field(default_factory=threading.Event)
    retry_journal_at: float | None = None
    published: tuple[int, bytes] = (0, b"{}")
    """The newest public state, its version and its bytes, as every phone reading the appliance's language gets
    them."""
    published_in: dict[str, bytes] = {}
    """The same state said in each language: a phone may read its pages in its own."""
    on_publish: Callable[[int, bytes, dict[str, bytes]], None] | None = None
    """Where each new public state goes (its version, its bytes, and in every language): the web server's
    publisher, once the web runs (device/daemon/web.py)."""
    _published_key: tuple[int, str | None, str, int, str] | None = None
    hotspot: Hotspot | None = None
    """The appliance's own Wi-Fi, opened when no known network comes up (not in sim mode)."""
    _joined: JoinInfo | None = None
    session_epoch: int = 0
    """Bumped at logout and at a PIN change: every banker session signed before it ends."""
    begin_code: str | None = None
    """While no banker PIN is set: the one-time code the OLED shows, with which a phone at the table becomes the
    banker and sets the PIN. Only on the OLED, so only someone within reach of the box, not anyone on the Wi-Fi;
    new at each start and after each use."""

    @property
    def fault(self) -> str | None:
        """The journal's fault in the language in force (the OLED's, or a phone's that reads its page in another)."""
        err = self.journal_error
        return f"{err.message}: {err.detail}" if err is not None else None

    @property
    def history_fault(self) -> str | None:
        err = self.history_error
        return text("service.fault.history", message=err.message, detail=err.detail) if err is not None else None

    # Start-up ----------------------------------------------------------------------------

    def start(self, *, web: bool = True) -> None:
        """``web=False``: the web stack is loaded after READY, beside the loop (the appliance's start)."""
        cb = Callbacks(
            on_key=lambda k: self.events.put(("key", k)),
            on_hold=lambda k: self.events.put(("key", f"hold:{k}")),
            on_encoder=lambda e: self.events.put(("key", e)),
            on_tap=lambda uid: self.events.put(("tap", uid)),
            on_reader_status=lambda ok, why: self.events.put(("reader", ok, why)),
            on_parts=lambda: self.events.put(("parts",)),
        )
        hw_cfg: HardwareConfig = self.config.hardware.simulated() if self.sim else self.config.hardware
        self.notifier.status(text("service.start.opening"))
        self.hardware = open_hardware(hw_cfg, cb, pin_factory=self.pin_factory)
        self.hardware.display.show(start_screen(self.hardware))
        self.notifier.status(text("start.reading"))
        self._open_journal()
        if web:
            self._start_web()
        self.hardware.start()

    def _open_journal(self) -> None:
        """Open and check the journal; on failure stay up, say why, and retry if the cause may pass."""
        assert self.hardware is not None
        journal: Journal | None = None
        try:
            journal = Journal(self.state_dir / "journal.sqlite3")
            self.ledger = Ledger(journal, editions=LazyEditions(self.state_dir))
            self.journal = journal
        except JournalError as err:
            if journal is not None:
                journal.close()
            # No crash loop: stay up, say what is wrong on the OLED, in the log and on the page.
            log.error("%s", text("service.log.journal", error=err))
            self.journal_error = err
            self.retry_journal_at = time.monotonic() + JOURNAL_RETRY if err.recoverable else None
            lines = (err.message, text("start.see_page"), text("service.fault.readme"))
            self.hardware.display.show(Screen(title=text("service.fault.title"), big=text("service.fault.big"),
                                              lines=lines))
            return
        self.journal_error = None
        self.retry_journal_at = None
        # Start-up checked the rows it replays; the rest of the history is checked beside the loop, once
        # it turns (not before READY: start-up waits for nothing it does not need).
        self.history_check = journal
        self.history = History(journal.path, cache=self.state_dir / "history-cache.json")
        self.history.warming.set()  # the pages wait for the warm-up (after READY), never tell it themselves
        self.session_epoch = int(journal.setting("session_epoch") or 0)
        # kept across restarts; an explicit --language wins over it
        use_language(language.in_force(journal, self.config.ui.language, flag=self.language_flag))
        print_keys(self.config.ui.keys_language or None)  # a one-language overlay: the OLED names keys as printed
        self._note_boot(journal)
        self._say_pin(journal)
        self.renew_begin_code()
        if self.journal is not None and self.ledger is not None:
            self.cards = Cards(self.journal)
            if self.sim:
                self.cards.seed_simulated()
            buzzer = self.hardware.buzzer
            self.banker = Ui(
                ledger=self.ledger, cards=self.cards, show=self.hardware.display.show, tone=buzzer.play,
                url=lambda: self.url, sleep_after=self.config.ui.sleep_after,
                sleep_display=self.hardware.display.sleep, wake_display=self.hardware.display.wake,
                muted=lambda: buzzer.volume is Volume.OFF, cycle_volume=self._cycle_volume,
                set_pin=self.set_pin, begin_code=lambda: self.begin_code, led=self._led, missing=self._missing,
                join=self._join, qr_later=True,
            )

    def _say_pin(self, journal: Journal) -> None:
        """The start log says whether the banker's web page can be opened, and how its PIN is set."""
        if self.config.banker_pin:
            log.info("%s", text("service.pin.configured"))
        elif journal.setting("banker_pin"):
            log.info("%s", text("service.pin.on_device"))
        else:
            log.warning("%s", text("service.pin.none"))

    @staticmethod
    def _note_boot(journal: Journal) -> None:
        """From which entry on this boot's times run, and whether the system clock vouches for them."""
        try:
            boots = clocks.started(clocks.load(journal.setting(clocks.KEY)), journal.last_seq + 1,
                                   synced=clocks.system_clock_synced())
            journal.set_setting(clocks.KEY, clocks.dump(boots))
        except JournalError as err:  # the reports then show the Pi's times; booking goes on
            log.warning("clock not noted: %s", err)

    def _verify_history(self, journal: Journal) -> None:
        """After start-up, beside the loop: check the past games' rows, then tell them for the pages."""
        err = journal.verify_history()
        if err is not None:  # the running game came from verified rows: booking goes on, the page says it
            log.error("%s", text("service.log.history", error=err))
            self.history_error = err
            self.events.put(("wake",))
            if self.history is not None:
                self.history.warming.clear()  # the pages tell what they can, and name the damage
        elif self.history is not None:
            self.history.warm()

    @property
    def url(self) -> str:
        own = self.hotspot.address if self.hotspot is not None and self.hotspot.state == "open" else None
        host = self.host if self.host not in ("0.0.0.0", "::", "") else own or lan_address()
        return f"http://{host}" + ("" if self.port == 80 else f":{self.port}") + "/"

    def _join(self) -> JoinInfo | None:
        """The own Wi-Fi to join while it is open (``JoinInfo``), read once per opening: the idle screen asks
        at every frame."""
        hotspot = self.hotspot
        if hotspot is None or hotspot.state != "open":
            self._joined = None
            return None
        if self._joined is None:
            self._joined = hotspot.join_info()
        return self._joined

    def _missing(self) -> list[str]:
        """The parts the OLED names as missing: all but the display itself (it would not show it)."""
        return [] if self.hardware is None else missing_names(self.hardware.parts(), but=["display"])

    def _led(self, on: bool) -> None:
        """Menü → Selbsttest switches the status LED."""
        if self.hardware is not None:
            (self.hardware.led.on if on else self.hardware.led.off)()

    def has_pin(self) -> bool:
        """A PIN in the config or one set on the device or a phone (its hash in the journal)."""
        if self.config.banker_pin:
            return True
        try:
            return self.journal is not None and bool(self.journal.setting("banker_pin"))
        except JournalError:
            return True  # unreadable: no code that could open the admin over a PIN we cannot see

    def renew_begin_code(self) -> None:
        """A fresh one-time code while no PIN is set, none once one is (the OLED draws it at the next frame)."""
        from .pin import new_code

        self.begin_code = None if self.has_pin() else new_code()

    def use_begin_code(self, code: str) -> bool | None:
        """On the loop: True when ``code`` is the OLED's (it is spent, a new one shown); None when a PIN is set."""
        import hmac

        current = self.begin_code
        if current is None:
            return None
        if not hmac.compare_digest(code.encode("utf-8", "replace"), current.encode()):
            return False
        self.renew_begin_code()
        if self.banker is not None:
            self.banker.refresh()
        return True

    def set_pin(self, pin: str) -> bool:
        from .pin import hash_pin, valid_pin  # hashlib's OpenSSL and friends: not for start-up

        if not valid_pin(pin) or self.journal is None:
            return False
        self.journal.set_setting("banker_pin", hash_pin(pin))
        self.end_sessions()
        self.renew_begin_code()
        return True

    def end_sessions(self) -> None:
        """On the loop's thread: no banker session signed before now counts any more."""
        self.session_epoch += 1
        if self.journal is not None:
            try:
                self.journal.set_setting("session_epoch", str(self.session_epoch))
            except JournalError as err:
                log.error("session epoch not stored (sessions end until the next restart only): %s", err)

    def _cycle_volume(self) -> str:
        assert self.hardware is not None
        buzzer = self.hardware.buzzer
        buzzer.volume = buzzer.volume.next()
        return text(VOLUME_NAMES[buzzer.volume])

    def _import_web(self) -> None:
        from ..scenes.ui import load_scenes
        from .web import load_web

        try:
            load_scenes()  # what a key opens, before the web stack: a key may come before a page
            load_web()
        finally:
            self.events.put(("wake",))  # the loop starts the server now (or meets the import's error)

    def _start_web(self) -> None:
        from .web import start_web

        self.app, self.server = start_web(self)
        self._publish()
        self.port = self.server.port  # port 0: the one the system chose
        self.server.start()
        log.info("%s", text("service.log.page", url=self.url))
        if self.sim:
            log.info("%s", text("service.log.device", url=f"{self.url}device"))

    def _publish(self, *, force: bool = False) -> None:
        """After each event: if anything changed, build the public state once and publish its bytes.

        ``force``: rebuild even without a change (a timed game's ``remaining`` moves on by itself).
        """
        if self.on_publish is None:  # the web stack is still loading: nobody reads the public state yet
            return
        ledger = self.ledger
        key = (ledger.version if ledger is not None else 0, self.fault or self.history_fault, self._parts_key(),
               self.session_epoch,  # a logout is news for every banker's page
               appliance_language())  # so is the banker's choice of language: open pages follow it
        if key == self._published_key and not force:
            return
        self._published_key = key
        version = self.published[0] + 1
        said = {}
        for code in LANGUAGES:  # a phone may read its pages in a language of its own
            with speaking(code):
                said[code] = self._public_body(version)
        self.published, self.published_in = (version, said[appliance_language()]), said
        self.on_publish(version, self.published[1], said)

    def _public_body(self, version: int) -> bytes:
        """The public state in the language in force (its log, titles and problem said in it)."""
        ledger = self.ledger
        snap = ledger.snapshot() if ledger is not None else {
            "version": 0, "state": None, "log": [], "remaining": None, "problem": self.fault}
        parts = self.hardware.parts() if self.hardware is not None else []
        problem = snap.get("problem")
        if (self.fault or self.history_fault) and not problem:
            problem = self.fault or self.history_fault
        if not problem:
            problem = parts_problem(parts)
        return public_body(ledger.game.state if ledger is not None else None, snap,
                           cards=self.cards.all() if self.cards is not None else [], parts=parts, version=version,
                           problem=problem, session_epoch=self.session_epoch)

    def _parts_key(self) -> str:
        return "" if self.hardware is None else "|".join(sorted(self.hardware.faults.values()))

    # The loop ----------------------------------------------------------------------------

    def run(self) -> None:
        self.notifier.ready(text("service.start.ready", url=self.url))
        gc.enable()  # off for the start (``bankleser run``): from now on garbage is collected as usual
        # Flask and uvicorn take seconds to import on a Pi core: beside the loop, after READY; the
        # server itself is then started on the loop (it reads the journal, which the loop owns).
        web = None if self.app is not None else threading.Thread(target=self._import_web, name="web-laden",
                                                                   daemon=True)
        if web is not None:
            web.start()
        self._start_hotspot()
        next_tick = next_clock = time.monotonic()
        next_ping = 0.0
        while not self.stop_event.is_set():
            if self.signalled:  # from the handler, now in the loop's own turn: no lock is held here
                self.stop()
                break
            wake = min(next_tick, next_ping) if self.notifier.watchdog_interval else next_tick
            try:
                event = self.events.get(timeout=max(0.0, min(wake - time.monotonic(), 0.5)))
            except queue.Empty:
                event = None
            if event is not None:
                self._dispatch(event)
                self._publish()
            now = time.monotonic()
            if self.history_check is not None:
                threading.Thread(target=self._verify_history, args=(self.history_check,), name="verlauf-pruefen",
                                 daemon=True).start()
                self.history_check = None
            if web is not None and not web.is_alive():
                web = None
                self._start_web()
            if now >= next_tick:
                next_tick = now + 1.0
                if self.banker is not None:
                    self.banker.tick()
                if self.ledger is not None and self.ledger.remaining() is not None and now >= next_clock:
                    # A timed game: store the play clock (a power cut loses at most this much) and
                    # send phones the seconds left, so a page opened now counts from the truth.
                    next_clock = now + CLOCK_EVERY
                    self.ledger.checkpoint_clock()
                    self._publish(force=True)
                elif self.retry_journal_at is not None and now >= self.retry_journal_at:
                    self._open_journal()
                self._publish()
            if self.notifier.watchdog_interval and now >= next_ping:
                stuck = self.stuck(now)
                if not stuck:
                    self.notifier.watchdog()
                    next_ping = now + self.notifier.watchdog_interval
                else:
                    log.error("no watchdog ping: %s stuck", ", ".join(stuck))
                    next_ping = now + 1.0

    def _start_hotspot(self) -> None:
        """After READY: the own Wi-Fi opens only when no known network comes up within seconds anyway."""
        from .hotspot import start_hotspot

        self.hotspot = start_hotspot(self.config.hotspot, self.state_dir, sim=self.sim, stop=self.stop_event,
                                     on_change=lambda: self.events.put(("refresh",)))

    def stuck(self, now: float) -> list[str]:
        """What makes no progress (identifiers, for the log): a driver thread dead or hung, or the web server's loop
        not turning.

        The main loop checks itself by being the one that pings: if it hangs, nobody pings.
        """
        assert self.hardware is not None
        stuck = self.hardware.stalled(now)
        if self.server is not None and now - self.server.last_beat > WEB_STALL:
            stuck.append("web")
        return stuck

    def _dispatch(self, event: tuple[Any, ...]) -> None:
        kind = event[0]
        try:
            if kind == "call":
                _, fn, future = event
                if not future.set_running_or_notify_cancel():
                    return
                try:
                    result = fn()
                except Exception as err:
                    future.set_exception(err)
                else:
                    self._publish()  # an answered request sees its own change on the next read
                    future.set_result(result)
            elif kind == "freeze":
                log.warning("main loop frozen on request (sim mode test)")
                self.frozen.set()
                while not self.stop_event.wait(0.25) and not self.signalled:
                    pass  # hung for the watchdog, but a SIGTERM still ends it
            elif self.banker is None:
                return
            elif kind == "key":
                self.banker.feed(parse_key(event[1]))
            elif kind == "tap":
                self.banker.feed(Tap(event[1]))
            elif kind == "reader":
                self.banker.reader_status(event[1], event[2])
            elif kind in ("refresh", "parts"):  # own Wi-Fi open, or a part came up: the screen says it
                self.banker.refresh()
        except Exception:
            log.exception("event %s failed", kind)

    def call(self, fn: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``fn`` on the loop's thread and wait for its result (web requests)."""
        import concurrent.futures  # the web's: not needed before it runs

        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.events.put(("call", fn, future))
        return future.result(timeout=timeout)

    def stop(self, *_: object) -> None:
        """Stop the loop from any thread (never from a signal handler: :meth:`on_signal`)."""
        self.stop_event.set()
        self.events.put(("wake",))

    def on_signal(self, *_: object) -> None:
        """SIGTERM, SIGINT: only a flag, which the loop reads within half a second (:attr:`signalled`)."""
        self.signalled = True

    def close(self) -> None:
        self.notifier.stopping()
        if self.server is not None:
            self.server.close()
        if self.hardware is not None:
            self.hardware.close(Screen(title="Bankleser", big=text("service.off.big"),
                                       lines=(text("service.off.saved"),)))
        if self.ledger is not None and self.fault is None:
            self.ledger.checkpoint_clock()
            self.ledger.checkpoint()  # the next start replays nothing
        if self.journal is not None:
            self.journal.close()


def handle_signals(daemon: Daemon) -> None:
    """SIGTERM (systemd's stop) and SIGINT (Ctrl-C) set the daemon's flag; the loop stops at its next turn."""
    signal.signal(signal.SIGTERM, daemon.on_signal)
    signal.signal(signal.SIGINT, daemon.on_signal)


def run_daemon(config: Config, *, state_dir: Path, sim: bool, host: str, port: int,
               notifier: Notifier | None = None, language_flag: str = "") -> int:
    daemon = Daemon(config, state_dir, sim, host, port, notifier or Notifier(), language_flag=language_flag)
    handle_signals(daemon)
    try:
        daemon.start(web=False)
        log.info("%s", text("service.log.running_sim" if sim else "service.log.running", path=state_dir))
        daemon.run()
    finally:
        daemon.close()
    return 0
