"""Bankruptcy and the debt it may leave to the bank, against the books (last gaps): bankrupt is only
who owes more than can be raised; a creditor who cannot pay the 10 % on a mortgaged deed owes it to the bank and
pays it before anything else; the fees show wherever money shows. One rule, one test, the book quoted."""

from __future__ import annotations

import pytest
from told import told

from conftest import apply, cash, give, refused, snapshot, start
from rules import EDITIONS, Game
from rules.legal import debt, legal_ops, means


def bank_total(game: Game) -> int:
    """Every player's cash: with the bank's flows it must add up (money is conserved)."""
    assert game.state is not None
    return sum(p.cash for p in game.state.players.values())


# -- 3. bankrupt is whoever owes more than they can pay ------------------------------------------


def test_bankrupt_with_owed_is_refused_while_the_cash_covers_it() -> None:
    """Seed 000: bankrupt is "einer, der mehr schuldet als er bezahlen kann"."""
    game = start(players=("Anna", "Ben", "Cem"))
    message = refused(game, "not_bankrupt", op="bankrupt", player="Anna", creditor="Ben", owed=300)
    assert "nicht bankrott" in message and "bar zahlen" in message


def test_bankrupt_with_owed_is_refused_while_mortgages_and_building_sales_would_cover_it() -> None:
    """Seed 001: "können Sie Ihre Grundstücke und/oder Gebäude zu Geld machen, indem Sie sie verkaufen oder mit
    Hypotheken belasten. Können Sie Ihre Schulden danach immer noch nicht ausgleichen, sind Sie BANKROTT"."""
    game = start(players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 1, 3, 39)
    apply(game, op="build", player="Anna", square=1)
    apply(game, op="build", player="Anna", square=3)
    apply(game, op="debit", player="Anna", amount=1350)  # 50 cash left; houses 2 × 25, mortgages 30 + 30 + 200
    assert means(game, "Anna") == (50, 50, 260)
    message = refused(game, "not_bankrupt", op="bankrupt", player="Anna", creditor="Ben", owed=360)
    assert "Gebäude verkaufen (50)" in message and "Hypotheken aufnehmen (260)" in message
    assert "es fehlen 310" in message


def test_bankrupt_with_owed_more_than_can_be_raised_is_booked_and_says_the_debt() -> None:
    from told import within

    game = start(players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 39)
    apply(game, op="debit", player="Anna", amount=1450)
    event = apply(game, op="bankrupt", player="Anna", creditor="Ben", owed=251)
    assert game.state is not None and game.state.players["Anna"].bankrupt
    assert [(said["creditor"], said["owed"]) for said in within(event, "rules.bankrupt.player.owed")] == [("Ben", 251)]


def test_the_creditor_receives_the_jail_cards_and_the_booking_says_so() -> None:
    """A bankrupt player's "Gefängnis-frei" cards pass to the player creditor with the rest of the estate; the
    preview named the cash and the deeds only, so the banker confirmed a booking that gave away a card unseen."""
    from told import within

    game = start(players=("Anna", "Ben", "Cem"))
    apply(game, op="jail_card", player="Anna", delta=1)
    apply(game, op="debit", player="Anna", amount=1490)
    shown = game.preview({"op": "bankrupt", "player": "Anna", "creditor": "Ben", "owed": 500})
    assert [said["n"] for said in within(shown, "rules.trade.cards")] == [1]
    apply(game, op="bankrupt", player="Anna", creditor="Ben", owed=500)
    assert game.state is not None and game.state.players["Ben"].jail_cards == 1


def test_bankrupt_to_the_bank_with_owed_is_checked_the_same() -> None:
    game = start(players=("Anna", "Ben", "Cem"))
    assert "200 an die Bank bar zahlen" in refused(game, "not_bankrupt", op="bankrupt", player="Anna", owed=200)
    give(game, "Anna", 39)
    apply(game, op="debit", player="Anna", amount=1400)
    assert "dann der Bank 200 zahlen" in refused(game, "not_bankrupt", op="bankrupt", player="Anna", owed=200)


def test_owed_is_at_least_1() -> None:
    refused(start(), "amount_out_of_range", op="bankrupt", player="Anna", creditor="Ben", owed=0)


def test_bankrupt_without_owed_is_booked_as_before() -> None:
    """Journals written before `owed` existed hold bankruptcies without it: they are booked as they were."""
    game = start(players=("Anna", "Ben", "Cem"))
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    assert game.state is not None and game.state.players["Anna"].bankrupt and cash(game, "Ben") == 3000


# -- 4. the creditor who cannot pay the 10 % --------------------------------------------------


def broke_creditor(edition: str = "skylanders", ben_cash: int = 10) -> Game:
    """Anna, with nothing but Parkstraße and Schlossallee mortgaged and no cash, is bankrupt to Ben, who has
    ``ben_cash``: the fees are 18 and 20."""
    game = start(edition, players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 37, 39)
    apply(game, op="mortgage", player="Anna", square=37)
    apply(game, op="mortgage", player="Anna", square=39)
    apply(game, op="debit", player="Anna", amount=1875)
    apply(game, op="debit", player="Ben", amount=1500 - ben_cash)
    return game


@pytest.mark.parametrize("edition", ["schalke", "sonic", "skylanders"])
def test_a_creditor_who_cannot_pay_the_fee_still_takes_the_estate_and_owes_the_bank(edition: str) -> None:
    """Seed 001: "Der Mitspieler muss sofort für jedes belastete Grundstück, das er von Ihnen erhält, 10 % Zinsen
    an die Bank bezahlen." Who owes the bank more than their cash must raise it ("Grundstücke und/oder Gebäude
    zu Geld machen"): the bankruptcy is booked, the fee stays owed to the bank, nothing is lost."""
    from told import meaning, within

    game = broke_creditor(edition)
    total = bank_total(game)
    event = apply(game, op="bankrupt", player="Anna", creditor="Ben", owed=100)
    state = game.state
    assert state is not None and state.players["Anna"].bankrupt
    assert state.deeds[37].owner == state.deeds[39].owner == "Ben"
    assert debt(game, "Ben") == 38 and cash(game, "Ben") == 10 and bank_total(game) == total
    assert within(event, "rules.item.open") == [{"square": 37, "amount": 18}, {"square": 39, "amount": 20}]
    assert within(event, "rules.bankrupt.unpaid") == [{"creditor": "Ben", "amount": 38}]
    assert meaning(event.note) == ("rules.note.open", {"amount": 38})


def test_the_creditor_pays_the_fees_the_cash_covers_and_owes_the_rest() -> None:
    game = broke_creditor(ben_cash=19)
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    assert cash(game, "Ben") == 1 and debt(game, "Ben") == 20


def test_a_creditor_who_can_pay_pays_at_once_as_before() -> None:
    """ "Dies gilt auch dann, wenn er die Hypothek zu diesem Zeitpunkt noch nicht auflösen möchte." """
    game = broke_creditor(ben_cash=100)
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    assert cash(game, "Ben") == 100 - 38 and debt(game, "Ben") == 0


def test_who_owes_the_bank_pays_nothing_else_first() -> None:
    """The fee is due "sofort": until it is paid, every other payment of the creditor is refused."""
    game = broke_creditor()
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    apply(game, op="credit", player="Ben", amount=100)
    message = refused(game, "debt_open", op="buy", player="Ben", square=1)
    assert "schuldet der Bank noch 38" in message and "Schuld zahlen" in message
    refused(game, "debt_open", op="transfer", **{"from": "Ben", "to": "Cem", "amount": 5})
    refused(game, "debt_open", op="buy", player="Ben", square=1, price=1000)  # an auction bid, too
    apply(game, op="transfer", **{"from": "Cem", "to": "Ben", "amount": 5})  # money coming in is welcome


def test_the_debt_is_raised_and_paid_with_pay_debt() -> None:
    """The device leads the creditor there: raise the money (a mortgage here), then "Schuld zahlen"."""
    game = broke_creditor()
    give(game, "Ben", 1)
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    assert "pay_debt" in legal_ops(game, "Ben") and "mortgage" in legal_ops(game, "Ben")
    assert "buy" not in legal_ops(game, "Ben") and "build_auction" not in legal_ops(game, "Ben")
    refused(game, "insufficient_funds", op="pay_debt", player="Ben")
    apply(game, op="mortgage", player="Ben", square=1)  # +30: 40
    event = apply(game, op="pay_debt", player="Ben")
    assert cash(game, "Ben") == 2 and debt(game, "Ben") == 0 and "38" in told(event, game)
    refused(game, "amount_out_of_range", op="pay_debt", player="Ben")  # nothing owed any more
    apply(game, op="buy", player="Ben", square=3, price=1)


def test_who_cannot_raise_the_fee_goes_bankrupt_to_the_bank_and_the_debt_ends() -> None:
    """ "Können Sie Ihre Schulden danach immer noch nicht ausgleichen, sind Sie BANKROTT." """
    game = start("skylanders", players=("Anna", "Ben", "Cem", "Dana"))
    give(game, "Anna", 37, 39)
    apply(game, op="mortgage", player="Anna", square=37)
    apply(game, op="mortgage", player="Anna", square=39)
    apply(game, op="debit", player="Anna", amount=1875)
    apply(game, op="debit", player="Ben", amount=1490)
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    apply(game, op="bankrupt", player="Ben", owed=38)  # 10 cash, every deed mortgaged: truly bankrupt
    state = game.state
    assert state is not None and state.players["Ben"].bankrupt and state.players["Ben"].debt == 0
    assert state.deeds[37].owner is None and not state.deeds[37].mortgaged


def test_storno_of_a_bankruptcy_that_left_a_debt_restores_everything() -> None:
    game = broke_creditor()
    before = snapshot(game.state)
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    apply(game, op="undo")
    assert snapshot(game.state) == before and debt(game, "Ben") == 0


def test_a_debt_counts_against_net_worth_and_shows_in_the_state() -> None:
    """Net worth (seed 004 "Vermögen") is what a player has less what they owe the bank."""
    from rules import from_json, net_worth, to_json

    game = broke_creditor()
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    assert game.state is not None
    assert net_worth(game.state, "Ben") == 10 - 38 + 350 // 2 + 400 // 2
    data = to_json(game.state)
    assert next(p for p in data["players"] if p["name"] == "Ben")["debt"] == 38
    assert to_json(from_json(data)) == data


# -- 6. fees show where money shows ---------------------------------------------------------


def test_the_ten_percent_of_a_trade_is_in_the_preview_and_the_event() -> None:
    """Seed 004: "musst du die Hypothek entweder sofort auflösen oder an die Bank 10 % des Hypothekenbetrags
    zahlen": the 10 % shows in the preview (the OLED's confirm), the event (OLED result, log, report)."""
    from told import meaning, within

    game = start("classic")
    give(game, "Anna", 37, 39)
    apply(game, op="mortgage", player="Anna", square=37)
    apply(game, op="mortgage", player="Anna", square=39)
    trade = {"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"squares": [37, 39]}, "b_gives": {"cash": 100},
             "lift": [39]}
    preview = game.preview(trade)
    assert within(preview, "rules.trade.interest") == [{"player": "Ben", "square": 37, "amount": 18}]
    assert within(preview, "rules.trade.lifted") == [{"player": "Ben", "square": 39, "amount": 220}]
    assert meaning(game.apply(trade)) == meaning(preview)
    assert meaning(preview.note) == ("rules.note.paid_bank", {"player": "Ben", "amount": 238})  # the OLED's: 18 + 220


def test_the_short_line_of_a_trade_names_each_player_who_pays_the_bank() -> None:
    """"an die Bank: 200K" did not say who pays it; both sides may take a mortgaged deed."""
    from told import within

    game = start("classic")
    give(game, "Anna", 37)
    give(game, "Ben", 39)
    apply(game, op="mortgage", player="Anna", square=37)
    apply(game, op="mortgage", player="Ben", square=39)
    trade = {"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"squares": [37]}, "b_gives": {"squares": [39]}}
    note = game.preview(trade).note
    assert within(note, "rules.note.each") == [{"player": "Ben", "amount": 18}, {"player": "Anna", "amount": 20}]
    assert within(note, "rules.note.to_bank")


def test_the_ten_percent_of_a_bankruptcy_is_in_the_preview_and_the_event() -> None:
    """Seed 003: "Der Mitspieler muss sofort für jedes belastete Grundstück, das er von dir erhält, 10% Zinsen
    an die Bank bezahlen." """
    from told import meaning, within

    game = broke_creditor("sonic", ben_cash=100)
    cmd = {"op": "bankrupt", "player": "Anna", "creditor": "Ben"}
    preview = game.preview(cmd)
    assert [fees["creditor"] for fees in within(preview, "rules.bankrupt.fees")] == ["Ben"]
    assert within(preview, "rules.item.paid") == [{"square": 37, "amount": 18}, {"square": 39, "amount": 20}]
    event = game.apply(cmd)
    assert meaning(event) == meaning(preview) and meaning(event.note) == ("rules.note.interest", {"amount": 38})


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_edition_knows_the_new_codes(edition: str) -> None:
    from rules import CODES

    assert {"not_bankrupt", "debt_open", "no_shortage"} <= CODES


def test_a_debt_to_the_bank_that_a_mortgage_covers_is_no_bankruptcy() -> None:
    """Seed 000: bankrupt is "einer, der mehr schuldet als er bezahlen kann". Ben owes the bank 38 with 10 in
    cash and a free deed worth a mortgage of 30: he can pay, so ``bankrupt`` with ``owed=38`` is refused (the
    debt was counted twice, against his cash and as what is owed, and bankruptcy was booked)."""
    game = broke_creditor()
    give(game, "Ben", 1)
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    assert debt(game, "Ben") == 38 and cash(game, "Ben") == 10
    refused(game, "not_bankrupt", op="bankrupt", player="Ben", owed=38)
