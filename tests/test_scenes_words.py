"""The OLED in the language in force: the scenes' words from words/locale/*/scenes.po, said when drawn.

A change of language (the admin page's ``words.use``) shows on the screen now shown at its next frame, without a
key; the English menus hold no German word but the edition's own names; and the table's findings on the device's
screens ("Auf Zeit: 1 Minuten", "OK" after a Storno, "keine" alone on a line, "Neues Spiel (MONOPOLY / Sonic,")
each have a test that failed before.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from po_read import message_forms
from ui_table import Table

import words
from device.daemon.language import KEY, in_force
from device.scenes import State
from device.scenes.lists import ConfirmScene, ListScene
from device.scenes.menus import own_name
from rules import EDITIONS
from words.compile import po_path


def shown(table: Table) -> str:
    return table.text()


# --- Render when shown: the admin's choice shows at once -------------------------------------------------


def test_the_screen_now_shown_turns_english_at_the_next_frame_without_a_key(table: Table) -> None:
    """The card scene shown in German; words.use("en"); the device's once-a-second redraw (a tick, no key) draws
    it in English: the scene kept its words as keys, not as German sentences."""
    table.start("Anna", "Ben", edition="classic")
    table.tap("Anna")
    table.press("MENU")
    assert shown(table).splitlines()[1:3] == [">1 Kaufen", " 3 Steuer"], shown(table)
    before = table.frames.last
    assert before is not None
    words.use("en")
    table.bank.tick()
    after = table.frames.last
    assert after is not None and after.seq == before.seq + 1  # one new frame, drawn by the tick alone
    assert shown(table).splitlines()[1:3] == [">1 Buy", " 3 Tax"], shown(table)
    words.use("de")
    table.bank.tick()
    assert shown(table).splitlines()[1] == ">1 Kaufen"


@pytest.mark.parametrize("place", ["idle", "card", "result", "note"])
def test_every_kind_of_screen_follows_the_language_at_once(table: Table, place: str) -> None:
    """The idle screen, a card, a booking's result, and the note of an unused key: each English at the next tick."""
    table.start("Anna", "Ben", edition="classic")
    if place != "idle":
        table.tap("Anna")
    if place == "result":
        table.press("HABEN")
        table.type("100")
        table.press("OK")
    if place == "note":
        table.press("K")
    german = shown(table)
    words.use("en")
    table.bank.tick()
    english = shown(table)
    expected = {"idle": "Tap a card", "card": "CREDIT DEBIT GO Knob", "result": "Booked", "note": "K: unused here"}
    assert expected[place] in english and english != german, (german, english)


# --- Menü → Sprache: the banker chooses on the device -------------------------------------------------------


def test_the_banker_chooses_english_on_the_device_at_once_and_for_good(table: Table) -> None:
    """Menü → 0 Sprache → English: the OLED speaks English at once, and the journal keeps it across restarts as it
    keeps the admin page's choice (``daemon.language``: a restart's config does not undo it)."""
    table.start("Anna", "Ben", edition="classic")
    table.press("MENU", "0")
    assert table.labels() == ["Deutsch", "English"] and table.choice.index == 0
    table.choose("English")
    assert words.language() == "en" and table.journal.setting(KEY) == "en"
    assert shown(table).splitlines()[:2] == ["Language", "English"], shown(table)
    table.press("C", "MENU")
    assert table.labels()[0] == "Ranking" and table.labels()[-1] == "Language"
    assert in_force(table.journal, "de") == "en"  # the next start
    table.press("0")
    assert table.labels() == ["Deutsch", "English"] and table.choice.index == 1  # each in its own words
    table.choose("Deutsch")
    assert words.language() == "de" and table.journal.setting(KEY) == "de" and "Sprache" in shown(table)


# --- The findings at the table ---------------------------------------------------------------------------


def start_timed(table: Table, minutes: str) -> list[str]:
    table.press("hold:C", "OK")  # yes: a new game (or the running one replaced)
    table.choose("MONOPOLY")
    table.choose(words.text("scenes.mode.timed"))
    table.type(minutes)
    table.press("OK")
    table.tap("Anna")
    table.tap("Ben")
    table.press("OK")
    return shown(table).splitlines()


@pytest.mark.parametrize(("code", "one", "two"), [("de", "Auf Zeit: 1 Minute", "Auf Zeit: 2 Minuten"),
                                                  ("en", "Time limit: 1 minute", "Time limit: 2 minutes")])
def test_a_timed_games_minutes_are_counted_by_the_plural_rule(table: Table, code: str, one: str, two: str) -> None:
    """"Auf Zeit: 1 Minuten" on the new game's first screen."""
    words.use(code)
    assert one in start_timed(table, "1")
    assert two in start_timed(table, "2")


def test_after_a_storno_the_big_line_is_the_balance_that_changed_not_ok(table: Table) -> None:
    """The banker's Storno (no card): the large line said "OK" where a balance belongs; now Ben's balance, and
    whose it is in the title."""
    table.start("Anna", "Ben", edition="classic")
    table.book({"op": "credit", "player": "Ben", "amount": 200})
    table.press("MENU")
    table.choose("Storno")
    assert isinstance(table.bank.scene, ConfirmScene)
    table.press("OK")
    assert table.cash("Ben") == 1500
    lines = shown(table).splitlines()
    assert lines[:2] == ["Storno", "Ben: 1500"], lines
    assert "OK" not in lines[1:2]


def test_the_house_rules_list_never_shows_a_word_alone_that_reads_as_an_entry(table: Table) -> None:
    """"keine Versteigerungen" broke after "keine": a row "keine" read as the option "none"."""
    for code in words.LANGUAGES:
        words.use(code)
        table.press("hold:C")
        table.choose(words.text("scenes.new.ask_yes"))
        table.choose("MONOPOLY")
        table.choose(words.text("scenes.new.rules_none"))
        scene = table.choice
        assert isinstance(scene, ListScene) and scene.title == words.text("scenes.new.rules")
        for index in range(len(scene.options)):
            scene.index = index
            table.bank.render()
            rows = [row.strip(" >*") for row in shown(table).splitlines()[1:]]
            assert not {"keine", "none", "no"} & set(rows), rows
        heads = [text for i, text in scene._rows() if not text.startswith(" " * 3)]
        assert len(heads) == len(scene.options)
        no_auctions = next(o for o in scene.options if o.value == "no_auctions")
        assert len([r for r in scene._rows() if r[0] == scene.options.index(no_auctions)]) == 1, scene._rows()
        table.press("C", "C", "C", "C")


def test_the_new_games_house_rules_are_one_a_line_under_their_heading(table: Table) -> None:
    table.press("hold:C")
    table.choose("Ja: alle Stände neu")
    table.choose("MONOPOLY")
    table.choose("Hausregeln: keine")
    table.choose("ohne Versteigerung")
    table.choose("Fertig")
    table.choose("Standard")
    table.tap("Anna")
    table.tap("Ben")
    table.press("OK")
    lines = shown(table).splitlines()
    table.press("DOWN")
    lines += shown(table).splitlines()
    assert "Hausregeln:" in lines and "ohne Versteigerung" in lines and "keine" not in lines, lines


@pytest.mark.parametrize(("code", "first"), [("de", ["STORNO", "NEUES SPIEL", "Sonic", "2 Spieler"]),
                                             ("en", ["UNDO", "NEW GAME", "Sonic", "2 players"])])
def test_storno_of_a_new_game_names_its_edition_whole_on_the_first_screen(table: Table, code: str,
                                                                          first: list[str]) -> None:
    """"Neues Spiel (MONOPOLY / Sonic," broke mid-phrase: the Storno's first screen names the game it takes back."""
    table.start("Anna", "Ben", edition="classic")
    table.start("Cem", "Dana", edition="sonic", replace=True)
    words.use(code)
    table.press("MENU")
    table.choose(words.text("scenes.flow.undo"))
    assert isinstance(table.bank.scene, ConfirmScene)
    lines = shown(table).splitlines()
    assert lines[1:] == first, lines
    table.press("OK")
    assert table.ledger.game.state is not None and table.ledger.game.state.edition.key == "classic"


# --- English complete ---------------------------------------------------------------------------------------


def german_words() -> re.Pattern[str]:
    """Every word of the German scenes catalogue that English does not use as well, and the German letters."""
    def said(code: str) -> set[str]:
        with open(po_path(code, "scenes"), "rb") as f:
            catalog = read_po(f, locale=code)
        out: set[str] = set()
        for m in catalog:
            if m.id:
                for text in message_forms(m):
                    text = re.sub(r"\{[^}]*\}", " ", text)
                    out |= {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß-]{3,}", text)}
        return out

    only = sorted(said("de") - said("en"))
    return re.compile(r"\b(" + "|".join(map(re.escape, only)) + r")\b|[äöüßÄÖÜ]", re.IGNORECASE)


def walk(table: Table, seen: list[str]) -> None:
    """Every entry of the list on the OLED, and every list one level below it; back to where it started."""
    scene = table.choice
    for index in range(len(scene.options)):
        scene.index = index
        table.bank.render()
        seen.append(shown(table))
        table.press("OK")
        seen.append(shown(table))
        if isinstance(table.bank.scene, ListScene) and table.bank.scene is not scene:
            for inner in range(len(table.bank.scene.options)):
                table.bank.scene.index = inner
                table.bank.render()
                seen.append(shown(table))
        while table.bank.scene is not scene and table.bank.state is not State.IDLE:
            before = table.bank.scene
            table.press("C")
            if table.bank.scene is before:
                break
        if table.bank.scene is not scene:
            return


def test_the_main_menus_in_english_hold_no_german_word(table: Table) -> None:
    """The banker's menu, a player's menu with every submenu, a deed's, the new game's lists and the card: English,
    but the edition's own names (the classic UK board: its squares are English too)."""
    words.use("en")
    german = german_words()
    seen: list[str] = []
    table.start("Anna", "Ben", edition="classic-uk")
    table.book({"op": "buy", "player": "Anna", "square": 1}, {"op": "buy", "player": "Anna", "square": 3})
    seen.append(shown(table))
    table.press("MENU")
    walk(table, seen)
    table.press("C")
    table.tap("Anna")
    seen.append(shown(table))
    table.press("MENU")
    walk(table, seen)
    table.tap("Ben")
    table.tap(1)
    seen.append(shown(table))
    table.press("C")
    table.press("SOLL")
    seen.append(shown(table))
    table.type("99")
    seen.append(shown(table))
    table.press("C", "C")
    table.press("hold:C")
    seen.append(shown(table))
    table.choose("Yes: replace")
    seen.append(shown(table))
    table.choose("UK (London)")
    walk(table, seen)
    text = "\n".join(seen)
    names = set(EDITIONS["classic-uk"].names) | {e.title.replace("MONOPOLY ", "") for e in EDITIONS.values()}
    names |= {own_name(code) for code in words.LANGUAGES}  # each language offered in its own words
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    found = [chunk for chunk in seen if german.search(chunk)]
    assert not found, found
    assert len(seen) > 60 and all(w in text for w in ("Buy", "Pay rent", "Undo", "Edition", "Volume", "Trade"))


# --- The console: the developer's log line of a scene change ----------------------------------------------


GERMAN_KEYS = ("HABEN", "SOLL", "LOS", "KNOPF", "Drehen")
"""The German catalogue's key names (scenes.key.*): none may reach an English session's console."""


def test_an_english_console_names_the_pressed_keys_in_english(table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """``./dev run`` logs each change of scene with the key that made it ("card → amount (push, DEBIT)"): the
    key's name as the OLED says it in the language in force, not its German wire name."""
    words.use("en")
    table.start("Anna", "Ben", edition="classic")
    with caplog.at_level(logging.INFO, logger="device.scenes.manager"):
        table.tap("Anna")
        table.press("SOLL", "C", "HABEN", "C", "MENU", "C", "LOS")
    lines = [r.getMessage() for r in caplog.records if r.name == "device.scenes.manager"]
    assert any("DEBIT" in line for line in lines) and any("CREDIT" in line for line in lines), lines
    said = [line for line in lines if any(re.search(rf"\b{w}\b", line) for w in GERMAN_KEYS)]
    assert not said, said


# --- The scan ------------------------------------------------------------------------------------------------
# (every message's key fact: tests/test_oled_fit.py, over both OLED domains)


def test_the_scan_lists_every_scenes_module() -> None:
    from wordscan import scenes

    root = Path(__file__).resolve().parent.parent
    assert set(scenes.MODULES) == {str(p.relative_to(root)) for p in (root / "device" / "scenes").glob("*.py")}
