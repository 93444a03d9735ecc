"""A fixed corpus of edition files, most of them broken, and what the checker says of each.

The checker of an edition's file (``rules/editions/``) promises that a file accepted once stays accepted and a
file refused is refused with the same message keys and values (families read those messages; their texts are in
the catalogues). This corpus pins that promise across a rewrite of the checker: the shipped boards, whole
boards without base, a family's file and a journal's data, each mutated by a seeded random walk (a value, a
key or a table header replaced, a line dropped, doubled or moved, a stray character typed, a number scaled), and
the outcome of each (every problem and warning with its line, key and phrase; the built edition and the written
file as digests) kept in ``golden/edition_corpus.json``.

``python tests/edition_corpus.py`` records the outcomes again: only when a change of outcome is meant.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
if str(ROOT.parent) not in sys.path:
    sys.path.insert(0, str(ROOT.parent))

from rules.editions import EDITIONS, check_data, edition_data, journal_data, read_edition, to_toml  # noqa: E402
from rules.editions.fileformat import Checked, Problem  # noqa: E402
from rules.editions.shipped import shipped_texts  # noqa: E402
from rules.phrase import to_data  # noqa: E402

GOLDEN = ROOT / "golden" / "edition_corpus.json"
SEED = 20261128
TEXT_CASES = 2400
DATA_CASES = 800

FAMILY = '''key = "hamburg"
title = "MONOPOLY Hamburg"
base = "skylanders"
currency = "Taler"
scale = 10
language = "de"

[groups]
stations = "Fähren"

[stock]
houses = 40

[quick]
houses_per_hotel = 3

[buildings]
house = { singular = "Speicher", plural = "Speicher", gender = "m" }

[words.en]
house = { singular = "warehouse", plural = "warehouses", gender = "n" }
currency = "thaler"
quick = "short game"

[words.fr]
utilities = "services"

[names]
1 = "Reeperbahn"
5 = "Hauptbahnhof"
12 = "Stromnetz Hamburg Nord und Süd"
39 = "Jungfernstieg"

[short]
12 = "Stromnetz"
4 = "Steuer"

[taxes]
4 = 2000

[deeds.39]
price = 4000
rents = [500, 2000, 6000, 14000, 17000, 20000]

[deeds.1]
mortgage = 300
'''

VALUES = ("0", "1", "-1", "3", "5", "10", "100", "1000", "10000", "1000000", "99999999999", "20000000",
          "true", "false", "1.5", "1979-05-27", '"x"', '""', '" lead"', '"tail "', '"m"', '"f"', '"q"',
          '"mega"', '"ultimate-banking"', '"classic"', '"banking"', '"nope"', '"en"', '"EN"', '"Bad Key"',
          '"München Tölz"', '"Schlossallee"', '"Badstraße"', '"Ein Name der länger als eine Zeile ist"',
          '"Ein Name der viel zu lang ist für jede Zeile und Seite"', '"Zweiundzwanzig Zeichen"',
          '"€"', '"Taler und Groschen und Heller"', "[]", "[1, 2]", "[true, 1]", '["a"]',
          "[10, 20, 30, 40, 50, 60]", "[60, 50, 40, 30, 20, 10]", "[0, 1, 2, 3, 4, 5]", "[4, 10]",
          "[25, 50, 100, 200]", "[2, 10, 30, 90, 160, 250]", "{ a = 1 }",
          '{ singular = "Turm", plural = "Türme", gender = "m" }', '{ singular = "Turm", plural = "Türme" }',
          '{ singular = "", plural = "Türme", gender = "x" }')
KEYS = ("key", "title", "base", "language", "board", "currency", "scale", "km_notation", "start_capital",
        "salary", "jail_fine", "max_entry", "auction_min_bid", "speed_die_bonus", "stations", "utilities", "houses",
        "hotels", "name", "deeds_each", "deal_paid", "houses_per_hotel", "ends_at_bankruptcy",
        "double_rent_with_mortgaged_group", "hotel_sale_returns_houses", "singular", "plural", "gender",
        "house", "hotel", "quick", "price", "rents", "house_price", "mortgage", "salry", "titel", "rent", "prices",
        "xyz", "0", "1", "4", "5", "12", "38", "39", "40", "45", "60", "x", "en", "words", "short", '"5"',
        "deeds.1.price", "buildings.house", "names.3")
HEADERS = ("[deeds.39]", "[deeds.1]", "[deeds.0]", "[deeds.12]", "[deeds.15]", "[deeds.40]", "[deeds.45]",
           "[deeds.x]", "[deeds]", "[names]", "[short]", "[taxes]", "[buildings]", "[buildings.house]",
           "[buildings.tower]", "[words.en]", "[words.eng]", "[words.en.house]", "[words]", "[groups]", "[stock]",
           "[quick]", "[rules]", "[foo]", "[[deeds]]", "[names.3]")
CHARACTERS = ('"', "'", "[", "]", "=", "\n", "#", " ", "ä", "\t", "{", ",", ".", "\x01", "\\")
PY_VALUES: tuple[Any, ...] = (0, 1, -1, 3, 10, 10_000, 99_999_999_999, True, False, 1.5, "x", "", " lead", "m",
                              "mega", "classic", "en", "Bad Key", "Zweiundzwanzig Zeichen!", "Ein Name der viel zu "
                              "lang ist für jede Zeile", [], [1, 2], [10, 20, 30, 40, 50, 60], [60, 50, 40, 30, 20,
                              10], [True], {"a": 1}, {"singular": "Turm", "plural": "Türme", "gender": "f"}, None)


HEAD = 'key = "fam"\ntitle = "MONOPOLY Fam"\nbase = "classic"\n'
SCALED = HEAD + "scale = 10\n" + "".join(
    f"\n[deeds.{sq}]\nprice = {d.price * 10}\nrents = {[r * 10 for r in d.rents]}\nmortgage = {d.mortgage * 10}\n"
    for sq, d in sorted(EDITIONS["classic"].deeds.items()) if d.kind.value != "utility")
"""A family's board at ten times the classic's money, every deed given: a copy error in it is said scaled."""

TARGETED: tuple[tuple[str, str], ...] = (
    ("board later", 'board = "mega"\n'), ("board later 2", 'board = "ultimate-banking"\n'),
    ("board unknown", 'board = "hex"\n'), ("currency long", 'currency = "Taler und Groschen und Heller"\n'),
        ("km scale", "km_notation = true\nscale = 10\n"), ("language", 'language = "deu"\n'),
    ("too large", "max_entry = 99999999990\n"), ("positive", "salary = 0\njail_fine = -10\n"),
    ("rent least", "[deeds.1]\nrents = [0, 10, 30, 90, 160, 250]\n"),
    ("rents rise", "[deeds.1]\nrents = [2, 10, 10, 90, 160, 250]\n"),
    ("utility rents", "[deeds.12]\nrents = [4, 10, 20]\n"), ("station rents", "[deeds.5]\nrents = [25, 50]\n"),
    ("house price street", "[deeds.12]\nhouse_price = 50\n"), ("house price least", "[deeds.1]\nhouse_price = 0\n"),
    ("price least", "[deeds.1]\nprice = 0\nmortgage = 0\n"), ("no deed", "[deeds.0]\nprice = 1\n"),
    ("not a tax", "[taxes]\n5 = 100\n"), ("square none", "[names]\n60 = \"x\"\n"),
    ("short twice", '[short]\n3 = "Badstraße"\n'), ("short blank", '[short]\n39 = ""\n'),
    ("short long", f'[short]\n39 = "{"x" * 22}"\n'), ("needs short", '[names]\n39 = "Die allerlängste Schlossallee"\n'),
    ("name blank", '[names]\n3 = " Badstraße"\n'), ("name twice", '[names]\n3 = "Badstraße"\n'),
    ("name long", f'[names]\n3 = "{"x" * 33}"\n'),
    ("quick name", '[quick]\nname = "ein sehr langer Name für das Spiel"\ndeeds_each = 4\n'),
    ("stock", "[stock]\nhouses = 0\nhotels = 100\n"), ("groups", '[groups]\nstations = ""\n'),
    ("words long", f'[words.en]\nstations = "{"x" * 33}"\ncurrency = "{"x" * 21}"\nquick = ""\n'),
    ("words word", '[words.en]\nhouse = { singular = "h", plural = "", gender = "x" }\nhotel = { singular = "h" }\n'),
    ("words code", '[words.EN]\nstations = "x"\n[words.de]\nstations = 5\n'),
    ("gender", '[buildings]\nhouse = { singular = "Turm", plural = "Türme", gender = "x" }\n'),
    ("word lacks", '[buildings]\nhouse = { singular = "Turm" }\nhotel = { singular = "Burg", plural = "Burgen" }\n'),
    ("tower", '[buildings]\ntower = { singular = "Turm" }\n'),
    ("edges low", f'currency = "{"c" * 20}"\njail_fine = 0\nspeed_die_bonus = 0\n[quick]\ndeeds_each = 1\n'
     f'houses_per_hotel = 1\nends_at_bankruptcy = 1\nname = "q"\n[stock]\nhouses = 1\nhotels = 1\n'
     f'[groups]\nstations = "s"\nutilities = "{"u" * 32}"\n'),
    ("edges high", 'max_entry = 9990000000\nauction_min_bid = 1\n[quick]\ndeeds_each = 3\nhouses_per_hotel = 4\n'
     f'ends_at_bankruptcy = 7\nname = "{"q" * 20}"\n[stock]\nhouses = 99\nhotels = 99\n'),
    ("edges over", 'max_entry = 9990000001\nauction_min_bid = 0\n[quick]\ndeeds_each = 0\nhouses_per_hotel = 5\n'
     f'ends_at_bankruptcy = 8\nname = "{"q" * 21}"\n[stock]\nhouses = 100\nhotels = 0\n'
     f'[groups]\nstations = "{"s" * 33}"\n'),
    ("word edges", f'[buildings]\nhouse = {{ singular = "{"h" * 20}", plural = " h ", gender = "n" }}\n'
     f'hotel = {{ singular = "{"h" * 21}", plural = "  ", gender = "F" }}\n'
     f'[words.en]\nstations = "{"s" * 32}"\nutilities = "{"u" * 33}"\ncurrency = "{"c" * 20}"\n'
     f'quick = "{"q" * 21}"\n'),
    ("name edges", f'[names]\n1 = "{"n" * 32}"\n3 = "{"m" * 21}"\n6 = "{"o" * 22}"\n30 = "{"p" * 32}"\n'
     f'[short]\n1 = "{"s" * 21}"\n6 = "O"\n8 = "o"\n'),
)
"""One file a refusal of each kind, each on the classic board: the corpus's random walk rarely reaches some."""

WHOLE: tuple[tuple[str, str], ...] = (
    ("no key", 'title = "x"\nbase = "classic"\n'), ("key form", 'key = "--"\ntitle = "MONOPOLY ***"\nbase = "classic"\n'),
    ("key suggest", 'key = "Bad Tölz"\ntitle = "x"\nbase = "classic"\n'),
    ("base unknown", 'key = "x"\ntitle = "x"\nbase = "nope"\n'),
    ("scale base", 'key = "x"\ntitle = "x"\nbase = "banking"\nscale = 15000\n'),
    ("off scale", 'key = "x"\ntitle = "x"\nbase = "banking"\nsalary = 15000\n'),
    ("reader width", 'key = "x"\ntitle = "x"\nbase = "banking"\nmax_entry = 123450000\n'),
    ("title blank", 'key = "x"\ntitle = "  "\nbase = "classic"\n'),
    ("title long", f'key = "x"\ntitle = "{"M" * 41}"\nbase = "classic"\n'), ("nothing", 'key = "x"\n'),
    ("title edge", f'key = "{"k" * 32}"\ntitle = "{"M" * 40}"\nbase = "classic"\n'),
    ("key edge", f'key = "{"k" * 33}"\ntitle = "x"\nbase = "classic"\n'),
    ("km edge", 'key = "x"\ntitle = "x"\nbase = "banking"\nmax_entry = 99990000\nsalary = 10000\n'), ("table", 'key = "x"\nnames = 5\nquick = []\n'),
)


def sources() -> list[tuple[str, str]]:
    """The files the mutations start from: each shipped board, three whole boards without base, two families'."""
    out = sorted(shipped_texts().items())
    for key in ("classic", "banking", "skylanders"):
        data = edition_data(EDITIONS[key])
        data.pop("base", None)
        out.append((f"{key}-whole", to_toml(data)))
    out += [("family", FAMILY), ("scaled", SCALED)]
    return out


def _assignments(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith(("#", "["))]


def mutate_text(text: str, rng: random.Random) -> str:
    """One mutation of a file's text."""
    lines = text.split("\n")
    kind = rng.randrange(10)
    assigned = _assignments(lines)
    if kind in (0, 1) and assigned:  # a value replaced
        i = rng.choice(assigned)
        lines[i] = f"{lines[i].split('=', 1)[0]}= {rng.choice(VALUES)}"
    elif kind == 2 and assigned:  # a key replaced
        i = rng.choice(assigned)
        lines[i] = f"{rng.choice(KEYS)} ={lines[i].split('=', 1)[1]}"
    elif kind == 3:  # a line dropped
        del lines[rng.randrange(len(lines))]
    elif kind == 4:  # a line doubled
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == 5:  # a header replaced or added
        headers = [i for i, line in enumerate(lines) if line.startswith("[")]
        if headers and rng.random() < 0.6:
            lines[rng.choice(headers)] = rng.choice(HEADERS)
        else:
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(HEADERS))
    elif kind == 6:  # a line added
        lines.insert(rng.randrange(len(lines) + 1), f"{rng.choice(KEYS)} = {rng.choice(VALUES)}")
    elif kind == 7:  # a stray character
        pos = rng.randrange(len(text) + 1)
        return text[:pos] + rng.choice(CHARACTERS) + text[pos:]
    elif kind == 8 and assigned:  # a number scaled (a copy error, or another scale)
        i = rng.choice(assigned)
        head, value = lines[i].split("=", 1)
        factor = rng.choice((2, 10, 100, -1, 0))
        words = [str(int(w) * factor) if w.strip().isdigit() else w
                 for w in value.replace(",", " , ").replace("]", " ]").split(" ")]
        lines[i] = f"{head}={' '.join(words).replace(' , ', ', ').replace(' ]', ']')}"
    else:  # two lines swapped
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, (*path, key))


def mutate_data(data: dict[str, Any], rng: random.Random) -> None:
    """One mutation of a journal's edition data: a value replaced, a key dropped or an unknown key added."""
    path = rng.choice([p for p in _leaves(data) if p])
    *parents, last = path
    table = data
    for part in parents:
        table = table[part]
    kind = rng.randrange(4)
    if kind == 0:
        del table[last]
    elif kind == 1:
        table[rng.choice(("xyz", "salry", "99", "7"))] = copy.deepcopy(rng.choice(PY_VALUES))
    else:
        table[last] = copy.deepcopy(rng.choice(PY_VALUES))


def _problems(found: list[Problem]) -> list[list[Any]]:
    return [[p.line, p.path, p.warning, to_data(p.message)] for p in found]


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr) if not isinstance(value, str) \
        else value
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _keys_str(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _keys_str(v) for k, v in value.items()}
    return value


def outcome(checked: Checked) -> dict[str, Any]:
    """What a reader of the file learns: every problem and warning; for a good file its edition, its whole data
    and the file written from that data (as digests)."""
    out: dict[str, Any] = {"problems": _problems(checked.problems), "warnings": _problems(checked.warnings),
                           "base": checked.base.key if checked.base else None}
    if checked.edition is not None:
        out["edition"] = _digest(repr(checked.edition))
        out["data"] = _digest(_keys_str(checked.data))
        out["toml"] = _digest(to_toml(checked.data or {}))
        out["journal"] = _digest(journal_data(checked.edition))
    return out


def corpus() -> Iterator[tuple[str, dict[str, Any]]]:
    """Each case's name and its outcome, from the seed."""
    rng = random.Random(SEED)
    texts = sources()
    for name, text in texts:
        yield f"{name}", outcome(read_edition(text, EDITIONS))
    for name, text in TARGETED:
        top, tables = (text, "") if not text.startswith("[") else ("", text)
        yield name, outcome(read_edition(HEAD + top + tables, EDITIONS))
    for name, text in WHOLE:
        yield name, outcome(read_edition(text, EDITIONS))
    unscaled = SCALED.replace("scale = 10\n", "")
    for name, text in (("scaled off", SCALED.replace("rents = [20,", "rents = [30,")),
                       ("scaled mortgage", SCALED.replace("mortgage = 2000", "mortgage = 2100")),
                       ("unscaled off", unscaled.replace("rents = [20,", "rents = [30,")),
                       ("unscaled few", HEAD + "[deeds.1]\nprice = 600\nrents = [20, 100, 300, 900, 1600, 2500]\n")):
        yield name, outcome(read_edition(text, EDITIONS))
    for n in range(TEXT_CASES):
        name, text = rng.choice(texts)
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            text = mutate_text(text, rng)
        yield f"text {n} {name}", outcome(read_edition(text, EDITIONS))
    keys = sorted(EDITIONS)
    for n in range(DATA_CASES):
        key = rng.choice(keys)
        data = journal_data(EDITIONS[key]) if rng.random() < 0.5 else edition_data(EDITIONS[key])
        for _ in range(rng.choice((1, 1, 2))):
            mutate_data(data, rng)
        whole = rng.random() < 0.8
        try:
            checked = check_data(data, EDITIONS, whole=whole)
        except Exception as err:  # a crash is an outcome too, to be kept or fixed on purpose
            yield f"data {n} {key}", {"raised": type(err).__name__}
            continue
        yield f"data {n} {key} {'whole' if whole else 'file'}", outcome(checked)


def summary(said: dict[str, Any]) -> list[Any]:
    """A case's outcome as kept: its digest (the whole of it), and for a reader the message keys it gave."""
    keys = sorted({p[3][0] for p in [*said.get("problems", []), *said.get("warnings", [])]})
    return [_digest(said), "edition" in said, *keys]


def record() -> None:
    """The outcomes of the checker as it is, one line a case."""
    lines = [f"{json.dumps(name)}: {json.dumps(summary(said), ensure_ascii=False)}" for name, said in corpus()]
    GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


if __name__ == "__main__":
    record()
