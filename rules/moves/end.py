"""The end of a game: a timed game's ``end``, and the mode's end reached by a bankruptcy, with its winner."""

from __future__ import annotations

from .. import commands as cmds
from ..editions import Mode
from ..errors import BadCommand
from ..phrase import Phrase, phrase
from ..state import GameState, Staged
from ..valuation import ranking
from .context import Ctx, books


@books(cmds.End, said=("rules.end.done",))
def end(c: Ctx, cmd: cmds.End) -> Phrase:
    if c.state.mode is not Mode.TIMED:
        raise BadCommand(phrase("rules.end.not_timed"))
    c.s.set("finished", None, True)
    return phrase("rules.end.done")


def check_end(state: GameState, s: Staged) -> None:
    """Stage the end of the game where this command reaches the mode's end."""
    active = [n for n in state.players if not s.get("bankrupt", n)]
    broke = len(state.players) - len(active)
    ends = len(active) <= 1 or (state.mode is Mode.QUICK and broke >= state.edition.quick.ends_at_bankruptcy)
    if ends:
        s.set("finished", None, True)
    if s.get("finished") and not state.finished:
        # Judge the winner on the state as it will be once this command is committed.
        s.set("winner", None, _winner_after(s))


def _winner_after(s: Staged) -> str | None:
    after = s.after()
    order = ranking(after)
    return order[0] if not after.players[order[0]].bankrupt else None
