"""The daemon: drivers, journal replay, the banker's state machine and the web server, on one loop.

Every input becomes an event on one queue; one thread (the loop) owns the game, the journal
and the state machine. Hardware callbacks and web requests only enqueue, and a web request
that changes something waits for the loop's answer. The loop pings systemd's watchdog only
while it turns and every driver thread lives.
"""

from __future__ import annotations

import concurrent.futures
import hmac
import logging
import queue
import signal
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drivers.display import SimDisplay
from drivers.hardware import Callbacks, Hardware, HardwareConfig, open_hardware
from drivers.screen import Screen
from drivers.signals import Volume

from .cards import Cards
from .config import Config
from .inputs import Tap, parse_key
from .journal import Journal, JournalError
from .ledger import Ledger
from .notify import Notifier
from .pin import check_pin, hash_pin, valid_pin
from .ui import Banker

log = logging.getLogger(__name__)

VOLUME_NAMES = {Volume.OFF: "aus", Volume.LOW: "leise", Volume.HIGH: "laut"}


def lan_address() -> str:
    """The address phones reach us at: the interface the default route leaves by (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: routing lookup only, never contacted
            addr: str = sock.getsockname()[0]
            return addr
        except OSError:
            return "127.0.0.1"


@dataclass
class Daemon:
    config: Config
    state_dir: Path
    sim: bool
    host: str
    port: int
    notifier: Notifier
    pin_factory: Any = None

    def __post_init__(self) -> None:
        self.events: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self.stop_event = threading.Event()
        self.hardware: Hardware | None = None
        self.banker: Banker | None = None
        self.ledger: Ledger | None = None
        self.journal: Journal | None = None
        self.cards: Cards | None = None
        self.fault: str | None = None
        self.server: Any = None
        self.app: Any = None
        self.frozen = threading.Event()

    # Start-up ----------------------------------------------------------------------------

    def start(self) -> None:
        cb = Callbacks(
            on_key=lambda k: self.events.put(("key", k)),
            on_hold=lambda k: self.events.put(("key", f"hold:{k}")),
            on_encoder=lambda e: self.events.put(("key", e)),
            on_tap=lambda uid: self.events.put(("tap", uid)),
            on_reader_status=lambda ok, why: self.events.put(("reader", ok, why)),
        )
        hw_cfg: HardwareConfig = self.config.hardware.simulated() if self.sim else self.config.hardware
        self.notifier.status("Hardware wird geöffnet")
        self.hardware = open_hardware(hw_cfg, cb, pin_factory=self.pin_factory)
        self.hardware.display.show(Screen(title="Bankleser", big="Start…", lines=("Journal wird gelesen",)))
        self.notifier.status("Journal wird gelesen")
        try:
            self.journal = Journal(self.state_dir / "journal.sqlite3")
            self.ledger = Ledger(self.journal)
        except JournalError as err:
            # No crash loop: stay up, say what is wrong on the OLED, in the log and on the page.
            log.error("journal: %s", err)
            self.fault = f"{err.message}: {err.detail}"
            self.hardware.display.show(Screen(title="Speicherproblem", big="STOPP",
                                              lines=(err.message, "Siehe Web-Seite", "und README")))
        if self.journal is not None and self.ledger is not None:
            self.cards = Cards(self.journal)
            if self.sim:
                self.cards.seed_simulated()
            buzzer = self.hardware.buzzer
            self.banker = Banker(
                ledger=self.ledger, cards=self.cards, show=self.hardware.display.show, tone=buzzer.play,
                url=self.url, sleep_display=self.hardware.display.sleep, wake_display=self.hardware.display.wake,
                volume=lambda: VOLUME_NAMES[buzzer.volume], cycle_volume=self._cycle_volume,
                set_pin=self._set_pin,
            )
        self._start_web()
        self.hardware.start()

    def _serve(self) -> None:
        try:
            self.server.run()
        except Exception:
            # Closing the server at shutdown ends its loop with an error: that one is expected.
            if not self.stop_event.is_set():
                log.exception("web server stopped")

    @property
    def url(self) -> str:
        host = self.host if self.host not in ("0.0.0.0", "::", "") else lan_address()
        return f"http://{host}" + ("" if self.port == 80 else f":{self.port}") + "/"

    def _set_pin(self, pin: str) -> bool:
        if not valid_pin(pin) or self.journal is None:
            return False
        self.journal.set_setting("banker_pin", hash_pin(pin))
        return True

    def _cycle_volume(self) -> str:
        assert self.hardware is not None
        buzzer = self.hardware.buzzer
        buzzer.volume = buzzer.volume.next()
        return VOLUME_NAMES[buzzer.volume]

    def _start_web(self) -> None:
        from waitress.server import create_server

        from webui.app import create_app

        self.app = create_app(WebBackend(self))
        # Each live page holds one thread: room for every phone at the table and more.
        self.server = create_server(self.app, host=self.host, port=self.port, threads=32, channel_timeout=30,
                                    ident="Bankleser")
        self.port = self.server.effective_port  # port 0: the one the system chose
        threading.Thread(target=self._serve, name="web", daemon=True).start()
        log.info("Statusseite: %s", self.url)
        if self.sim:
            log.info("Virtuelles Gerät: %sdevice", self.url)

    # The loop ----------------------------------------------------------------------------

    def run(self) -> None:
        self.notifier.ready(f"bereit: {self.url}")
        next_tick = time.monotonic()
        next_ping = 0.0
        while not self.stop_event.is_set():
            wake = min(next_tick, next_ping) if self.notifier.watchdog_interval else next_tick
            try:
                event = self.events.get(timeout=max(0.0, min(wake - time.monotonic(), 0.5)))
            except queue.Empty:
                event = None
            if event is not None:
                self._dispatch(event)
            now = time.monotonic()
            if now >= next_tick:
                next_tick = now + 1.0
                if self.banker is not None:
                    self.banker.tick()
            if self.notifier.watchdog_interval and now >= next_ping:
                assert self.hardware is not None
                if self.hardware.threads_alive():
                    self.notifier.watchdog()
                    next_ping = now + self.notifier.watchdog_interval
                else:
                    log.error("a driver thread died: no watchdog ping")

    def _dispatch(self, event: tuple[Any, ...]) -> None:
        kind = event[0]
        try:
            if kind == "call":
                _, fn, future = event
                if not future.set_running_or_notify_cancel():
                    return
                try:
                    future.set_result(fn())
                except Exception as err:
                    future.set_exception(err)
            elif kind == "freeze":
                log.warning("main loop frozen on request (sim mode test)")
                self.frozen.set()
                self.stop_event.wait()
            elif self.banker is None:
                return
            elif kind == "key":
                self.banker.feed(parse_key(event[1]))
            elif kind == "tap":
                self.banker.feed(Tap(event[1]))
            elif kind == "reader":
                self.banker.reader_status(event[1], event[2])
        except Exception:
            log.exception("event %s failed", kind)

    def call(self, fn: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``fn`` on the loop's thread and wait for its result (web requests)."""
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.events.put(("call", fn, future))
        return future.result(timeout=timeout)

    def stop(self, *_: object) -> None:
        self.stop_event.set()
        self.events.put(("wake",))

    def close(self) -> None:
        self.notifier.stopping()
        if self.server is not None:
            self.server.close()
        if self.hardware is not None:
            self.hardware.close(Screen(title="Bankleser", big="Aus", lines=("Alles gespeichert",)))
        if self.journal is not None:
            self.journal.close()


class WebBackend:
    """What the web app may do: read snapshots freely, change things only through the loop."""

    def __init__(self, daemon: Daemon) -> None:
        self._d = daemon

    @property
    def sim(self) -> bool:
        return self._d.sim

    @property
    def url(self) -> str:
        return self._d.url

    def snapshot(self) -> dict[str, Any]:
        ledger = self._d.ledger
        if ledger is None:
            return {"version": 0, "state": None, "log": [], "ends_at": None, "worth": [], "problem": self._d.fault,
                    "cards": []}
        snap = ledger.snapshot()
        snap["cards"] = self._cards()
        return snap

    def _cards(self) -> list[dict[str, Any]]:
        cards = self._d.cards
        if cards is None:
            return []
        return [{"uid": c.uid, "kind": c.kind, "number": c.number, "name": c.name, "square": c.square}
                for c in cards.all()]

    def wait_for_change(self, version: int, timeout: float) -> int:
        ledger = self._d.ledger
        if ledger is None:
            self._d.stop_event.wait(timeout)
            return version
        return ledger.wait_for_change(version, timeout)

    def stopping(self) -> bool:
        return self._d.stop_event.is_set()

    def submit(self, cmd: dict[str, Any]) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            if self._d.ledger is None:
                return {"ok": False, "code": "storage_error", "message": self._d.fault or "Kein Journal"}
            outcome = self._d.ledger.submit(cmd)
            if self._d.banker is not None:
                self._d.banker.refresh()
            return outcome.as_dict()

        result: dict[str, Any] = self._d.call(run)
        return result

    def check_pin(self, pin: str) -> bool | None:
        """True/False for a PIN; None when no PIN is set yet (admin closed until the banker sets one)."""
        configured = self._d.config.banker_pin
        if configured:
            return bool(pin) and hmac.compare_digest(pin.encode(), configured.encode())
        journal = self._d.journal
        stored = self._d.call(lambda: journal.setting("banker_pin")) if journal is not None else None
        if not stored:
            return None
        return check_pin(pin, stored)

    def secret_key(self) -> bytes:
        import secrets

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

    def rename_card(self, uid: str, name: str) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            cards, ledger = self._d.cards, self._d.ledger
            assert cards is not None and ledger is not None
            card = cards.get(uid)
            if card is None or card.kind != "player":
                return {"ok": False, "code": "unknown_card", "message": "Unbekannte Bankkarte"}
            state = ledger.game.state
            if state is not None and not state.finished and card.name in state.players:
                return {"ok": False, "code": "in_game", "message": f"{card.name} spielt gerade: erst nach dem Spiel"}
            if any(c.name == name for c in cards.players() if c.uid != uid):
                return {"ok": False, "code": "name_taken", "message": f"{name} gibt es schon"}
            cards.rename(uid, name)
            ledger.touch()
            return {"ok": True}

        result: dict[str, Any] = self._d.call(run)
        return result

    def register_card(self, uid: str, kind: str, square: int | None, name: str | None) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            cards, ledger = self._d.cards, self._d.ledger
            assert cards is not None and ledger is not None
            if kind == "player":
                card = cards.register_player(uid, name)
                ledger.touch()
                return {"ok": True, "number": card.number}
            if kind == "deed" and square is not None:
                try:
                    cards.register_deed(uid, square)
                except ValueError as err:
                    return {"ok": False, "code": "not_a_property", "message": str(err)}
                ledger.touch()
                return {"ok": True}
            return {"ok": False, "code": "bad_command", "message": "kind: player oder deed"}

        result: dict[str, Any] = self._d.call(run)
        return result

    # Sim mode: the virtual device's verbs ---------------------------------------------------

    def _sync(self) -> int:
        """Wait until the loop has handled everything queued so far; return the display's frame number."""
        self._d.call(lambda: None)
        return self.display()[0]

    def press(self, key: str) -> int:
        hw = self._d.hardware
        assert hw is not None and self.sim
        if key.startswith("hold:"):
            hw.keypad.hold(key[5:])  # type: ignore[union-attr]
        elif key in ("UP", "DOWN", "PUSH"):
            self._d.events.put(("key", key))
        else:
            hw.keypad.press(key)  # type: ignore[union-attr]
        return self._sync()

    def tap(self, uid: str) -> int:
        hw = self._d.hardware
        assert hw is not None and self.sim
        hw.reader.tap(uid)  # type: ignore[union-attr]
        return self._sync()

    def display(self) -> tuple[int, str]:
        hw = self._d.hardware
        assert hw is not None and isinstance(hw.display, SimDisplay)
        last = hw.display.last
        return (last.seq, last.text) if last else (0, "")

    def display_png(self) -> bytes:
        import io

        hw = self._d.hardware
        assert hw is not None and isinstance(hw.display, SimDisplay)
        last = hw.display.last
        buf = io.BytesIO()
        if last is not None:
            last.image.convert("L").resize((512, 256), 0).save(buf, format="PNG")
        return buf.getvalue()

    def wait_display(self, after: int, timeout: float) -> tuple[int, str]:
        hw = self._d.hardware
        assert hw is not None and isinstance(hw.display, SimDisplay)
        frame = hw.display.wait_for(after, timeout)
        return (frame.seq, frame.text) if frame else self.display()

    def freeze(self) -> None:
        """Sim-mode test verb, enabled only by BANKLESER_ALLOW_FREEZE=1: hang the loop (watchdog test)."""
        self._d.events.put(("freeze",))


def run_daemon(config: Config, *, state_dir: Path, sim: bool, host: str, port: int,
               notifier: Notifier | None = None) -> int:
    daemon = Daemon(config, state_dir, sim, host, port, notifier or Notifier())
    signal.signal(signal.SIGTERM, daemon.stop)
    signal.signal(signal.SIGINT, daemon.stop)
    try:
        daemon.start()
        log.info("Bankleser läuft (%s), Journal in %s", "Simulation" if sim else "Hardware", state_dir)
        daemon.run()
    finally:
        daemon.close()
    return 0
