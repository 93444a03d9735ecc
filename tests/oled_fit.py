"""Does a text fit the OLED, with its key fact on the first screen? Measured with the shipped font.

The OLED (drivers/display.py) draws Terminus: a title bar and small lines at 12 px, 6 px a character, and
the big line in the largest bold strike that fits. ``device/scenes/layout.py`` lays a screen out: the title
bar holds what fits beside the scroll mark, the body is wrapped at spaces (a word wider than a line is cut),
and what does not fit the rows under the big line scrolls with the knob. Every check here lays a text out
with those very functions (``page``, ``wrap``, ``problems``), never by counting characters.

A message's **first screen** is what the reader shows before the knob is turned. For the body of a
confirmation (its keys "OK bucht, C zurück" in the title bar, the amount in big, the body) that is three rows;
for a refusal that offers to raise money (the verdict in big, the pinned "OK: Geld beschaffen") two rows: a
rules text the rules also raise for want of money is measured there, the tightest screen it is shown on.

The values are the longest each placeholder may take (:func:`values`): a name of ``MAX_NAME`` characters, the
longest square name the OLED shows of the edition (its display names, :func:`editions`: a square's short name where
the edition gives one; a family's edition's are ``MAX_DISPLAY_NAME`` characters), the amount
with the widest rendering the edition may book, its building words in every count and case. A placeholder is
known by its name (``KINDS``); a new name not listed there fails the test until it is given a kind.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import re
import string
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal

from babel.messages.pofile import read_po
from po_read import message_forms, message_key, plural_rule

import words
from device.scenes.layout import LINE_PX, MORE, TITLE_PX, big_fits, page, problems, px, rows, wrap
from device.scenes.lists import OK_LINE
from device.scenes.notes import RAISE_LINE
from device.scenes.said import say
from drivers.display import font
from drivers.screen import Screen
from rules import EDITIONS
from rules.board import DEEDS, TAX_SQUARES
from rules.commands import MAX_PLAYERS
from rules.editions import Edition
from rules.phrase import Cash, Many, Phrase, Pieces, Place, Value, phrase

OLED_DOMAINS = ("rules", "scenes")
"""The surfaces whose messages the OLED shows (a message of another domain put on the OLED: add its domain)."""
ROWS = {"body": 3, "raise": 2, "note": 3, "line": 1, "row": 1}
"""Where a message is shown and the rows of its first screen (:func:`first_rows` lays each out with ``page``).
``body``: a confirmation's or a booking's text under the big line, its keys in the title bar, nothing pinned: three
rows, the default. ``raise``: a refusal's text for want of money, under its verdict, beside the pinned "OK: Geld
beschaffen": two rows. ``note``: any other refusal's text under its verdict, nothing pinned: three rows. ``line``:
one line of a list. ``row``: a line a scene pins below its body (``page(..., pinned=...)``), drawn as one row
of the display's width that never wraps (:func:`pinned_keys` finds them in the scenes). Besides these, ``title`` (the title bar beside the scroll mark), ``keys`` (a confirmation's
keys, the title bar alone: beside marks that leave too little room it gives way to its short form, a ``title``;
tests/test_ui_confirm.py) and ``big``."""
WHERE = (*ROWS, "title", "keys", "big", "qr")
WIFI = "WIFI:S:Bankleser;T:WPA;P:" + "p" * 12 + ";;"
"""The own Wi-Fi's code at its widest (device/daemon/hotspot.py: the default name and a 12-character password take
a version-3 code at 2 px a module, 62 px; a longer name takes a larger code at 1 px, narrower): ``qr`` texts
stand beside it, their lines as the catalogue breaks them."""

FACT = re.compile(r"^fact:\s*(.*)$")
OLED = re.compile(r"^oled:\s*(\w+)\s*$")


@dataclasses.dataclass(frozen=True)
class Message:
    """One message of a catalogue as the OLED test needs it."""

    domain: str
    key: str
    forms: tuple[str, ...]
    """The text, or each plural form."""
    fact: tuple[str, ...] | None
    """The placeholders that must be whole on the first screen; ("all",), ("none",), or None: undeclared."""
    where: str = "body"
    line: int = 0
    declared: int = 1
    """How many ``#. fact:`` lines it has: exactly one, or which one counts is unclear."""

    @property
    def plural(self) -> bool:
        return len(self.forms) > 1

    @property
    def names(self) -> set[str]:
        return set().union(*(placeholders(t) for t in self.forms))


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


SHOWN: tuple[tuple[str, str], ...] = (
    (r"[a-z]+\.(.+\.)?title(\..+)?", "title"),
    (r"[a-z]+\.(.+\.)?big(\..+)?", "big"),
    (r"scenes\.verdict\..+", "big"),
    (r"scenes\.(result\.booked_for|amount\.verb|card\.title|unused|pages\.end|idle\.missing.*)", "title"),
    (r"scenes\.(end\.(wins|tie)|reader\.(two_cards|missing)|storage\.stop|nothing\..+)", "big"),
    (r"scenes\.join_wifi\.code", "qr"),
)
"""Where a key is shown when its catalogue does not say (``#. oled: title``): a key part ``title`` or ``big``, the
big line's verdicts, and the scenes' titles and big lines known from device/scenes (a note of an unused input
goes into the title bar)."""


SCENES = Path(__file__).resolve().parent.parent / "device" / "scenes"
MESSAGE_KEY = re.compile(r"(scenes|rules)\.[a-z0-9_.]+")
DEPTH = 4
"""How many names deep a pinned line's message is looked for (a variable, a constant, a method returning it)."""


@cache
def pinned_keys(root: Path = SCENES) -> frozenset[str]:
    """The messages the scenes pin below a body (``page(..., pinned=(ui.say(hint),))``) or put as a row of their
    own into a screen they draw (``Screen(lines=(…, words.text("…"), …))``): one row each, never wrapped. Read from the scenes' source: the keys in the ``pinned`` argument, through the function's own
    variables (``hint = phrase("a" if … else "b")``), the module's constants (``RAISE_LINE``) and a method of the
    module that returns the line (``self._pinned(ui)``)."""
    found: set[str] = set()
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = _assigned(tree.body)
        functions = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)]
        methods = {f.name: f for f in functions}  # a helper's name is one per module (a scene's ``view`` is not)
        for func in functions:
            scope = {**module, **_assigned(list(ast.walk(func)))}
            for call in ast.walk(func):
                if isinstance(call, ast.Call) and _callee(call) == "page":
                    for keyword in call.keywords:
                        if keyword.arg == "pinned":
                            found |= _keys_in(keyword.value, scope, module, methods, DEPTH)
                elif isinstance(call, ast.Call) and _callee(call) == "Screen":  # a screen drawn row by row
                    for keyword in call.keywords:
                        if keyword.arg == "lines" and isinstance(keyword.value, ast.Tuple):
                            for row in keyword.value.elts:  # a message said as one row (``*wrapped`` is not)
                                if isinstance(row, ast.Call):
                                    found |= _keys_in(row, {}, {}, {}, 0)
    return frozenset(found)


def _callee(call: ast.Call) -> str:
    return call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")


def _assigned(nodes: Iterable[ast.AST]) -> dict[str, list[ast.AST]]:
    out: dict[str, list[ast.AST]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        out.setdefault(name.id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            out.setdefault(node.target.id, []).append(node.value)
    return out


def _keys_in(node: ast.AST, scope: Mapping[str, list[ast.AST]], module: Mapping[str, list[ast.AST]],
             methods: Mapping[str, ast.FunctionDef], depth: int) -> set[str]:
    if depth < 0:
        return set()
    found: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and MESSAGE_KEY.fullmatch(sub.value):
            found.add(sub.value)
        elif isinstance(sub, ast.Name) and sub.id in scope:
            for value in scope[sub.id]:
                found |= _keys_in(value, scope, module, methods, depth - 1)
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr in methods:
            method = methods[sub.func.attr]
            inner = {**module, **_assigned(list(ast.walk(method)))}
            for ret in ast.walk(method):
                if isinstance(ret, ast.Return) and ret.value is not None:
                    found |= _keys_in(ret.value, inner, module, methods, depth - 1)
    return found


def where_shown(key: str, comments: Iterable[str], refusals: Mapping[str, set[str]] | None = None) -> str:
    """Where the OLED shows ``key``: ``#. oled: title`` (any of ``WHERE``) in the catalogue says so; else a key
    with a part ``title`` or ``big`` after its domain's is shown there; a key the rules raise for want of money
    (``refusals``: key → codes) is shown beside "OK: Geld beschaffen" (``raise``), one they raise only in other
    refusals is a ``note``; everything else is ``body`` text."""
    for comment in comments:
        if (m := OLED.match(comment.strip())) and m.group(1) in WHERE:
            return m.group(1)
    if key in pinned_keys():
        return "row"
    for pattern, where in SHOWN:
        if re.fullmatch(pattern, key):
            return where
    codes = (refusals or {}).get(key) or set()
    if "insufficient_funds" in codes:
        return "raise"
    if codes and "" not in codes:
        return "note"
    return "body"


RULES = Path(__file__).resolve().parent.parent / "rules"


@cache
def refusal_keys(root: Path = RULES) -> dict[str, set[str]]:
    """Each key the rules say, with the refusal codes it is raised with (``RuleError("code", phrase("key"))``,
    ``BadCommand(phrase("key"))``); "" for a use outside a refusal (a booking, a note). Read from the source, so a
    new refusal is found as it is written."""
    found: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside: set[int] = set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in ("RuleError", "BadCommand"):
                code = "bad_command" if name == "BadCommand" else _constant(node.args[0] if node.args else None)
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Call) and _phrase_key(sub):
                        found.setdefault(_phrase_key(sub), set()).add(code or "?")
                        inside.add(id(sub))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _phrase_key(node) and id(node) not in inside:
                found.setdefault(_phrase_key(node), set()).add("")
    return found


def _constant(node: ast.AST | None) -> str:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""


def _phrase_key(node: ast.Call) -> str:
    name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
    return _constant(node.args[0]) if name == "phrase" and node.args else ""


def read_catalogue(path: Path, domain: str, refusals: Mapping[str, set[str]] | None = None) -> list[Message]:
    """Every message of one ``.po`` with its declared fact (``#. fact: player, street``)."""
    with open(path, "rb") as f:
        catalog = read_po(f, domain=domain)
    out = []
    for m in catalog:
        if not m.id:
            continue
        key, forms = message_key(m), message_forms(m)
        fact: tuple[str, ...] | None = None
        declared = 0
        for comment in m.auto_comments:
            if found := FACT.match(comment.strip()):
                fact = tuple(p.strip() for p in found.group(1).split(",") if p.strip())
                declared += 1
        assert m.lineno is not None, key  # read_po numbers every message it reads
        out.append(Message(domain, key, forms, fact, where_shown(key, m.auto_comments, refusals), m.lineno,
                           declared))
    return out


def catalogue_path(code: str, domain: str) -> Path:
    return Path(words.LOCALE_DIR) / code / "LC_MESSAGES" / f"{domain}.po"


def oled_messages(code: str) -> list[Message]:
    """The messages of the OLED's domains in ``code`` (none of a domain not written yet)."""
    out = []
    for domain in OLED_DOMAINS:
        path = catalogue_path(code, domain)
        if path.exists():
            out += read_catalogue(path, domain, refusal_keys())
    return out


# The longest values ------------------------------------------------------------------------------

PLAYERS = ("Marie-Louise", "Hans-Joachim", "Karl-Theodor", "Anna-Theresa", "Lisa-Marleen", "Jan-Henrikje",
           "Eva-Kristina", "Paul-Antonio")
"""``MAX_PLAYERS`` names of ``MAX_NAME`` characters each, one word each (a line breaks only between words)."""
FIRSTS = ("Alte", "Neue", "Hohe", "Rote", "Gute")
FAMILY_NAMES = tuple(f"{first} Schlossallee am Rosengarten" for first in FIRSTS)
"""Names of ``MAX_SQUARE_NAME`` characters a family's edition may give its squares (rules/editions/schema.py),
in words as long as the shipped names' (a name that is one word wider than a line is cut wherever it stands): what
the pages, reports and printables show."""
FAMILY_SHORT = tuple(f"{first} Schlossallee Ost" for first in FIRSTS)
"""The short names of ``MAX_DISPLAY_NAME`` characters (one OLED line) such a family gives them: what the OLED
shows, in words of at most 12 letters, so a line breaks only between words."""


FAMILY_TITLE = "MONOPOLY Sommerferien Familie Mustermann"
"""A family's edition's title of ``MAX_TITLE`` characters (a title is said where a new game is)."""


def family_edition(base: Edition = EDITIONS["banking"]) -> Edition:
    """A family's edition at the limits of its file: every square named with ``MAX_SQUARE_NAME`` characters and a
    short name of ``MAX_DISPLAY_NAME``, on Banking's money (its amounts render widest), with the widest building
    words of the shipped editions."""
    house = max((words.localised(e).house_word for e in EDITIONS.values()), key=lambda w: px(w.plural))
    hotel = max((words.localised(e).hotel_word for e in EDITIONS.values()), key=lambda w: px(w.plural))
    names = tuple(FAMILY_NAMES[sq % len(FAMILY_NAMES)] for sq in range(40))
    short = tuple(FAMILY_SHORT[sq % len(FAMILY_SHORT)] for sq in range(40))
    return dataclasses.replace(base, key="family", title=FAMILY_TITLE, names=names, short_names=short,
                               house_word=house, hotel_word=hotel, language=words.language(), words={})


def editions() -> dict[str, Edition]:
    """Every shipped edition and a family's at the limits of its file, as the OLED says them: each square by the
    name the display shows (``Edition.displayed``: its short name where the edition gives one)."""
    return {key: edition.displayed() for key, edition in {**EDITIONS, "family": family_edition()}.items()}


def amount_bound(edition: Edition) -> int:
    """The largest amount a message may carry: ten times the largest entry or start capital (a balance grows
    past any one entry; ten times holds a long game's fortune in every shipped edition)."""
    return 10 * max(edition.max_entry, edition.start_capital)


def amounts(edition: Edition, count: int) -> list[int]:
    """``count`` different amounts, each as wide as the widest the edition renders below its bound."""
    top = amount_bound(edition) - edition.scale
    return [top - i * edition.scale for i in range(count)]


NAMED = (*DEEDS, *TAX_SQUARES)
"""The squares a command names: the deeds and the tax squares (never "Gehen Sie in das Gefängnis")."""


def squares(edition: Edition, count: int) -> list[int]:
    """``count`` squares a command may name, with the widest names of the edition (different names)."""
    order = sorted(NAMED, key=lambda sq: (-px(edition.names[sq]), sq))
    out: list[int] = []
    for sq in order:
        if edition.names[sq] not in {edition.names[s] for s in out}:
            out.append(sq)
        if len(out) == count:
            break
    return out


PLAYER, PLAYERS_KIND, SQUARE, SQUARES, MONEY, COUNT, PIECES, EDITION, MODE, OP, PHRASE = (
    "player", "players", "square", "squares", "money", "count", "pieces", "edition", "mode", "op", "phrase")
WORD, WORDS, RANGE, UID, PORT, PARTS, PART, DEALT, EDITION_SHORT, ITEM, ENTRY, KNOWN, KEY, PAID = (
    "word", "words", "range", "uid", "port", "parts", "part", "dealt", "edition_short", "item", "entry", "known",
    "key", "paid")
FILES = "files"
LISTS = (PLAYERS_KIND, SQUARES, PARTS, DEALT, KNOWN, FILES)
"""Kinds that say several values: a list may begin on the first screen and go on below it."""

KINDS: dict[str, str] = {
    **dict.fromkeys(("player", "payer", "payee", "owner", "creditor", "debtor", "winner", "leader", "buyer",
                     "seller", "bidder", "taker", "giver", "a", "b", "from", "to", "other", "partner", "name",
                     "me", "loser", "holder", "collector"), PLAYER),
    **dict.fromkeys(("who", "players", "names", "winners", "others", "debtors", "creditors"), PLAYERS_KIND),
    **dict.fromkeys(("street", "square", "station", "utility", "deed", "field", "property"), SQUARE),
    **dict.fromkeys(("streets", "deeds", "properties", "fields", "lift", "lifted"), SQUARES),
    **dict.fromkeys(("amount", "price", "cost", "value", "cash", "rent", "fee", "bid", "total", "owed", "balance",
                     "missing", "sum", "interest", "salary", "fine", "bonus", "debt", "minimum", "maximum", "max",
                     "min", "lowest", "highest", "capital", "received", "mortgage", "tax", "short", "needed",
                     "has", "half", "each", "per_house", "per_hotel", "paid", "gets", "pays", "raisable", "exact",
                     "money", "worth", "refund", "back", "given", "stake", "offered", "least", "most"), MONEY),
    **dict.fromkeys(("n", "count", "number", "minutes", "dice", "of", "last", "houses_per_hotel", "deeds_each",
                     "ends_at", "turns", "place", "rank"), COUNT),
    **dict.fromkeys(("what", "pieces", "one"), PIECES),
    **dict.fromkeys(("house", "hotel", "building"), WORD),
    **dict.fromkeys(("houses", "hotels", "buildings", "many"), WORDS),
    **dict.fromkeys(("range",), RANGE),
    **dict.fromkeys(("entry", "typed"), ENTRY),
    **dict.fromkeys(("first", "then", "only", "second"), ITEM),
    **dict.fromkeys(("known",), KNOWN),
    **dict.fromkeys(("rule",), KEY),
    **dict.fromkeys(("items",), SQUARES),
    **dict.fromkeys(("gives",), DEALT),
    **dict.fromkeys(("uid",), UID),
    **dict.fromkeys(("port",), PORT),
    **dict.fromkeys(("parts",), PARTS),
    **dict.fromkeys(("edition", "title"), EDITION),
    **dict.fromkeys(("op",), OP),
}
"""What a placeholder holds, by its name (or its name's last ``_`` part: ``new_owner`` is a player)."""
KINDS_OF: dict[str, dict[str, str]] = {
    "scenes.trade.gives": {"what": DEALT},
    "scenes.tap.square": {"square": COUNT},
    "scenes.result.noted": {"text": "phrase:booking"},
    "scenes.idle.missing": {"parts": PART},
    "scenes.undo.new_game": {"edition": EDITION_SHORT},
    # the rules': a trade's sides, the ways to raise money a bankruptcy refused names, what the banker typed
    "rules.trade.done": {"a_gives": DEALT, "b_gives": DEALT},
    "rules.bankrupt.can_raise": {"ways": DEALT},
    "rules.bankrupt.can_raise.player": {"ways": DEALT},
    "rules.entry.invalid": {"entry": RANGE},
    "rules.entry.decimals": {"entry": RANGE},
    "rules.note.to_bank": {"each": PAID},
    "rules.tax.square": {"square": COUNT, "first": COUNT, "second": COUNT},
    "rules.new_game.name": {"most": COUNT},
    "rules.rent.dice_range": {"most": COUNT},
    "rules.undo.nothing": {"most": COUNT},
    "rules.new_game.edition": {"edition": KEY},
    "scenes.new.edition_twins": {"key": EDITION_SHORT, "files": FILES},
    "scenes.new.edition_gone": {"edition": EDITION_SHORT},
}
"""Where one message's placeholder holds other than its name says: ``{what}`` a trade's side (deeds, cards,
money), what each side of a trade pays the bank ("Ben 18, Anna 20": two sides), a tag's square number, a result's ``{text}`` the booking; the missing parts in the title bar one part
(device/scenes/idle.py says "2 Teile fehlen" where the names do not fit); the edition without "MONOPOLY " where
the scenes say it so; ``phrase:<name>``: filled as ``PHRASES[name]``."""
PHRASES: dict[str, str] = {
    "booking": r"rules\.", "reason": r"rules\.reason\.", "note": r"rules\.note\.", "key": r"scenes\.key\.",
    "verb": r"scenes\.title\.(credit|debit)$", "hint": r"scenes\..*hint", "where": r"rules\.where\.",
    "ways": r"rules\.bankrupt\.way\.", "said": r"rules\.bankrupt\.done", "mode": r"rules\.mode\.",
    "credit": r"scenes\.key\.haben$", "debit": r"scenes\.key\.soll$", "go": r"scenes\.key\.los$",
}
"""A placeholder filled with a nested phrase: the keys (a pattern) of the messages that may fill it (a ``booking``:
what the rules book, never a refusal nor a transfer's reason). Each is tried in its place, and the key facts of
the one that fills it must be on the outer message's first screen."""
NOT_BOOKINGS = ("rules.reason.",)
COUNT_MAX = 99
"""The widest count a message says: a stock of up to 99 buildings (rules/editions/values.py), 99 minutes."""


def kind_of(name: str, key: str = "") -> str | None:
    if name in KINDS_OF.get(key, {}):
        return KINDS_OF[key][name].split(":")[0]
    if name in PHRASES:
        return PHRASE
    if name in KINDS:
        return KINDS[name]
    tail = name.rsplit("_", 1)[-1]
    return KINDS.get(tail)


PARTS_NAMES = ("Display", "Tastatur", "Drehknopf", "Summer", "LED", "RFID-Leser")
"""Every part the start screen may miss (drivers/hardware.PARTS, not imported: it loads the drivers)."""
UID_HEX = "04a1b2c3d4e5f6"
"""A 7-byte UID (NTAG, MIFARE Ultralight) in hex: the widest the shipped cards have."""


def pieces_longest(kind: Literal["house", "hotel"]) -> list[Pieces]:
    """The building counts a message may say, in the cases the rules say them: one (with its article), four, a
    box's stock."""
    cases: tuple[Literal["nom", "acc", "dat"], ...] = ("nom", "acc")
    return [Pieces(kind, n, case) for n in (1, 4, 32) for case in cases]


def longest(options: Iterable[Value], edition: Edition) -> Value:
    """The option whose rendering is widest (rendered with the catalogue in force)."""
    return max(options, key=lambda v: px(str(words._value(v, edition))))


class Pool:
    """Values handed out once each, so two placeholders (an outer phrase's and a nested one's too) never say
    the same name or amount and each is found by itself on the screen. A fork tries a filler; the one chosen
    moves the pool on (:meth:`take`)."""

    def __init__(self, edition: Edition) -> None:
        self.lists: dict[str, list[Any]] = {"players": list(PLAYERS), "money": amounts(edition, 40),
                                            "fields": squares(edition, 30)}
        self.at = dict.fromkeys(self.lists, 0)

    def next(self, which: str) -> Any:
        items, i = self.lists[which], self.at[which]
        self.at[which] = i + 1
        return items[i % len(items)]

    def fork(self) -> Pool:
        other = copy.copy(self)
        other.at = dict(self.at)
        return other

    def take(self, fork: Pool) -> None:
        self.at = dict(fork.at)


def fillers(name: str, message: Message, messages: Mapping[str, Message]) -> list[Message]:
    """The messages that may fill the phrase placeholder ``name``: nesting no phrase themselves ("Storno: Storno: …"
    is never said), every placeholder known; a booking is no refusal (``refusal_keys``) and no transfer's reason.
    A filler never shown alone (``fact: none``) may be shown inside: it brings no facts, but is measured."""
    alias = KINDS_OF.get(message.key, {}).get(name, "").partition("phrase:")[2] or name
    refusals = refusal_keys()
    return [m for k, m in messages.items()
            if re.match(PHRASES[alias], k) and all(kind_of(n, k) not in (PHRASE, None) for n in m.names)
            and (alias != "booking" or (not k.startswith(NOT_BOOKINGS) and "" in refusals.get(k, {""})))]


def values(message: Message, edition: Edition, messages: Mapping[str, Message] | None = None, *,
           pick: Mapping[str, Message] | None = None, pool: Pool | None = None) -> dict[str, Value]:
    """Every placeholder of ``message`` at its longest for ``edition``; a nested phrase is the one ``pick`` names,
    else the widest of its fillers."""
    names = sorted(message.names)
    kinds = {name: kind_of(name, message.key) for name in names}
    unknown = [name for name, kind in kinds.items() if kind is None]
    if unknown:
        raise KeyError(f"{message.key}: placeholder(s) {unknown} have no kind: add them to oled_fit.KINDS")
    pool = pool or Pool(edition)
    out: dict[str, Value] = {}
    for name in names:
        kind = kinds[name]
        if kind == PLAYER:
            out[name] = pool.next("players")
        elif kind == PLAYERS_KIND:
            out[name] = Many(tuple(PLAYERS[:MAX_PLAYERS]))
        elif kind == SQUARE:
            out[name] = Place(pool.next("fields"))
        elif kind == SQUARES:
            out[name] = Many(tuple(Place(pool.next("fields")) for _ in range(3)))
        elif kind == MONEY:
            out[name] = Cash(pool.next("money"))
        elif kind == COUNT:
            out[name] = COUNT_MAX
        elif kind == PIECES:
            out[name] = longest([*pieces_longest("house"), *pieces_longest("hotel")], edition)
        elif kind == EDITION:
            out[name] = edition.title
        elif kind == MODE:
            out[name] = max((f"{e.quick.name} mit Tempo-Würfel" for e in EDITIONS.values()), key=px)
        elif kind == OP:
            out[name] = "jail_card"
        elif kind in (WORD, WORDS):
            out[name] = max((getattr(w, "plural" if kind == WORDS else "singular") for e in editions().values()
                             for w in (words.localised(e).house_word, words.localised(e).hotel_word)), key=px)
        elif kind == RANGE:
            out[name] = "2-15"
        elif kind == KNOWN:  # what a command may name: every edition's key, every house rule's
            out[name] = ", ".join(sorted(editions()))
        elif kind == KEY:  # a key a command named that the rules do not know, as the refusal quotes it
            out[name] = repr("familie-mustermann-sommer-2026")
        elif kind == FILES:  # the files that claim one key: a family's file and its backup copy
            out[name] = words.text("list.separator").join(["hamburg-2026.toml", "hamburg-2026 kopie.toml"])
        elif kind == ENTRY:  # what the banker typed, refused: as wide as a long entry on the keypad
            out[name] = "99999999K"
        elif kind == ITEM:  # one item of a list the rules chain ("A, B; C"): a square or an amount
            out[name] = Place(pool.next("fields"))
        elif kind == UID:
            out[name] = UID_HEX
        elif kind == PORT:
            out[name] = 65535
        elif kind == PARTS:
            out[name] = words.text("list.separator").join(PARTS_NAMES)
        elif kind == PART:
            out[name] = max(PARTS_NAMES, key=px)
        elif kind == EDITION_SHORT:
            out[name] = edition.title.replace("MONOPOLY ", "") or edition.title
        elif kind == DEALT:
            out[name] = words.text("list.separator").join(
                [*(edition.names[sq] for sq in squares(edition, 3)), shown(Cash(pool.next("money")), edition)])
        elif kind == PAID:  # rules/moves/trade.py _to_bank_note: a trade has two sides
            each = [phrase("rules.note.each", player=pool.next("players"), amount=Cash(pool.next("money")))
                    for _ in range(2)]
            out[name] = shown(phrase("rules.join.comma", first=each[0], then=each[1]), edition)
        elif kind == PHRASE:
            if messages is None:
                raise KeyError(f"{message.key}: {{{name}}} is a phrase: the catalogue is needed to fill it")
            chosen = (pick or {}).get(name)
            options = [chosen] if chosen is not None else fillers(name, message, messages)
            if not options:
                raise KeyError(f"{message.key}: no message of the catalogue may fill {{{name}}} (oled_fit.PHRASES)")
            tried = [(fork, phrase(m.key, **values(m, edition, messages, pool=fork)))
                     for m in options for fork in [pool.fork()]]
            fork, out[name] = max(tried, key=lambda t: px(shown(t[1], edition, messages)))
            pool.take(fork)
    return out


def variants(message: Message, edition: Edition, messages: Mapping[str, Message] | None) -> Iterator[dict[str, Value]]:
    """The values to check ``message`` with: once, or, with a nested phrase, once for each message that may fill
    its first phrase placeholder (each must keep its key facts on the first screen)."""
    phrased = [n for n in sorted(message.names) if kind_of(n, message.key) == PHRASE]
    options = fillers(phrased[0], message, messages) if phrased and messages is not None else []
    if not options:
        yield values(message, edition, messages)  # a phrase placeholder without fillers: KeyError, said
        return
    for filler in options:
        yield values(message, edition, messages, pick={phrased[0]: filler})


def facts_of(message: Message, given: Mapping[str, Value], edition: Edition,
             messages: Mapping[str, Message] | None, prefix: str = "") -> dict[str, str]:
    """The rendered key facts of ``message`` with ``given``: a nested phrase named as a fact brings its own key
    facts (or its whole text, for ``fact: all``)."""
    named = () if message.fact in (None, ("all",), ("none",)) else message.fact or ()
    out: dict[str, str] = {}
    for name in named:
        value = given.get(name)
        if isinstance(value, Phrase) and messages is not None and value.key in messages:
            inner = messages[value.key]
            if inner.fact == ("all",):
                out[prefix + name] = shown(value, edition, messages)
            else:
                out |= facts_of(inner, dict(value.values), edition, messages, f"{prefix}{name}.")
        elif value is not None and name != "n":
            out[prefix + name] = shown(value, edition)
    return out


def atoms_of(message: Message, given: Mapping[str, Value], edition: Edition,
             messages: Mapping[str, Message] | None, prefix: str = "") -> dict[str, str]:
    """The counted buildings said ("2 Hütten", "ein Haus"), nested phrases' too: a count cut from its noun by the
    first screen's edge misleads ("Chausseestraße: 1" / "Haus (50)"); a fact is checked whole anyway, and a
    name or a list running on below is only read on."""
    out: dict[str, str] = {}
    for name, value in given.items():
        if isinstance(value, Phrase):
            if messages is not None and value.key in messages:
                out |= atoms_of(messages[value.key], dict(value.values), edition, messages, f"{prefix}{name}.")
        elif isinstance(value, Pieces):
            out[prefix + name] = shown(value, edition)
    return out


def shown(value: Value, edition: Edition, messages: Mapping[str, Message] | None = None) -> str:
    """A value as ``words.say`` says it; a nested phrase of ``messages`` from its ``.po`` text (its count's form)."""
    if isinstance(value, Phrase) and messages is not None and value.key in messages:
        inner, given = messages[value.key], dict(value.values)
        said = {name: shown(v, edition, messages) for name, v in given.items()}
        count = given.get("n")
        form = plural_rule(words.catalogue(words.language()))(count) if inner.plural and isinstance(count, int) else 0
        return inner.forms[form].format(**said)
    return str(words._value(value, edition))


def render(message: Message, edition: Edition, given: Mapping[str, Value],
           messages: Mapping[str, Message] | None = None) -> list[str]:
    """The message's own text (the ``.po``'s, as ``words.say`` fills it) with ``given`` said in the language in
    force: every plural form the language has, picked by its rule for a count of 1 and of ``COUNT_MAX``."""
    return [text for _, text in counted(message, edition, given, messages)]


def counted(message: Message, edition: Edition, given: Mapping[str, Value],
            messages: Mapping[str, Message] | None = None) -> list[tuple[int | None, str]]:
    """:func:`render`'s texts with the count each was said with (None: no plural)."""
    said = {name: shown(value, edition, messages) for name, value in given.items() if name != "n"}
    if not message.plural:
        return [(None, message.forms[0].format(**said))]
    rule = plural_rule(words.catalogue(words.language()))
    return [(n, message.forms[rule(n)].format(**said, n=n)) for n in sorted({1, COUNT_MAX})]


# The layout and the checks -------------------------------------------------------------------------

def first_rows(where: str = "body") -> int:
    """Rows on the first screen, as ``page`` lays it out: under a title and a big line, with "OK: Geld beschaffen"
    pinned (``raise``) or nothing (``body``, ``note``); a list's line is one."""
    if where in ("line", "row"):
        return 1
    pinned = (say(RAISE_LINE),) if where == "raise" else ()
    screen = page("T", "0", tuple(f"r{i}" for i in range(9)), pinned=pinned)
    return len(screen.lines) - len(pinned)


def confirm_screen(body: str, big: str = "0") -> Screen:
    """``body`` as a confirmation shows it first: its keys ("OK bucht, C zurück") in the title bar, the amount, the
    body wrapped, nothing pinned (device/scenes/lists.py, ``ConfirmScene``)."""
    return page(say(OK_LINE), big, (body,))


def lines_of(text: str) -> list[str]:
    return wrap(text)


def broken_words(text: str, lines: list[str]) -> list[str]:
    """Words the layout cut in two (wider than a line): a line breaks only between words."""
    said = [w for part in text.split("\n") for w in part.split()]
    laid = [w for line in lines for w in line.split()]
    if said == laid:
        return []
    return [w for w in said if w not in laid]


def on(value: str, text: str) -> bool:
    """``value`` is said whole in ``text`` (lines joined by a space, as the eye reads them), not inside another
    word or number ("100" is not in "1000")."""
    flat = " ".join(text.split())
    return re.search(rf"(?<![\w]){re.escape(' '.join(value.split()))}(?![\w])", flat) is not None


NO_GLYPH = "\ue000"
"""A private-use character: Terminus has no glyph for it, and draws the same box for every one it lacks."""


@cache
def _mask(char: str, bold: bool) -> tuple[tuple[int, int], bytes]:
    mask = font(12, bold).getmask(char)
    return mask.size, bytes(mask)


def missing_glyphs(text: str, *, bold: bool = False) -> list[str]:
    """Characters the shipped font has no glyph for: the display would draw a box where they stand."""
    box = _mask(NO_GLYPH, bold)
    lacking = sorted({ch for ch in text if not ch.isspace() and _mask(ch, bold) == box})
    return [f"no glyph for {ch!r} (U+{ord(ch):04X}) in Terminus{' bold' if bold else ''}: drawn as a box"
            for ch in lacking]


def layout_problems(text: str, where: str = "body") -> list[str]:
    """What does not fit: a character the font lacks, a line wider than the display, a word cut, a title wider
    than its bar (beside the scroll mark), a big line wider than its smallest strike."""
    glyphs = missing_glyphs(text, bold=where == "big")
    return glyphs + _layout_problems(text, where)


def _layout_problems(text: str, where: str) -> list[str]:
    if where in ("title", "keys"):
        room = TITLE_PX - (px(MORE) + 4 if where == "title" else 0)
        return [] if px(text) <= room else [f"title {text!r} is {px(text):.0f} px, the bar holds {room:.0f}"]
    if where == "big":
        return [] if big_fits(text) else [f"big {text!r} is wider than the line even at 12 px bold"]
    if where == "qr":
        return problems(Screen(lines=tuple(text.split("\n")), qr=WIFI))
    if where == "line":
        room = LINE_PX - px(">")
        return [] if px(text) <= room else [f"list line {text!r} is {px(text):.0f} px, a list's line holds {room:.0f}"]
    if where == "row":
        return [] if px(text) <= LINE_PX else [f"pinned row {text!r} is {px(text):.0f} px, one row holds {LINE_PX}"]
    lines = lines_of(text)
    out = [f"line {line!r} is {px(line):.0f} px of {LINE_PX}" for line in lines if px(line) > LINE_PX]
    out += [f"word {w!r} is cut across lines" for w in broken_words(text, lines)]
    out += problems(confirm_screen(text))
    return out


def first_screen(text: str, where: str = "body") -> str:
    """What the first screen shows of ``text``: the title bar, the big line, or the first rows."""
    if where in ("title", "keys", "big"):
        return text
    if where == "qr":
        return "\n".join(text.split("\n")[: rows_qr()])
    return "\n".join(lines_of(text)[: first_rows(where)])


def fact_problems(text: str, facts: Mapping[str, str], where: str = "body", *, whole: bool = False) -> list[str]:
    """The key facts not whole on the first screen; ``whole``: the text must fit its first screen entirely."""
    first = first_screen(text, where)
    out = []
    if whole and " ".join(first.split()) != " ".join(text.split()):
        out.append(f"not whole on the first screen: {first.splitlines()} of {text!r}")
    for name, value in facts.items():
        if not on(value, first):
            out.append(f"fact {name}={value!r} is not whole on the first screen {first.splitlines()}")
    rows = 1 if where in ("title", "keys", "big") else first_rows(where) if where != "qr" else rows_qr()
    need = len(wrap(" ".join(facts.values()))) if facts and where not in ("title", "keys", "big") else 0
    if out and need > rows:
        out.append(f"the facts alone take {need} rows, the first screen has {rows}: no wording brings them all "
                   "first (fewer facts, or a larger first screen)")
    return out


def rows_qr() -> int:
    return rows("")


BRACKETS = ("()", "[]", "„“", "\"\"")


def open_brackets(first: str, text: str = "") -> list[str]:
    """A bracket (or quote) opened on the first screen and closed only below it: the phrase inside is cut at the
    screen's edge ("Neues Spiel (MONOPOLY / Sonic,", "für Poststraße (2")."""
    out = []
    for pair in BRACKETS:
        opening, closing = pair[0], pair[1]
        unclosed = first.count(opening) - first.count(closing) if opening != closing else first.count(opening) % 2
        if unclosed > 0 and (not text or text.count(closing) > first.count(closing)):
            out.append(f"{opening}…{closing} opened on the first screen closes below it: {first.splitlines()}")
    return out


def cut_atoms(text: str, atoms: Mapping[str, str], where: str = "body") -> list[str]:
    """Values that begin on the first screen and end below it ("für Poststraße (2" / "Häuser): 100"): the eye
    reads the head as the whole."""
    lines, rows = lines_of(text), first_rows(where)
    first, rest = " ".join(lines[:rows]), " ".join(lines[rows:])
    return [f"{name}={value!r} begins on the first screen and ends below it: {lines[:rows]}"
            for name, value in atoms.items()
            if rest and on(value, f"{first} {rest}") and not on(value, first) and not on(value, rest)]


def check(message: Message, edition: Edition, messages: Mapping[str, Message] | None = None) -> list[str]:
    """Everything wrong with ``message`` on the OLED with ``edition``'s longest values, in the language in force:
    (a) a line wider than the display or a word cut, (b) a key fact not whole on the first screen (or, for
    ``fact: all``, the text not whole there), a value cut by the first screen's edge, (c) no fact declared."""
    if message.fact is None:
        return [f"{message.key}: no '#. fact:' comment (player, street / all / none)"]
    if message.fact == ("none",):
        return []
    whole = message.fact == ("all",)
    strange = [n for n in message.fact if n not in message.names] if not whole else []
    if strange:
        return [f"{message.key}: fact names {strange}, which are not its placeholders {sorted(message.names)}"]
    out: list[str] = []
    for given in variants(message, edition, messages):
        facts = facts_of(message, given, edition, messages)
        atoms = atoms_of(message, given, edition, messages)
        filled = ",".join(v.key for v in given.values() if isinstance(v, Phrase))
        for count, text in counted(message, edition, given, messages):
            if count is not None and "n" in message.fact:
                facts["n"] = str(count)
            found = layout_problems(text, message.where)
            found += fact_problems(text, facts, message.where, whole=whole)
            if message.where in ROWS:
                found += cut_atoms(text, atoms, message.where)
                found += open_brackets(first_screen(text, message.where), text)
            out += [f"{message.key}{f' <{filled}>' if filled else ''}: {p} [{edition.key}]" for p in found]
    return out


def summary(found: Iterable[str]) -> list[str]:
    """Problems said once with every edition they were found with ("… [banking, classic]")."""
    grouped: dict[str, list[str]] = {}
    for problem in found:
        text, _, edition = problem.rpartition(" [")
        grouped.setdefault(text, []).append(edition.rstrip("]"))
    return [f"{text} [{', '.join(eds)}]" for text, eds in grouped.items()]


def check_all(code: str, domains: Iterable[str] = OLED_DOMAINS) -> Iterator[str]:
    """Every problem of every OLED message of ``code``, over every edition."""
    messages = {m.key: m for m in oled_messages(code) if m.domain in domains}
    with words.speaking(code):
        for message in messages.values():
            for edition in editions().values():
                yield from check(message, edition, messages)


# On the device: the screen as drawn ------------------------------------------------------------------

def screen_words(screen: Screen) -> str:
    """Everything the first screen shows, as one text: the title bar, the big line, the lines."""
    return "\n".join(p for p in (screen.title, screen.big, *screen.lines) if p)


def screen_problems(screen: Screen, facts: Iterable[str], atoms: Iterable[str] = ()) -> list[str]:
    """What is wrong with a screen as the reader drew it: a part that does not fit, a key fact not whole on it, a
    value cut at its lower edge (``atoms``: its head on the screen, its rest below)."""
    out = list(problems(screen))
    said = screen_words(screen)
    out += missing_glyphs(f"{screen.title}{screen.icons}{''.join(screen.lines)}") + missing_glyphs(screen.big, bold=True)
    out += [f"{fact!r} is not whole on the first screen: {said.splitlines()}" for fact in facts if not on(fact, said)]
    out += open_brackets("\n".join(screen.lines))
    for atom in atoms:
        head = atom.split()[0]
        if not on(atom, said) and any(line.rstrip().endswith(head) for line in screen.lines):
            out.append(f"{atom!r} is cut at the screen's edge: {said.splitlines()}")
    return out
