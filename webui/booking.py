"""The banker's phone books as the device does: a form for every booking, from ``rules.legal``.

The device's menus offer a player what ``rules.legal`` opens, in the order of its player menu
(device/scenes/flows.py ``PLAYER_MENU``); so do these forms, behind the same words. A form's
fields are named after the command's fields; what a person typed ("2,5M", "12") is turned into the
command here, with the edition's notation (``rules.parse_amount``), and the rules' preview (or
refusal) comes back before anything is booked. The page then books that very command, with the digest of the
preview it showed (``expect``: refused ``changed`` should the rules now book otherwise) and the id of the form it
came from, through ``/api/banker/book``: a repeat of the id is answered "duplicate".

The pure half (``forms_for``, ``command_from``, ``preview_of``, ``last_booking``) reads a
``rules.Game`` and runs on the daemon's loop (``WebBackend``); the routes are a Flask blueprint, the banker's
by the deny-by-default guard (:mod:`webui.auth`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, jsonify, request

import words
from rules import DEEDS, Game, Kind, RuleError, parse_amount, square_name
from rules.errors import BadCommand
from rules.legal import ALLOWED_REFUSALS, debt, legal_ops, legal_squares
from rules.phrase import phrase
from words import text

from .backend import Backend
from .errors import status_of
from .parsers.body import parse_body
from .parsers.command import parse_command

Field = dict[str, Any]


@dataclass(frozen=True)
class Form:
    """One booking form: the command's op, the device's words for it, and when it is offered."""

    op: str
    label: str
    """The key of the form's title: the device's own words for its flow or key (the ``scenes`` catalogue's),
    where the phone's form is the same booking; the phone's where it is narrower (the jail's two forms)."""
    flow: str
    """The key of the device's flow (device/scenes/flows.py ``PLAYER_FLOWS``) this form books, said as the OLED
    says it; "" for its keys (HABEN, SOLL, LOS) and the bankruptcy, which the device offers beside its menu."""
    menu: str
    """The key of the device's menu entry (``PLAYER_MENU``) or key, said as ``flow``."""
    rows: tuple[str, ...]
    """Rows of ``rules.legal.OPS_TABLE`` that open it; empty: asked of the rules with a probe command."""
    fields: Callable[[Game, str], list[Field]]
    who: str = "player"
    """The command's field for the player chosen first (``from`` of a transfer, ``a`` of a trade)."""
    confirm: bool = True
    """The preview asks for a confirmation; False: booked at once, as the device books a card counted."""


def _others(game: Game, player: str) -> list[str]:
    assert game.state is not None
    return [n for n, p in game.state.players.items() if n != player and not p.bankrupt]


def _edition(game: Game) -> Any:
    assert game.state is not None
    return game.state.edition


def _squares(op: str, label: str, flags: Callable[[Game, int], list[str]] | None = None) -> Callable[
        [Game, str], Field]:
    def field(game: Game, player: str) -> Field:
        ed = _edition(game)
        return {"name": "square", "kind": "select", "label": text(label),
                "options": [{"value": sq, "label": square_name(ed, sq),
                             **({"flags": flags(game, sq)} if flags else {})}
                            for sq in legal_squares(game, player, op)]}
    return field


def _money(name: str, label: str, *, optional: bool = False, **values: object) -> Field:
    return {"name": name, "kind": "money", "label": text(label, **values), **({"optional": True} if optional else {})}


def _utility(game: Game, sq: int) -> list[str]:
    return ["utility"] if DEEDS[sq].kind is Kind.UTILITY else []


def _hotel(game: Game, sq: int) -> list[str]:
    assert game.state is not None
    return ["hotel"] if game.state.deeds[sq].hotel else []


def _amount(label: str = "phone.field.amount") -> Callable[[Game, str], list[Field]]:
    return lambda game, player: [_money("amount", label)]


def _transfer(game: Game, player: str) -> list[Field]:
    return [{"name": "to", "kind": "select", "label": text("phone.field.to"), "options": [
        {"value": n, "label": n} for n in _others(game, player)]}, _money("amount", "phone.field.amount")]


def _go(game: Game, player: str) -> list[Field]:
    assert game.state is not None
    if "double_go" not in game.state.house_rules:
        return []
    return [{"name": "exact", "kind": "check", "label": text("phone.field.exact_go")}]


def _buy(game: Game, player: str) -> list[Field]:
    return [_squares("buy", "phone.field.deed")(game, player),
            _money("price", "phone.field.bid", optional=True)]


def _rent(game: Game, player: str) -> list[Field]:
    top = 15 if game.state is not None and game.state.speed_die else 12
    return [_squares("rent", "phone.field.rent_for", _utility)(game, player),
            {"name": "dice", "kind": "number", "label": text("phone.field.dice", top=top),
             "when": ["square", "utility"]}]


def _square(op: str, label: str = "phone.field.deed") -> Callable[[Game, str], list[Field]]:
    return lambda game, player: [_squares(op, label)(game, player)]


def _jail_card(game: Game, player: str) -> list[Field]:
    ops = set(legal_ops(game, player))
    options = [{"value": 1, "label": text("phone.jail_card.drawn")}] if "jail_card_drawn" in ops else []
    options += [{"value": -1, "label": text("phone.jail_card.used")}] if "jail_card_used" in ops else []
    return [{"name": "delta", "kind": "select", "label": text("phone.field.jail_card"), "options": options}]


def _sell(game: Game, player: str) -> list[Field]:
    ed = words.localised(_edition(game))
    return [_squares("sell_building", "phone.field.sell_where", _hotel)(game, player),
            {"name": "to_houses", "kind": "select", "label": text("phone.field.sell_hotel", hotel=ed.hotel),
             "when": ["square", "hotel"],
             "options": [{"value": "", "label": text("phone.sell.whole")},
                         {"value": "1", "label": text("phone.sell.to_houses", houses=ed.houses)}]}]


def _repairs(game: Game, player: str) -> list[Field]:
    ed = words.localised(_edition(game))
    return [_money("per_house", "phone.field.per_piece", piece=ed.house),
            _money("per_hotel", "phone.field.per_piece", piece=ed.hotel)]


def _auction(game: Game, player: str) -> list[Field]:
    return [_squares("build_auction", "phone.field.auction_where")(game, player),
            _money("price", "phone.field.auction_price")]


def _tradable(game: Game, owner: str, partner: str) -> list[int]:
    """The owner's deeds the rules let change hands with ``partner`` (no street of a group with buildings)."""
    assert game.state is not None
    return [sq for sq, d in game.state.deeds.items() if d.owner == owner and _open(game, {
        "op": "trade", "a": owner, "b": partner, "a_gives": {"squares": [sq], "cash": 0},
        "b_gives": {"squares": [], "cash": 0}})]


def _trade(game: Game, player: str) -> list[Field]:
    assert game.state is not None
    state, ed = game.state, _edition(game)
    others = _others(game, player)

    def deeds(owner: str, partner: str) -> list[dict[str, Any]]:
        return [{"value": sq, "label": text("phone.trade.mortgaged", deed=square_name(ed, sq))
                 if state.deeds[sq].mortgaged else square_name(ed, sq), "owner": owner}
                for sq in _tradable(game, owner, partner)]

    mine = {sq["value"]: sq for b in others for sq in deeds(player, b)}  # tradable with anyone: the rules decide
    theirs = [sq for b in others for sq in deeds(b, player)]
    fields = [{"name": "b", "kind": "select", "label": text("phone.trade.with"),
               "options": [{"value": n, "label": n} for n in others]},
              {"name": "a_gives.squares", "kind": "multi", "label": text("phone.trade.gives", player=player),
               "options": list(mine.values())},
              _money("a_gives.cash", "phone.trade.cash", optional=True, player=player)]
    if state.players[player].jail_cards:
        fields.append({"name": "a_gives.jail_cards", "kind": "number", "label": text("phone.trade.jail_cards"),
                       "optional": True})
    fields += [{"name": "b_gives.squares", "kind": "multi", "label": text("phone.trade.partner_gives"),
                "options": theirs, "partner": True},
               _money("b_gives.cash", "phone.trade.partner_cash", optional=True)]
    if any(state.players[b].jail_cards for b in others):
        fields.append({"name": "b_gives.jail_cards", "kind": "number",
                       "label": text("phone.trade.partner_jail_cards"), "optional": True})
    mortgaged = [o for o in [*mine.values(), *theirs] if state.deeds[o["value"]].mortgaged]
    if mortgaged:
        fields.append({"name": "lift", "kind": "multi", "label": text("phone.trade.lift"), "options": mortgaged})
    return fields


def _bankrupt(game: Game, player: str) -> list[Field]:
    """The creditor, the sum owed, and (to a player) the mortgaged deeds the creditor lifts at once, as the device
    offers: lifted now, the creditor pays the mortgage and not the 10 % on top (docs/rules.md).

    The device offers bankruptcy only to the creditor of the payment it refused; the phone has no refused payment
    to go by, so it offers what the rules' state allows: with a debt to the bank open, the bank alone (every other
    payment waits for that debt); otherwise any player still in the game or the bank, and its label says to pick
    the one the payment that cannot be made was for (the rules check the sum owed, whoever is named)."""
    assert game.state is not None
    ed = _edition(game)
    mortgaged = [sq for sq, d in game.state.deeds.items() if d.owner == player and d.mortgaged]
    bank = [{"value": "", "label": text("phone.bankrupt.bank")}]
    if debt(game, player):  # owed to the bank, the player may pay nobody else first: bankrupt to the bank only
        creditor: Field = {"name": "creditor", "kind": "select", "label": text("phone.bankrupt.creditor_bank"),
                    "options": bank}
    else:  # the rules judge the sum owed, not whom: the banker names the creditor of the payment refused
        creditor = {"name": "creditor", "kind": "select", "label": text("phone.bankrupt.creditor_of_payment"),
                    "options": [*bank, *({"value": n, "label": n, "flags": ["player"]}
                                         for n in _others(game, player))]}
    fields = [creditor, _money("owed", "phone.bankrupt.owed")]
    if mortgaged and len(creditor["options"]) > 1:
        fields.append({"name": "lift", "kind": "multi", "label": text("phone.bankrupt.lift"),
                       "when": ["creditor", "player"],
                       "options": [{"value": sq, "label": square_name(ed, sq)} for sq in mortgaged]})
    return fields


def _none(game: Game, player: str) -> list[Field]:
    return []


FORMS: tuple[Form, ...] = (
    # The device's keys first: HABEN, SOLL (a payee's card makes it a transfer), LOS.
    Form("credit", "scenes.title.credit", "", "scenes.title.credit", (), _amount()),
    Form("debit", "scenes.title.debit", "", "scenes.title.debit", (), _amount()),
    Form("transfer", "scenes.title.transfer", "", "scenes.title.debit", (), _transfer, who="from"),
    Form("go", "scenes.go.title", "", "scenes.go.title", ("go",), _go),
    # Then the player menu, entry by entry (PLAYER_MENU's digits 1–9, 0).
    Form("buy", "scenes.flow.buy", "scenes.flow.buy", "scenes.flow.buy", ("buy",), _buy),
    Form("rent", "scenes.flow.rent", "scenes.flow.rent", "scenes.flow.rent", ("rent",), _rent),
    Form("tax", "scenes.flow.tax", "scenes.flow.tax", "scenes.flow.tax", ("tax",), _square("tax", "phone.field.tax")),
    Form("jail_fine", "phone.form.jail_fine", "scenes.flow.jail", "scenes.flow.jail", ("jail_fine",), _none),
    Form("jail_card", "phone.form.jail_card", "scenes.flow.jail", "scenes.flow.jail",
         ("jail_card_drawn", "jail_card_used"), _jail_card, confirm=False),
    Form("build", "scenes.flow.build", "scenes.flow.build", "scenes.flow.build", ("build",),
         _square("build", "phone.field.build_where")),
    Form("sell_building", "scenes.flow.sell_building", "scenes.flow.sell_building", "scenes.flow.sell_building",
         ("sell_building",), _sell),
    Form("mortgage", "scenes.flow.mortgage", "scenes.flow.mortgage", "scenes.menu.mortgage", ("mortgage",),
         _square("mortgage")),
    Form("unmortgage", "scenes.flow.unmortgage", "scenes.flow.unmortgage", "scenes.menu.mortgage", ("unmortgage",),
         _square("unmortgage")),
    Form("pay_all", "scenes.flow.pay_all", "scenes.flow.pay_all", "scenes.menu.card", ("pay_all",),
         _amount("phone.field.to_each")),
    Form("collect_all", "scenes.flow.collect_all", "scenes.flow.collect_all", "scenes.menu.card", ("collect_all",),
         _amount("phone.field.from_each")),
    Form("repairs", "scenes.flow.repairs", "scenes.flow.repairs", "scenes.menu.card", ("repairs",), _repairs),
    Form("trade", "scenes.flow.trade", "scenes.flow.trade", "scenes.flow.trade", (), _trade, who="a"),
    Form("free_parking", "scenes.flow.free_parking", "scenes.flow.free_parking", "scenes.menu.more",
         ("free_parking",), _none),
    Form("pay_debt", "scenes.flow.pay_debt", "scenes.flow.pay_debt", "scenes.menu.more", ("pay_debt",), _none),
    Form("build_auction", "scenes.flow.build_auction", "scenes.flow.build_auction", "scenes.menu.more",
         ("build_auction",), _auction),
    Form("bankrupt", "scenes.flow.bankrupt", "", "scenes.flow.bankrupt", ("bankrupt",), _bankrupt),
)
"""Every booking a player's form may make, in the device's order."""

BY_OP = {f.op: f for f in FORMS}


def _open(game: Game, cmd: dict[str, Any]) -> bool:
    """Would the rules take ``cmd`` (a lack of money aside, as ``rules.legal`` counts it)?"""
    err = game.check(cmd)
    return err is None or err.code in ALLOWED_REFUSALS


def _probe(game: Game, form: Form, player: str) -> bool:
    """For the forms without a row of their own: ask the rules with the smallest such command."""
    ed = _edition(game)
    others = _others(game, player)
    if form.op in ("credit", "debit"):
        return _open(game, {"op": form.op, "player": player, "amount": ed.min_entry})
    if form.op == "transfer":
        return bool(others) and _open(game, {"op": "transfer", "from": player, "to": others[0],
                                              "amount": ed.min_entry})
    return bool(others)  # a trade: with someone still in the game (the rules judge what is given)


def forms_for(game: Game, player: str | None) -> dict[str, Any]:
    """The players (seat order) and, for ``player``, every form the rules open now, in the device's order."""
    state = game.state
    if state is None or state.finished:
        return {"players": [], "player": None, "forms": [],
                "message": text("phone.game.none" if state is None else "phone.game.over")}
    ed = state.edition
    players = [n for n, p in state.players.items() if not p.bankrupt]
    out: dict[str, Any] = {"players": players, "player": None, "edition": ed.key, "km": ed.km_notation,
                           "forms": []}
    if player is None:
        return out
    if player not in players:
        return {**out, "message": text("phone.game.not_playing", player=player)}
    out["player"] = player
    out["dropped"] = text("phone.form.dropped")  # said by the page when a player switch drops what was typed
    legal = set(legal_ops(game, player))
    for form in FORMS:
        if (form.rows and not legal & set(form.rows)) or (not form.rows and not _probe(game, form, player)):
            continue
        spec = {"op": form.op, "label": text(form.label), "flow": text(form.flow) if form.flow else "",
                "menu": text(form.menu), "who": form.who, "confirm": form.confirm, "fields": form.fields(game, player)}
        out["forms"].append({**spec, "version": _form_version(spec)})
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


def _amount_of(typed: str, edition: Any) -> int:
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


def _form_version(spec: dict[str, Any]) -> str:
    """A digest of a form as drawn (its fields and every choice they offer): a one-step form books only the
    choices the banker saw."""
    data = json.dumps(spec["fields"], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def _form_now(game: Game, op: str, player: str) -> dict[str, Any] | None:
    """The form of ``op`` for ``player`` as it would be drawn now; None: the rules no longer open it."""
    return next((f for f in forms_for(game, player)["forms"] if f["op"] == op), None)


def preview_of(game: Game, raw: dict[str, Any]) -> dict[str, Any]:
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
            return {"ok": False, "code": "changed", "message": text("phone.form.changed"), "form": now}
    try:
        cmd = command_from(game, raw)
    except RuleError as err:
        return _refusal(err, edition)
    return preview_command(game, cmd)


def _refusal(err: RuleError, edition: Any) -> dict[str, Any]:
    return {"ok": False, "code": err.code, "message": words.say(err.said, edition),
            **({"owed": err.owed} if err.owed is not None else {})}


def preview_command(game: Game, cmd: dict[str, Any]) -> dict[str, Any]:
    """The rules' preview of a command and the command to book it with: ``expect`` holds the preview's digest,
    so the rules book it only while they would still do what the banker confirmed."""
    edition = game.state.edition if game.state is not None else None
    cmd = {k: v for k, v in cmd.items() if k not in ("expect", "id")}
    try:
        event = game.preview(cmd)
    except RuleError as err:
        return _refusal(err, edition)
    form = BY_OP.get(str(cmd.get("op")))
    return {"ok": True, "command": {**cmd, "expect": event.effect}, "text": words.say(event.said, edition),
            "note": "" if event.note is None else words.say(event.note, edition),
            "confirm": form.confirm if form is not None else True,
            "transfers": [{"payer": t.payer, "payee": t.payee, "amount": t.amount} for t in event.transfers]}


def last_booking(game: Game) -> dict[str, Any]:
    """What Storno would take back now: its number (an undo's ``of``) and text; ``number`` None: nothing."""
    last = game.last_booking()
    if last is None or game.state is None:
        return {"number": None, "text": ""}
    return {"number": last.number, "text": words.say(last.said, game.state.edition)}


# -- the routes ------------------------------------------------------------------------------------


def blueprint(backend: Backend) -> Blueprint:
    """The banker's booking API (none of it public: reading needs the login, booking the CSRF token too)."""
    bp = Blueprint("booking", __name__)

    @bp.get("/api/banker/legal")
    def legal() -> Response:
        return jsonify(backend.legal(request.args.get("player") or None))

    @bp.get("/api/banker/undo")
    def undo() -> Response:
        return jsonify(backend.last_booking())

    @bp.post("/api/banker/preview")
    def preview() -> tuple[Response, int]:
        result = backend.preview(parse_body())
        return jsonify(result), status_of(result)

    @bp.post("/api/banker/book")
    def book() -> tuple[Response, int]:
        """The rules' answer with what the page shows beside the button: a repeat, the text, the balances."""
        result = backend.submit(parse_command())
        return jsonify(result), status_of(result)

    return bp
