"""Every game the journal holds, told after the fact: the list, a report per game, the Bestenliste.

The journal keeps every command of every game; this module replays it with the rules on a
read-only connection of its own, beside the daemon's loop (after start-up, pausing often), so
start-up never waits for it and booking goes on. Which game a command belongs to is what the
rules say at the time: a replacing ``new_game`` pushes the running game aside, a Storno of it
brings that game back, and a game whose ``new_game`` was taken back never was one (left out).

Summaries of games that no Storno can reach any more are kept (a few hundred bytes each); the
newest games are replayed again when the journal has grown. A report replays its one game.
"""

from __future__ import annotations

import io
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from rules import EDITIONS, Edition, Event, Game, GameState, RuleError, name_key, net_worth, ranking, winners
from rules.game import mode_name
from rules.phrase import to_data
from rules.state import Transfer
from words import grouped, localised, say, text

from . import clocks
from .journal import Record, read_only, read_records
from .ledger import code_version

log = logging.getLogger(__name__)


@cache
def _own_version() -> str:
    import hashlib  # OpenSSL: loaded when the past games are first told, after READY

    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:8]


PACE_EVERY = 200
"""Commands between two pauses of the warm-up: about 5 ms of replay here, then the loop may run."""
OPEN_GAMES = 3
"""The newest games are replayed on every look: a Storno can still bring them back or change them."""


# The answers' shapes (shapes.reports, one copy for the store and the web), for mypy alone: a TypedDict
# compiles each key's annotation when it is made, and nothing makes or checks them at run time.
if TYPE_CHECKING:
    from shapes.reports import BestRow, Figures, GameSummary, RecordRow


class Kept(Protocol):
    """What finds a game's own journal entries: its first and last entry and those in between that are its own."""

    @property
    def id(self) -> int: ...
    @property
    def last_seq(self) -> int: ...
    @property
    def seqs(self) -> Sequence[int]: ...


class Told(msgspec.Struct):
    """What one game did, gathered while the journal is replayed."""

    id: int
    """The journal's sequence number of its new_game: stable for as long as the journal lives."""
    started: float
    edition: str
    mode: str
    players: list[str]
    house_rules: list[str]
    ended: float = 0.0
    last_seq: int = 0
    status: str = "läuft"
    """läuft, beendet (the mode's end was reached) or ersetzt (a new game replaced it): program words, kept in the
    cache and read by the pages, which say them in the language in force (``reports.status.*``)."""
    final: GameState | None = None
    commands: int = 0
    detail: bool = False
    stack: list[tuple[Record, Event]] = []
    """Accepted bookings that stand (a Storno takes the last one off), for the report's figures."""
    log: list[tuple[float, Event]] = []
    """Every booking with its time, kept as the rules said it: its words are chosen when the report is shown."""
    points: list[dict[str, Any]] = []
    seqs: list[int] = []
    """Journal entries of this game (its own Stornos included), for the download."""
    clock: str = "unknown"
    """Which clock dated the game's start (:data:`clocks.SOURCES`): the pages say it."""
    opening: tuple[Record, Event] | None = None
    """The new_game and what it paid out (each player's start capital), for the CSV."""
    edition_title: str = ""
    """The game's own edition's title (a family's edition has no shipped one to look up)."""
    mode_said: list[object] = []
    """The mode as the rules name it (:func:`rules.game.mode_name`: the edition's own name for its quick game, the
    speed die), kept as phrase data (:func:`rules.phrase.to_data`) in the summary and the cache: said when shown."""

    def board(self) -> Edition:
        """The game's own edition (a family's too): its square names, money and buildings say the bookings."""
        return self.final.edition if self.final is not None else EDITIONS.get(self.edition, EDITIONS["classic"])

    def said(self, event: Event) -> str:
        """A booking in the language in force, with this game's edition."""
        return booking(event, self.board())

    def figures(self) -> dict[str, Figures]:
        return figures(self)

    def csv(self) -> str:
        return transactions_csv(self)

    def summary(self) -> GameSummary:
        state = self.final
        worth = {n: net_worth(state, n) for n in state.players} if state is not None else {}
        return {"id": self.id, "started": self.started, "ended": self.ended, "last_seq": self.last_seq,
                "edition": self.edition, "edition_title": self.edition_title or EDITIONS[self.edition].title,
                "mode": self.mode, "mode_said": self.mode_said,
                "players": self.players, "house_rules": self.house_rules,
                "status": self.status, "winner": state.winner if state is not None else None,
                "winners": winners(state) if state is not None else [],
                "ranking": ranking(state) if state is not None else [], "worth": worth,
                "cash": {n: p.cash for n, p in state.players.items()} if state is not None else {},
                "commands": self.commands, "clock": self.clock}


def tell(records: Iterable[Record], detail_for: int | None = None,
         pace: Callable[[], None] | None = None, refused: list[str] | None = None,
         dated_by: list[clocks.Segment] | None = None) -> dict[int, Told]:
    """Replay ``records`` (from a game's start) and tell each game; ``detail_for``: that game's whole story.

    ``pace``: called every PACE_EVERY commands (a long replay beside the loop gives the GIL away).
    ``refused``: gets the op of every journaled command the replay refused (a refused Storno: the replay
    began after a game that Storno brought back).
    ``dated_by``: the boots' clocks (:mod:`.clocks`): a boot the banker's phone dated has its times moved.
    """
    game = Game()
    boots = clocks.Boots(dated_by or [])
    told: dict[int, Told] = {}
    current: list[int] = []
    for n, rec in enumerate(records):
        if pace is not None and n % PACE_EVERY == 0:
            pace()
        boot = boots.of(rec.seq)
        if boot is not None and boot.offset:
            rec = Record(rec.seq, rec.at + boot.offset, rec.cmd)
        before = game.state
        try:
            event = game.apply(rec.cmd, replaying=True)
        except RuleError:
            if refused is not None:  # a Storno reaching before this window, or older rules
                refused.append(str(rec.cmd.get("op")))
            continue
        if event.duplicate:
            continue
        state = game.state
        assert state is not None
        if event.op == "new_game":
            if current:
                old = told[current[-1]]
                old.final, old.status = before, "beendet" if before is not None and before.finished else "ersetzt"
            current.append(rec.seq)
            told[rec.seq] = Told(rec.seq, rec.at, state.edition.key, state.mode.value,
                                 list(state.players), sorted(state.house_rules), detail=rec.seq == detail_for,
                                 clock=boot.source if boot is not None else "unknown",
                                 edition_title=state.edition.title, mode_said=to_data(mode_name(state)))
        elif event.op == "undo" and state is not before:
            told.pop(current.pop())  # its new_game was taken back: it never was a game
            if current:
                told[current[-1]].status = "läuft"
            continue
        if not current:
            continue
        one = told[current[-1]]
        one.commands, one.ended, one.last_seq = one.commands + 1, rec.at, rec.seq
        one.status = "beendet" if state.finished else "läuft"
        if one.detail:
            _detail(one, rec, event, state)
    if current:
        told[current[-1]].final = game.state
    return told


def _detail(one: Told, rec: Record, event: Event, state: GameState) -> None:
    one.seqs.append(rec.seq)
    one.log.append((rec.at, event))
    if event.op == "undo":
        if one.stack:
            one.stack.pop()
    elif event.op == "new_game":
        one.opening = (rec, event)
    else:
        one.stack.append((rec, event))
    one.points.append({"at": rec.at, **{n: net_worth(state, n) for n in state.players}})


# -- a report ----------------------------------------------------------------------------------


def booking(event: Event, edition: Edition) -> str:
    """What a booking did, in the language in force and the game's edition's words."""
    return say(event.said, edition)


def reason(transfer: Transfer, edition: Edition) -> str:
    """Why a payment was made, in the language in force and the game's edition's words."""
    return say(transfer.reason, edition)


def figures(one: Told) -> dict[str, Figures]:
    """Per player: rent paid and received, the deed that earned most, the biggest payment (its amount and the
    booking, said when shown), buildings bought, mortgages taken, the time of bankruptcy; from the bookings that
    stand."""
    out: dict[str, Figures] = {
        n: {"rent_paid": 0, "rent_received": 0, "best_deed": None, "biggest": None, "buildings": 0,
            "mortgages": 0, "bankrupt_at": None} for n in one.players}
    earned: dict[str, dict[int, int]] = {n: {} for n in one.players}
    for rec, event in one.stack:
        player = rec.cmd.get("player")
        if event.op == "rent":
            for t in event.transfers:
                if t.payer in out and t.payee in out:
                    out[t.payer]["rent_paid"] += t.amount
                    out[t.payee]["rent_received"] += t.amount
                    sq = int(rec.cmd["square"])
                    earned[t.payee][sq] = earned[t.payee].get(sq, 0) + t.amount
        elif event.op == "build" and player in out:
            out[player]["buildings"] += 1
        elif event.op == "mortgage" and player in out:
            out[player]["mortgages"] += 1
        elif event.op == "bankrupt" and player in out:
            out[player]["bankrupt_at"] = rec.at
        for t in event.transfers:
            biggest = out[t.payer]["biggest"] if t.payer in out else None
            if t.payer in out and (biggest is None or t.amount > biggest[0]):
                out[t.payer]["biggest"] = (t.amount, event)
    for name, deeds in earned.items():
        if deeds:
            sq, amount = max(deeds.items(), key=lambda kv: (kv[1], -kv[0]))
            out[name]["best_deed"] = (sq, amount)
    return out


CSV_COLUMNS = ("reports.csv.entry", "reports.csv.time", "reports.csv.op", "reports.csv.payer", "reports.csv.payee",
               "reports.csv.amount", "reports.csv.reason", "reports.csv.booking")
"""The header row, what a person reads in the spreadsheet. The values of the column "Befehl" stay the commands'
``op`` in every language (``rent``, ``new_game``): the journal's and the replay's words, the same a program filters
by; the column "Buchung" says the booking in words."""


def transactions_csv(one: Told) -> str:
    """Every payment of the game, one row each, for a spreadsheet in the language in force (German Excel reads
    ';', an English one ','; the date and the amounts as the language writes them, which that spreadsheet reads
    back as numbers; the currency once, in the amount's header): the start capital first, the Frei-Parken pot
    named where money went into it or came out, local times."""
    import csv  # a spreadsheet is asked for long after READY

    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=text("reports.csv.delimiter"), lineterminator="\r\n")
    edition, stamp = one.board(), text("reports.csv.stamp")
    currency = localised(edition).currency
    amount = text("reports.csv.amount_in", currency=currency) if currency else text("reports.csv.amount")
    writer.writerow([amount if column == "reports.csv.amount" else text(column) for column in CSV_COLUMNS])
    pot, bank = text("reports.csv.pot"), text("reports.csv.bank")
    for (rec, event) in ([one.opening] if one.opening else []) + one.stack:
        into_pot, out_of_pot = _pot_moves(event)
        said = booking(event, edition)
        for t in event.transfers:
            payer = t.payer or (pot if out_of_pot else bank)
            payee = t.payee or (pot if into_pot else bank)
            writer.writerow([rec.seq, time.strftime(stamp, time.localtime(rec.at)), event.op, payer, payee,
                             grouped(t.amount), reason(t, edition), said])
    return buf.getvalue()


def _pot_moves(event: Event) -> tuple[bool, bool]:
    """Whether the event's payments to the bank went into the pot, and whether its bank payouts came from
    it: the pot's own change says so (the rules book taxes and fines there under the house rule)."""
    delta = sum(int(c.new or 0) - int(c.old or 0) for c in event.changes if c.field == "pot")
    to_bank = sum(t.amount for t in event.transfers if t.payee is None and t.payer is not None)
    from_bank = sum(t.amount for t in event.transfers if t.payer is None and t.payee is not None)
    return delta > 0 and delta == to_bank, delta < 0 and -delta == from_bank


# -- the history of a journal ---------------------------------------------------------------


class History:
    """The games of one journal file, read on a connection of its own (web threads, never the loop)."""

    def __init__(self, path: Path, cache: Path | None = None) -> None:
        self.path = path
        self.cache = cache
        """A file keeping the closed games' summaries across restarts (a cache: deleting it costs one replay)."""
        self._lock = threading.Lock()
        self._closed: dict[int, GameSummary] = {}
        """Summaries of games before the open window, by id: they cannot change any more."""
        self._open: list[GameSummary] = []
        self._read_to = 0
        self._window = 0
        """The first journal entry of the open window (a game's new_game)."""
        self._loaded = False
        self.warming = threading.Event()
        self.progress = (0, 0)
        """While warming: the journal entries being told (from, to)."""
        self._clocks: list[clocks.Segment] = []
        self._clocks_text: str | None = None

    def games(self) -> list[GameSummary]:
        """Every game, newest first (games whose new_game was taken back are not games).

        While :meth:`warm` runs this waits for it: the pages look at ``warming`` first and say so
        rather than keep a phone waiting (on a Pi, a long journal takes a while once per update).
        """
        with self._lock:
            self._update()
            return sorted([*self._closed.values(), *self._open], key=lambda g: -g["id"])

    def warm(self) -> None:
        """Tell the past games beside the loop after start-up, pausing often: booking never waits for it."""
        self.warming.set()
        try:
            with self._lock:
                self._update(pace=lambda: time.sleep(0.002))
        except Exception as err:  # the pages will try again and say what is wrong
            log.error("history warm-up: %s", err)
        finally:
            self.warming.clear()

    def _update(self, pace: Callable[[], None] | None = None) -> None:
        with read_only(self.path) as db:
            if not self._loaded:
                self._loaded = True
                self._load(db)
            last = db.execute("SELECT COALESCE(MAX(seq), 0) FROM commands").fetchone()[0]
            dated = self._read_clocks(db)
            if last == self._read_to and not dated:
                return
            starts = [seq for (seq,) in db.execute("SELECT seq FROM games ORDER BY seq")]
            window, open_games = self._window_from(db, starts, last)
            if window > self._window:
                # Games that left the window are closed for good: told once from where the last look began.
                self.progress = (self._window, window)
                told = tell(read_records(db, self._window, window - 1), pace=pace, dated_by=self._clocks)
                for one in told.values():
                    summary = one.summary()
                    if summary["status"] == "läuft":  # the next new_game, outside this range, replaced it
                        summary["status"] = "ersetzt"
                    self._closed[one.id] = summary
                self._window = window
                self._save(db)
            self._open = [one.summary() for one in open_games.values() if one.id not in self._closed]
            self._read_to = last

    def _read_clocks(self, db: Any) -> bool:
        """The boots' clocks as the journal keeps them now; True when a phone dated a boot since the last look."""
        text = _clocks_text(db)
        if text == self._clocks_text:
            return False
        self._clocks_text, self._clocks = text, clocks.load(text)
        return True

    def _window_from(self, db: Any, starts: list[int], last: int) -> tuple[int, dict[int, Told]]:
        """Where the open games begin, and them told: the newest OPEN_GAMES games, or more if a Storno
        in them brought back a game before (its replay would refuse that Storno)."""
        back = OPEN_GAMES
        while True:
            window = starts[-back] if len(starts) >= back else (starts[0] if starts else 0)
            window = max(window, self._window)
            refused: list[str] = []
            told = tell(read_records(db, window, last), refused=refused, dated_by=self._clocks)
            if window == self._window or "undo" not in refused:
                return window, told
            back += 1

    def _stamp(self, db: Any) -> list[Any]:
        """What the cache belongs to: this code, and the journal's chain where the window starts (a journal
        restored from a backup or salvaged has other links there)."""
        row = db.execute("SELECT link FROM commands WHERE seq = ?", (self._window,)).fetchone()
        return [code_version() + _own_version(), self._window, row[0] if row else None]

    def _load(self, db: Any) -> None:
        if self.cache is None:
            return
        try:
            data = json.loads(self.cache.read_text(encoding="utf-8"))
            self._window = int(data["stamp"][1])
            if data["stamp"] != self._stamp(db):
                raise ValueError("other code or another journal")
            self._closed = {int(g["id"]): g for g in data["games"]}
        except FileNotFoundError:  # the first start, or after an update removed it: nothing to report
            log.debug("no history cache yet: the journal is told")
            self._window, self._closed = 0, {}
        except (OSError, ValueError, KeyError, TypeError) as err:
            log.info("history cache not used (%s): the journal is told anew", err)
            self._window, self._closed = 0, {}

    def _save(self, db: Any) -> None:
        if self.cache is None:
            return
        tmp = self.cache.with_name(self.cache.name + ".tmp")
        try:
            tmp.write_text(json.dumps({"stamp": self._stamp(db), "games": list(self._closed.values())},
                                      ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, self.cache)
        except OSError as err:  # a full card: the next start tells the journal again, nothing is lost
            log.error("history cache not written: %s", err)

    def report(self, game_id: int) -> Told | None:
        """One game's whole story, replayed from its new_game to its last entry."""
        summary = next((g for g in self.games() if g["id"] == game_id), None)
        if summary is None:
            return None
        with read_only(self.path) as db:
            told = tell(read_records(db, game_id, summary["last_seq"]), detail_for=game_id,
                        dated_by=clocks.load(_clocks_text(db)))
        return told.get(game_id)

    def commands(self, one: Kept) -> list[dict[str, Any]]:
        """The game's own journal entries: ``bankleser replay --journal`` of them ends where the game ended."""
        with read_only(self.path) as db:
            wanted = set(one.seqs)
            return [rec.cmd for rec in read_records(db, one.id, one.last_seq) if rec.seq in wanted]

    def jsonl(self, one: Kept) -> str:
        """:meth:`commands` as a file of JSON lines, one command a line."""
        return jsonl(self.commands(one))

    def best(self, edition: str | None = None, mode: str | None = None) -> list[BestRow]:
        """The Bestenliste: per player name, over every game that reached its end (counts, no money: an
        amount means something only within its edition, see :meth:`records`)."""
        rows: dict[str, BestRow] = {}
        for g in self._finished(edition, mode):
            for name in g["players"]:
                row = rows.setdefault(name_key(name), {"name": name, "games": 0, "wins": 0, "rate": 0.0})
                row["games"] += 1
                # A shared win (equal net worth at the end of a quick or timed game) counts for each of them.
                row["wins"] += name in g["winners"] or (g["winner"] is None and g["ranking"][:1] == [name])
        out = list(rows.values())
        for row in out:
            row["rate"] = row["wins"] / row["games"]
        return sorted(out, key=lambda r: (-r["wins"], -r["rate"], -r["games"], r["name"].casefold()))

    def records(self, edition: str | None = None, mode: str | None = None) -> list[RecordRow]:
        """The best net worth at the end of a quick or timed game, one per edition and mode (4723 Ringe and
        18M € are not compared): who, how much, in which game."""
        best: dict[tuple[str, str], RecordRow] = {}
        for g in self._finished(edition, mode):
            if g["mode"] not in ("quick", "timed"):
                continue
            for name, worth in g["worth"].items():
                key = (g["edition"], g["mode"])
                if key not in best or worth > best[key]["worth"]:
                    best[key] = {"edition": g["edition"], "edition_title": g["edition_title"], "mode": g["mode"],
                                 "mode_said": g.get("mode_said"),
                                 "name": name, "worth": worth, "game": g["id"]}
        return sorted(best.values(), key=lambda r: (r["edition_title"], r["mode"]))

    def _finished(self, edition: str | None, mode: str | None) -> list[GameSummary]:
        return [g for g in self.games() if g["status"] == "beendet" and (not edition or g["edition"] == edition)
                and (not mode or g["mode"] == mode)]

def _clocks_text(db: Any) -> str | None:
    row = db.execute("SELECT value FROM settings WHERE key = ?", (clocks.KEY,)).fetchone()
    return row[0] if row else None


def jsonl(commands: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(cmd, ensure_ascii=False) + "\n" for cmd in commands)
