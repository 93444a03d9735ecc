"""The catalogues: every message in every language with the same placeholders, the compiled
``.mo`` what its ``.po`` says, no text a person reads left outside the catalogue in the converted modules,
plurals by the language's rule and articles by the noun's gender, and the language in force."""

from __future__ import annotations

import ast
import gettext
import io
import re
import string
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import wordscan
from babel.messages.pofile import read_po
from po_read import message_forms, message_key, plural_rule

import words
from device.daemon import cli, cliparse
from device.daemon.config import Config
from device.daemon.doctor import Check, report
from device.daemon.language import KEY, choose, in_force
from device.store.journal import Journal
from drivers.tables import ConfigError
from rules.editions import Word
from rules.phrase import Phrase
from words.compile import compiled, po_files, po_path

ROOT = Path(__file__).resolve().parent.parent
CONVERTED = wordscan.MODULES
"""The modules whose every text comes from the catalogue, one list per surface in tests/wordscan/; the goal is
every module."""


MESSAGE_KEY = r"(config|doctor|hint|start|list|number|count|noun|article|rules|scenes|pages|phone|reports|service|editions)" \
      r"\.[a-z0-9_.]+"
"""A message key: its first part names its surface (its domain's name, or the shared grammar's topic)."""


def messages(code: str) -> dict[tuple[str | None, str], list[str]]:
    """(context, key) → the texts (one, or each plural form) of ``code``'s catalogue, all its domains."""
    out: dict[tuple[str | None, str], list[str]] = {}
    for language, domain in po_files():
        if language != code:
            continue
        with open(po_path(code, domain), "rb") as f:
            catalog = read_po(f, locale=code)
        for m in catalog:
            if not m.id:
                continue
            key = message_key(m)
            assert (m.context, key) not in out, f"{code}: {key} is in two domains ({domain} and another)"
            assert re.fullmatch(MESSAGE_KEY, key), f"{domain}: {key!r} is not a key of the form <surface>.<name>"
            out[(m.context, key)] = list(message_forms(m))
    return out


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_message_is_in_every_language_with_the_same_placeholders() -> None:
    german = messages(words.DEFAULT)
    for code in words.LANGUAGES[1:]:
        other = messages(code)
        assert set(other) == set(german), f"{code}: missing {set(german) - set(other)}, extra {set(other) - set(german)}"
        for key, texts in german.items():
            assert all(other[key]), f"{code}: {key} is empty"
            assert len(other[key]) == len(texts), f"{code}: {key} has other plural forms"
            # a plural's singular may leave the count out ("ein Problem"), so compare the union of the forms
            assert set().union(*map(placeholders, other[key])) == set().union(*map(placeholders, texts)), (code, key)


def said(catalog: gettext.GNUTranslations) -> dict[object, object]:
    """What a compiled catalogue says: its messages by (context, key) and plural index, its plural rule."""
    entries = dict(catalog._catalog)  # type: ignore[attr-defined]  # the standard library's own table
    entries.pop("", None)  # the header: its Generated-By and dates are the tool's, not ours
    return {"messages": entries, "plural": plural_rule(catalog)(2), "charset": catalog.charset()}


@pytest.mark.parametrize(("code", "domain"), po_files())
def test_the_shipped_mo_says_what_its_po_says(code: str, domain: str) -> None:
    """Edit a .po and forget `python -m words.compile`: this fails (the appliance reads only the .mo).

    It compares what the two catalogues say, not their bytes: another Babel writes another header into the
    same messages, and a new release of a tool must not turn a fresh machine's run red."""
    with Path(po_path(code, domain)).with_suffix(".mo").open("rb") as f:
        shipped = gettext.GNUTranslations(f)
    made = gettext.GNUTranslations(io.BytesIO(compiled(code, domain)))
    assert said(shipped) == said(made), f"run: python -m words.compile ({code}/{domain}.mo is older than its .po)"


def test_every_domain_has_its_catalogue_in_every_language() -> None:
    for _, domain in po_files():
        assert all(Path(po_path(code, domain)).exists() for code in words.LANGUAGES), domain


def used_keys(tree: ast.AST) -> Iterator[str]:
    """The keys a module renders: text("…")/plural("…"), and the module's constants that hold a key."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "text", "plural", "phrase") and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            yield node.args[0].value
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if re.fullmatch(MESSAGE_KEY, node.value):
                yield node.value
            elif match := re.fullmatch(rf"({MESSAGE_KEY})\|[\d.]+\|[\d.]+", node.value):
                yield match[1]


def test_every_key_the_converted_modules_use_is_in_the_catalogue() -> None:
    known = {key for _, key in messages(words.DEFAULT)}
    for module in CONVERTED:
        missing = set(used_keys(ast.parse((ROOT / module).read_text()))) - known
        assert not missing, f"{module}: {missing}"


READ_BY_PROGRAMS = wordscan.ALLOWED
"""Constants with letters in the converted modules that no person reads as a sentence of ours."""


def human_literals(path: Path) -> Iterator[tuple[int, str]]:
    """String constants with letters that are not docstrings, keys, log formats or program words."""
    tree = ast.parse(path.read_text())
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skip.add(id(body[0].value))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))  # attribute docstrings
        # A type written as a string (a forward reference, cast's type) names a class, never a word of ours.
        annotations = [a.annotation for a in ast.walk(node) if isinstance(a, ast.arg) and a.annotation] \
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            annotations.append(node.returns)
        if isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "cast" \
                and node.args:
            annotations.append(node.args[0])
        for annotation in annotations:
            skip.update(id(sub) for sub in ast.walk(annotation))
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            skip.update(id(sub) for sub in ast.walk(node.format_spec))  # f"{x:02X}"
        if isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "attr", getattr(func, "id", ""))
            if name in ("debug", "info", "warning", "error", "exception", "getLogger", "text", "plural", "phrase", "use",
                        "setting", "set_setting", "getattr", "glob", "AttributeError"):
                for arg in node.args[:1] if name in ("text", "plural", "phrase") else node.args:
                    for sub in ast.walk(arg):
                        skip.add(id(sub))
            for keyword in node.keywords:
                if keyword.arg == "pattern":  # a regular expression
                    skip.add(id(keyword.value))
    keyish = re.compile(rf"{MESSAGE_KEY}(\|[\d.]+\|[\d.]+)?|[\W\d_]*|[a-z]{{1,2}}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            value = node.value
            if keyish.fullmatch(value) or value in READ_BY_PROGRAMS or value.strip() in READ_BY_PROGRAMS:
                continue
            yield node.lineno, value


@pytest.mark.parametrize("module", CONVERTED)
def test_no_text_a_person_reads_is_left_outside_the_catalogue(module: str) -> None:
    left = list(human_literals(ROOT / module))
    assert not left, f"{module}: move these into words/locale/*/bankleser.po: {left}"


def test_the_scan_finds_a_german_sentence(tmp_path: Path) -> None:
    """The scan itself can fail: a module with a new literal sentence is caught."""
    module = tmp_path / "m.py"
    module.write_text('"""Doc."""\ndef f() -> str:\n    """Doc."""\n    return "kein Zugriff auf /dev/x"\n')
    assert [v for _, v in human_literals(module)] == ["kein Zugriff auf /dev/x"]


def test_the_scan_finds_a_sentence_cut_off_another(tmp_path: Path) -> None:
    """The scenes cut "Nicht genug Geld: " off the rules' German refusal: a sentence a method is given is read too
    (English stayed "Not enough money: …" under the big NOT ENOUGH MONEY)."""
    module = tmp_path / "m.py"
    module.write_text('def f(full: str) -> str:\n    return full.removeprefix("Nicht genug Geld: ")\n')
    assert [v for _, v in human_literals(module)] == ["Nicht genug Geld: "]


# --- Grammar


@pytest.mark.parametrize(("code", "one", "two"), [("de", "1 Minute", "2 Minuten"), ("en", "1 minute", "2 minutes")])
def test_plurals_follow_the_languages_rule(code: str, one: str, two: str) -> None:
    words.use(code)
    assert words.plural("count.minutes", 1) == one and words.plural("count.minutes", 2) == two


HUETTE = Word("Hütte", "Hütten", "f")
SCHLOSS = Word("Schloss", "Schlösser", "n")
SPEICHER = Word("Speicher", "Speicher", "m")
HOUSE = Word("house", "houses", "n")
HOTEL = Word("hotel", "hotels", "n")


def test_german_articles_follow_the_nouns_gender() -> None:
    words.use("de")
    assert words.counted(HUETTE, 1) == "eine Hütte" and words.definite(SCHLOSS) == "das Schloss"
    assert words.counted(SPEICHER, 1, case="acc") == "einen Speicher" and words.counted(HUETTE, 2) == "2 Hütten"


def test_english_says_a_hotel_never_an_hotel() -> None:
    words.use("en")
    assert words.counted(HOUSE, 1) == "a house" and words.counted(HOTEL, 1) == "a hotel"
    assert words.counted(HOTEL, 3) == "3 hotels" and words.definite(HOTEL) == "the hotel"


def test_the_doctors_tally_is_a_plural() -> None:
    crosses = [Check("Uhr", False, "x")]
    assert report(crosses).endswith("\n1 Problem.") and report(crosses * 2).endswith("\n2 Probleme.")
    words.use("en")
    assert report(crosses).endswith("\n1 problem.") and report(crosses * 2).endswith("\n2 problems.")


# --- The language in force


def test_the_parser_offers_the_languages_with_a_catalogue() -> None:
    assert cliparse.LANGUAGES == words.LANGUAGES


def test_a_language_without_a_catalogue_is_refused() -> None:
    with pytest.raises(ValueError):
        words.use("fr")
    assert words.language() == "de"


def test_the_config_takes_a_language_with_a_catalogue_and_names_any_other() -> None:
    assert Config.from_dict({"ui": {"language": "en"}}).ui.language == "en"
    with pytest.raises(ConfigError) as err:
        Config.from_dict({"ui": {"language": "fr"}})
    assert err.value.problems == ['[ui] language = "fr": die Sprache, eine mit Katalog: "de", "en"']


def test_run_with_a_language_it_has_no_catalogue_for_exits_78(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[ui]\nlanguage = "fr"\n')
    done = subprocess.run([sys.executable, "-m", "device.daemon.cli", "run", "--sim", "--config", str(config),
                           "--state-dir", str(tmp_path / "state")], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == cli.EX_CONFIG and '[ui] language = "fr"' in done.stderr


def test_a_fresh_state_directory_takes_the_flag_else_the_config_else_german(tmp_path: Path) -> None:
    for name, asked, expected in (("flag", "en", "en"), ("none", "", "de")):
        journal = Journal(tmp_path / f"{name}.sqlite3")
        assert in_force(journal, asked) == expected and journal.setting(KEY) == expected
        journal.close()


def test_the_language_is_kept_across_restarts_and_the_admins_choice_takes_effect_at_once(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    assert in_force(journal, "de") == "de"
    choose(journal, "en")  # the admin page's seam
    assert words.language() == "en" and words.text("doctor.all_well") == "All is well."
    journal.close()
    again = Journal(path)
    assert in_force(again, "de") == "en"  # the config's German does not undo the banker's choice
    again.close()


def doctor(tmp_path: Path, *extra: str, config: str = "") -> subprocess.CompletedProcess[str]:
    path = tmp_path / "config.toml"
    path.write_text(config)
    return subprocess.run([sys.executable, "-m", "device.daemon.cli", "doctor", "--config", str(path),
                           "--state-dir", str(tmp_path), *extra], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)


GERMAN = re.compile(r"\b(fehlt|nicht|kein|keine|Konfiguration|Dienst|Speicher|Uhr|Gruppen|Benutzer|noch|"
                    r"Probleme?|Alles|läuft|gültig|Zugriff|prüfen|synchronisiert)\b|[äöüß]")


@pytest.mark.parametrize(("extra", "config"), [(("--language", "en"), ""), ((), '[ui]\nlanguage = "en"\n')])
def test_the_doctor_speaks_english_when_asked(tmp_path: Path, extra: tuple[str, ...], config: str) -> None:
    """On this machine (no GPIO, no service): every line English, the tally too; no German word but the part
    names the hardware module still owns (RFID-Leser)."""
    done = doctor(tmp_path, *extra, config=config)
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("✓ Configuration:") and "✓ Journal: none yet (created at the first start)" in lines
    assert re.fullmatch(r"All is well\.|\d+ problems?\.", lines[-1])
    german = [line for line in lines if GERMAN.search(line.replace("RFID-Leser", ""))]
    assert not german


def test_a_broken_config_is_said_in_the_language_asked(tmp_path: Path) -> None:
    done = doctor(tmp_path, "--language", "en", config="[ui]\nsleep_after = 5\nsnooze = 1\n")
    first = done.stdout.splitlines()[0]
    assert first.startswith("✗ Configuration: Configuration ") and "has errors: [ui] sleep_after = 5: seconds " \
        "without input until the display goes dark: 10 to 3600 seconds; [ui] snooze: unknown key" in first


def test_the_daemon_starts_a_fresh_state_directory_in_the_configs_language_and_keeps_it(tmp_path: Path) -> None:
    """A whole daemon (simulated parts, a real journal): the config's English is written down at the first start;
    a later start whose config says German keeps the journal's English."""
    from device.daemon.config import UiConfig
    from device.daemon.notify import Notifier
    from device.daemon.service import Daemon

    for configured in ("en", "de"):
        d = Daemon(Config(ui=UiConfig(language=configured)), tmp_path / "state", sim=True, host="127.0.0.1",
                   port=0, notifier=Notifier(""))
        d.start(web=False)
        try:
            assert d.journal is not None and d.journal.setting(KEY) == "en" and words.language() == "en"
        finally:
            d.close()


# --- Phrases: what the rules say, rendered where it is shown


def test_a_phrase_is_said_with_the_games_edition_and_the_language_in_force() -> None:
    """The rules give a key and values; the square's name, the money's notation and the building's word and
    article come from the edition, the sentence from the catalogue in force."""
    from rules.editions import EDITIONS
    from rules.phrase import Cash, Many, Pieces, Place, Value

    banking = EDITIONS["banking"]
    assert words.say(phrase_of("list.last", head="Anna, Ben", last="Cem")) == "Anna, Ben und Cem"
    values: dict[str, Value] = {"amount": Cash(15_025_000), "street": Place(39), "one": Pieces("house", 1, "acc"),
              "who": Many(("Anna", "Ben", "Cem"))}
    said = {name: words._value(value, banking) for name, value in values.items()}
    assert said == {"amount": "15,025M", "street": banking.names[39], "one": "ein Apartment",
                    "who": "Anna, Ben und Cem"}
    words.use("en")
    assert words._value(Cash(15_025_000), banking) == "15.025M"
    assert words._value(Pieces("hotel", 1), banking) == "a hotel"
    assert words.say(phrase_of("count.minutes", n=1)) == "1 minute"
    assert words.say(phrase_of("count.minutes", n=2)) == "2 minutes"


def phrase_of(key: str, **values: str | int) -> Phrase:
    from rules.phrase import phrase

    return phrase(key, **values)


def test_a_request_may_speak_its_own_language_without_changing_the_appliances() -> None:
    """A phone asks for English: its page is English, the OLED (the appliance's language) stays German."""
    import threading

    seen: list[str] = []
    with words.speaking("en"):
        seen.append(words.plural("count.minutes", 2))
        other = threading.Thread(target=lambda: seen.append(words.plural("count.minutes", 2)))
        other.start()
        other.join()
        assert words.appliance_language() == "de"
    seen.append(words.plural("count.minutes", 2))
    assert seen == ["2 minutes", "2 Minuten", "2 Minuten"]


SCANNED_DIRS = ("rules", "drivers", "device", "webui", "words")
NOT_SCANNED = {
    "rules/board.py": "the classic board's data: its square names are the classic edition's own (as printed on the "
                      "German box), the base a family's edition names its changes against",
    "drivers/oled_model.py": "the simulation's model of the SSD1306: its errors are a developer's, raised where the "
                             "real chip would misbehave, never shown to a player",
    "drivers/mfrc522_model.py": "the simulation's model of the MFRC522: states and errors for a developer",
    "drivers/gpio.py": "gpiozero's import: module and class names for the import system",
    "rules/record.py": "the dataclass methods it sets, by name, and the dataclass's own error for a developer",
    "words/__init__.py": "the catalogues' reader: domain names, paths and a developer's error",
    "words/compile.py": "a development tool: file suffixes",
}
"""The modules the scan leaves out, each with why no person reads a sentence of it."""


def test_every_module_speaks_only_through_the_catalogues_or_says_why_not() -> None:
    """Done means "no text a person reads outside the catalogues": every module of the appliance is scanned,
    not only those a surface listed (a module listed nowhere with a literal sentence fails here)."""
    left = {}
    for path in sorted(p for d in SCANNED_DIRS for p in (ROOT / d).rglob("*.py")):
        module = str(path.relative_to(ROOT))
        if module in NOT_SCANNED:
            continue
        found = [value for _, value in human_literals(path)]
        if found:
            left[module] = found[:5]
    assert not left, f"move these into words/locale/*/<surface>.po (or list the words programs read): {left}"
    assert all((ROOT / m).exists() for m in NOT_SCANNED)
