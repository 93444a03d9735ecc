"""`bankleser replay FILE`: apply a file of commands and print one result line each, then the state.

This is how a journal is audited and how the rules are checked from outside, so the output
is exactly the contract's: ``{"ok": true}`` or ``{"ok": false, "code": …, "message": …}``
per command, ``{"state": …}`` last. A malformed line is refused with ``bad_command`` and
the replay goes on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from rules import BadCommand, Game, RuleError, to_json


def replay_lines(lines: Iterable[str], game: Game | None = None) -> Iterator[dict[str, Any]]:
    """Yield the result of each non-blank line, then ``{"state": …}``."""
    game = game or Game()
    for line in lines:
        if not line.strip():
            continue
        try:
            try:
                cmd = json.loads(line)
            except ValueError:
                raise BadCommand("Zeile ist kein gültiges JSON") from None
            game.apply(cmd)
        except RuleError as err:
            yield err.as_dict()
        else:
            yield {"ok": True}
    yield {"state": to_json(game.state) if game.state is not None else None}


def dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)
