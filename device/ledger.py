"""The ledger: the rules' game, the durable journal and what the web shows, kept in step.

One door for every change, from the keypad and from the web alike: :meth:`Ledger.submit`.
A command is checked by the rules, then journaled; only a journaled command is acknowledged.
If the journal write fails (full disk, dying card) the in-memory game is rebuilt from the
journal, so the state never holds what the journal does not.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules import Event, Game, Mode, RuleError, net_worth, to_json

from .journal import Journal, JournalError, Unstorable, encode

log = logging.getLogger(__name__)

LOG_SIZE = 200
CHART_POINTS = 300
"""A phone's chart cannot show more: a long game keeps every ``stride``-th point, at least this many."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The answer to a submitted command."""

    ok: bool
    code: str | None = None
    message: str = ""
    event: Event | None = None

    def as_dict(self) -> dict[str, Any]:
        if self.ok:
            return {"ok": True}
        return {"ok": False, "code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class LogEntry:
    seq: int
    at: float
    op: str
    text: str


@dataclass
class Ledger:
    """Thread-safe: the device's loop submits, the web server reads snapshots."""

    journal: Journal
    clock: Callable[[], float] = time.time
    """Wall time, for the journal's timestamps only: it never decides how long a game has run."""
    mono: Callable[[], float] = time.monotonic
    """The play clock of a timed game: a wall-clock jump (NTP after a boot without a battery clock)
    cannot end or extend a game."""
    game: Game = field(default_factory=Game)
    log: deque[LogEntry] = field(default_factory=lambda: deque(maxlen=LOG_SIZE))
    worth: list[dict[str, Any]] = field(default_factory=list)
    """Net worth of every player along the current game (the chart): at most 2 × CHART_POINTS points,
    thinned evenly as the game grows, so neither memory nor replay grows with it."""
    started_at: float | None = None
    game_seq: int | None = None
    """Journal sequence number of the current game's new_game (the key of its play clock)."""
    played: float = 0.0
    """Seconds of play before ``_since`` (persisted every few seconds; the clock stands still while off)."""
    clock_resumed: bool = False
    """The game's clock went on from where it stood at the last shutdown: the OLED says so once."""
    problem: str | None = None
    """A storage problem to show on screen and page; None when all is well."""
    skipped: int = 0
    """Journaled commands the rules refused on replay (a journal from an older rules version)."""

    def __post_init__(self) -> None:
        self._stride, self._skipped = 1, 0
        self._views: list[tuple[deque[LogEntry], list[dict[str, Any]], float | None, int, int, int | None,
                                float]] = []
        self._since = self.mono()
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self.version = 0
        self._replay()

    # Replay ------------------------------------------------------------------------------

    def _replay(self) -> None:
        self.game = Game()
        self.log.clear()
        self.worth.clear()
        self.started_at = None
        self.game_seq = None
        self._views = []
        self.skipped = 0
        # Only the games a command can still reach: the running one, and the one a replacing
        # new_game would bring back if it is undone. Older games are history, read on demand.
        starts = self.journal.game_starts()
        first = starts[-2][0] if len(starts) >= 2 else None
        for rec in self.journal.records(first):
            try:
                before = self.game.state
                event = self.game.apply(rec.cmd, replaying=True)
            except RuleError as err:
                self.skipped += 1
                log.error("journal entry %d refused on replay (%s): %s", rec.seq, err.code, rec.cmd)
                continue
            self._record(event, rec.seq, rec.at, before)
        self._load_clock()

    # The play clock of a timed game ------------------------------------------------------

    def _load_clock(self) -> None:
        """After replay: the play time stored for this game; the clock stood still while the appliance was off."""
        self._since = self.mono()
        self.played, self.clock_resumed = 0.0, False
        if self.game_seq is None:
            return
        stored = self.journal.setting(f"playclock:{self.game_seq}")
        if stored is not None:
            self.played = float(stored)
        elif self.started_at is not None:
            # A game from before the play clock: its wall-clock age is all there is to go by.
            self.played = max(0.0, self.clock() - self.started_at)
        self.clock_resumed = self.played > 0 and self.remaining() is not None

    def elapsed(self) -> float:
        return self.played + (self.mono() - self._since)

    def remaining(self) -> float | None:
        """Seconds left in a running timed game (never negative), None for any other game."""
        state = self.game.state
        if state is None or state.mode is not Mode.TIMED or state.minutes is None or state.finished:
            return None
        return max(0.0, state.minutes * 60 - self.elapsed())

    def checkpoint_clock(self) -> None:
        """Store the play time (every few seconds from the daemon): a power cut loses at most that much."""
        if self.game_seq is None or self.remaining() is None:
            return
        try:
            self.journal.set_setting(f"playclock:{self.game_seq}", f"{self.elapsed():.1f}")
        except JournalError as err:
            log.error("play clock not stored: %s", err)

    def _record(self, event: Event, seq: int, at: float, before: Any = None) -> None:
        if event.duplicate:
            return
        if event.op == "undo" and self.game.state is not before and self._views:
            # Storno of a new_game: the game it replaced is back, and so is its log, chart and clock.
            (self.log, self.worth, self.started_at, self._stride, self._skipped, self.game_seq,
             self.played) = self._views.pop()
            self._since = self.mono()
        elif event.op == "new_game":
            self._views.append((self.log, self.worth, self.started_at, self._stride, self._skipped, self.game_seq,
                                self.elapsed()))
            del self._views[:-2]
            self.log = deque(maxlen=LOG_SIZE)
            self.worth = []
            self._stride, self._skipped = 1, 0
            self.started_at = at
            self.game_seq, self.played, self._since = seq, 0.0, self.mono()
        self.log.append(LogEntry(seq, at, event.op, event.text))
        self._skipped += 1
        if self._skipped < self._stride:
            return  # between two points of the chart: no net worth computed (replay stays cheap)
        self._skipped = 0
        point = self._point(seq, at)
        if point is not None:
            self.worth.append(point)
        if len(self.worth) >= 2 * CHART_POINTS:
            del self.worth[1::2]
            self._stride *= 2

    def _point(self, seq: int, at: float) -> dict[str, Any] | None:
        state = self.game.state
        if state is None:
            return None
        return {"seq": seq, "at": at, **{n: net_worth(state, n) for n in state.players}}

    # The door ----------------------------------------------------------------------------

    def submit(self, cmd: dict[str, Any]) -> Outcome:
        """Check, apply and journal one command; acknowledged only once durable."""
        with self._lock:
            try:
                text = encode(cmd)  # what cannot be stored is refused before the rules apply it
            except Unstorable as err:
                return Outcome(False, "bad_command", f"Befehl nicht speicherbar: {err}")
            before = self.game.state
            try:
                event = self.game.apply(cmd)
            except RuleError as err:
                return Outcome(False, err.code, err.message)
            if event.duplicate:
                return Outcome(True, event=event)
            now = self.clock()
            try:
                seq = self.journal.append(cmd, at=now, text=text)
            except Exception as err:
                # Whatever went wrong, the change is not durable: the journal is the truth.
                message = err.message if isinstance(err, JournalError) else "Speichern fehlgeschlagen"
                log.error("journal write failed: %s", err)
                self.problem = message
                game_seq, elapsed = self.game_seq, self.elapsed()
                try:
                    self._replay()
                    if self.game_seq == game_seq:  # the same game goes on: its clock did not stop
                        self.played, self._since, self.clock_resumed = elapsed, self.mono(), False
                except JournalError as again:
                    log.error("journal unreadable after a failed write: %s", again)
                return Outcome(False, "storage_error", f"{message}: nicht gebucht")
            self.problem = None
            self._record(event, seq, now, before)
            self.version += 1
            self._changed.notify_all()
            return Outcome(True, event=event)

    def check(self, cmd: dict[str, Any]) -> RuleError | None:
        with self._lock:
            return self.game.check(cmd)

    # Reading -----------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The contract's state plus ``log`` and ``remaining`` (seconds left in a timed game), for the web."""
        with self._lock:
            state = self.game.state
            return {
                "version": self.version,
                "state": to_json(state) if state is not None else None,
                "log": [{"seq": e.seq, "at": e.at, "op": e.op, "text": e.text} for e in reversed(self.log)],
                "remaining": self.remaining(),
                "problem": self.problem,
            }

    def worth_history(self) -> tuple[int, list[dict[str, Any]]]:
        """The chart's points, copied once for one drawing (the snapshot no longer carries them)."""
        with self._lock:
            points = list(self.worth)
            last = self.log[-1] if self.log else None
            if last is not None and (not points or points[-1]["seq"] != last.seq):
                now = self._point(last.seq, last.at)  # the chart always ends at the present
                if now is not None:
                    points.append(now)
            return self.version, points

    def wait_for_change(self, version: int, timeout: float) -> int:
        """Block until the ledger's version passes ``version`` (for the live page)."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > version, timeout)
            return self.version

    def touch(self) -> None:
        """Something besides a command changed (names, cards, a problem): wake the live pages."""
        with self._changed:
            self.version += 1
            self._changed.notify_all()
