"""The banker's phone books as the device does: its forms, what a person typed as a command, the rules' preview.

The device's menus offer a player what ``rules.legal`` opens, in the order of its player menu; so do these forms,
behind the same words: both are read off one table, ``device.scenes.places``. A form's fields are named after the
command's fields; what a person typed ("2,5M", "12") is turned into the command here, with the edition's notation
(``rules.parse_amount``), and the rules' preview (or refusal) comes back before anything is booked. The page then
books that very command, with the digest of the preview it showed (``expect``: refused ``changed`` should the
rules now book otherwise) and the id of the form it came from: a repeat of the id is answered "duplicate".

All of it reads a ``rules.Game`` and runs on the daemon's loop (:class:`device.daemon.web.WebBackend`): it is the
device's reckoning, the web only carries it (``webui.booking``'s routes). Of the web it takes the answers' makers
(``webui.protocol``) alone.
"""

from __future__ import annotations

import json
from typing import Any

import words
from rules import Edition, Game, RuleError, parse_amount
from rules import commands as cmds
from rules.errors import BadCommand
from rules.legal import legal_commands
from rules.phrase import phrase
from shapes.forms import Field, Form, Forms, LastBooking
from webui.protocol import Command, Preview, Refusal, form_changed, previewed, refused
from words import text

from ..scenes.places import BY_OP, FORMS, Place, fields_of, opens


def _others(game: Game, player: str) -> list[str]:
    assert game.state is not None
    return [n for n, p in game.state.players.items() if n != player and not p.bankrupt]


def _probe(game: Game, place: Place, player: str) -> bool:
    """For the forms without a row of their own: ask the rules with the smallest such command."""
    assert game.state is not None
    ed = game.state.edition
    others = _others(game, player)
    if place.op == "credit":
        return opens(game, cmds.Credit(player=player, amount=ed.min_entry))
    if place.op == "debit":
        return opens(game, cmds.Debit(player=player, amount=ed.min_entry))
    if place.op == "transfer":
        return bool(others) and opens(game, cmds.Transfer(from_=player, to=others[0], amount=ed.min_entry))
    return bool(others)  # a trade: with someone still in the game (the rules judge what is given)


def forms_for(game: Game, player: str | None) -> Forms:
    """The players (seat order) and, for ``player``, every form the rules open now, in the device's order."""
    state = game.state
    if state is None or state.finished:
        return {"players": [], "player": None, "forms": [],
                "message": text("phone.game.none" if state is None else "phone.game.over")}
    ed = state.edition
    players = [n for n, p in state.players.items() if not p.bankrupt]
    out: Forms = {"players": players, "player": None, "edition": ed.key, "km": ed.km_notation, "forms": []}
    if player is None:
        return out
    if player not in players:
        return {**out, "message": text("phone.game.not_playing", player=player)}
    out["player"] = player
    out["dropped"] = text("phone.form.dropped")  # said by the page when a player switch drops what was typed
    legal = legal_commands(game, player)
    for place in FORMS:
        if (place.rows and not any(row in legal for row in place.rows)) or \
                (not place.rows and not _probe(game, place, player)):
            continue
        fields = fields_of(place, game, player, legal)
        out["forms"].append({"op": place.op, "label": text(place.form),
                             "flow": text(place.flow) if place.menu else "", "menu": text(place.menu_label),
                             "who": place.who, "confirm": place.confirm, "fields": fields,
                             "version": _form_version(fields)})
    return out


# -- what a person typed, as a command ---------------------------------------------------------

MONEY = frozenset({"amount", "price", "per_house", "per_hotel", "owed", "a_gives.cash", "b_gives.cash"})
NUMBERS = {"square": "phone.what.square", "dice": "phone.what.dice", "delta": "phone.what.card",
           "a_gives.jail_cards": "phone.what.cards", "b_gives.jail_cards": "phone.what.cards"}
"""A number's field, by the key of the word a refusal names it with."""
LISTS = frozenset({"a_gives.squares", "b_gives.squares", "lift"})
FLAGS = frozenset({"exact", "to_houses"})
NAMES = frozenset({"player", "from", "to", "a", "b", "creditor"})
OPTIONAL = frozenset({"price", "a_gives.cash", "b_gives.cash", "a_gives.jail_cards", "b_gives.jail_cards",
                      "creditor", "dice"})
"""Left empty, these are left out (a trade's cash: 0); every other empty field is refused, saying which."""


def _amount_of(typed: str, edition: Edition) -> int:
    """An amount as the edition types it: "2,5M" and "500K" in Banking, a whole number elsewhere."""
    if not edition.km_notation and not typed.strip().isdigit():
        raise BadCommand(phrase("phone.amount.whole", typed=typed.strip()) if typed.strip()
                         else phrase("phone.amount.none"))
    return parse_amount(typed, edition)


def command_from(game: Game, raw: dict[str, Any]) -> dict[str, Any]:
    """The command a form describes, its typed texts read as the edition writes them; BadCommand saying which
    field a person must correct ("Betrag muss eine ganze Zahl sein", never "Feld 'amount' hat den falschen Typ"),
    as a phrase said where it is shown (:func:`preview_of`)."""
    state = game.state
    if state is None:
        raise RuleError("game_over", phrase("rules.game.none"))
    op = raw.get("op")
    if op not in BY_OP:
        raise BadCommand(phrase("phone.command.unknown_op", op=repr(op)))
    cmd: dict[str, Any] = {"op": op}
    for key, value in raw.items():
        if key == "op" or value is None:
            continue
        if isinstance(value, list) != (key in LISTS) or not all(isinstance(v, str) for v in (
                value if isinstance(value, list) else [value])):
            raise BadCommand(phrase("phone.command.text_expected", field=repr(key)))
        if key in LISTS:
            parsed: Any = [_number(v, "phone.what.deed") for v in value]
        elif not value.strip() and key in OPTIONAL:
            continue
        elif key in MONEY:
            parsed = _amount_of(value, state.edition)
        elif key in NUMBERS:
            parsed = _number(value, NUMBERS[key])
        elif key in FLAGS:
            parsed = value in ("1", "true", "on")
        elif key in NAMES:
            if not value:
                raise BadCommand(phrase("phone.command.no_player"))
            parsed = value
        else:
            raise BadCommand(phrase("phone.command.unknown_field", field=repr(key)))
        target = cmd
        *path, last = key.split(".")
        for part in path:
            target = target.setdefault(part, {})
        target[last] = parsed
    if op == "trade":
        for side in ("a_gives", "b_gives"):
            cmd.setdefault(side, {}).setdefault("cash", 0)
            cmd[side].setdefault("squares", [])
    return cmd


def _number(typed: str, what: str) -> int:
    """A whole number typed into the field ``what`` (the key of its word) names: a refusal names the field."""
    typed = typed.strip()
    if not typed:
        raise BadCommand(phrase("phone.number.missing", what=phrase(what)))
    try:
        return int(typed)
    except ValueError:
        raise BadCommand(phrase("phone.number.whole", what=phrase(what), typed=typed)) from None


def _form_version(fields: list[Field]) -> str:
    """A digest of a form as drawn (its fields and every choice they offer): a one-step form books only the
    choices the banker saw."""
    import hashlib  # OpenSSL: loaded at the first form, not before READY

    data = json.dumps(fields, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def _form_now(game: Game, op: str, player: str) -> Form | None:
    """The form of ``op`` for ``player`` as it would be drawn now; None: the rules no longer open it."""
    return next((f for f in forms_for(game, player)["forms"] if f["op"] == op), None)


def preview_of(game: Game, raw: Command) -> Preview:
    """The rules' preview of what a form would book (text, note, transfers) and the command to book with the
    digest of that preview (``expect``), or their refusal: the same words the device shows.

    ``raw["form"]``, the version of the form the page drew: a form booked at once (no confirmation) whose
    choices changed since it was drawn is refused ``changed`` with the form as it is now."""
    raw = dict(raw)
    version = raw.pop("form", None)
    edition = game.state.edition if game.state is not None else None
    op = raw.get("op")
    if isinstance(version, str) and op in BY_OP:
        now = _form_now(game, str(op), str(raw.get(BY_OP[str(op)].who, "")))
        if now is None or now["version"] != version:
            return form_changed(text("phone.form.changed"), now)
    try:
        cmd = command_from(game, raw)
    except RuleError as err:
        return _refusal(err, edition)
    return preview_command(game, cmd)


def _refusal(err: RuleError, edition: Edition | None) -> Refusal:
    return refused(err.code, words.say(err.said, edition), owed=err.owed)


def preview_command(game: Game, cmd: Command) -> Preview:
    """The rules' preview of a command and the command to book it with: ``expect`` holds the preview's digest,
    so the rules book it only while they would still do what the banker confirmed."""
    edition = game.state.edition if game.state is not None else None
    cmd = {k: v for k, v in cmd.items() if k not in ("expect", "id")}
    try:
        event = game.preview(cmd)
    except RuleError as err:
        return _refusal(err, edition)
    form = BY_OP.get(str(cmd.get("op")))
    return previewed({**cmd, "expect": event.effect}, words.say(event.said, edition),
                     "" if event.note is None else words.say(event.note, edition),
                     confirm=form.confirm if form is not None else True,
                     transfers=[{"payer": t.payer, "payee": t.payee, "amount": t.amount} for t in event.transfers])


def last_booking(game: Game) -> LastBooking:
    """What Storno would take back now: its number (an undo's ``of``) and text; ``number`` None: nothing."""
    last = game.last_booking()
    if last is None or game.state is None:
        return {"number": None, "text": ""}
    return {"number": last.number, "text": words.say(last.said, game.state.edition)}
