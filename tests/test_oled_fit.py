"""Every text fits, with its key fact first: every OLED message of the ``rules`` and ``scenes``
catalogues, in every language, at its longest values, measured with the shipped font; and the evening's
first-screen findings, each as the banker met it at the device.

The machinery is in ``oled_fit.py``; the tests at the end prove that it catches what it is meant to catch.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oled_fit import (
    FAMILY_NAMES,
    FAMILY_SHORT,
    NAMED,
    OLED_DOMAINS,
    PLAYERS,
    Message,
    catalogue_path,
    check,
    editions,
    fact_problems,
    family_edition,
    first_rows,
    layout_problems,
    oled_messages,
    open_brackets,
    pinned_keys,
    read_catalogue,
    render,
    screen_problems,
    summary,
    values,
    where_shown,
)
from ui_table import Table

import words
from drivers.display import font
from drivers.display import render as draw
from drivers.panel import WIDTH
from rules import EDITIONS, square_name
from rules.commands import MAX_PLAYERS
from rules.editions.fileformat import MAX_DISPLAY_NAME, MAX_SQUARE_NAME, MAX_WORD
from rules.names import MAX_NAME
from rules.phrase import phrase


def shown_problems(table: Table, *facts: str, atoms: tuple[str, ...] = ()) -> list[str]:
    return screen_problems(table.screen(), facts, atoms)


# The evening's findings: each key fact on the first screen, as drawn at the device ---------------------

def test_a_mortgage_names_its_street_on_the_first_screen(table: Table) -> None:
    """ "Anna nimmt eine / Hypothek auf:" — the street was below the first view."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.book({"op": "buy", "player": "Anna", "square": 39})
    table.tap("Anna")
    table.press("MENU", "7", "1")
    table.choose("39 Schlossallee")
    assert shown_problems(table, "Anna", "Schlossallee", "200") == []


def test_a_mortgage_lifted_names_its_street_on_the_first_screen(table: Table) -> None:
    """ "Hypothek zurück:" — the same: which street, below."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.book({"op": "buy", "player": "Anna", "square": 39}, {"op": "mortgage", "player": "Anna", "square": 39})
    table.tap("Anna")
    table.press("MENU", "7", "2")
    table.choose("39 Schlossallee")
    assert shown_problems(table, "Anna", "Schlossallee", "220") == []


def test_a_building_says_which_and_what_it_costs_on_the_first_screen(table: Table) -> None:
    """ "Ben baut auf / Chausseestraße: 1" — which building and what it costs were below."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.book(*[{"op": "buy", "player": "Ben", "square": sq} for sq in (6, 8, 9)])
    table.tap("Ben")
    table.press("MENU", "5")
    table.choose(" 6 Chausseestraße")
    assert shown_problems(table, "Ben", "Chausseestraße", "Haus", "50") == []


def test_a_rent_says_who_pays_whom_for_which_street_and_buildings(table: Table) -> None:
    """ "Cem zahlt Ben Miete / für Poststraße (2" — the buildings that set the rent cut at the screen's edge."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.book(*[{"op": "buy", "player": "Ben", "square": sq} for sq in (6, 8, 9)],
               *[{"op": "build", "player": "Ben", "square": sq} for sq in (6, 8, 9, 9)])
    table.tap("Cem")
    table.press("MENU", "2")
    table.choose(" 9 Poststraße")
    assert shown_problems(table, "Cem", "Ben", "Poststraße", "100", atoms=("2 Häuser",)) == []


def test_a_hotel_traded_back_says_on_which_street(table: Table) -> None:
    """ "Ben tauscht das / Schloss auf" — the street below (what comes back is the detail)."""
    ed = EDITIONS["skylanders"]
    table.start("Anna", "Ben", edition="skylanders")
    table.book({"op": "credit", "player": "Ben", "amount": 2000},
               *[{"op": "buy", "player": "Ben", "square": sq} for sq in (37, 39)],
               *[{"op": "build", "player": "Ben", "square": sq} for _ in range(5) for sq in (37, 39)])
    table.tap("Ben")
    table.press("MENU", "6")
    table.choose(f"39 {square_name(ed, 39)}")
    table.press("OK")  # "zurück in Hütten"
    assert shown_problems(table, "Ben", "Schloss", square_name(ed, 39)) == []


def test_a_bid_refused_says_what_the_bidder_has_and_bid(table: Table) -> None:
    """ "das Gebot: Cem hat" — how much Cem has, and bid, below the first view."""
    table.start("Anna", "Ben", "Cem", edition="classic")
    table.book({"op": "debit", "player": "Cem", "amount": 1400})
    table.tap("Cem")
    table.press("MENU", "1")
    table.choose("39 Schlossallee")
    table.choose("Auktion: Gebot")
    table.type("1000")
    table.press("OK")
    assert "ZU WENIG GELD" in table.text()
    assert shown_problems(table, "Cem", "100", "1000") == []


def asking_to_undo_a_new_sonic_game(table: Table) -> None:
    """A classic game replaced by a new Sonic game, and the banker's Storno asked for it."""
    table.start("Anna", "Ben", edition="classic")
    table.press("hold:C")
    table.choose("Ja: ersetzen")
    table.choose("Sonic")
    table.choose("Standard")
    for name in ("Anna", "Ben", "Cem"):
        table.tap(name)
    table.press("OK", "C", "MENU")
    table.choose("Storno")


def test_storno_of_a_new_game_says_which_game(table: Table) -> None:
    """ "Neues Spiel (MONOPOLY / Sonic," — the edition's name broken mid-phrase, its parenthesis closed below."""
    asking_to_undo_a_new_sonic_game(table)
    assert shown_problems(table, "Sonic") == []


def test_a_stornos_result_names_what_it_took_back_on_the_first_screen(table: Table) -> None:
    """The rules' "Storno: {booking}" put the word before the booking's own facts: a rent of 12-letter names had its
    owner below the first view. The result says "Storno" in its title bar, the booking below it whole."""
    table.start("Hans-Joachim", "Marie-Louise", edition="classic")
    table.book({"op": "buy", "player": "Marie-Louise", "square": 12},
               {"op": "rent", "player": "Hans-Joachim", "square": 12, "dice": 7})
    table.press("MENU")
    table.choose("Storno")
    table.press("OK")
    assert table.screen().title == "Storno"
    assert shown_problems(table, "Hans-Joachim", "Marie-Louise", "Elektrizitätswerk") == []


def test_a_storno_of_a_new_game_says_which_game_goes_on(table: Table) -> None:
    """Its result: the previous game, by its edition's whole name, goes on."""
    asking_to_undo_a_new_sonic_game(table)
    table.press("OK")
    assert table.screen().title == "Storno"
    assert shown_problems(table, EDITIONS["classic"].title) == []


# Every message of the catalogues -------------------------------------------------------------------

def _messages() -> list[tuple[str, Message]]:
    return [(code, m) for code in words.LANGUAGES for m in oled_messages(code)]


MESSAGES = _messages()


@pytest.mark.parametrize("code", words.LANGUAGES)
@pytest.mark.parametrize("domain", OLED_DOMAINS)
def test_the_oled_domains_have_their_catalogues(code: str, domain: str) -> None:
    """The fit test below covers what is in the catalogues: each OLED domain has one, in every language."""
    assert catalogue_path(code, domain).exists(), f"{catalogue_path(code, domain)} is not written yet"


@pytest.mark.parametrize("code", words.LANGUAGES)
def test_every_oled_message_declares_its_key_fact(code: str) -> None:
    """(c) ``#. fact: a, b`` / ``#. fact: all`` / ``#. fact: none`` once on every message of the OLED's domains
    (rules, scenes), naming its own placeholders."""
    missing = [f"{m.domain}.po:{m.line} {m.key}" for m in oled_messages(code) if m.fact is None]
    twice = [f"{m.domain}.po:{m.line} {m.key}" for m in oled_messages(code) if m.declared > 1]
    strange = [f"{m.key}: {sorted(set(m.fact) - m.names)}" for m in oled_messages(code)
               if m.fact and m.fact not in (("all",), ("none",)) and set(m.fact) - m.names]
    assert missing == [] and twice == [] and strange == []


@pytest.mark.parametrize(("code", "message"), [pytest.param(c, m, id=f"{c}:{m.key}") for c, m in MESSAGES])
def test_every_oled_message_fits_with_its_key_fact_first(code: str, message: Message) -> None:
    """(a) every line fits the display's width, no word cut; (b) the ``fact:`` values whole on the first screen
    (``all``: the whole text), none cut by its edge; with each edition's longest values and a family's."""
    catalogue = {m.key: m for c, m in MESSAGES if c == code}
    with words.speaking(code):
        found = summary(p for edition in editions().values() for p in check(message, edition, catalogue))
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("code", words.LANGUAGES)
def test_the_texts_checked_are_what_words_say_renders(code: str) -> None:
    """The check formats the ``.po``'s own text (so it can check any text); for the catalogue's messages that is
    exactly what ``words.say`` shows on the OLED."""
    edition, checked = EDITIONS["banking"], 0
    catalogue = {m.key: m for m in oled_messages(code)}
    shown = [m for m in catalogue.values() if m.fact not in (None, ("none",))]
    with words.speaking(code):
        for message in shown:
            try:
                given = values(message, edition, catalogue)
            except KeyError:
                continue  # a placeholder without a kind or fillers: the fit test says which
            checked += 1
            plain = {k: v for k, v in given.items() if k != "n"}
            said = [words.say(phrase(message.key, **plain, n=n), edition) for n in sorted({1, 99})] \
                if message.plural else [words.say(phrase(message.key, **plain), edition)]
            assert render(message, edition, given, catalogue) == said, message.key
    assert checked or not shown


# The values are the longest ---------------------------------------------------------------------------

def test_the_values_are_at_their_limits() -> None:
    """Names of ``MAX_NAME`` characters, as many as may play; a family's square names of ``MAX_SQUARE_NAME`` with
    short names of ``MAX_DISPLAY_NAME``, and the checks measure what the OLED shows (the display names, Skylanders'
    short ones too); the widest building words shipped (a family's are at most ``MAX_WORD``)."""
    assert len(PLAYERS) == MAX_PLAYERS and {len(p) for p in PLAYERS} == {MAX_NAME}
    assert {len(n) for n in FAMILY_NAMES} == {MAX_SQUARE_NAME}
    assert {len(n) for n in FAMILY_SHORT} == {MAX_DISPLAY_NAME}
    assert max(len(w) for n in FAMILY_SHORT for w in n.split()) <= 12  # a line breaks only between words
    family = family_edition()
    widest = max(len(n) for e in EDITIONS.values() for n in e.names)
    assert max(len(n) for n in family.names) == MAX_SQUARE_NAME > widest
    shown = editions()
    assert {key: e.names for key, e in shown.items()} == \
        {**{key: e.short_names for key, e in EDITIONS.items()}, "family": family.short_names}
    assert shown["skylanders"].names[35] == "Schiffstransporte" != EDITIONS["skylanders"].names[35]
    widest_shown = max(len(e.names[sq]) for key, e in shown.items() if key != "family" for sq in NAMED)
    assert max(len(shown["family"].names[sq]) for sq in NAMED) == MAX_DISPLAY_NAME >= widest_shown
    assert family.hotel_word.plural == "Hightech-Anlagen" and len(family.hotel_word.plural) <= MAX_WORD


def test_the_font_is_monospaced_terminus_as_the_display_draws_it() -> None:
    """The measure is the display's own: Terminus 12 px, 6 px a character, 21 characters a body line."""
    small = font(12)
    assert small.getlength("W" * 21) <= WIDTH - 1 < small.getlength("W" * 22)
    assert small.getlength("ÄÖÜß") == small.getlength("iiii")


def test_the_first_screens_are_laid_out_as_the_reader_shows_them() -> None:
    """A confirmation says its keys in the title bar and pins nothing: three rows under the amount; a refusal for
    want of money pins "OK: Geld beschaffen": two; any other refusal pins nothing: three; a list's line is one."""
    assert (first_rows(), first_rows("raise"), first_rows("note"), first_rows("line")) == (3, 2, 3, 1)
    refusals = {"rules.x.short": {"insufficient_funds"}, "rules.x.both": {"insufficient_funds", ""},
                "rules.x.owner": {"not_owner"}, "rules.x.done": {""}}
    assert {key: where_shown(key, (), refusals) for key in refusals} == {
        "rules.x.short": "raise", "rules.x.both": "raise", "rules.x.owner": "note", "rules.x.done": "body"}
    assert where_shown("scenes.confirm.ok", ["oled: keys"]) == "keys"
    assert layout_problems("OK beendet, C zurück", "keys") == [] != layout_problems("OK beendet, C zurück", "title")


# The checks catch what they are meant to --------------------------------------------------------------

def test_a_character_the_font_lacks_is_caught() -> None:
    """Terminus draws a box for what it lacks (an emoji, a CJK sign): the display would show a box."""
    assert layout_problems("Anna würfelt 🎲") != [] and layout_problems("✓ Anna ≈ … „ja“", "title") == []
    assert layout_problems("Gebucht", "big") == []


def test_a_line_too_wide_and_a_word_cut_are_caught() -> None:
    assert layout_problems("Anna zahlt die Donaudampfschifffahrtsgesellschaftskapitänsmütze") != []
    assert layout_problems("Anna zahlt Ben Miete für Poststraße") == []
    assert layout_problems("Marie-Louise verkauft", "title") != []
    assert layout_problems("Hypothek aufnehmen", "title") == []


def test_a_phrase_cut_at_the_first_screens_edge_is_caught() -> None:
    assert open_brackets("Cem zahlt Ben Miete\nfür Poststraße (2", "… (2 Häuser): 100") != []
    assert open_brackets("Cem zahlt Ben 100\nMiete: Poststraße", "… (2 Häuser)") == []


def test_a_fact_on_the_second_screen_is_caught() -> None:
    street = "Schreckliche Schiffstransporte"
    late = f"Marie-Louise nimmt eine Hypothek auf: {street} (199,99M)"
    assert fact_problems(late, {"street": street}) != []
    first = f"{street}: Hypothek für Marie-Louise, 199,99M"
    assert fact_problems(first, {"street": street}) == []
    assert fact_problems(first, {"street": street, "player": "Marie-Louise"}) != []  # Marie-Louise on the 4th row
    assert fact_problems("Hypothek aufnehmen geht nicht, solange Häuser stehen", {}, whole=True) == []  # 3 rows
    assert fact_problems("Hypothek aufnehmen geht nicht, solange auf der Straße Häuser stehen", {}, whole=True) != []
    assert fact_problems("Hypothek aufnehmen geht nicht, solange Häuser stehen", {}, "raise", whole=True) != []


def test_the_catalogue_check_fails_a_message_without_fact_too_long_or_fact_late(tmp_path: Path) -> None:
    """A catalogue with three bad messages and a good one, read and checked as the real ones are."""
    po = tmp_path / "rules.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "rules.x.nofact"\nmsgstr "{player} kauft"\n\n'
        '#. fact: street\nmsgid "rules.x.late"\nmsgstr "{player} nimmt eine Hypothek auf: {street}"\n\n'
        '#. fact: all\nmsgid "rules.x.long"\nmsgstr "{player} zahlt {payee} Miete für {street}"\n\n'
        '#. fact: street\nmsgid "rules.x.good"\nmsgstr "{street}: Hypothek für {player}"\n\n'
        '#. fact: player\nmsgid "rules.x.title"\nmsgstr "Gebucht: {player}"\n\n'
        '#. fact: none\nmsgid "rules.x.log"\nmsgstr "{player} {player} {player} {player} {player} {player}"\n',
        encoding="utf-8")
    found = {m.key: m for m in read_catalogue(po, "rules")}
    assert found["rules.x.late"].fact == ("street",) and found["rules.x.title"].where == "title"
    sky = EDITIONS["skylanders"]
    problems = {key: check(m, sky) for key, m in found.items()}
    assert "no '#. fact:'" in problems["rules.x.nofact"][0]
    assert any("street" in p and "first screen" in p for p in problems["rules.x.late"])
    assert any("not whole" in p for p in problems["rules.x.long"])
    assert any("bar holds" in p for p in problems["rules.x.title"])
    assert problems["rules.x.good"] == [] and problems["rules.x.log"] == []
    family = check(found["rules.x.good"], family_edition())
    assert family == [], family


def test_the_display_draws_a_line_that_fits_whole() -> None:
    """What ``layout_problems`` passes the display draws within its width (the last column of a full line lit
    only when the text reaches it): the measure is the drawing's."""
    from drivers.screen import Screen

    full = "W" * 21
    image = draw(Screen(title="T", lines=(full,)))
    assert layout_problems(full) == [] and image.getbbox() is not None
    assert image.crop((1, 14, WIDTH, 26)).getbbox() is not None


def test_a_nested_booking_keeps_its_key_facts_on_the_outer_first_screen(tmp_path: Path) -> None:
    """"Storno: {booking}": every booking that may fill it is tried, and its own key facts must be on the first
    screen of the Storno too; a long preamble pushes them below."""
    po = tmp_path / "rules.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#. fact: street\nmsgid "rules.y.buy"\nmsgstr "{street}: {player} kauft für {price}"\n\n'
        '#. fact: all\nmsgid "rules.y.go"\nmsgstr "LOS: {player}"\n\n'
        '#. fact: booking\nmsgid "rules.y.undo"\nmsgstr "Storno: {booking}"\n\n'
        '#. fact: booking\nmsgid "rules.y.late"\nmsgstr "Storno der Buchung, die eben vorhin gemacht wurde: {booking}"\n',
        encoding="utf-8")
    found = {m.key: m for m in read_catalogue(po, "rules")}
    sky = EDITIONS["skylanders"]
    assert check(found["rules.y.undo"], sky, found) == []
    late = check(found["rules.y.late"], sky, found)
    assert any("<rules.y.buy>" in p and "booking.street='Schreckliche Schiffstransporte'" in p for p in late), late
    assert any("<rules.y.go>" in p and "booking='LOS: " in p for p in late), late


def test_a_text_beside_the_wifi_code_is_measured_in_the_room_the_code_leaves() -> None:
    assert layout_problems("WLAN\nbeitreten:\nCode\nscannen", "qr") == []
    assert layout_problems("WLAN beitreten:\nCode scannen", "qr") != []


def test_the_rows_the_scenes_pin_are_found_in_the_scenes() -> None:
    """A line a scene pins under its body (``page(..., pinned=...)``) is drawn as one row that never wraps: the
    scenes' own source says which messages those are, read as it is written, so a new pinned line is measured as
    one row without a list to keep."""
    assert {"scenes.join.clear", "scenes.join.back", "scenes.amount.look", "scenes.selftest.back",
            "scenes.raise.offer", "scenes.join_wifi.password"} <= pinned_keys()
    assert "scenes.confirm.ok" not in pinned_keys()  # the title bar's keys: measured there


@pytest.mark.parametrize("code", words.LANGUAGES)
def test_every_pinned_row_is_measured_as_one_row(code: str) -> None:
    """The card-laying screen's "OK: starten, C: zurück" was let through on two wrapped rows while the wizard
    draws it on one, cut at 132 px: every pinned message is measured as one row of the display's width."""
    shown = {m.key: m.where for m in oled_messages(code)}
    assert {key: shown.get(key) for key in pinned_keys()} == dict.fromkeys(pinned_keys(), "row")


def test_one_row_is_measured_at_the_displays_width_unwrapped() -> None:
    from device.scenes.layout import LINE_PX, px

    fits = "x" * int(LINE_PX // px("x"))
    assert layout_problems(fits, "row") == [] and layout_problems(fits + "x", "row") != []
    assert layout_problems("OK: starten, C: zurück und so", "body") == []  # wraps, so the body measure lets it by
    assert layout_problems("OK: starten, C: zurück und so", "row") != []


def test_the_catalogue_check_finds_a_pinned_row_that_would_wrap(tmp_path: Path) -> None:
    """The card-laying screen's keys line a word longer, read and checked as the real catalogue is: a body would
    take it on two rows, the one row the wizard draws does not."""
    po = tmp_path / "scenes.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#. fact: all\nmsgid "scenes.join.clear"\nmsgstr "OK: starten, C: alle leeren"\n\n'
        '#. fact: all\nmsgid "scenes.join.back"\nmsgstr "OK: Start, C: zurück"\n', encoding="utf-8")
    found = {m.key: m for m in read_catalogue(po, "scenes")}
    assert found["scenes.join.clear"].where == "row"
    assert any("one row holds" in p for p in check(found["scenes.join.clear"], EDITIONS["classic"]))
    assert check(found["scenes.join.back"], EDITIONS["classic"]) == []


@pytest.mark.parametrize("keys", words.LANGUAGES)
@pytest.mark.parametrize("code", words.LANGUAGES)
def test_the_prompts_naming_keys_fit_in_every_language_the_keys_are_printed_in(code: str, keys: str) -> None:
    """``[ui] keys_language``: a prompt in the banker's language names the keys in the overlay's, so each prompt is
    measured with each language's key words ("CREDIT DEBIT GO Knopf" is the German card line's widest); the card
    screen's keys line stays one row."""
    from device.scenes.layout import LINE_PX, px
    from device.scenes.said import key_prompt

    prompts = ("scenes.card.keys", "scenes.amount.which_key", "scenes.amount.keys")
    try:
        words.print_keys(keys)
        with words.speaking(code):
            said = {key: words.say(key_prompt(key)) for key in prompts}
    finally:
        words.print_keys(None)
    assert [(key, p) for key, text in said.items() for p in layout_problems(text)] == []
    assert px(said["scenes.card.keys"]) <= LINE_PX, said["scenes.card.keys"]
