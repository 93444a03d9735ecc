"""Where the books are silent or disagree, decided once. Each test is a row of docs/rules.md's table
"Wo die Regeln schweigen", and quotes what the books do say."""

from __future__ import annotations

from pathlib import Path

import pytest
from told import told

from conftest import apply, cash, give, refused, start
from rules import EDITIONS, Game, reader_text, winners
from rules.legal import building_auction_min, legal_squares, square_ops


def build_to(game: Game, owner: str, squares: tuple[int, ...], steps: int) -> None:
    for _ in range(steps):
        for sq in squares:
            apply(game, op="build", player=owner, square=sq)


# -- the bankruptcy fee in Banking and classic ---------------------------------------------------


@pytest.mark.parametrize("edition", ["banking", "classic"])
def test_banking_and_classic_creditors_pay_no_fee_on_mortgaged_deeds_from_a_bankruptcy(edition: str) -> None:
    """Seed 000 "Schulden bei einem Mitspieler": the creditor "erhält … Ihre gesamten Besitzrecht-Karten" – no
    10 % (only seeds 001, 003, 004 charge it; seed 000 charges it on a sale between players only)."""
    game = start(edition, players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 37)
    apply(game, op="mortgage", player="Anna", square=37)
    before = cash(game, "Ben") + cash(game, "Anna")
    event = apply(game, op="bankrupt", player="Anna", creditor="Ben")
    assert cash(game, "Ben") == before and "Zinsen" not in told(event, game)


@pytest.mark.parametrize("edition", ["classic-uk", "classic-us"])
def test_the_english_boards_charge_the_creditor_10_percent_on_mortgaged_deeds_from_a_bankruptcy(edition: str) -> None:
    """The English rules (Bankruptcy): "the new owner must at once pay the Bank the amount of interest on the loan,
    which is 10% of the value of the property": an English board plays the English book, not the German classic's."""
    assert EDITIONS[edition].bankruptcy_mortgage_fee
    game = start(edition, players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 37)
    apply(game, op="mortgage", player="Anna", square=37)
    before = cash(game, "Ben") + cash(game, "Anna")
    apply(game, op="bankrupt", player="Anna", creditor="Ben")
    fee = before - cash(game, "Ben")
    assert fee == -(-EDITIONS[edition].deed(37).mortgage // 10)  # 10 % of Park Lane's 175, rounded up: 18


# -- the quick game's hotels -------------------------------------------------------------------


def quick_hotels() -> Game:
    game = start("banking", "quick", deal={"Anna": [1, 3], "Ben": [37, 39]})
    build_to(game, "Anna", (1, 3), 4)  # 3 Apartments each, then the hotel
    return game


def test_a_quick_game_hotel_turns_back_into_three_houses() -> None:
    """Seed 000 Schnellspiel: "nur 3 Apartments … bauen, bevor ein Hotel errichtet werden darf"; the hotel
    replaced 3, so 3 come back ("Dafür verkaufen Sie ein Hotel zum halben Kaufpreis … und erhalten zusätzlich
    4 Apartments" counts the standard game's 4)."""
    game = quick_hotels()
    assert game.state is not None
    houses = game.state.bank_houses
    apply(game, op="sell_building", player="Anna", square=1, to_houses=True)
    assert game.state.deeds[1].houses == 3 and game.state.bank_houses == houses - 3


def test_no_fourth_house_in_the_quick_game_the_fourth_step_is_the_hotel() -> None:
    """ "nur 3 Apartments auf einer vollständigen Farbgruppe bauen, bevor ein Hotel errichtet werden darf": the
    net worth counts a hotel as "3 Apartments" plus the hotel, so a street never holds 4."""
    game = start("banking", "quick", deal={"Anna": [1, 3], "Ben": [37, 39]})
    build_to(game, "Anna", (1, 3), 3)
    apply(game, op="build", player="Anna", square=1)
    assert game.state is not None and game.state.deeds[1].hotel and game.state.deeds[1].houses == 0


# -- a hotel sold whole ---------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["banking", "classic"])
def test_a_hotel_sold_whole_may_leave_four_houses_beside_an_empty_street(edition: str) -> None:
    """Seed 000 "Hotels verkaufen": "Der Bankhalter zahlt den halben Preis für das Hotel plus den halben Preis
    für die 4 Apartments" – the houses go with it, whatever stands next door. Building again starts at the
    lowest street, selling at the highest ("Apartments müssen genauso gleichmäßig verkauft werden")."""
    game = start(edition)
    give(game, "Anna", 1, 3)
    apply(game, op="credit", player="Anna", amount=EDITIONS[edition].max_entry)
    build_to(game, "Anna", (1, 3), 4)
    apply(game, op="build", player="Anna", square=1)  # the hotel
    apply(game, op="sell_building", player="Anna", square=1)
    state = game.state
    assert state is not None and state.deeds[1].houses == 0 and not state.deeds[1].hotel
    assert state.deeds[3].houses == 4
    refused(game, "uneven_building", op="build", player="Anna", square=3)
    apply(game, op="sell_building", player="Anna", square=3)


# -- ties ---------------------------------------------------------------------------------------


def test_equal_net_worth_at_the_end_is_a_shared_win() -> None:
    """Seed 000 MONOPOLY AUF ZEIT: "gewinnt der Spieler, der … das größte Vermögen angehäuft hat"; the books
    name no tie-break, so equal Vermögen is a shared win. ``winner`` (the contract has one name) is the first
    of them by cash, then seat."""
    game = start("classic", "timed", players=("Anna", "Ben", "Cem"), minutes=60)
    apply(game, op="debit", player="Cem", amount=1)
    apply(game, op="end")
    assert game.state is not None
    assert game.state.winner == "Anna" and winners(game.state) == ["Anna", "Ben"]


def test_equal_net_worth_with_more_cash_is_still_a_shared_win() -> None:
    """The book's "Vermögen" counts deeds like cash; cash only orders the names."""
    game = start("classic", "timed", minutes=60)
    give(game, "Ben", 39)
    apply(game, op="debit", player="Ben", amount=400)
    apply(game, op="end")
    assert game.state is not None and winners(game.state) == ["Anna", "Ben"] and game.state.winner == "Anna"


def test_the_bestenliste_counts_a_shared_win_for_each(tmp_path: Path) -> None:
    from device.store.history import History
    from device.store.journal import Journal
    from device.store.ledger import Ledger

    ledger = Ledger(Journal(tmp_path / "journal.sqlite3"))
    for cmd in ({"op": "new_game", "edition": "classic", "mode": "timed", "players": ["Anna", "Ben"], "minutes": 5},
                {"op": "end"}):
        assert ledger.submit(cmd).ok
    rows = {r["name"]: r for r in History(ledger.journal.path).best()}
    assert rows["Anna"]["wins"] == rows["Ben"]["wins"] == 1


# -- the building auction in a shortage ------------------------------------------------------


def shortage_game() -> Game:
    """Anna owns the brown group, Ben the dark blue one; the bank is down to 2 houses."""
    game = start("classic")
    give(game, "Anna", 1, 3)
    give(game, "Ben", 37, 39)
    assert game.state is not None
    game.state.bank_houses = 2
    return game


def test_a_building_auction_in_a_shortage_books_the_winning_bid() -> None:
    """Seed 000: "Wollen zwei oder mehr Spieler eine höhere Anzahl Gebäude kaufen als die Bank zur Verfügung hat,
    werden die vorhandenen Gebäude einzeln an den Meistbietenden versteigert. Als Mindestgebot gilt der
    niedrigste, gedruckte Preis der entsprechenden Besitzrechtkarten." """
    game = shortage_game()
    assert building_auction_min(game, 39) == 50  # Badstraße's house price, the lowest of the bidders' cards
    event = apply(game, op="build_auction", player="Ben", square=39, price=120)
    assert game.state is not None and game.state.deeds[39].houses == 1 and game.state.bank_houses == 1
    assert cash(game, "Ben") == 1380 and "ersteigert" in told(event, game)


def test_a_building_auction_bid_below_the_lowest_printed_price_is_refused() -> None:
    refused(shortage_game(), "amount_out_of_range", op="build_auction", player="Ben", square=39, price=49)


def test_a_building_auction_keeps_the_building_rules() -> None:
    """ "Sie müssen gleichmäßig bauen" holds at an auction too."""
    game = shortage_game()
    apply(game, op="build_auction", player="Ben", square=39, price=50)
    refused(game, "uneven_building", op="build_auction", player="Ben", square=39, price=50)


def test_no_building_auction_without_a_shortage() -> None:
    """ "Wenn die Bank keine Gebäude mehr zu verkaufen hat, müssen die bauwilligen Spieler warten"; with enough
    for everyone, or only one player who can build, a house costs its printed price."""
    game = shortage_game()
    assert game.state is not None
    game.state.bank_houses = 32
    refused(game, "no_shortage", op="build_auction", player="Ben", square=39, price=500)
    game.state.bank_houses = 2
    game.state.deeds[1].owner = None  # only Ben can build now
    refused(game, "no_shortage", op="build_auction", player="Ben", square=39, price=500)
    game.state.bank_houses = 0
    assert building_auction_min(game, 39) is None


def test_no_building_auction_under_the_house_rule_no_auctions() -> None:
    """House rule "keine Versteigerungen": in a shortage the players wait, as seed 000 says for an empty bank
    ("müssen die bauwilligen Spieler warten, bis ein anderer Spieler Gebäude an die Bank zurückgibt")."""
    game = start("classic", house_rules=["no_auctions"])
    give(game, "Anna", 1, 3)
    give(game, "Ben", 37, 39)
    assert game.state is not None
    game.state.bank_houses = 2
    refused(game, "house_rule_off", op="build_auction", player="Ben", square=39, price=500)


def test_the_building_auction_is_on_the_devices_menu_only_in_a_shortage() -> None:
    game = shortage_game()
    assert legal_squares(game, "Ben", "build_auction") == [37, 39]
    assert "build_auction" in square_ops(game, "Ben", 39)  # a deed's tag tapped
    assert game.state is not None
    game.state.bank_houses = 32
    assert legal_squares(game, "Ben", "build_auction") == []


def test_hotels_are_auctioned_in_a_hotel_shortage() -> None:
    game = start("classic")
    give(game, "Anna", 1, 3)
    give(game, "Ben", 37, 39)
    apply(game, op="credit", player="Ben", amount=2000)
    build_to(game, "Anna", (1, 3), 4)
    build_to(game, "Ben", (37, 39), 4)
    assert game.state is not None
    game.state.bank_hotels = 1
    assert building_auction_min(game, 39) == 50
    apply(game, op="build_auction", player="Ben", square=39, price=300)
    assert game.state.deeds[39].hotel and game.state.bank_hotels == 0


# -- amounts, players, auctions ------------------------------------------------------------------


def test_a_banking_amount_that_does_not_fit_five_characters_is_shown_rounded_down_and_marked() -> None:
    """Seed 000: "Das Display des Bankkartenlesers kann nur maximal 5 Zeichen anzeigen." 1,234,567 is booked
    exactly; the display shows 1.23M, marked inexact (≈ on the OLED, the full amount beneath)."""
    game = start("banking")
    apply(game, op="credit", player="Anna", amount=1_234_567)
    assert cash(game, "Anna") == 16_234_567
    shown = reader_text(1_234_567, EDITIONS["banking"])
    assert (shown.text, shown.exact) == ("1.23M", False)


def test_banking_takes_up_to_eight_players() -> None:
    """Seed 000 has 6 bank cards ("Bei mehr als fünf Spielern kann der Bankhalter wählen, ob er mitspielt");
    the appliance brings its own cards, so every edition takes 2 to 8."""
    names = tuple(f"P{i}" for i in range(8))
    game = start("banking", players=names)
    assert game.state is not None and len(game.state.players) == 8


@pytest.mark.parametrize("edition", ["schalke", "sonic", "skylanders"])
def test_bankruptcy_to_the_bank_returns_every_deed_mortgage_free_for_the_auction(edition: str) -> None:
    """Seed 001: "Schulden bei der Bank: Ihre sämtlichen Grundstücke, die mit einer Hypothek belastet sind,
    werden sofort vom Bankhalter versteigert. Nach der Versteigerung sind sie hypothekenfrei". The book names
    the mortgaged ones; the unmortgaged deeds go back too (seed 000: "Die Besitzrecht-Karten werden an die
    Bank zurückgegeben"). The auction is a `buy` with the winning `price`; unsold, a deed stays the bank's."""
    game = start(edition, players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 37, 39)
    apply(game, op="mortgage", player="Anna", square=37)
    apply(game, op="bankrupt", player="Anna")
    state = game.state
    assert state is not None and all(state.deeds[sq].owner is None and not state.deeds[sq].mortgaged
                                     for sq in (37, 39))
    apply(game, op="buy", player="Ben", square=37, price=1)
    assert state.deeds[37].owner == "Ben" and not state.deeds[37].mortgaged


def test_a_classic_auction_bid_of_zero_is_refused() -> None:
    """Seed 002: "Die Versteigerung beginnt mit dem (beliebigen) Betrag, den irgendein Spieler zu zahlen bereit
    ist": 0 is no payment, and the bank gives nothing away; the lowest bid is 1, as seeds 001/003/004 say."""
    message = refused(start("classic"), "amount_out_of_range", op="buy", player="Ben", square=39, price=0)
    assert "mindestens 1" in message
    apply(start("classic"), op="buy", player="Ben", square=39, price=1)


@pytest.mark.parametrize("edition", ["classic", "schalke", "sonic"])
def test_classic_schalke_and_sonic_play_the_banking_schnellspiel(edition: str) -> None:
    """They have no quick game of their own; seed 000's Schnellspiel: "teilt an jeden Spieler 2 Karten aus … Der
    aufgedruckte Preis wird sofort … an die Bank gezahlt", 3 houses to a hotel, "Sobald der zweite Spieler
    bankrott ist, ist das Spiel zu Ende"."""
    game = start(edition, "quick", players=("Anna", "Ben", "Cem"), deal={"Anna": [1, 3], "Ben": [37, 39],
                                                                         "Cem": [5, 6]})
    state = game.state
    assert state is not None and state.houses_per_hotel == 3
    assert cash(game, "Anna") == 1500 - 120 and cash(game, "Ben") == 1500 - 750
    apply(game, op="bankrupt", player="Cem", creditor="Anna")
    assert not state.finished
    apply(game, op="bankrupt", player="Ben", creditor="Anna")
    assert state.finished and state.winner == "Anna"


def test_every_row_of_the_table_names_a_test_that_exists() -> None:
    """docs/rules.md "Wo die Regeln schweigen": each decision names its test; a renamed test breaks the row."""
    import re

    root = Path(__file__).resolve().parent
    doc = (root.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    table = doc.split("## Wo die Regeln schweigen", 1)[1]
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| question")]
    assert len(rows) >= 15
    for row in rows:
        last = row.rstrip(" |").rsplit("|", 1)[1]
        names = re.findall(r"`([\w.]*)(?:::)?(\w*)`", last)
        assert names, row
        current = ""
        for file, test in names:
            if file.endswith(".py"):
                current = file
            source = (root / current).read_text(encoding="utf-8")
            if test:
                assert f"def {test}(" in source, (current, test)
