"""The banker's phone books as the device does (issue 31): a form for every booking, from ``rules.legal``.

The device's menus offer a player what ``rules.legal`` opens, in the order of its player menu
(device/scenes/flows.py ``PLAYER_MENU``); so do these forms, behind the same words. A form's
fields are named after the command's fields; what a person typed ("2,5M", "12") is turned into the
command here, with the edition's notation (``rules.parse_amount``), and the rules' preview (or
refusal) comes back before anything is booked. The page then books that very command, with an id
made when it was shown, through ``/api/banker/book``: a repeat of the id is answered "duplicate".

The pure half (``forms_for``, ``command_from``, ``preview_of``, ``last_booking``) reads a
``rules.Game`` and runs on the daemon's loop (``WebBackend``); the routes are a Flask blueprint, the banker's
by the deny-by-default guard (:mod:`webui.auth`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, jsonify, request

import words
from rules import DEEDS, Game, Kind, RuleError, parse_amount, square_name
from rules.errors import BadCommand
from rules.legal import ALLOWED_REFUSALS, legal_ops, legal_squares
from rules.phrase import phrase

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
    """The form's title: the device's flow (or key) for it."""
    flow: str
    """The device's flow (device/scenes/flows.py ``PLAYER_FLOWS``) this form books; "" for its keys
    (HABEN, SOLL, LOS) and the bankruptcy, which the device offers beside its menu."""
    menu: str
    """The device's menu entry (``PLAYER_MENU``) or key, for the page's grouping."""
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
        return {"name": "square", "kind": "select", "label": label,
                "options": [{"value": sq, "label": square_name(ed, sq),
                             **({"flags": flags(game, sq)} if flags else {})}
                            for sq in legal_squares(game, player, op)]}
    return field


def _money(name: str, label: str, *, optional: bool = False) -> Field:
    return {"name": name, "kind": "money", "label": label, **({"optional": True} if optional else {})}


def _utility(game: Game, sq: int) -> list[str]:
    return ["utility"] if DEEDS[sq].kind is Kind.UTILITY else []


def _hotel(game: Game, sq: int) -> list[str]:
    assert game.state is not None
    return ["hotel"] if game.state.deeds[sq].hotel else []


def _amount(label: str = "Betrag") -> Callable[[Game, str], list[Field]]:
    return lambda game, player: [_money("amount", label)]


def _transfer(game: Game, player: str) -> list[Field]:
    return [{"name": "to", "kind": "select", "label": "an", "options": [
        {"value": n, "label": n} for n in _others(game, player)]}, _money("amount", "Betrag")]


def _go(game: Game, player: str) -> list[Field]:
    assert game.state is not None
    if "double_go" not in game.state.house_rules:
        return []
    return [{"name": "exact", "kind": "check", "label": "genau auf LOS gelandet (doppeltes Gehalt)"}]


def _buy(game: Game, player: str) -> list[Field]:
    return [_squares("buy", "Grundstück")(game, player),
            _money("price", "Auktion: Gebot (leer: aufgedruckter Preis)", optional=True)]


def _rent(game: Game, player: str) -> list[Field]:
    top = 15 if game.state is not None and game.state.speed_die else 12
    return [_squares("rent", "Miete für", _utility)(game, player),
            {"name": "dice", "kind": "number", "label": f"Augenzahl (2–{top})", "when": ["square", "utility"]}]


def _square(op: str, label: str = "Grundstück") -> Callable[[Game, str], list[Field]]:
    return lambda game, player: [_squares(op, label)(game, player)]


def _jail_card(game: Game, player: str) -> list[Field]:
    ops = set(legal_ops(game, player))
    options = [{"value": 1, "label": "Frei-Karte gezogen"}] if "jail_card_drawn" in ops else []
    options += [{"value": -1, "label": "Frei-Karte eingesetzt"}] if "jail_card_used" in ops else []
    return [{"name": "delta", "kind": "select", "label": "Gefängnis-frei-Karte", "options": options}]


def _sell(game: Game, player: str) -> list[Field]:
    ed = _edition(game)
    return [_squares("sell_building", "Wo verkaufen?", _hotel)(game, player),
            {"name": "to_houses", "kind": "select", "label": f"{ed.hotel} verkaufen", "when": ["square", "hotel"],
             "options": [{"value": "", "label": "ganz verkaufen"}, {"value": "1", "label": f"zurück in {ed.houses}"}]}]


def _repairs(game: Game, player: str) -> list[Field]:
    ed = _edition(game)
    return [_money("per_house", f"Je {ed.house}"), _money("per_hotel", f"Je {ed.hotel}")]


def _auction(game: Game, player: str) -> list[Field]:
    return [_squares("build_auction", "Versteigerung: wo?")(game, player), _money("price", "Höchstes Gebot")]


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
        return [{"value": sq, "label": square_name(ed, sq) + (" (Hypothek)" if state.deeds[sq].mortgaged else ""),
                 "owner": owner} for sq in _tradable(game, owner, partner)]

    mine = {sq["value"]: sq for b in others for sq in deeds(player, b)}  # tradable with anyone: the rules decide
    theirs = [sq for b in others for sq in deeds(b, player)]
    fields = [{"name": "b", "kind": "select", "label": "Tausch mit", "options": [{"value": n, "label": n}
                                                                                  for n in others]},
              {"name": "a_gives.squares", "kind": "multi", "label": f"{player} gibt", "options": list(mine.values())},
              _money("a_gives.cash", f"Geld von {player}", optional=True)]
    if state.players[player].jail_cards:
        fields.append({"name": "a_gives.jail_cards", "kind": "number", "label": "Gefängnis-frei-Karten",
                       "optional": True})
    fields += [{"name": "b_gives.squares", "kind": "multi", "label": "Partner gibt", "options": theirs,
                "partner": True},
               _money("b_gives.cash", "Geld vom Partner", optional=True)]
    if any(state.players[b].jail_cards for b in others):
        fields.append({"name": "b_gives.jail_cards", "kind": "number", "label": "Gefängnis-frei-Karten des Partners",
                       "optional": True})
    mortgaged = [o for o in [*mine.values(), *theirs] if state.deeds[o["value"]].mortgaged]
    if mortgaged:
        fields.append({"name": "lift", "kind": "multi", "label": "Hypothek gleich lösen", "options": mortgaged})
    return fields


def _bankrupt(game: Game, player: str) -> list[Field]:
    return [{"name": "creditor", "kind": "select", "label": "Schuldet wem?",
             "options": [{"value": "", "label": "der Bank"}, *({"value": n, "label": n}
                                                                for n in _others(game, player))]},
            _money("owed", "Wie viel? (was nicht bezahlt werden konnte)")]


def _none(game: Game, player: str) -> list[Field]:
    return []


FORMS: tuple[Form, ...] = (
    # The device's keys first: HABEN, SOLL (a payee's card makes it a transfer), LOS.
    Form("credit", "Haben", "", "Haben", (), _amount()),
    Form("debit", "Soll", "", "Soll", (), _amount()),
    Form("transfer", "Überweisung", "", "Soll", (), _transfer, who="from"),
    Form("go", "LOS", "", "LOS", ("go",), _go),
    # Then the player menu, entry by entry (PLAYER_MENU's digits 1–9, 0).
    Form("buy", "Kaufen", "Kaufen", "Kaufen", ("buy",), _buy),
    Form("rent", "Miete zahlen", "Miete zahlen", "Miete zahlen", ("rent",), _rent),
    Form("tax", "Steuer", "Steuer", "Steuer", ("tax",), _square("tax", "Steuer")),
    Form("jail_fine", "Gefängnis: Strafe zahlen", "Gefängnis", "Gefängnis", ("jail_fine",), _none),
    Form("jail_card", "Gefängnis: Frei-Karte", "Gefängnis", "Gefängnis", ("jail_card_drawn", "jail_card_used"),
         _jail_card, confirm=False),
    Form("build", "Bauen", "Bauen", "Bauen", ("build",), _square("build", "Wo bauen?")),
    Form("sell_building", "Gebäude verkaufen", "Gebäude verkaufen", "Gebäude verkaufen", ("sell_building",),
         _sell),
    Form("mortgage", "Hypothek aufnehmen", "Hypothek aufnehmen", "Hypothek", ("mortgage",), _square("mortgage")),
    Form("unmortgage", "Hypothek lösen", "Hypothek lösen", "Hypothek", ("unmortgage",), _square("unmortgage")),
    Form("pay_all", "An alle zahlen", "An alle zahlen", "Ereigniskarte", ("pay_all",), _amount("Betrag an jeden")),
    Form("collect_all", "Von allen kassieren", "Von allen kassieren", "Ereigniskarte", ("collect_all",),
         _amount("Betrag von jedem")),
    Form("repairs", "Renovierung", "Renovierung", "Ereigniskarte", ("repairs",), _repairs),
    Form("trade", "Tausch", "Tausch", "Tausch", (), _trade, who="a"),
    Form("free_parking", "Frei Parken", "Frei Parken", "Mehr", ("free_parking",), _none),
    Form("pay_debt", "Schuld zahlen", "Schuld zahlen", "Mehr", ("pay_debt",), _none),
    Form("build_auction", "Bauversteigerung", "Bauversteigerung", "Mehr", ("build_auction",), _auction),
    Form("bankrupt", "Bankrott", "", "Bankrott", ("bankrupt",), _bankrupt),
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
                "message": "Kein Spiel läuft" if state is None else "Das Spiel ist zu Ende"}
    ed = state.edition
    players = [n for n, p in state.players.items() if not p.bankrupt]
    out: dict[str, Any] = {"players": players, "player": None, "edition": ed.key, "km": ed.km_notation,
                           "forms": []}
    if player is None:
        return out
    if player not in players:
        return {**out, "message": f"{player} spielt nicht mit"}
    out["player"] = player
    legal = set(legal_ops(game, player))
    for form in FORMS:
        if (form.rows and not legal & set(form.rows)) or (not form.rows and not _probe(game, form, player)):
            continue
        out["forms"].append({"op": form.op, "label": form.label, "flow": form.flow, "menu": form.menu,
                             "who": form.who, "confirm": form.confirm, "fields": form.fields(game, player)})
    return out


# -- what a person typed, as a command ---------------------------------------------------------

MONEY = frozenset({"amount", "price", "per_house", "per_hotel", "owed", "a_gives.cash", "b_gives.cash"})
NUMBERS = {"square": "Feld", "dice": "Augenzahl", "delta": "Karte", "a_gives.jail_cards": "Anzahl der Karten",
           "b_gives.jail_cards": "Anzahl der Karten"}
LISTS = frozenset({"a_gives.squares", "b_gives.squares", "lift"})
FLAGS = frozenset({"exact", "to_houses"})
NAMES = frozenset({"player", "from", "to", "a", "b", "creditor"})
OPTIONAL = frozenset({"price", "a_gives.cash", "b_gives.cash", "a_gives.jail_cards", "b_gives.jail_cards",
                      "creditor", "dice"})
"""Left empty, these are left out (a trade's cash: 0); every other empty field is refused, saying which."""


def _amount_of(text: str, edition: Any) -> int:
    """An amount as the edition types it: "2,5M" and "500K" in Banking, a whole number elsewhere."""
    if not edition.km_notation and not text.strip().isdigit():
        raise BadCommand(f"Betrag muss eine ganze Zahl sein: {text.strip()}" if text.strip()
                         else "Kein Betrag eingegeben")
    return parse_amount(text, edition)


def command_from(game: Game, raw: dict[str, Any]) -> dict[str, Any]:
    """The command a form describes, its typed texts read as the edition writes them; BadCommand saying which
    field a person must correct ("Betrag muss eine ganze Zahl sein", never "Feld 'amount' hat den falschen Typ")."""
    state = game.state
    if state is None:
        raise RuleError("game_over", phrase("rules.game.none"))
    op = raw.get("op")
    if op not in BY_OP:
        raise BadCommand(f"Unbekannte Buchung: {op!r}")
    cmd: dict[str, Any] = {"op": op}
    for key, value in raw.items():
        if key == "op" or value is None:
            continue
        if isinstance(value, list) != (key in LISTS) or not all(isinstance(v, str) for v in (
                value if isinstance(value, list) else [value])):
            raise BadCommand(f"Feld {key!r}: Text erwartet")
        if key in LISTS:
            parsed: Any = [_number(v, "Grundstück") for v in value]
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
                raise BadCommand("Spieler fehlt")
            parsed = value
        else:
            raise BadCommand(f"Unbekanntes Feld: {key!r}")
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


def _number(text: str, what: str) -> int:
    text = text.strip()
    if not text:
        raise BadCommand(f"{what} fehlt")
    try:
        return int(text)
    except ValueError:
        raise BadCommand(f"{what} muss eine ganze Zahl sein: {text}") from None


def preview_of(game: Game, raw: dict[str, Any]) -> dict[str, Any]:
    """The rules' preview of what a form would book (text, note, transfers) and the command to book, or their
    refusal: the same words the device shows."""
    edition = game.state.edition if game.state is not None else None
    try:
        cmd = command_from(game, raw)
        event = game.preview(cmd)
    except RuleError as err:
        return {"ok": False, "code": err.code, "message": words.say(err.said, edition),
                **({"owed": err.owed} if err.owed is not None else {})}
    return {"ok": True, "command": cmd, "text": words.say(event.said, edition),
            "note": "" if event.note is None else words.say(event.note, edition),
            "confirm": BY_OP[cmd["op"]].confirm,
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
