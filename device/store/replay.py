"""`bankleser replay FILE`: apply a file of commands and print one result line each, then the state.

This is how a journal is audited and how the rules are checked from outside, so the output
is exactly the contract's: ``{"ok": true}`` or ``{"ok": false, "code": …, "message": …}``
per command, ``{"state": …}`` last. A line that is not a storable JSON object (bad UTF-8, a
lone surrogate, nesting too deep for the parser) is refused with ``bad_command`` and the
replay goes on with the next line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import words
from rules import BadCommand, Edition, Game, RuleError, to_json
from rules.newgame import with_edition_data
from rules.phrase import phrase

from .journal import Unstorable, encode


def parse_line(raw: bytes | str) -> Any:
    """One line of a command file as JSON, or BadCommand saying what is wrong with it."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadCommand(phrase("service.replay.utf8")) from None
    try:
        cmd = json.loads(raw.lstrip("\ufeff"))  # a BOM from a Windows editor is not part of the command
    except RecursionError:
        raise BadCommand(phrase("service.replay.deep")) from None
    except ValueError:
        raise BadCommand(phrase("service.replay.json")) from None
    try:
        encode(cmd)
    except Unstorable as err:
        raise BadCommand(phrase("service.replay.unstorable", error=str(err))) from None
    return cmd


def replay_lines(lines: Iterable[bytes | str], game: Game | None = None, *, journal: bool = False,
                 editions: Mapping[str, Edition] | None = None) -> Iterator[dict[str, Any]]:
    """Yield the result of each non-blank line, then ``{"state": …}``.

    A file of commands is judged by today's rules, as the contract says (``game_running``, the
    reader's range of a trade). ``journal``: the file is the appliance's own journal or a game
    downloaded from it (``bankleser replay --journal``): its commands were accepted when they were
    written, so a limit added since is not applied to them again, exactly as the appliance replays
    its journal at start-up. ``editions``: a new game of a family's edition that does not carry its data
    (a hand-written file) is played with the edition of that key (``bankleser replay --editions DIR``).
    """
    game = game or Game()
    for line in lines:
        if not line.strip():
            continue
        try:
            cmd = parse_line(line)
            game.apply(with_edition_data(cmd, editions) if editions else cmd, replaying=journal)
        except RuleError as err:
            yield {"ok": False, "code": err.code,
                   "message": words.say(err.said, game.state.edition if game.state is not None else None)}
        else:
            yield {"ok": True}
    yield {"state": to_json(game.state) if game.state is not None else None}


def dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)
