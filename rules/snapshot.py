"""A whole game (state, undo history, applied ids, replaced games) as plain JSON-able data.

Start-up used to replay every command of the running game; with a checkpoint of this data the
daemon replays only the commands after it. Restoring must give exactly what a replay gives, so
everything ``Game`` holds is here, and nothing derived (net worth, ranking) is trusted from it.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from .errors import BadCommand
from .game import NO_COMMAND, UNDO_DEPTH, Event, Game, Replaced
from .phrase import from_data, phrase, to_data
from .serialize import from_json, to_json
from .state import Change, GameState, Transfer

FORMAT = 5
"""Bumped whenever the shape below changes: an older checkpoint is then ignored, not misread
(2: the order of the bankruptcies; 3: the game's whole edition, not only its key; 4: each event's number,
which an undo's ``of`` names, and the numbers given; 5: the events' and transfers' phrases, and the note)."""


def _event(e: Event) -> list[Any]:
    return [e.op, to_data(e.said), [[t.payer, t.payee, t.amount, to_data(t.reason)] for t in e.transfers],
            [[c.field, c.target, c.old, c.new] for c in e.changes], e.number,
            None if e.note is None else to_data(e.note)]


def _unevent(data: list[Any]) -> Event:
    op, said, transfers, changes, number, note = data
    return Event(op, NO_COMMAND, from_data(said), tuple(Transfer(p, q, a, from_data(r)) for p, q, a, r in transfers),
                 tuple(Change(*c) for c in changes), number=number, note=None if note is None else from_data(note))


def _state(state: GameState | None) -> dict[str, Any] | None:
    """The contract's state and what only the rules keep: the order in which players went bankrupt (the
    contract shows it as the ranking, which a restore never trusts)."""
    if state is None:
        return None
    from .editions.writing import journal_data  # with the file's schema: at the first checkpoint, after READY

    order = {p.name: p.bankrupt_order for p in state.players.values() if p.bankrupt_order}
    return {**to_json(state), "bankrupt_order": order, "edition_data": journal_data(state.edition)}


def _unstate(data: dict[str, Any] | None) -> GameState | None:
    if data is None:
        return None
    state = from_json(data)
    for name, order in data["bankrupt_order"].items():
        state.players[name].bankrupt_order = int(order)
    return state


def game_to_data(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "state": _state(game.state),
        "history": [_event(e) for e in game.history],
        "ids": list(game.applied_ids),
        "numbered": game.numbered,
        "previous": [[_state(r.state), [_event(e) for e in r.history], list(r.applied_ids), r.numbered]
                     for r in game.previous],
    }


def game_from_data(data: dict[str, Any]) -> Game:
    """The game :func:`game_to_data` described; raises BadCommand for anything else."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadCommand(phrase("rules.checkpoint.format"))
    try:
        return Game(
            state=_unstate(data["state"]),
            applied_ids=dict.fromkeys(data["ids"]),
            history=deque((_unevent(e) for e in data["history"]), maxlen=UNDO_DEPTH),
            previous=[Replaced(_unstate(s), deque((_unevent(e) for e in h), maxlen=UNDO_DEPTH), dict.fromkeys(ids),
                               int(n)) for s, h, ids, n in data["previous"]],
            numbered=int(data["numbered"]),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise BadCommand(phrase("rules.checkpoint.unreadable", error=str(err))) from None
