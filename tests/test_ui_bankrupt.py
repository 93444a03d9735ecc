"""The bankruptcy's confirmation on the OLED says what the creditor receives (the deeds and cards, not only the
money), and the choice of mortgages to lift says what each costs (before: "Anna lifts now:" with no cost).

Bankruptcy is offered only to who owes more than can be raised, to the creditor the refused payment names; the
10 % on a mortgaged deed that a creditor cannot pay stays owed to the bank, paid from the menu before anything
else."""

from __future__ import annotations

from in_play import in_play
from told import told
from ui_table import Table, shown

from device.scenes import State
from device.scenes.lists import ConfirmScene, ListScene
from rules import EDITIONS, square_name


def bankrupt_with_an_estate(table: Table) -> None:
    """Classic: Anna holds Parkstraße (mortgaged: 175 + 18 to lift), Schlossallee and a Gefängnis-frei-Karte, and
    cannot pay Ben 1500."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.book({"op": "buy", "player": "Anna", "square": 37}, {"op": "buy", "player": "Anna", "square": 39},
               {"op": "mortgage", "player": "Anna", "square": 37}, {"op": "jail_card", "player": "Anna", "delta": 1},
               {"op": "debit", "player": "Anna", "amount": 400})
    table.tap("Anna")
    table.press("SOLL")
    table.type("1500")
    table.tap("Ben")
    table.press("OK")  # ZU WENIG GELD: Geld beschaffen
    table.choose("Bankrott")


def test_the_lift_choice_says_what_each_mortgage_costs(table: Table) -> None:
    bankrupt_with_an_estate(table)
    assert "Ben löst gleich auf:" in table.text()
    assert "37 Parkstraße: 193" in table.labels(), table.labels()  # the mortgage 175 and 10 % (18)


def test_the_confirmation_says_what_the_creditor_receives(table: Table) -> None:
    bankrupt_with_an_estate(table)
    table.press("OK")  # none lifted
    assert isinstance(table.bank.scene, ConfirmScene)
    body = " ".join(table.screen().lines)
    assert body.startswith("Anna an Ben: ")
    lines = []
    for _ in range(6):  # the whole confirmation, as the knob scrolls it
        lines += [line for line in table.screen().lines if line not in lines]
        table.press("DOWN")
    said = " ".join(lines)
    assert "Ben erhält" in said and "Parkstraße" in said and "Schlossallee" in said and "Karte" in said, lines


def test_the_confirmation_says_what_lifting_costs(table: Table) -> None:
    bankrupt_with_an_estate(table)
    table.choose("37 Parkstraße: 193")
    table.choose("Fertig")
    assert isinstance(table.bank.scene, ConfirmScene)
    assert any("193" in line for line in table.screen().lines), table.screen()
    table.press("OK")
    assert in_play(table.ledger).deeds[37].owner == "Ben" and not in_play(table.ledger).deeds[37].mortgaged


# -- Findings (the second evening at the virtual device) --------------------------------


def _broke(table: Table) -> None:
    """Cem owes Ben 1600 with 1180 in cash, two Hütten and a mortgaged station (Skylanders: the 10 % on it)."""
    table.start("Anna", "Ben", "Cem", edition="skylanders")
    table.book(*[{"op": "buy", "player": "Cem", "square": sq} for sq in (1, 3, 5)],
               {"op": "build", "player": "Cem", "square": 1}, {"op": "build", "player": "Cem", "square": 3},
               {"op": "mortgage", "player": "Cem", "square": 5})
    table.tap("Cem")
    table.press("SOLL")
    table.type("1600")
    table.tap("Ben")
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    table.choose("Bankrott")
    assert "Ben löst gleich auf:" in table.text()  # the mortgaged station: lifted at once or not
    table.press("OK")  # "Fertig": not lifted, the 10 %


def test_5_the_bankruptcy_confirmation_says_what_the_creditor_receives(table: Table) -> None:
    """It said "an Ben: 1600" (the debt) while Ben receives 1230 (cash and the Hütten sold) and pays the 10 %."""
    _broke(table)
    seen = table.text().splitlines()
    table.press("DOWN", "DOWN")
    seen += table.text().splitlines()
    assert seen[:3] == ["OK bucht, C zurück ↓", "Bankrott", "Cem an Ben: 1230"]
    assert {"Schuld 1600", "10 % an Bank: 10", "Storno hebt es auf"} <= set(seen), seen


def test_5_the_log_says_what_the_creditor_received(table: Table) -> None:
    """The log said "(Schuld 1600)" and never what Ben received: only the CSV told."""
    _broke(table)
    table.press("OK")
    text = told(list(table.ledger.game.history)[-1], table.ledger.game)
    assert "Ben erhält 1230" in text and square_name(EDITIONS["skylanders"], 5) in text and "10 %" in text, text


# -- Findings (three games on the virtual device) ---------------------------------------


def _all_menu_labels(table: Table) -> list[str]:
    """The player's menu and every submenu it opens (each opened and left with C)."""
    labels = list(table.labels())
    for digit, label in [(o.digit, o.label) for o in table.choice.options]:
        table.press(digit)
        if isinstance(table.bank.scene, ListScene) and table.bank.scene.title == label:
            labels += table.labels()
        table.press("C")
    return labels


def test_1_bankruptcy_is_offered_only_from_a_refused_payment_and_storno_undoes_it(table: Table) -> None:
    """Seed 000: bankrupt is "einer, der mehr schuldet als er bezahlen kann" — Cem with cash and no debt
    was offered bankruptcy from the menu, and the confirm said "unwiderruflich" though Storno undoes it."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.tap("Cem")
    table.press("MENU")
    assert "Bankrott" not in _all_menu_labels(table)
    table.press("C")
    table.press("SOLL")
    table.type("1600")
    table.tap("Ben")  # Cem owes Ben 1600 and has 1500
    table.press("OK")  # ZU WENIG GELD: OK: Geld beschaffen
    table.choose("Bankrott")  # to Ben, whom the payment was owed to
    # What Ben receives (Cem's 1500), then the debt
    assert table.text() == "OK bucht, C zurück\nBankrott\nCem an Ben: 1500\nStorno hebt es auf\nSchuld 1600"
    table.press("OK")
    assert in_play(table.ledger).players["Cem"].bankrupt
    assert table.ledger.submit({"op": "undo"}).ok and not in_play(table.ledger).players["Cem"].bankrupt


def test_1_the_bankruptcy_carries_the_debt_where_the_rules_take_it() -> None:
    """docs/commands.md: `bankrupt` takes `owed`; the device passes it once the rules' parser knows it."""
    from dataclasses import fields

    from device.scenes.flows import bankrupt_command
    from rules.commands import COMMANDS

    cmd = bankrupt_command("Cem", "Ben", 1600)
    assert cmd["creditor"] == "Ben"
    assert ("owed" in cmd) == ("owed" in {f.name for f in fields(COMMANDS["bankrupt"])})


# -- Defects, each failed before its fix ------------------------------------------------


def test_bankruptcy_to_the_bank_is_to_the_bank(table: Table) -> None:
    """A refused payment to the bank: the creditor is the bank (review finding 2: no other choice)."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.tap("Anna")
    table.press("SOLL")
    table.type("2000")
    table.press("OK", "OK")  # ZU WENIG GELD, OK: Geld beschaffen
    table.choose("Bankrott")
    assert isinstance(table.bank.scene, ConfirmScene) and "creditor" not in table.bank.scene.cmd
    assert "an die Bank" in table.text()


def test_a_bankrupt_players_card_refuses_input_at_once(table: Table) -> None:
    table.start("Anna", "Ben", "Cem", edition="classic")
    assert table.ledger.submit({"op": "bankrupt", "player": "Cem"}).ok
    table.bank.refresh()
    table.tap("Cem")
    assert table.bank.state is not State.CARD
    assert "BANKROTT" in table.text()


# -- The independent review's findings (REVIEW.md) -------------------------------------------------


def test_2_bankruptcy_from_a_refused_payment_goes_to_its_creditor_only(table: Table) -> None:
    """Seed 000: "Der Mitspieler, dem Sie mehr Geld schulden, als Sie noch bezahlen können, erhält von Ihnen: das
    gesamte Guthaben …" — Ben cannot pay Anna 20M: the bankruptcy is to Anna, with no list to choose the bank."""
    table.start("Anna", "Ben")
    table.tap("Ben")
    table.press("SOLL")
    table.type("20")
    table.press("K", "K")
    table.tap("Anna")
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    table.choose("Bankrott")
    scene = table.bank.scene
    assert isinstance(scene, ConfirmScene), table.text()
    assert scene.cmd["creditor"] == "Anna" and "an Anna" in table.text()
    table.press("DOWN", "OK")
    assert in_play(table.ledger).players["Ben"].bankrupt
    assert table.cash("Anna") == 30_000_000


def test_2_after_a_refused_an_alle_zahlen_the_estate_goes_to_the_bank(table: Table) -> None:
    """Seed 000 names one creditor ("Der Mitspieler, dem Sie … schulden") or the bank ("Schulden bei der Bank": the
    deeds are auctioned). Owed to every player at once, no one of them may take all: the bank takes the estate,
    and the debt is the whole sum (each player's share times the players)."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.tap("Ben")
    table.press("MENU", "8")
    table.choose("An alle zahlen")
    table.type("1000")
    table.press("OK")
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    table.choose("Bankrott")
    scene = table.bank.scene
    assert isinstance(scene, ConfirmScene), table.text()
    assert "creditor" not in scene.cmd and "an die Bank" in table.text()
    assert scene.cmd.get("owed", 2000) == 2000


def test_1_a_refused_von_allen_kassieren_offers_the_payers_bankruptcy(table: Table) -> None:
    """Seed 000: bankrupt is "einer, der mehr schuldet als er bezahlen kann" — Ben (100) cannot pay Anna's 200:
    OK raises money for Ben (here: nothing to raise, so his bankruptcy to Anna), never Anna's own deeds."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "debit", "player": "Ben", "amount": 1400}).ok
    assert table.ledger.submit({"op": "buy", "player": "Anna", "square": 39}).ok
    table.bank.refresh()
    table.tap("Anna")
    table.press("MENU", "8")
    table.choose("Von allen kassieren")
    table.type("200")
    table.press("OK")
    assert "ZU WENIG GELD" in table.text() and "OK: Geld beschaffen" in table.text()
    table.press("OK")
    assert "Hypothek" not in table.text()
    table.choose("Bankrott")
    scene = table.bank.scene
    assert isinstance(scene, ConfirmScene) and scene.cmd["player"] == "Ben" and scene.cmd["creditor"] == "Anna"


def test_3_storno_undoes_the_bankruptcy_that_ended_the_game(table: Table) -> None:
    """The bankruptcy's confirm promises "Storno hebt es auf": after the end it ended, MENU 4 still offers Storno."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("SOLL")
    table.type("2000")
    table.tap("Ben")
    table.press("OK")
    table.choose("Bankrott")
    assert "Storno hebt es auf" in table.text()
    table.press("OK")
    assert in_play(table.ledger).finished
    table.press("C", "MENU", "4")
    assert isinstance(table.bank.scene, ConfirmScene) and table.bank.scene.cmd["op"] == "undo", table.text()
    table.press("OK")
    game = in_play(table.ledger)
    assert not game.finished and not game.players["Anna"].bankrupt and table.cash("Anna") == 1500
    table.tap("Anna")
    assert "Anna" in table.text() and "1500" in table.text()


# -- The device's side of the rules' new bookings, of missing parts and of the box's own Wi-Fi ---------


def _cem_broke_with_a_mortgaged_deed(table: Table, *, ben_cash: int) -> None:
    """Schalke (seed 003 has the 10 %): Cem holds the last street, mortgaged, and no cash; Ben has ``ben_cash``."""
    table.start("Anna", "Ben", "Cem", edition="schalke")
    table.book({"op": "buy", "player": "Cem", "square": 39}, {"op": "mortgage", "player": "Cem", "square": 39},
          {"op": "debit", "player": "Cem", "amount": 1300}, {"op": "debit", "player": "Ben", "amount": 1500 - ben_cash})


def _bankrupt_to_ben(table: Table) -> None:
    """Cem owes Ben 100 and cannot pay: ZU WENIG GELD, OK: Geld beschaffen, Bankrott to Ben."""
    table.tap("Cem")
    table.press("SOLL")
    table.type("100")
    table.tap("Ben")
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    table.choose("Bankrott")
    assert "Ben löst gleich auf:" in table.text()  # the mortgaged deed Ben receives: lift it at once, or not
    table.press("OK")  # "Fertig" is preselected: nothing lifted, the 10 %


def test_the_bankruptcys_confirm_shows_the_10_percent_the_creditor_pays(table: Table) -> None:
    """Seed 001: "Erhält ein Gläubiger … ein mit einer Hypothek belastetes Grundstück, so muss er sofort … 10 %
    Zinsen an die Bank bezahlen" — the confirm shows the rules' note, and that Storno undoes it."""
    _cem_broke_with_a_mortgaged_deed(table, ben_cash=500)
    _bankrupt_to_ben(table)
    assert isinstance(table.bank.scene, ConfirmScene)
    lines = table.text().splitlines()
    assert lines[:2] == ["OK bucht, C zurück ↓", "Bankrott"] and "10 % an Bank: 20" in lines
    assert "Storno hebt es auf" in lines


def test_the_bankruptcys_confirm_shows_what_stays_owed_to_the_bank(table: Table) -> None:
    """A creditor who cannot pay the 10 % owes it to the bank: the confirm says so before OK."""
    _cem_broke_with_a_mortgaged_deed(table, ben_cash=1)
    _bankrupt_to_ben(table)
    lines = table.text().splitlines()
    assert "offen an Bank: 19" in lines or "offen an Bank: 20" in lines
    assert "Storno hebt es auf" in lines


def _ben_owes_the_bank(table: Table) -> None:
    _cem_broke_with_a_mortgaged_deed(table, ben_cash=1)
    _bankrupt_to_ben(table)
    table.press("OK")
    assert in_play(table.ledger).players["Ben"].debt == 20
    table.tones()


def _more_menu(table: Table, player: str) -> list[str]:
    table.press("C", "C", "C")
    table.tap(player)
    table.press("MENU")
    return table.labels()


def test_a_debt_to_the_bank_is_paid_from_the_menu(table: Table) -> None:
    """Seed 003: the creditor "muss sofort … 10 % Zinsen an die Bank bezahlen"; who could not owes it:
    Menü 0 (Mehr) → Schuld zahlen, the rules' preview, OK books ``pay_debt``."""
    _ben_owes_the_bank(table)
    table.book({"op": "credit", "player": "Ben", "amount": 100})
    _more_menu(table, "Ben")
    table.press("0")
    assert "Schuld zahlen" in table.labels()
    table.choose("Schuld zahlen")
    assert isinstance(table.bank.scene, ConfirmScene) and shown(table.bank.scene.cmd) == {"op": "pay_debt", "player": "Ben"}
    assert "20" in table.text()
    table.press("OK")
    assert in_play(table.ledger).players["Ben"].debt == 0 and table.cash("Ben") == 81


def test_while_a_debt_is_open_the_menu_offers_no_other_payment(table: Table) -> None:
    """Rules: a player who owes the bank pays nothing else first (``debt_open``): the menu offers none of it."""
    _ben_owes_the_bank(table)
    table.book({"op": "credit", "player": "Ben", "amount": 1000})
    labels = _more_menu(table, "Ben")
    for label in ("Kaufen", "Miete zahlen", "Steuer", "Bauen", "Hypothek"):
        assert label not in labels
    assert "Mehr" in labels
    assert "Schuld zahlen" not in _more_menu(table, "Anna")


def test_schuld_zahlen_keeps_the_digits_of_the_other_entries() -> None:
    """Property 6: a new entry takes a digit no other entry had; Frei Parken stays MENU 0 1."""
    from device.scenes.flows import PLAYER_MENU

    more = next(e for e in PLAYER_MENU if e.digit == "0")
    assert [f.label for f in more.flows][:3] == ["Frei Parken", "Storno", "Rangliste"]
    assert {"Schuld zahlen", "Bauversteigerung"} <= {f.label for f in more.flows}


def test_a_debt_that_a_mortgage_covers_offers_the_mortgage_not_bankruptcy(table: Table) -> None:
    """Seed 000: bankrupt is "einer, der mehr schuldet als er bezahlen kann": Schuld zahlen refused for want of
    cash leads to Hypothek, and Bankrott stays off while a mortgage would pay the 20 owed."""
    table.start("Anna", "Ben", "Cem", edition="schalke")
    table.book({"op": "buy", "player": "Ben", "square": 1}, {"op": "buy", "player": "Cem", "square": 39},
          {"op": "mortgage", "player": "Cem", "square": 39}, {"op": "debit", "player": "Cem", "amount": 1300},
          {"op": "debit", "player": "Ben", "amount": 1439})
    _bankrupt_to_ben(table)
    table.press("OK")
    assert in_play(table.ledger).players["Ben"].debt == 20
    _more_menu(table, "Ben")
    table.press("0")
    table.choose("Schuld zahlen")  # the rules' preview refuses at once: the result, not a confirm
    assert "ZU WENIG GELD" in table.text()
    table.press("OK")
    assert [label.split(" (")[0] for label in table.labels()] == ["Hypothek"]


def test_the_creditor_may_lift_a_mortgage_from_a_bankruptcy_at_once(table: Table) -> None:
    """Seeds 001/003/004: "Der Mitspieler muss sofort für jedes belastete Grundstück … 10 % Zinsen an die
    Bank bezahlen. Dies gilt auch dann, wenn er die Hypothek zu diesem Zeitpunkt noch nicht auflösen möchte" — lifting
    at once costs the mortgage plus the 10 % once (Schlossallee: 200 + 20 = 220), not the 10 % and later 220 again."""
    _cem_broke_with_a_mortgaged_deed(table, ben_cash=500)
    table.tap("Cem")
    table.press("SOLL")
    table.type("100")
    table.tap("Ben")
    table.press("OK")
    table.choose("Bankrott")
    table.choose("39 Schlossallee: 220")  # marked; lifting it costs the mortgage and 10 %
    table.choose("Fertig")
    assert isinstance(table.bank.scene, ConfirmScene) and table.bank.scene.cmd["lift"] == [39]
    table.press("OK")
    state = in_play(table.ledger)
    assert state.deeds[39].owner == "Ben" and not state.deeds[39].mortgaged
    assert state.players["Ben"].cash == 500 - 220
