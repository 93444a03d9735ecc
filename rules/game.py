"""The door: every command of the contract, checked against the whole state, then applied.

``Game.apply(command)`` is the single door through which money and property move. The JSON
is parsed once, at that door, into a typed command (:mod:`rules.commands`). Its move
(:mod:`rules.moves`, one module per topic) reads the state through a :class:`~rules.state.Staged`
overlay and stages its changes; a :class:`~rules.errors.RuleError` anywhere drops the overlay, so a
refused command changes nothing. A new game is set up by :mod:`rules.newgame`; Storno and the
replaced games are the door's own. Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from . import commands as cmds
from .commands import Command, parse
from .effect import effect_digest
from .errors import BadCommand, RuleError
from .moves import Ctx, check_end, shortage
from .moves.context import chain
from .newgame import new_game_state
from .ops import HANDLERS
from .phrase import Cash, Many, Phrase, Place, Value, phrase
from .record import mutable_record, record
from .state import Change, GameState, Staged, Transfer, write
from .titles import HOUSE_RULE_NAMES, MODE_NAMES, mode_name, mode_title, square_name
from .valuation import level, net_worth

NO_COMMAND: Mapping[str, Any] = MappingProxyType({})
"""The command an event of the undo history keeps: none (undo needs what changed, not the command that asked for
it), as one shared read-only empty mapping; the snapshot restores its events with it too."""


@record
class Event:
    """What an accepted command did: for the journal, the log, the status page and undo."""

    op: str
    command: Mapping[str, Any]
    said: Phrase
    """What it did, for the log, the screens and the reports ("Anna zahlt Ben Miete für Schlossallee (2 Häuser)"):
    a key and its values, said where it is shown (``words.say``), so an old game is told in today's words."""
    transfers: tuple[Transfer, ...] = ()
    changes: tuple[Change, ...] = ()
    duplicate: bool = False
    """The command's id was applied before; nothing happened this time."""
    note: Phrase | None = None
    """A short line for the small screen, beside ``said`` (which it repeats): what went to the bank besides the
    booking itself (the 10 % on mortgaged deeds in a trade or a bankruptcy), or what is still owed there."""
    number: int = 0
    """The booking's place in its game (its new_game is 1): what an ``undo`` with ``of`` names."""

    @property
    def effect(self) -> str:
        """The digest of what it does (:mod:`rules.effect`): a preview's, sent back as the booking's ``expect``."""
        return effect_digest(self.said, self.note, self.transfers)


@mutable_record
class Replaced:
    """A game a later new_game replaced, kept whole so that undoing that new_game brings it back."""

    state: GameState | None
    """None: the new_game was the journal's first (nothing to come back to)."""
    history: deque[Event]
    applied_ids: dict[str, None]
    numbered: int = 0
    """Its ``Game.numbered`` when it was replaced."""


# -- the game -----------------------------------------------------------------------------


@dataclass
class Game:
    """A table's game: the state, the ids already applied, and the events that may be undone."""

    state: GameState | None = None
    applied_ids: dict[str, None] = field(default_factory=dict)
    """The last RECENT_IDS ids applied in the current game, oldest first: a retry comes within seconds, not
    thousands of bookings or games later, and an unbounded set grew memory with every booking."""
    history: deque[Event] = field(default_factory=lambda: deque(maxlen=UNDO_DEPTH))
    """Accepted events of the current game, newest last, at most UNDO_DEPTH (its new_game first while
    it fits); ``undo`` pops from here. Bounded, so memory and a checkpoint do not grow with the game."""
    previous: list[Replaced] = field(default_factory=list)
    """The games replaced by later new_games, newest last: undoing a new_game brings one back."""
    numbered: int = 0
    """The numbers given in the current game so far (its new_game is 1; a Storno uses one too, so a number is
    never given twice in a game: an undo's ``of`` cannot mean a booking made after the one it saw)."""

    # The public door -----------------------------------------------------------------

    def apply(self, cmd: Mapping[str, Any] | Command, *, replaying: bool = False) -> Event:
        """Check ``cmd`` against the whole state and apply it, or raise RuleError having changed nothing.

        ``cmd`` is the contract's JSON object (parsed here, once) or a typed command. The event keeps
        the command as given. ``replaying``: the command comes from the appliance's own journal, where
        it was accepted once. A journal written before ``new_game`` needed ``"replace": true`` holds
        new games over running ones without it; they replay as they were accepted.
        """
        typed = _typed(cmd, strict=not replaying)
        given = _given(cmd, typed)
        if typed.id is not None and typed.id in self.applied_ids:
            return Event(typed.op, given, phrase("rules.duplicate"), duplicate=True)
        if isinstance(typed, cmds.NewGame):
            event = self._new_game(typed, given, replaying)
        elif isinstance(typed, cmds.Undo):
            event = self._undo(typed, given)
        else:
            staged, said, note = self._stage(typed, replaying)
            if typed.expect is not None and not replaying:
                _as_confirmed(typed, said, note, staged.transfers)
            self.numbered += 1
            event = Event(typed.op, given, said, tuple(staged.transfers), staged.commit(), note=note,
                          number=self.numbered)
            # Undo needs what changed, not the command that asked for it: a long game keeps less.
            self.history.append(replace(event, command=NO_COMMAND))
        if typed.id is not None:
            self.applied_ids[typed.id] = None
            if len(self.applied_ids) > RECENT_IDS:
                del self.applied_ids[next(iter(self.applied_ids))]
        return event

    def preview(self, cmd: Mapping[str, Any] | Command) -> Event:
        """What ``cmd`` would book (text and transfers), without booking it; raises as ``apply`` would.

        The device's confirm screens show this, so they never recompute a rule amount.
        """
        typed = _typed(cmd)
        if isinstance(typed, (cmds.NewGame, cmds.Undo)):
            raise BadCommand(phrase("rules.preview.none", op=typed.op))
        staged, said, note = self._stage(typed)
        return Event(typed.op, _given(cmd, typed), said, tuple(staged.transfers), note=note)

    def _stage(self, cmd: Command, replaying: bool = False) -> tuple[Staged, Phrase, Phrase | None]:
        state = self._running()
        staged = Staged(state)
        staged.debt_first = not isinstance(cmd, (cmds.PayDebt, cmds.Bankrupt))
        ctx = Ctx(state, staged, replaying)
        said = HANDLERS[type(cmd)](ctx, cmd)
        check_end(state, staged)
        return staged, said, ctx.note

    def undoable(self) -> bool:
        """Would Storno do something now? (Not past a game's start, unless a replaced game waits behind it.)"""
        if self.state is None or not self.history:
            return False
        return self.history[-1].op != "new_game" or bool(self.previous and self.previous[-1].state is not None)

    def last_over(self) -> GameState | None:
        """The newest game that is over: this one once it ended, else the newest one it replaced that still
        exists (kept for Storno, so "Letztes Spiel" needs no journal)."""
        if self.state is not None and self.state.finished:
            return self.state
        return next((r.state for r in reversed(self.previous) if r.state is not None), None)

    def check(self, cmd: Mapping[str, Any] | Command) -> RuleError | None:
        """Would ``cmd`` be accepted? Answers without changing anything (a new_game or undo: None)."""
        try:
            typed = _typed(cmd)
            if not isinstance(typed, (cmds.NewGame, cmds.Undo)):
                staged, said, note = self._stage(typed)
                if typed.expect is not None:
                    _as_confirmed(typed, said, note, staged.transfers)
        except RuleError as err:
            return err
        return None

    # Helpers -------------------------------------------------------------------------

    def _running(self) -> GameState:
        if self.state is None:
            raise RuleError("game_over", phrase("rules.game.none"))
        if self.state.finished:
            raise RuleError("game_over", phrase("rules.game.over"))
        return self.state

    def _new_game(self, cmd: cmds.NewGame, given: Mapping[str, Any], replaying: bool) -> Event:
        running = self.state is not None and not self.state.finished
        if running and not cmd.replace and not replaying:
            raise RuleError("game_running", phrase("rules.game.running"))
        state, transfers = new_game_state(cmd)
        # The game it replaces (running or finished) comes back if this new_game is undone.
        self.previous.append(Replaced(self.state, self.history, self.applied_ids, self.numbered))
        del self.previous[:-MAX_PREVIOUS]
        self.applied_ids = {}
        self.state = state
        self.history = deque(maxlen=UNDO_DEPTH)
        self.numbered = 1
        # Who plays first, then the box and the mode ("Neues Spiel (MONOPOLY / Sonic," hid the players).
        parts: list[Value] = [phrase("rules.new_game.done", players=Many(tuple(state.players)),
                                     edition=state.edition.title, mode=mode_name(state))]
        if state.house_rules:
            parts.append(phrase("rules.new_game.house_rules", rules=chain(
                "rules.join.comma", [HOUSE_RULE_NAMES[r] for r in sorted(state.house_rules)])))
        if dealt := _deal(state, transfers):
            parts.append(phrase("rules.new_game.dealt", deal=dealt))
        event = Event("new_game", given, chain("rules.join.semicolon", parts), tuple(transfers), number=1)
        self.history.append(replace(event, command=NO_COMMAND))
        return event

    def last_booking(self) -> Event | None:
        """What Storno would take back now (its ``number`` is what an ``undo`` names with ``of``), or None."""
        return self.history[-1] if self.undoable() else None

    def _undo(self, undo: cmds.Undo, cmd: Mapping[str, Any]) -> Event:
        if self.state is None or not self.history:
            raise RuleError("bad_command", phrase("rules.undo.nothing", n=UNDO_DEPTH))
        if undo.of is not None and undo.of != self.history[-1].number:
            # Two taps, two phones: the second Storno meant a booking already taken back.
            last = self.history[-1]
            raise RuleError("not_last", phrase("rules.undo.not_last", of=undo.of, number=last.number,
                                               booking=last.said))
        if self.history[-1].op == "new_game":
            if not self.previous or self.previous[-1].state is None:
                raise RuleError("bad_command", phrase("rules.undo.first_game"))
            first = self.history[-1]
            back_to = self.previous.pop()
            self.state, self.history, self.applied_ids = back_to.state, back_to.history, back_to.applied_ids
            self.numbered = back_to.numbered + 1  # this Storno numbered in the game it brings back
            back = self.state
            assert back is not None
            return Event("undo", cmd, phrase("rules.undo.new_game", booking=first.said, edition=back.edition.title),
                         tuple(_undone(t) for t in first.transfers))
        self.numbered += 1  # the Storno's own number: the next booking gets a new one
        last = self.history.pop()
        for change in reversed(last.changes):
            write(self.state, change.field, change.target, change.old)
        reverse = tuple(_undone(t) for t in reversed(last.transfers))
        undone = tuple(Change(c.field, c.target, c.new, c.old) for c in reversed(last.changes))
        return Event("undo", cmd, phrase("rules.undo.done", booking=last.said), reverse, undone)


MAX_PREVIOUS = 2
"""Replaced games kept for Storno: enough to take back a new game by mistake, bounded in memory."""
UNDO_DEPTH = 200
"""Storno walks back at most this many bookings: every one the page's log still shows (a table takes back
the last few; an unbounded history grew the appliance's memory and start-up with every booking)."""
RECENT_IDS = 1000
"""Ids remembered for retries: a retry comes within seconds, not thousands of bookings later."""


def _undone(t: Transfer) -> Transfer:
    """A payment taken back: the other way round, "Storno: " and its reason."""
    return Transfer(t.payee, t.payer, t.amount, phrase("rules.reason.undo", reason=t.reason))


def _typed(cmd: Mapping[str, Any] | Command, *, strict: bool = True) -> Command:
    """The typed command: a JSON object is parsed here, once (RuleError bad_command if malformed; a field its op
    does not know too, but in the appliance's own journal: ``strict=False``)."""
    if isinstance(cmd, cmds.BaseCommand):
        return cmd
    return parse(cmd) if strict else parse(cmd, strict=False)


def _as_confirmed(cmd: Command, said: Phrase, note: Phrase | None, transfers: list[Transfer]) -> None:
    """A booking with the digest of a preview is booked only as that preview showed it: the rules would now book
    something else (a house built meanwhile, a deed mortgaged): refused ``changed``, saying what it would be now."""
    if effect_digest(said, note, transfers) != cmd.expect:
        raise RuleError("changed", phrase("rules.changed", booking=said))


def _given(cmd: Mapping[str, Any] | Command, typed: Command) -> Mapping[str, Any]:
    """The command as the event keeps it: the JSON object exactly as given, or the typed one's JSON."""
    return cmd if isinstance(cmd, Mapping) else typed.to_json()


OPS: frozenset[str] = frozenset(cmds.COMMANDS)

__all__ = ["HOUSE_RULE_NAMES", "MODE_NAMES", "OPS", "Event", "Game", "level", "mode_name", "mode_title", "net_worth",
           "new_game_state", "shortage", "square_name"]


def _deal(state: GameState, transfers: list[Transfer]) -> Phrase | None:
    """A quick game's deal, in the log as in the CSV (seed 000: "Jeder Spieler erhält zwei Besitzrechtkarten … und
    bezahlt der Bank den Kaufpreis"): what explains a start below the start capital."""
    dealt: dict[str, list[Value]] = {name: [Place(sq) for sq, d in state.deeds.items() if d.owner == name]
                                     for name in state.players}
    if not any(dealt.values()):
        return None
    paid: dict[str, int] = {}
    for t in transfers:
        if t.payer is not None and t.payee is None:
            paid[t.payer] = paid.get(t.payer, 0) + t.amount
    said: list[Value] = [
        phrase("rules.new_game.paid", player=name, amount=Cash(paid[name]), deeds=chain("rules.join.comma", deeds))
        if name in paid else phrase("rules.new_game.got", player=name, deeds=chain("rules.join.comma", deeds))
        for name, deeds in dealt.items() if deeds]
    return chain("rules.join.semicolon", said)
