"""The ledger: the rules' game, the durable journal and what the web shows, kept in step.

One door for every change, from the keypad and from the web alike: :meth:`Ledger.submit`.
A command is checked by the rules, then journaled; only a journaled command is acknowledged.
If the journal write fails (full disk, dying card) the in-memory game is rebuilt from the
journal, so the state never holds what the journal does not.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

import rules
import words
from rules import Event, Game, Mode, RuleError, net_worth, to_json
from rules.newgame import with_edition_data
from rules.phrase import Phrase, from_data, to_data
from rules.snapshot import game_from_data, game_to_data
from words import text

from .journal import Journal, JournalError, Unstorable, encode

log = logging.getLogger(__name__)

LOG_SIZE = 200
CHART_POINTS = 300
"""A phone's chart cannot show more: a long game keeps every ``stride``-th point, at least this many."""
CHECKPOINT_EVERY = 500
"""Commands between checkpoints: after a power cut, start-up replays at most this many."""


@cache
def code_version() -> str:
    """The rules' and this file's source: a checkpoint is used only by the code that wrote it.

    A newer version may judge an old command differently; it then replays the journal itself.
    """
    import hashlib  # OpenSSL: loaded at the first checkpoint, not before READY of an empty journal

    digest = hashlib.sha256()
    for path in [*sorted(Path(rules.__file__).parent.rglob("*.py")), Path(__file__)]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class Outcome(msgspec.Struct, frozen=True):
    """The answer to a submitted command."""

    ok: bool
    code: str | None = None
    message: str = ""
    event: Event | None = None
    owed: int | None = None
    """A refusal for want of money: the whole sum asked (``RuleError.owed``)."""
    said: Phrase | None = None
    """The rules' refusal as they said it (``message`` is it in the language in force when it was refused)."""

    @classmethod
    def refusal(cls, err: RuleError, edition: rules.Edition | None = None) -> Outcome:
        """The rules' refusal as an answer, with all it says (the debt of a payment refused for want of money),
        said in the language in force with the game's ``edition``."""
        return cls(False, err.code, words.say(err.said, edition), owed=err.owed, said=err.said)

    def as_dict(self) -> dict[str, Any]:
        if self.ok:
            return {"ok": True}
        return {"ok": False, "code": self.code, "message": self.message}


class LogEntry(msgspec.Struct, frozen=True):
    seq: int
    at: float
    op: str
    said: Phrase
    """What the booking did, as the rules said it: told in the language in force when shown (:meth:`snapshot`)."""


class Ledger(msgspec.Struct):
    """Thread-safe: the device's loop submits, the web server reads snapshots."""

    journal: Journal
    clock: Callable[[], float] = time.time
    """Wall time, for the journal's timestamps only: it never decides how long a game has run."""
    mono: Callable[[], float] = time.monotonic
    """The play clock of a timed game: a wall-clock jump (NTP after a boot without a battery clock)
    cannot end or extend a game."""
    game: Game = msgspec.field(default_factory=Game)
    log: deque[LogEntry] = msgspec.field(default_factory=lambda: deque(maxlen=LOG_SIZE))
    worth: list[dict[str, Any]] = []
    """Net worth of every player along the current game (the chart): at most 2 × CHART_POINTS points,
    thinned evenly as the game grows, so neither memory nor replay grows with it."""
    started_at: float | None = None
    game_seq: int | None = None
    """Journal sequence number of the current game's new_game (the key of its play clock)."""
    played: float = 0.0
    """Seconds of play before ``_since`` (persisted every few seconds; the clock stands still while off)."""
    clock_resumed: bool = False
    """The game's clock went on from where it stood at the last shutdown: the OLED says so once."""
    problem_key: str | None = None
    """A storage problem to show on screen and page, as its catalogue key (said where it is shown, in the language
    in force: :attr:`problem`); None when all is well."""
    skipped: int = 0
    """Journaled commands the rules refused on replay (a journal from an older rules version)."""
    version: int = 0
    """Counts the changes: the daemon publishes a new public state, the chart is drawn again, when it moves."""
    editions: Mapping[str, rules.Edition] = msgspec.field(default_factory=lambda: rules.EDITIONS)
    """The editions a new game may be started with (shipped and the family's): its data goes into the journal."""
    # Kept by the ledger itself, never passed:
    _views: list[tuple[deque[LogEntry], list[dict[str, Any]], float | None, int, int, int | None, float]] = []
    """The log, chart and clock of the games the last new_games replaced: a Storno of one brings them back."""
    _since: float = 0.0
    _lock: threading.Condition = msgspec.field(default_factory=threading.Condition)
    """Guards the state (a Condition over a reentrant lock) and wakes the live pages' waiters."""
    _stride: int = 1
    _skipped: int = 0
    _checkpointed: int = 0
    _undo_refused: bool = False

    @property
    def problem(self) -> str | None:
        """The storage problem in the language in force (a phone's page may read another than the OLED's)."""
        return text(self.problem_key) if self.problem_key else None

    def __post_init__(self) -> None:
        self._since = self.mono()
        self._replay()

    # Replay ------------------------------------------------------------------------------

    def _reset(self) -> None:
        self.game, self.log, self.worth, self._views = Game(), deque(maxlen=LOG_SIZE), [], []
        self.started_at = self.game_seq = None
        self.skipped, self._stride, self._skipped = 0, 1, 0

    def _replay(self) -> None:
        self._reset()
        self._checkpointed = 0
        first = self._restore()
        replayed = self._replay_from(first) if first is not None else self._replay_games()
        self._load_clock()
        if replayed >= CHECKPOINT_EVERY:
            self.checkpoint()  # the next start, even after a power cut, needs not replay these again

    def _replay_games(self) -> int:
        """Replay from the start of a game before the current one; older games are history.

        Storno can bring back a replaced game, and with it the games it replaced: if the window
        was too short, a journaled Storno is refused on replay. Then the window doubles, until
        every journaled Storno is accepted again or the replay starts at the journal's start.
        (Other refusals come from a journal of older rules: a wider window would not help.)
        """
        starts, back = self.journal.game_starts(), 2
        while True:
            first = starts[-back][0] if len(starts) >= back else None
            replayed = self._replay_from(first)
            if not self._undo_refused or first is None:
                return replayed
            self._reset()
            back *= 2

    def _replay_from(self, first: int | None) -> int:
        replayed, self._undo_refused = 0, False
        for rec in self.journal.records(first):
            replayed += 1
            try:
                before = self.game.state
                event = self.game.apply(rec.cmd, replaying=True)
            except RuleError as err:
                self.skipped += 1
                self._undo_refused |= rec.cmd.get("op") == "undo"
                log.error("journal entry %d refused on replay (%s): %s", rec.seq, err.code, rec.cmd)
                continue
            self._record(event, rec.seq, rec.at, before)
        return replayed

    # Checkpoints -------------------------------------------------------------------------

    def _memory(self) -> dict[str, Any]:
        def view(log: deque[LogEntry], worth: list[dict[str, Any]], started: float | None, stride: int,
                 skipped: int, game_seq: int | None, played: float) -> list[Any]:
            entries = [[e.seq, e.at, e.op, to_data(e.said)] for e in log]
            return [entries, worth, started, stride, skipped, game_seq, played]

        return {"code": code_version(), "game": game_to_data(self.game), "skipped": self.skipped,
                "current": view(self.log, self.worth, self.started_at, self._stride, self._skipped, self.game_seq,
                                0.0),
                "views": [view(*v) for v in self._views]}

    def checkpoint(self) -> None:
        """Store the replayed memory, so start-up replays only what comes after (a cache, never the truth)."""
        with self._lock:
            seq = self.journal.last_seq
            if seq == 0 or seq == self._checkpointed:
                return
            try:
                body = json.dumps(self._memory(), ensure_ascii=False, separators=(",", ":"))
                self.journal.write_checkpoint(seq, body)
                self._checkpointed = seq
            except (JournalError, ValueError) as err:
                log.error("checkpoint not stored (start-up replays instead): %s", err)

    def _restore(self) -> int | None:
        """Load the newest usable checkpoint; returns the first sequence number still to replay, or None."""
        try:
            found = self.journal.read_checkpoint()
        except Exception as err:  # a damaged cache is no reason not to start: replay instead
            log.error("checkpoint unreadable: %s", err)
            return None
        if found is None:
            return None
        seq, body = found
        try:
            data = json.loads(body)
            if data.get("code") != code_version():
                log.info("checkpoint from other code: replaying the journal")
                return None
            game = game_from_data(data["game"])

            def unview(v: list[Any]) -> tuple[Any, ...]:
                entries, worth, started, stride, skipped, game_seq, played = v
                told = (LogEntry(s, at, op, from_data(said)) for s, at, op, said in entries)
                return (deque(told, maxlen=LOG_SIZE), worth, started, stride, skipped,
                        game_seq, played)

            current = unview(data["current"])
            views = [unview(v) for v in data["views"]]
        except (RuleError, ValueError, TypeError, KeyError) as err:
            log.error("checkpoint unusable (%s): replaying the journal", err)
            return None
        self.game, self.skipped, self._views = game, int(data["skipped"]), views
        self.log, self.worth, self.started_at, self._stride, self._skipped, self.game_seq, _ = current
        self._checkpointed = seq
        return seq + 1

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
        self.log.append(LogEntry(seq, at, event.op, event.said))
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
            refused = getattr(self.editions, "refused", None)  # a key two family files claim: neither plays
            new = isinstance(cmd, dict) and cmd.get("op") == "new_game"
            said = refused(cmd.get("edition")) if callable(refused) and new else None
            if said is not None:
                return Outcome(False, "edition_twins", words.say(said), said=said)
            stamped = with_edition_data(cmd, self.editions)  # a game keeps its edition, whatever becomes of its file
            cmd = cmd if stamped is cmd else dict(stamped)
            try:
                stored = encode(cmd)  # what cannot be stored is refused before the rules apply it
            except Unstorable as err:
                return Outcome(False, "bad_command", text("service.ledger.unstorable", error=err))
            before = self.game.state
            try:
                event = self.game.apply(cmd)
            except RuleError as err:
                return Outcome.refusal(err, self.game.state.edition if self.game.state is not None else None)
            if event.duplicate:
                return Outcome(True, event=event)
            now = self.clock()
            try:
                seq = self.journal.append(cmd, at=now, text=stored)
            except Exception as err:
                # Whatever went wrong, the change is not durable: the journal is the truth.
                self.problem_key = err.what if isinstance(err, JournalError) else "service.journal.failed.store"
                message = text(self.problem_key)
                log.error("journal write failed: %s", err)
                game_seq, elapsed = self.game_seq, self.elapsed()
                try:
                    self._replay()
                    if self.game_seq == game_seq:  # the same game goes on: its clock did not stop
                        self.played, self._since, self.clock_resumed = elapsed, self.mono(), False
                except JournalError as again:
                    log.error("journal unreadable after a failed write: %s", again)
                return Outcome(False, "storage_error", text("service.ledger.not_booked", message=message))
            self.problem_key = None
            self._record(event, seq, now, before)
            self.version += 1
            self._lock.notify_all()
            if seq - self._checkpointed >= CHECKPOINT_EVERY:
                self.checkpoint()
            return Outcome(True, event=event)

    def check(self, cmd: dict[str, Any]) -> RuleError | None:
        with self._lock:
            return self.game.check(cmd)

    # Reading -----------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The contract's state plus ``log`` and ``remaining`` (seconds left in a timed game), for the web."""
        with self._lock:
            state = self.game.state
            edition = state.edition if state is not None else None
            return {
                "version": self.version,
                "state": to_json(state) if state is not None else None,
                "log": [{"seq": e.seq, "at": e.at, "op": e.op, "text": words.say(e.said, edition)}
                        for e in reversed(self.log)],
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

    def touch(self) -> None:
        """Something besides a command changed (names, cards, a problem): wake the live pages."""
        with self._lock:
            self.version += 1
            self._lock.notify_all()
