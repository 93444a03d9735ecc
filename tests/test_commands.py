"""Typed commands: the contract's JSON parsed once, in rules/, into one frozen dataclass per op.

``rules.parse`` is the one place that refuses a command for its shape; the game judges what a
well-formed command may do now. Each refusal class below is one test; then the round trip
``parse(c.to_json()) == c`` as a property; then the game taking typed commands.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from told import told

from conftest import snapshot, start
from rules import DEEDS, EDITIONS, OPS, Command, Game, Mode, RuleError, parse
from rules import commands as cmds
from rules.editions import journal_data
from rules.ops import BY_NAME


def refusal(obj: object) -> RuleError:
    with pytest.raises(RuleError) as err:
        parse(obj)
    return err.value


# -- one test per refusal class ------------------------------------------------------------------


def documented_ops() -> set[str]:
    """The ops of the contract as docs/commands.md lists them (its table "The ops": `mortgage` / `unmortgage`)."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    table = page.split("## The ops", 1)[1].split("\n## ", 1)[0]
    return {op for row in re.findall(r"^\| (`\w+`(?: / `\w+`)*) \|", table, re.M) for op in re.findall(r"`(\w+)`", row)}


def test_every_op_of_the_contract_has_its_command_class() -> None:
    """The contract's ops are those docs/commands.md documents, each a command class and a row of the rules' table
    (the list is the documentation's, not written again here)."""
    assert set(cmds.COMMANDS) == OPS == set(BY_NAME) == documented_ops()
    for op, cls in cmds.COMMANDS.items():
        assert dataclasses.is_dataclass(cls), op
        with pytest.raises(dataclasses.FrozenInstanceError):  # frozen: by behaviour (rules.record freezes it)
            cls.__new__(cls).id = "x"  # type: ignore[misc]


@pytest.mark.parametrize("obj", [{"op": "fly"}, {}, {"op": None}, {"op": 5}, {"op": ["credit"]}])
def test_an_unknown_op_is_a_bad_command(obj: dict[str, Any]) -> None:
    err = refusal(obj)
    assert err.code == "bad_command" and told(err) == f"Unbekannter Befehl: {obj.get('op')!r}"


@pytest.mark.parametrize("obj", [[1, 2], "credit", None, 7])
def test_a_command_is_a_json_object(obj: object) -> None:
    err = refusal(obj)
    assert (err.code, told(err)) == ("bad_command", "Befehl muss ein JSON-Objekt sein")


@pytest.mark.parametrize(("obj", "key"), [
    ({"op": "credit", "player": "Anna"}, "amount"),
    ({"op": "credit", "player": "Anna", "amount": None}, "amount"),  # null is the same as absent
    ({"op": "transfer", "to": "Ben", "amount": 10}, "from"),  # the contract's name, not Python's from_
    ({"op": "repairs", "player": "Anna", "per_house": 25}, "per_hotel"),
    ({"op": "new_game", "edition": "classic"}, "players"),
    ({"op": "trade", "a": "Anna"}, "b"),
    ({"op": "rent", "player": "Ben", "square": 12}, "dice"),  # a utility's rent needs the throw
])
def test_a_missing_field_is_named(obj: dict[str, Any], key: str) -> None:
    err = refusal(obj)
    assert (err.code, told(err)) == ("bad_command", f"Feld '{key}' fehlt")


@pytest.mark.parametrize(("obj", "key"), [
    ({"op": "credit", "player": "Anna", "amount": "100"}, "amount"),
    ({"op": "credit", "player": "Anna", "amount": 1.5}, "amount"),
    ({"op": "credit", "player": 5, "amount": 100}, "player"),
    ({"op": "buy", "player": "Anna", "square": []}, "square"),
    ({"op": "go", "player": "Anna", "exact": "yes"}, "exact"),
    ({"op": "new_game", "edition": "classic", "players": "Anna, Ben"}, "players"),
    ({"op": "new_game", "edition": "classic", "players": ["Anna", 7]}, "players"),
    ({"op": "trade", "a": "Anna", "b": "Ben", "a_gives": [39]}, "a_gives"),
    ({"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"cash": "10"}}, "a_gives.cash"),
    ({"op": "credit", "player": "Anna", "amount": 100, "id": 17}, "id"),
])
def test_a_field_of_the_wrong_type_is_named(obj: dict[str, Any], key: str) -> None:
    err = refusal(obj)
    assert (err.code, told(err)) == ("bad_command", f"Feld '{key}' hat den falschen Typ")


@pytest.mark.parametrize(("obj", "key"), [
    ({"op": "credit", "player": "Anna", "amount": True}, "amount"),
    ({"op": "buy", "player": "Anna", "square": False}, "square"),
    ({"op": "jail_card", "player": "Anna", "delta": True}, "delta"),
    ({"op": "rent", "player": "Ben", "square": 12, "dice": True}, "dice"),
    ({"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"squares": [True]}}, "a_gives.squares"),
])
def test_a_json_true_is_never_a_number(obj: dict[str, Any], key: str) -> None:
    """Python's bool is an int; a JSON ``true`` typed as an amount or a square is still refused."""
    err = refusal(obj)
    assert (err.code, told(err)) == ("bad_command", f"Feld '{key}' hat den falschen Typ")


@pytest.mark.parametrize(("obj", "message"), [
    ({"op": "transfer", "from": "Anna", "to": "Anna", "amount": 10}, "Überweisung an sich selbst"),
    ({"op": "trade", "a": "Anna", "b": "Anna", "a_gives": {"cash": 1}}, "Tausch mit sich selbst"),
    ({"op": "trade", "a": "Anna", "b": "Ben"}, "Der Tausch ist leer"),
    ({"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"squares": [1]}, "b_gives": {"squares": [1]}},
     "Ein Grundstück steht zweimal im Tausch"),
    ({"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"squares": [1]}, "lift": [3]},
     "'lift' nennt nur Grundstücke aus diesem Tausch"),
    ({"op": "tax", "player": "Anna", "square": 5}, "Feld 5 ist kein Steuerfeld (4 oder 38)"),
    ({"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"cash": -5}}, "Negative Beträge gibt es beim Tausch nicht"),
    ({"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"money": 5}}, "'a_gives' kennt nur squares, cash, jail_cards"),
    ({"op": "jail_card", "player": "Anna", "delta": 2}, "'delta' ist +1 (gezogen) oder -1 (eingesetzt)"),
    ({"op": "bankrupt", "player": "Anna", "creditor": "Anna"}, "Niemand ist bei sich selbst verschuldet"),
    ({"op": "new_game", "edition": "monopoly", "players": ["Anna", "Ben"]},
     "Unbekannte Ausgabe: 'monopoly' (banking, classic, schalke, sonic, skylanders, classic-uk, classic-us)"),
    ({"op": "new_game", "edition": "classic", "mode": "blitz", "players": ["Anna", "Ben"]},
     "Feld 'mode': 'blitz' gibt es nicht (standard, quick, timed)"),
    ({"op": "new_game", "edition": "classic", "mode": "timed", "players": ["Anna", "Ben"]},
     "Spiel auf Zeit: Spieldauer in Minuten angeben (1–1440)"),
    ({"op": "new_game", "edition": "classic", "mode": "quick", "players": ["Anna", "Ben"]},
     "Schnellspiel: 'seed' oder 'deal' angeben"),
    ({"op": "new_game", "edition": "classic", "players": ["Anna", "Ben"], "house_rules": ["bonus"]},
     "Unbekannte Hausregel: 'bonus' (free_parking_pot, double_go, no_auctions)"),
])
def test_fields_that_contradict_each_other_in_any_game_are_a_bad_command(obj: dict[str, Any], message: str) -> None:
    err = refusal(obj)
    assert (err.code, told(err)) == ("bad_command", message)


def test_a_field_its_op_does_not_know_is_refused_naming_it() -> None:
    """"Refuse a command with a field its op does not know (`bad_command`, naming the field), as a family's
    edition file refuses an unknown key" (before, ``{"op": "bankrupt", …, "lift": [37]}`` silently did nothing)."""
    with pytest.raises(RuleError) as err:
        parse({"op": "credit", "player": "Anna", "amount": 10, "squar": 3})
    assert err.value.code == "bad_command" and "'squar'" in told(err)
    game = start("classic")
    with pytest.raises(RuleError) as err:
        game.apply({"op": "credit", "player": "Anna", "amount": 10, "amout": 10})
    assert err.value.code == "bad_command" and "'amout'" in told(err)
    assert parse({"op": "credit", "player": "Anna", "amount": 10, "id": "p-1"}) == cmds.Credit("Anna", 10, id="p-1")


def test_a_journal_written_before_with_fields_nobody_read_replays_as_it_was_accepted() -> None:
    """"Journals written before this change replay exactly as before": the contract used to ignore such
    fields, so the appliance's own journal (``replaying``) still does."""
    assert parse({"op": "credit", "player": "Anna", "amount": 10, "x": "y", "square": "?"},
                 strict=False) == cmds.Credit("Anna", 10)
    game = start("classic")
    event = game.apply({"op": "credit", "player": "Anna", "amount": 10, "x": "y"}, replaying=True)
    assert event.transfers[0].amount == 10


def test_what_depends_on_the_game_is_judged_by_the_game_not_the_parser() -> None:
    """Well-formed, but not allowed now: the rules' own codes, never bad_command."""
    assert parse({"op": "credit", "player": "Zoe", "amount": 99_000_000}) == cmds.Credit("Zoe", 99_000_000)
    assert parse({"op": "buy", "player": "Anna", "square": 99}) == cmds.Buy("Anna", 99)
    game = start("classic")
    for cmd, code in (({"op": "credit", "player": "Zoe", "amount": 10}, "unknown_player"),
                      ({"op": "credit", "player": "Anna", "amount": 99_000_000}, "amount_out_of_range"),
                      ({"op": "buy", "player": "Anna", "square": 99}, "unknown_square")):
        with pytest.raises(RuleError) as err:
            game.apply(cmd)
        assert err.value.code == code


# -- the round trip ------------------------------------------------------------------------------

NAMES = ["Anna", "Ben", "Cem", "Dana", "Eva", "Finn", "Gül", "Hans", "Ida"]
SQUARES = st.integers(-3, 43)


def _scalar(kind: Any) -> st.SearchStrategy[Any]:
    """Values of a field's type; names from a table's names so that they mean something."""
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        inner = next(a for a in typing.get_args(kind) if a is not type(None))
        return st.none() | _scalar(inner)
    if kind is bool:
        return st.booleans()
    if kind is int:
        return st.integers(-(10**9), 10**9)
    if kind is str:
        return st.sampled_from(NAMES)
    raise AssertionError(f"no strategy for {kind}")


@st.composite
def trade_sides(draw: st.DrawFn) -> cmds.TradeSide:
    return cmds.TradeSide(tuple(draw(st.lists(SQUARES, max_size=3, unique=True))),
                          draw(st.integers(0, 10**7)), draw(st.integers(0, 2)))


@st.composite
def commands(draw: st.DrawFn) -> Command:
    """Any well-formed command of the contract, built from its class's field types."""
    cls = draw(st.sampled_from(sorted(cmds.COMMANDS.values(), key=lambda c: c.op)))
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {"id": draw(st.none() | st.text(max_size=8))}
    if cls is cmds.NewGame:
        edition = EDITIONS[draw(st.sampled_from(sorted(EDITIONS)))]
        players = draw(st.lists(st.sampled_from(NAMES[:8]), min_size=2, max_size=8, unique=True))
        mode = draw(st.sampled_from(list(Mode)))
        values.update(edition=edition.key, players=tuple(players), mode=mode,
                      speed_die=bool(edition.speed_die_bonus) and draw(st.booleans()),
                      house_rules=tuple(draw(st.lists(st.sampled_from(cmds.HOUSE_RULES), unique=True))),
                      minutes=draw(st.integers(1, 1440)) if mode is Mode.TIMED else draw(st.none() | st.integers(0)),
                      seed=draw(st.none() | st.integers()), replace=draw(st.booleans()),
                      edition_data=draw(st.none() | st.just(journal_data(edition))))
        if mode is Mode.QUICK:
            each = edition.quick.deeds_each
            dealt = draw(st.permutations(sorted(DEEDS)))[: each * len(players)]
            deal = {n: tuple(dealt[i * each:(i + 1) * each]) for i, n in enumerate(players)}
            values["deal"] = draw(st.none() | st.just(deal))
            values["seed"] = draw(st.integers()) if values["deal"] is None else values["seed"]
    elif cls is cmds.Trade:
        a_gives, b_gives = draw(trade_sides()), draw(trade_sides())
        values.update(a=draw(st.sampled_from(NAMES)), b=draw(st.sampled_from(NAMES)), a_gives=a_gives, b_gives=b_gives,
                      lift=tuple(draw(st.lists(st.sampled_from(a_gives.squares + b_gives.squares), unique=True))
                                 if a_gives.squares + b_gives.squares else ()))
    else:
        special = {"square": st.sampled_from([4, 38]) if cls is cmds.Tax else SQUARES, "delta": st.sampled_from([1, -1]),
                   "lift": st.lists(SQUARES, max_size=2, unique=True).map(tuple)}
        for f in dataclasses.fields(cls):
            if f.name != "id":
                values[f.name] = draw(special[f.name] if f.name in special else _scalar(hints[f.name]))
    try:
        made = cls(**values)
        assert isinstance(made, typing.get_args(Command))  # COMMANDS holds the union's classes
        command: Command = made
    except RuleError:
        assume(False)  # fields that contradict each other (a transfer to oneself): not a command
        raise
    return command


@given(commands())
def test_every_command_turns_into_its_contract_json_and_back(command: Command) -> None:
    data = command.to_json()
    assert data["op"] == command.op
    assert parse(json.loads(json.dumps(data))) == command


@given(commands())
def test_the_json_uses_the_contracts_field_names(command: Command) -> None:
    data = command.to_json()
    assert "from_" not in data and (command.op != "transfer" or {"from", "to", "amount"} <= set(data))
    assert all(isinstance(key, str) for key in data)


def test_a_contract_object_comes_back_as_it_was_written() -> None:
    for data in ({"op": "transfer", "from": "Anna", "to": "Ben", "amount": 50, "id": "p1"},
                 {"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"squares": [37], "cash": 0, "jail_cards": 1},
                  "b_gives": {"squares": [], "cash": 100, "jail_cards": 0}, "lift": [37]},
                 {"op": "new_game", "edition": "banking", "players": ["Anna", "Ben"], "mode": "quick",
                  "deal": {"Anna": [1, 3], "Ben": [5, 6]}, "house_rules": ["double_go"]},
                 {"op": "undo"}):
        assert parse(data).to_json() == data


# -- the game takes typed commands ---------------------------------------------------------------


def test_a_typed_command_books_exactly_what_its_json_books() -> None:
    as_json, typed = start("banking"), start("banking")
    for cmd in ({"op": "buy", "player": "Anna", "square": 39},
                {"op": "transfer", "from": "Ben", "to": "Anna", "amount": 2_500_000},
                {"op": "rent", "player": "Ben", "square": 39}):
        a, b = as_json.apply(cmd), typed.apply(parse(cmd))
        assert (a.op, a.said, a.transfers, a.changes) == (b.op, b.said, b.transfers, b.changes)
        assert b.command == cmd  # the typed command's contract JSON
    assert snapshot(as_json.state) == snapshot(typed.state)


def test_the_event_keeps_the_json_exactly_as_given() -> None:
    """The journal stores what was submitted, never a re-serialisation (a field no op knows is refused since
    one the journal of an older version holds is kept as it was)."""
    game = start()
    cmd = {"op": "credit", "player": "Anna", "amount": 10, "id": "Karte 7"}
    assert game.apply(cmd).command is cmd
    old = {"op": "credit", "player": "Anna", "amount": 10, "note": "Karte 7"}
    assert game.apply(old, replaying=True).command is old


def test_preview_of_a_typed_command_books_nothing() -> None:
    """The device's confirm screens: what would be booked, from the rules, state untouched."""
    game = start("banking")
    before = snapshot(game.state)
    from told import means

    event = game.preview(cmds.Buy("Anna", 39))
    assert means(event, "rules.buy.done", player="Anna", square=39, amount=4_000_000)
    assert [(t.payer, t.payee, t.amount) for t in event.transfers] == [("Anna", None, 4_000_000)]
    assert snapshot(game.state) == before
    assert told(game.preview({"op": "buy", "player": "Anna", "square": 39}), game) == told(event, game)


def test_preview_and_check_refuse_as_apply_would() -> None:
    game = start("classic")
    with pytest.raises(RuleError) as err:
        game.preview(cmds.Debit("Anna", 5000))
    assert err.value.code == "amount_out_of_range"
    refused = game.check({"op": "credit", "player": "Anna", "amount": True})
    assert refused is not None and refused.code == "bad_command"
    assert game.check(cmds.Credit("Anna", 100)) is None
    with pytest.raises(RuleError) as err:
        game.preview(cmds.Undo())
    assert "Keine Vorschau" in told(err)


def test_a_repeated_id_is_applied_once_also_when_typed() -> None:
    game = start()
    assert not game.apply(cmds.Credit("Anna", 100, id="phone-1")).duplicate
    assert game.apply({"op": "credit", "player": "Anna", "amount": 100, "id": "phone-1"}).duplicate
    assert game.state is not None and game.state.players["Anna"].cash == 1600


def test_a_new_game_may_be_typed() -> None:
    game = Game()
    game.apply(cmds.NewGame("skylanders", ("Anna", "Ben"), mode=Mode.QUICK,
                            deal={"Anna": (1, 3, 6), "Ben": (8, 9, 11)}))
    assert game.state is not None and game.state.deeds[6].owner == "Anna" and game.state.players["Ben"].cash == 1500


def test_the_game_states_rules_not_the_parser_judge_a_lift_of_an_unmortgaged_deed() -> None:
    """Naming a deed of the trade in ``lift`` is well-formed; that it carries no mortgage is the state's business."""
    game = start()
    game.apply({"op": "buy", "player": "Anna", "square": 39})
    with pytest.raises(RuleError) as err:
        game.apply({"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"squares": [39]}, "lift": [39]})
    assert err.value.code == "not_mortgaged"


def test_bankrupt_carries_what_is_owed_and_gives_it_back() -> None:
    """`bankrupt` carries `owed` (and `creditor`); without it, the command of older journals."""
    cmd = parse({"op": "bankrupt", "player": "Anna", "creditor": "Ben", "owed": 300})
    assert isinstance(cmd, cmds.Bankrupt) and cmd.owed == 300
    assert cmd.to_json() == {"op": "bankrupt", "player": "Anna", "creditor": "Ben", "owed": 300}
    old = parse({"op": "bankrupt", "player": "Anna"})
    assert isinstance(old, cmds.Bankrupt) and old.owed is None and old.to_json() == {"op": "bankrupt", "player": "Anna"}


def test_owed_is_a_number() -> None:
    assert refusal({"op": "bankrupt", "player": "Anna", "owed": "300"}).code == "bad_command"


def test_the_building_auction_needs_player_square_and_price() -> None:
    cmd = parse({"op": "build_auction", "player": "Anna", "square": 39, "price": 250})
    assert isinstance(cmd, cmds.BuildAuction) and parse(cmd.to_json()) == cmd
    assert refusal({"op": "build_auction", "player": "Anna", "square": 39}).code == "bad_command"


def test_pay_debt_needs_the_player() -> None:
    assert isinstance(parse({"op": "pay_debt", "player": "Anna"}), cmds.PayDebt)
    assert refusal({"op": "pay_debt"}).code == "bad_command"
