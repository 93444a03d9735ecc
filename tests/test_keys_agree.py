"""The keys the OLED names are the keys on the box: the overlay is printed once, in the language chosen at print
time, while the OLED follows the banker's language (switchable at any time). So the default overlay carries both
languages' words, every OLED message naming a key uses a word printed on that key, and the menu, which the box
has as the knob (no Menü key), is named as the knob."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import words
from device.daemon.config import HardwareConfig
from device.prints.labels import keypad_overlay
from device.prints.svg import NS, parse

KEY_OF = {"scenes.key.haben": "HABEN", "scenes.key.soll": "SOLL", "scenes.key.los": "LOS"}
"""The OLED's name for each word key (``{key}`` in "… : hier nicht", the self-test's "Taste {key}")."""
NAMING_KEYS = ("scenes.card.keys", "scenes.amount.which_key", "scenes.amount.keys", "scenes.join.clear",
               "scenes.join.back", "scenes.amount.look", "scenes.amount.ok")
"""The OLED's prompts that tell the banker which key to press."""
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
    return {(m.id if isinstance(m.id, str) else m.id[0]): (m.string if isinstance(m.string, str)
                                                           else " ".join(m.string)) for m in catalogue if m.id}


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
        for word in re.findall(r"\w+", msgstr(lang, message).lower()):
            assert word in on_box | KNOB[lang] | NOT_KEYS[lang], (message, lang, word)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_screen_names_a_menu_key(lang: str) -> None:
    """The box's menu is the knob: the card screen and a key's name say the knob, never a "Menü" key."""
    assert msgstr(lang, "scenes.key.menu").lower() in KNOB[lang]
    card = msgstr(lang, "scenes.card.keys").lower()
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
