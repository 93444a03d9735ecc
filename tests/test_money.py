"""The card reader's notation (seed 000, "DER BANKKARTENLESER") and typed amounts."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from told import told

from rules import EDITIONS, BadCommand, format_money, parse_amount, reader_text

BANKING = EDITIONS["banking"]
CLASSIC = EDITIONS["classic"]


@pytest.mark.parametrize(
    ("amount", "text"),
    [(100_000, "100K"), (1_000_000, "1M"), (2_500_000, "2.5M"), (15_000_000, "15M"), (500_000, "500K"),
     (10_000, "10K"), (1_230_000, "1.23M"), (20_000_000, "20M"), (0, "0")],
)
def test_reader_shows_at_most_five_characters_exactly(amount: int, text: str) -> None:
    """"100.000 wird als 100K angezeigt, 1.000.000 als 1M" – at most 5 characters."""
    shown = reader_text(amount, BANKING)
    assert shown.text == text and shown.exact


def test_amount_too_long_for_five_characters_is_rounded_down_and_flagged() -> None:
    """12,340,000 needs 6 characters: the reader shows 12.3M, never more money than there is."""
    shown = reader_text(12_340_000, BANKING)
    assert (shown.text, shown.exact) == ("12.3M", False)
    assert len(reader_text(123_456_789, BANKING).text) <= 5


def test_one_unit_editions_show_plain_digits() -> None:
    assert reader_text(1500, CLASSIC).text == "1500"
    assert reader_text(123_456, CLASSIC) .text == "123K"


@pytest.mark.parametrize(("typed", "amount"), [("2.5M", 2_500_000), ("500K", 500_000), ("15M", 15_000_000),
                                               ("2,5m", 2_500_000), ("1.25M", 1_250_000), ("10K", 10_000)])
def test_banker_types_amounts_with_k_and_m(typed: str, amount: int) -> None:
    assert parse_amount(typed, BANKING) == amount


def test_one_unit_editions_take_plain_digits() -> None:
    assert parse_amount("200", CLASSIC) == 200


@pytest.mark.parametrize("typed", ["", "M", "2..5M", "2.5", "abc", "1.2345678M", "2.M", "-5K"])
def test_malformed_entries_are_refused_in_german(typed: str) -> None:
    with pytest.raises(BadCommand) as err:
        parse_amount(typed, BANKING)
    assert err.value.code == "bad_command" and told(err)


def test_banking_entry_without_unit_is_refused() -> None:
    """The banking reader knows K and M; a bare number is ambiguous."""
    with pytest.raises(BadCommand) as err:
        parse_amount("200", BANKING)
    assert "K oder M" in told(err)


def test_german_text_uses_the_decimal_comma() -> None:
    assert format_money(1_200_000, BANKING) == "1,2M"
    assert format_money(500_000, BANKING) == "500K"
    assert format_money(193, CLASSIC) == "193"


@pytest.mark.parametrize(("amount", "text"), [(15_025_000, "15,025M"), (15_045_000, "15,045M"), (1_005_000, "1,005M"),
                                              (15_010_000, "15,01M"), (1_500, "1,5K"), (0, "0"),
                                              (-2_345_000, "-2,345M")])
def test_an_exact_amount_reads_in_millions_with_the_decimal_comma(amount: int, text: str) -> None:
    """Banking's exact amount is "15,025M" beside the reader's "15M", as elsewhere
    "15,01M" – never thousands of K ("15025K")."""
    assert format_money(amount, BANKING) == text


@given(st.integers(min_value=1, max_value=10**10), st.sampled_from(["banking", "classic"]))
def test_every_amount_in_german_text_reads_back_exactly_with_the_comma(amount: int, key: str) -> None:
    """One German format for money: the text is the exact amount as the banker would type it, its decimals
    after a comma, never a dot, and in Banking never thousands of K."""
    edition = EDITIONS[key]
    text = format_money(amount, edition)
    assert "." not in text and parse_amount(text, edition) == amount
    if edition.km_notation:
        assert text.endswith("M") == (amount >= 1_000_000) and text.endswith("K") == (amount < 1_000_000)
