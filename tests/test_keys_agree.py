"""The keys the OLED names are the keys on the box: the overlay is printed once, in the language chosen at print
time, while the OLED follows the banker's language (switchable at any time). So the default overlay carries both
languages' words, every OLED message naming a key uses a word printed on that key, and the menu, which the box
has as the knob (no Menü key), is named as the knob."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from po_read import message_forms, message_key
from ui_table import Table

import words
from device.prints.labels import keypad_overlay
from device.prints.svg import NS, parse
from device.scenes.said import key_prompt
from drivers.hardware import HardwareConfig

KEY_OF = {"scenes.key.haben": "HABEN", "scenes.key.soll": "SOLL", "scenes.key.los": "LOS"}
"""The OLED's name for each word key (``{key}`` in "… : hier nicht", the self-test's "Taste {key}")."""
NAMING_KEYS = ("scenes.card.keys", "scenes.amount.which_key", "scenes.amount.keys", "scenes.join.clear",
               "scenes.join.back", "scenes.amount.look", "scenes.amount.ok")
"""The OLED's prompts that tell the banker which key to press."""
KEY_VALUES_EN = {"credit": "CREDIT", "debit": "DEBIT", "go": "GO"}
"""The English key names filled into a prompt's placeholders, as the English OLED said them before the setting."""
KNOB = {"de": {"knopf", "drehknopf"}, "en": {"knob"}}
NOT_KEYS = {"de": {"oder", "bucht", "start", "leeren", "zurück", "ansehen"},
            "en": {"or", "book", "start", "clear", "back", "review"}}
"""The words of those prompts that name no key (a verb, a conjunction)."""


def printed(layout: tuple[tuple[str, ...], ...] | None = None, *, lang: str = "de") -> dict[str, set[str]]:
    """Each key's printed words (lower case), from the overlay as ``bankleser print keypad`` draws it."""
    with words.speaking(lang):
        root = parse(keypad_overlay(layout or HardwareConfig().keypad.layout))
    cells: dict[str, set[str]] = {}
    for group in root.iter(f"{{{NS}}}g"):
        key = group.get("id", "").removeprefix("key-")
        said = " ".join(t.text or "" for t in group.iter(f"{{{NS}}}text"))
        cells[key] = {w.lower() for w in re.findall(r"\w+", said)}
    return cells


MENU_TITLE = "scenes.menu.title"
"""The one message that may say Menü/Menu: the menu's own title, naming the screen, not a key."""


def scenes(lang: str) -> dict[str, str]:
    """Every OLED message of ``lang`` (singular and plural forms joined) by its key."""
    path = Path(__file__).parent.parent / "words" / "locale" / lang / "LC_MESSAGES" / "scenes.po"
    with path.open("rb") as f:
        catalogue = read_po(f)
    return {message_key(m): " ".join(message_forms(m)) for m in catalogue if m.id}


def msgstr(lang: str, key: str) -> str:
    said = words.catalogue(lang).gettext(key)
    assert said != key, key
    return said


@pytest.mark.parametrize("print_lang", ["de", "en"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_key_the_oled_names_is_printed_on_that_key(lang: str, print_lang: str) -> None:
    """Whatever language the overlay was printed in and the OLED speaks now, its key words are on the keys."""
    keys = printed(lang=print_lang)
    for message, key in KEY_OF.items():
        assert msgstr(lang, message).lower() in keys[key], (message, lang, keys[key])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_prompt_names_keys_of_the_box_or_the_knob(lang: str) -> None:
    keys = printed()
    on_box = set().union(*keys.values()) | {"ok", "c", "k"}
    for message in NAMING_KEYS:
        with words.speaking(lang):
            said = words.say(key_prompt(message))
        for word in re.findall(r"\w+", said.lower()):
            assert word in on_box | KNOB[lang] | NOT_KEYS[lang], (message, lang, word)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_screen_names_a_menu_key(lang: str) -> None:
    """The box's menu is the knob: the card screen and a key's name say the knob, never a "Menü" key."""
    assert msgstr(lang, "scenes.key.menu").lower() in KNOB[lang]
    with words.speaking(lang):
        card = words.say(key_prompt("scenes.card.keys")).lower()
    assert not re.search(r"\bmen[uü]\b", card) or any(k in card for k in KNOB[lang]), card


def test_the_overlay_says_both_languages_unless_asked_for_one() -> None:
    both = printed()
    assert {"haben", "credit"} <= both["HABEN"] and {"soll", "debit"} <= both["SOLL"]
    assert {"los", "go"} <= both["LOS"]
    with words.speaking("en"):
        root = parse(keypad_overlay(HardwareConfig().keypad.layout, one_language=True))
    said = {t.text for t in root.iter(f"{{{NS}}}text")}
    assert {"Credit", "Debit", "GO"} <= said and not {"Haben", "Soll", "LOS"} & said


@pytest.mark.parametrize("print_lang", ["de", "en"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_oled_message_names_a_key_word_the_overlay_does_not_print(lang: str, print_lang: str) -> None:
    """A scan of every OLED message, not a list: a new prompt that says "Menü", "Soll" or "Debit" is held to
    the default overlay too (the word keys' words in either language, and Menü/Menu, which no key carries)."""
    keys = printed(lang=print_lang)
    word_keys = set().union(*(keys[k] for k in ("HABEN", "SOLL", "LOS")))
    key_words = set().union(*(printed(lang=code)[k] for code in ("de", "en") for k in ("HABEN", "SOLL", "LOS")))
    key_words |= {"menu", "menü"}
    for key, said in scenes(lang).items():
        if key == MENU_TITLE or key.startswith("scenes.about."):  # the menu's title; the developer's map
            continue
        named = {w.lower() for w in re.findall(r"\w+", said)} & key_words
        assert named <= word_keys, (key, lang, named - word_keys)


# --- A one-language overlay: the OLED names the keys as printed ------------------------------------------------
# ``[ui] keys_language = "de"``: the box's overlay was printed in German only (``--one-language``); the OLED says
# every key word as that overlay prints it while the rest of each screen stays in the banker's language. A title
# says what is being booked ("Debit", as the phone's form says it): a verb, not a key to press, so it follows the
# banker's language (:data:`TITLES`).

TITLES = ("scenes.title.credit", "scenes.title.debit")


@pytest.fixture
def keys_in_german() -> Iterator[None]:
    words.print_keys("de")
    yield
    words.print_keys(None)


def key_words_of(lang: str) -> set[str]:
    """The words of the word keys (Haben, Soll, LOS) on the overlay printed in ``lang`` only."""
    with words.speaking(lang):
        root = parse(keypad_overlay(HardwareConfig().keypad.layout, one_language=True))
    return {w.lower() for g in root.iter(f"{{{NS}}}g") if g.get("id") in ("key-HABEN", "key-SOLL", "key-LOS")
            for t in g.iter(f"{{{NS}}}text") for w in re.findall(r"\w+", t.text or "")}


def seen_words(table: Table) -> set[str]:
    said = table.text()
    for title in TITLES:
        said = said.replace(words.text(title), "")
    return {w.lower() for w in re.findall(r"\w+", said)}


def test_keys_printed_in_german_are_named_in_german_on_an_english_oled(table: Table, keys_in_german: None) -> None:
    """An English family at a German-printed box: the card screen, the amount screens, the "press which key" note
    and an unused key's note name Haben, Soll and LOS, in English sentences."""
    german, english = key_words_of("de"), key_words_of("en")
    words.use("en")
    table.start("Anna", "Ben", edition="classic")
    seen: list[set[str]] = []
    table.tap("Anna")
    seen.append(seen_words(table))
    assert {"haben", "soll", "los", "knob"} <= seen[-1], table.text()
    table.type("1")
    seen.append(seen_words(table))
    table.press("OK")
    seen.append(seen_words(table))
    assert {"haben", "soll", "or"} <= seen[-1], table.text()  # "HABEN or SOLL"
    table.press("SOLL")
    seen.append(seen_words(table))
    table.press("C", "C", "C")
    table.tap("Anna")
    table.press("HABEN")
    seen.append(seen_words(table))
    table.press("K", "SOLL")
    seen.append(seen_words(table))
    named = set().union(*seen)
    assert not named & (english - german), [s & english for s in seen]
    assert german <= named


@pytest.mark.parametrize("message", NAMING_KEYS)
def test_every_prompt_names_the_german_keys_in_an_english_sentence(message: str, keys_in_german: None) -> None:
    """Each prompt that tells which key to press, said in English with the keys printed in German."""
    with words.speaking("en"):
        said = {w.lower() for w in re.findall(r"\w+", words.say(key_prompt(message)))}
    assert not said & (key_words_of("en") - key_words_of("de")), (message, said)


def test_unset_the_oled_names_keys_in_its_own_language() -> None:
    """The default (a bilingual overlay): the keys' words follow the banker's language, as before."""
    with words.speaking("en"):
        assert words.say(key_prompt("scenes.amount.which_key")) == words.text("scenes.amount.which_key",
                                                                               **KEY_VALUES_EN)


def test_a_one_language_overlay_says_the_config_line_that_makes_the_oled_agree() -> None:
    """The sheet printed with ``--one-language`` tells the builder what to put into config.toml."""
    for lang in ("de", "en"):
        with words.speaking(lang):
            root = parse(keypad_overlay(HardwareConfig().keypad.layout, one_language=True))
            both = parse(keypad_overlay(HardwareConfig().keypad.layout))
        said = " ".join(t.text or "" for t in root.iter(f"{{{NS}}}text"))
        assert f'keys_language = "{lang}"' in said, said
        assert "keys_language" not in " ".join(t.text or "" for t in both.iter(f"{{{NS}}}text"))


def test_the_config_takes_the_overlays_language_and_refuses_one_without_a_catalogue() -> None:
    from device.daemon.config import Config
    from drivers.tables import ConfigError

    assert Config.from_dict({}).ui.keys_language == ""
    assert Config.from_dict({"ui": {"keys_language": "de"}}).ui.keys_language == "de"
    with pytest.raises(ConfigError) as err:
        Config.from_dict({"ui": {"keys_language": "fr"}})
    assert any("keys_language" in p for p in err.value.problems), err.value.problems


def test_the_virtual_device_labels_its_keys_as_the_box_prints_them(keys_in_german: None) -> None:
    """``--sim``'s virtual device stands for the box: its word keys carry the overlay's words too."""
    from webui.pages import KEY_LABELS

    with words.speaking("en"):
        labels = {key: words.text(KEY_LABELS[key]).lower() for key in ("HABEN", "SOLL", "LOS")}
    assert labels == {"HABEN": "haben", "SOLL": "soll", "LOS": "los"}


def test_the_daemon_takes_the_setting_from_its_config(tmp_path: Path) -> None:
    """``[ui] keys_language`` reaches the words the daemon's OLED says, while the screen speaks ``language``."""
    from daemon_fixture import running
    from device.daemon.config import Config

    try:
        with running(Config.from_dict({"ui": {"language": "en", "keys_language": "de"}}), tmp_path / "state"):
            assert (words.appliance_language(), words.keys_language()) == ("en", "de")
            assert words.say(key_prompt("scenes.amount.which_key")) == "HABEN or SOLL"
    finally:
        words.print_keys(None)
