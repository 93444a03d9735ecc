"""After ZU WENIG GELD the reader comes back to the refused payment once money is raised.

Seed 001: "Wenn Sie der Bank oder einem anderen Spieler mehr Geld schulden, als Sie bar zur Verfügung haben,
können Sie Ihre Grundstücke und/oder Gebäude zu Geld machen, indem Sie sie verkaufen oder mit Hypotheken
belasten. Können Sie Ihre Schulden danach immer noch nicht ausgleichen, sind Sie BANKROTT" — the debt is still
owed after the mortgage: the device shows the payment again as the rules now preview it, OK books it; still
short, it says so again and offers the raise-money list again; C leaves as ever.
"""

from __future__ import annotations

from typing import Any

from in_play import in_play
from ui_table import Table, shown

from device.scenes.card import CardScene
from device.scenes.lists import ConfirmScene
from device.scenes.notes import MessageScene

RENT = {"op": "rent", "player": "Ben", "square": 39}


def _choose(table: Table, prefix: str) -> None:
    """The list's entry that starts with ``prefix`` (amounts are the edition's own notation)."""
    label = next((label for label in table.labels() if label.startswith(prefix)), None)
    assert label is not None, f"{prefix!r} not offered: {table.labels()}"
    table.choose(label)


def _ben_short_of_rent(table: Table, *, cash: int, streets: tuple[int, ...] = (1,)) -> None:
    """Classic: Anna owns Schlossallee (rent 50, no group); Ben owns ``streets`` (mortgage 30 each) and ``cash``."""
    table.start("Anna", "Ben", edition="classic")
    table.book({"op": "buy", "player": "Anna", "square": 39},
          *({"op": "buy", "player": "Ben", "square": sq} for sq in streets))
    table.book({"op": "debit", "player": "Ben", "amount": table.cash("Ben") - cash})


def _rent_refused(table: Table) -> None:
    table.tap("Ben")
    table.press("MENU", "2")
    _choose(table, "39 ")
    assert "ZU WENIG GELD" in table.text() and "OK: Geld beschaffen" in table.text(), table.text()


def _mortgage(table: Table, square: str) -> None:
    """OK: Geld beschaffen, Hypothek, the street, OK."""
    table.press("OK")
    _choose(table, "Hypothek")
    _choose(table, square)
    assert isinstance(table.bank.scene, ConfirmScene) and table.bank.scene.cmd["op"] == "mortgage", table.text()
    table.press("OK")


def _payment_on_screen(table: Table, cmd: dict[str, Any]) -> ConfirmScene:
    scene = table.bank.scene
    assert isinstance(scene, ConfirmScene) and shown(scene.cmd) == cmd, f"{scene}: {table.text()}"
    assert table.bank.screen().title == "OK bucht, C zurück", table.text()  # the keys, in the title bar
    return scene


def test_after_a_mortgage_the_refused_rent_is_shown_again_and_ok_books_it(table: Table) -> None:
    """Ben owes Anna 50 rent and has 20: he mortgages Badstraße (30), the rent comes back, OK books it."""
    _ben_short_of_rent(table, cash=20)
    _rent_refused(table)
    _mortgage(table, " 1 ")
    assert in_play(table.ledger).deeds[1].mortgaged
    _payment_on_screen(table, RENT)
    assert "Miete" in table.text() and "50" in table.text()
    table.press("OK")
    assert table.cash("Ben") == 0 and table.cash("Anna") == 1500 - 400 + 50
    assert "Gebucht" in table.text()


def test_still_short_after_one_mortgage_says_so_again_and_offers_the_list_again(table: Table) -> None:
    """Ben has nothing and two streets: one mortgage (30) does not pay 50; ZU WENIG GELD again, a second does."""
    _ben_short_of_rent(table, cash=0, streets=(1, 3))
    _rent_refused(table)
    _mortgage(table, " 1 ")
    scene = table.bank.scene
    assert isinstance(scene, MessageScene) and scene.offer is not None and scene.offer.cmd == RENT, table.text()
    assert "ZU WENIG GELD" in table.text() and "OK: Geld beschaffen" in table.text()
    _mortgage(table, " 3 ")
    _payment_on_screen(table, RENT)
    table.press("OK")
    assert table.cash("Ben") == 10 and table.cash("Anna") == 1100 + 50


def test_c_leaves_the_payment_shown_again(table: Table) -> None:
    """C is one scene back, as ever: from the payment shown again to Ben's card, nothing booked."""
    _ben_short_of_rent(table, cash=20)
    _rent_refused(table)
    _mortgage(table, " 1 ")
    _payment_on_screen(table, RENT)
    table.press("C")
    assert isinstance(table.bank.scene, CardScene) and table.bank.scene.player == "Ben", table.text()
    assert table.cash("Ben") == 50 and table.cash("Anna") == 1100


def test_c_on_the_raise_list_leaves_as_before(table: Table) -> None:
    _ben_short_of_rent(table, cash=20)
    _rent_refused(table)
    table.press("OK", "C")
    assert isinstance(table.bank.scene, CardScene) and table.bank.scene.player == "Ben", table.text()


def test_a_rent_the_phone_booked_meanwhile_is_withdrawn(table: Table) -> None:
    """The banker books the rent on the phone while the device shows it again: the device's confirmation goes,
    so OK cannot book the same rent twice."""
    _ben_short_of_rent(table, cash=20)
    _rent_refused(table)
    _mortgage(table, " 1 ")
    _payment_on_screen(table, RENT)
    table.book(RENT)  # the phone
    assert not isinstance(table.bank.scene, ConfirmScene), table.text()
    table.press("OK")
    assert table.cash("Ben") == 0 and table.cash("Anna") == 1100 + 50


def test_a_rent_the_phone_booked_during_the_raise_does_not_come_back(table: Table) -> None:
    """The phone raised the money and booked the rent while the device's raise list stood: the device's own
    mortgage then shows its result, not a rent that is paid."""
    _ben_short_of_rent(table, cash=20, streets=(1, 3))
    _rent_refused(table)
    table.press("OK")
    table.book({"op": "mortgage", "player": "Ben", "square": 3}, RENT)  # the phone
    _choose(table, "Hypothek")
    _choose(table, " 1 ")
    table.press("OK")
    assert not isinstance(table.bank.scene, ConfirmScene) and "Gebucht" in table.text(), table.text()
    assert table.cash("Anna") == 1100 + 50


def test_a_payment_the_phone_made_impossible_does_not_come_back(table: Table) -> None:
    """The phone's Storno takes back Anna's purchase: no rent is owed for Schlossallee any more."""
    _ben_short_of_rent(table, cash=20)
    _rent_refused(table)
    table.press("OK")
    table.book({"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"squares": [39], "cash": 0},
                  "b_gives": {"squares": [], "cash": 0}})  # the phone: Schlossallee is Ben's own now
    _choose(table, "Hypothek")
    _choose(table, " 1 ")
    table.press("OK")
    assert not isinstance(table.bank.scene, ConfirmScene) and "Gebucht" in table.text(), table.text()


def test_a_refused_transfer_comes_back(table: Table) -> None:
    """Soll, the amount, Anna's card: Ben cannot pay; after the mortgage the Überweisung is shown again."""
    _ben_short_of_rent(table, cash=20)
    table.tap("Ben")
    table.press("SOLL")
    table.type("40")
    table.tap("Anna")
    assert "ZU WENIG GELD" in table.text()
    _mortgage(table, " 1 ")
    _payment_on_screen(table, {"op": "transfer", "from": "Ben", "to": "Anna", "amount": 40})
    table.press("OK")
    assert table.cash("Ben") == 10


def test_a_refused_soll_comes_back_as_a_confirmation(table: Table) -> None:
    """A card's "Zahle 40": Soll 40 OK is booked at once, but refused; after the mortgage it waits for OK."""
    _ben_short_of_rent(table, cash=20)
    table.tap("Ben")
    table.press("SOLL")
    table.type("40")
    table.press("OK")
    assert "ZU WENIG GELD" in table.text()
    _mortgage(table, " 1 ")
    _payment_on_screen(table, {"op": "debit", "player": "Ben", "amount": 40})
    table.press("OK")
    assert table.cash("Ben") == 10


def test_a_refused_tax_into_the_frei_parken_pot_comes_back(table: Table) -> None:
    table.start("Anna", "Ben", edition="classic", house_rules=["free_parking_pot"])
    table.book({"op": "buy", "player": "Ben", "square": 1})
    table.book({"op": "transfer", "from": "Ben", "to": "Anna", "amount": table.cash("Ben") - 180})
    table.tap("Ben")
    table.press("MENU", "3")
    _choose(table, " 4 ")
    assert "ZU WENIG GELD" in table.text()
    _mortgage(table, " 1 ")
    scene = _payment_on_screen(table, {"op": "tax", "player": "Ben", "square": 4})
    assert "Topf" in " ".join(table.bank.say(line) for line in scene.body)
    table.press("OK")
    assert table.cash("Ben") == 10 and in_play(table.ledger).pot == 200


def test_a_refused_an_alle_zahlen_comes_back_until_paid(table: Table) -> None:
    """Ben owes 50 to each of two: 60 cash, one mortgage (90) is short, the second (120) pays."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.book({"op": "buy", "player": "Ben", "square": 1}, {"op": "buy", "player": "Ben", "square": 3})
    table.book({"op": "debit", "player": "Ben", "amount": table.cash("Ben") - 60})
    table.tap("Ben")
    table.press("MENU", "8")
    table.choose("An alle zahlen")
    table.type("50")
    table.press("OK")
    assert "ZU WENIG GELD" in table.text()
    _mortgage(table, " 1 ")
    assert "ZU WENIG GELD" in table.text()
    _mortgage(table, " 3 ")
    _payment_on_screen(table, {"op": "pay_all", "player": "Ben", "amount": 50})
    table.press("OK")
    assert table.cash("Ben") == 20 and table.cash("Cem") == 1550


def test_a_refused_von_allen_kassieren_comes_back_to_the_collector(table: Table) -> None:
    """Anna collects 100 from each; Ben has 80: he mortgages Badstraße, and Anna's collection is shown again."""
    table.start("Anna", "Ben", edition="classic")
    table.book({"op": "buy", "player": "Ben", "square": 1})
    table.book({"op": "debit", "player": "Ben", "amount": table.cash("Ben") - 80})
    table.tap("Anna")
    table.press("MENU", "8")
    table.choose("Von allen kassieren")
    table.type("100")
    table.press("OK")
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    assert table.choice.player == "Ben"
    _choose(table, "Hypothek")
    _choose(table, " 1 ")
    table.press("OK")
    scene = _payment_on_screen(table, {"op": "collect_all", "player": "Anna", "amount": 100})
    assert scene.player == "Anna"
    table.press("OK")
    assert table.cash("Ben") == 10 and table.cash("Anna") == 1600


def test_a_refused_debt_to_the_bank_comes_back(table: Table) -> None:
    """Seed 003: the creditor "muss sofort … 10 % Zinsen an die Bank bezahlen"; Ben could not: "Schuld zahlen" is
    refused, he mortgages Badstraße, the payment of the debt comes back."""
    table.start("Anna", "Ben", "Cem", edition="schalke")
    table.book({"op": "buy", "player": "Ben", "square": 1}, {"op": "buy", "player": "Cem", "square": 39},
          {"op": "mortgage", "player": "Cem", "square": 39})
    table.book({"op": "debit", "player": "Cem", "amount": table.cash("Cem")},
          {"op": "debit", "player": "Ben", "amount": table.cash("Ben")},
          {"op": "bankrupt", "player": "Cem", "creditor": "Ben"})
    debt = in_play(table.ledger).players["Ben"].debt
    assert debt > 0
    table.tap("Ben")
    table.press("MENU", "0")
    table.choose("Schuld zahlen")
    assert "ZU WENIG GELD" in table.text()
    _mortgage(table, " 1 ")
    _payment_on_screen(table, {"op": "pay_debt", "player": "Ben"})
    table.press("OK")
    assert in_play(table.ledger).players["Ben"].debt == 0


def test_a_refused_rent_names_its_whole_debt_to_the_raise_list(table: Table) -> None:
    """Seed 001: "Können Sie Ihre Schulden danach immer noch nicht ausgleichen, sind Sie BANKROTT". A rent
    command carries no amount (the rules reckon it), so the list must hear the debt from the rules' refusal:
    Ben has 20 and Badstraße (mortgage 30) against a rent of 50 — he can pay after a mortgage, so there is
    no "Bankrott" to offer, and nothing "reicht nicht"."""
    _ben_short_of_rent(table, cash=20)
    _rent_refused(table)
    table.press("OK")
    assert [label.split(" (")[0] for label in table.labels()] == ["Hypothek"], table.labels()
    assert "reicht nicht" not in table.text()


def test_a_refused_tax_that_raising_cannot_cover_says_so_and_offers_bankruptcy(table: Table) -> None:
    """Einkommensteuer 200 with 20 in cash and one mortgage of 30: "reicht nicht", and the bankruptcy to the
    bank is offered with the tax as its debt."""
    table.start("Anna", "Ben", edition="classic")
    table.book({"op": "buy", "player": "Ben", "square": 1})
    table.book({"op": "debit", "player": "Ben", "amount": table.cash("Ben") - 20})
    outcome = table.ledger.submit({"op": "tax", "player": "Ben", "square": 4})
    assert not outcome.ok and outcome.code == "insufficient_funds" and outcome.owed == 200
    offer = _tax_refused_on_the_reader(table)
    assert offer.owed == 200
    table.press("OK")
    assert "reicht nicht" in table.text() and "Bankrott" in table.labels(), (table.text(), table.labels())


def _tax_refused_on_the_reader(table: Table) -> Any:
    table.tap("Ben")
    table.press("MENU", "3", "OK")  # Steuer: the first tax square, OK
    scene = table.bank.scene
    while isinstance(scene, ConfirmScene):
        table.press("OK")
        scene = table.bank.scene
    assert isinstance(scene, MessageScene) and scene.offer is not None, table.text()
    return scene.offer


def test_a_purchase_the_player_cannot_afford_offers_money_but_never_bankruptcy(table: Table) -> None:
    """A purchase is no debt (seed 001 makes a player BANKROTT who owes more than they can pay): Ben with 20 and
    Badstraße may raise money to buy Schlossallee, but the list offers no "Bankrott"."""
    table.start("Anna", "Ben", edition="classic")
    table.book({"op": "buy", "player": "Ben", "square": 1})
    table.book({"op": "debit", "player": "Ben", "amount": table.cash("Ben") - 20})
    table.tap("Ben")
    table.tap(39)
    _choose(table, "Kaufen")
    _choose(table, "Preis")
    while isinstance(table.bank.scene, ConfirmScene):
        table.press("OK")
    scene = table.bank.scene
    assert isinstance(scene, MessageScene) and scene.offer is not None and scene.offer.owed == 0, table.text()
    table.press("OK")
    assert "Bankrott" not in table.labels() and table.labels(), table.labels()


# -- Findings (the second evening at the virtual device) --------------------------------


def test_6_raising_money_for_a_bid_says_when_it_cannot_reach_it(table: Table) -> None:
    """An auction bid above what Anna has: "Geld beschaffen" offered a 30 mortgage without the "reicht nicht" the debt
    screens show, although nothing raisable closes the gap (seed 001: "Die Spieler müssen für ihr Gebot über
    entsprechend viel Bargeld verfügen")."""
    table.start("Anna", "Ben", edition="classic")
    table.book({"op": "buy", "player": "Anna", "square": 1}, {"op": "debit", "player": "Anna", "amount": 1340})
    table.tap("Anna")
    table.press("MENU", "1")
    table.choose("39 Schlossallee")
    table.choose("Auktion: Gebot")
    table.type("1000")
    table.press("OK")  # the bid: refused, ZU WENIG GELD
    assert "ZU WENIG GELD" in table.text(), table.text()
    table.press("OK")  # Geld beschaffen
    assert table.choice.title == "Beschaffbar 30, reicht nicht"
    assert table.labels() == ["Hypothek (30)"]  # no bankruptcy: a bid is no debt


# -- Defects, each failed before its fix ------------------------------------------------


def test_zu_wenig_geld_says_how_much_is_missing(table: Table) -> None:
    """"ZU WENIG GELD always shows how much is missing"."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("SOLL")
    table.type("2000")
    table.press("OK")
    assert table.text().splitlines()[1:4] == ["ZU WENIG GELD", "Es fehlen 500 – Anna", "hat 1500, braucht"]


# -- The independent review's findings (REVIEW.md) -------------------------------------------------


def test_1_a_refused_von_allen_kassieren_raises_money_for_the_payer(table: Table) -> None:
    """Ben owns Badstraße: the raise-money list offers Ben's mortgage, not Anna's Schlossallee."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Ben", "square": 1}).ok
    assert table.ledger.submit({"op": "debit", "player": "Ben", "amount": 1400}).ok
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 39}).ok
    table.bank.refresh()
    table.tap("Anna")
    table.press("MENU", "8")
    table.choose("Von allen kassieren")
    table.type("100")
    table.press("OK")
    table.press("OK")
    assert table.choice.player == "Ben"
    table.choose(table.labels()[0])
    assert table.labels() == [" 1 Badstraße"]


def test_5_the_raise_money_list_says_when_it_is_not_enough(table: Table) -> None:
    """Ben owes Dana 2000 with 1100 and Seestraße (mortgage 70): "Beschaffbar 70" must say it will not do."""
    table.start("Anna", "Ben", "Cem", "Dana", edition="classic")
    assert table.ledger.submit({"op": "buy", "player": "Ben", "square": 11}).ok
    assert table.ledger.submit({"op": "debit", "player": "Ben", "amount": 260}).ok
    table.bank.refresh()
    table.tap("Ben")
    table.press("SOLL")
    table.type("2000")
    table.tap("Dana")
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    assert "reicht nicht" in table.text(), table.text()
