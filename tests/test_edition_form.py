"""The edition form speaks form: each problem names its field as the form labels it, in the family's words (no
line, no TOML key, no "[short]"), and numbers are read as the page's language writes them ("1.500" is 1500 in
German; "12,5" where a whole number is needed is refused, never shifted to 125)."""

from __future__ import annotations

from typing import Any

import pytest
from babel.numbers import NumberFormatError, parse_decimal
from flask.testing import FlaskClient
from hypothesis import example, given, settings
from hypothesis import strategies as st
from profiles import examples

from daemon_fixture import PIN, web_client
from device.daemon.service import Daemon
from webui.edition_form import whole_number


@pytest.fixture
def client(daemon: Daemon) -> FlaskClient:
    return web_client(daemon)


def check(client: FlaskClient, data: dict[str, Any]) -> dict[str, Any]:
    csrf = client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    answer: dict[str, Any] = client.post("/api/admin/editions/check", json={"data": data},
                                         headers={"X-CSRF-Token": csrf}).get_json()
    return answer


def form(**given: Any) -> dict[str, Any]:
    return {"key": "hamburg", "title": "MONOPOLY Hamburg", "base": "classic", **given}


@pytest.mark.parametrize(("typed", "language", "read"), [
    ("1.500", "de", 1500), ("1500", "de", 1500), (" 1500 ", "de", 1500), ("1 500", "de", "1 500"),
    ("1.500.000", "de", 1_500_000),
    ("12,5", "de", "12,5"), ("1.50", "de", "1.50"), ("12,50", "de", "12,50"), ("-200", "de", -200),
    ("1,500", "en", 1500), ("12.5", "en", "12.5"), ("1.500", "en", "1.500"), ("12,5", "en", "12,5"),
    ("", "de", ""), ("zwölf", "de", "zwölf"),
])
def test_a_whole_number_is_read_as_the_language_writes_it_and_a_fraction_is_never_shifted(
        typed: str, language: str, read: int | str) -> None:
    assert whole_number(typed, language) == read


@settings(max_examples=examples(300), deadline=None)
@given(typed=st.text(alphabet="0123456789.,- ", max_size=9), language=st.sampled_from(("de", "en")))
@example(typed="0.500", language="de")  # half, written the English way on a German page: never 500
@example(typed="0,250", language="en")
@example(typed="01.500", language="de")
def test_a_number_the_form_reads_is_the_number_babel_reads_strictly(typed: str, language: str) -> None:
    """CLDR's strict reading (Babel's ``parse_decimal(strict=True)``) is the oracle: whatever the form reads as a
    whole number, Babel reads as that number; what Babel doubts (a group that starts with 0, "0.500") the form
    leaves as typed, for the check to refuse. The form may refuse more than Babel ("12,0"), never read more."""
    read = whole_number(typed, language)
    if isinstance(read, int):
        try:
            assert parse_decimal(typed.strip(), locale=language, strict=True) == read
        except NumberFormatError as err:
            raise AssertionError(f"{typed!r} read as {read} in {language}; Babel: {err}") from err


def test_the_form_reads_german_numbers_and_refuses_a_fraction_naming_the_field(client: FlaskClient) -> None:
    fine = check(client, form(salary="1.500", deeds={"39": {"price": "4.000", "rents": "500, 2.000, 6.000, 14.000, "
                                                             "17.000, 20.000"}}))
    assert fine["ok"] is True, fine
    bad = check(client, form(salary="12,5"))
    [problem] = bad["problems"]
    assert problem["path"] == "salary" and problem["code"] == "editions.problem.type"
    assert problem["message"].startswith("Gehalt auf LOS: ") and "12,5" in problem["message"]
    assert "125" not in problem["text"]


def test_the_forms_problems_name_the_field_never_a_line_or_a_toml_key(client: FlaskClient) -> None:
    answer = check(client, form(names={"37": "Parkstraße am Jungfernstieg Nord"}, currency="Hanse-Taler der Freien"))
    said = {p["path"]: p for p in answer["problems"]}
    short = said["names.37"]
    assert short["line"] is None and short["code"] == "editions.problem.name_needs_short"
    assert short["text"].startswith("Feld 37 (Parkstraße am Jungfernstieg Nord), Name: ")
    assert said["currency"]["message"].startswith("Währung: ") and said["currency"]["code"] == \
        "editions.problem.length_most"
    for p in answer["problems"]:
        assert "[short]" not in p["text"] and "Zeile" not in p["text"] and "names.37" not in p["text"], p["text"]


@pytest.mark.parametrize(("typed", "read"), [
    ("50, 200, 600", [50, 200, 600]), ("50 200 600", [50, 200, 600]), ("1.500; 2.000", [1500, 2000]),
    ("2,10,30", "2,10,30"), ("50, 12,5", "50, 12,5"),
])
def test_rents_are_read_as_typed_in_german_never_joined_or_shifted(typed: str, read: list[int] | str) -> None:
    from webui.edition_form import read_numbers

    assert read_numbers({"deeds": {"39": {"rents": typed}}}, "de")["deeds"]["39"]["rents"] == read


def test_a_rents_field_of_words_says_how_to_write_rents(client: FlaskClient) -> None:
    answer = check(client, form(deeds={"39": {"rents": "fünfzig"}}))
    [problem] = answer["problems"]
    assert problem["path"] == "deeds.39.rents" and "[" not in problem["text"] and "2, 10, 30" in problem["text"]


def test_an_english_page_reads_english_numbers(client: FlaskClient) -> None:
    csrf = client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    assert client.post("/api/admin/language", json={"language": "en"}, headers={"X-CSRF-Token": csrf}).status_code == 200
    assert check(client, form(salary="1,500"))["ok"] is True
    [problem] = check(client, form(salary="12.5"))["problems"]
    assert problem["path"] == "salary" and problem["message"].startswith("Salary")


def test_the_form_cuts_no_text_silently() -> None:
    """The currency (20 characters), a title and a name were cut by the page's maxlength without a word; the
    check now says the limit."""
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "webui" / "templates" / "editions.html").read_text()
    assert "maxlength" not in page and 'type="number"' not in page


def test_a_hint_of_the_cross_check_is_a_note_on_the_form_never_a_problem(client: FlaskClient) -> None:
    """A typo the cross-check suspects ("18 statt 16 wie in classic: ein Tippfehler?") is a "Hinweis": the form
    saves it and draws it muted, unlike a problem, so a family does not hunt for an error that is none."""
    answer = check(client, form(deeds={"19": {"rents": "18, 80, 220, 600, 800, 1.000"}}))
    assert answer["ok"] is True and answer["problems"] == []
    [hint] = answer["warnings"]
    assert hint["path"] == "deeds.19.rents" and hint["note"] is True and hint["line"] is None
    assert hint["message"].startswith("Mieten: ") and "Zeile" not in hint["text"]
