"""The family's editions: the TOML files in the state directory's ``editions/`` folder, beside the shipped five.

Read once at start-up (and again when /admin saves one). A broken file never stops the appliance: it is listed
with its problems, the rest plays. A file may name a shipped edition or another family edition as its base; a
family file cannot take a shipped edition's key. Names are measured here as the OLED draws them (device side):
``rules`` checks a character limit, the device its pixels.

The rules name each problem as a phrase; it is said here (:func:`told`), in the language in force when it is
shown (a page request's own, the log's), never stored as text.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import msgspec

import words
from rules import EDITIONS, Edition
from rules.editions import Checked, Problem, edition_data, read_edition, to_toml
from rules.editions.fileformat import COMMENTED, DISPLAYED, MAX_DISPLAY_NAME
from rules.phrase import Place, phrase

FOLDER = "editions"
log = logging.getLogger(__name__)

MAX_BYTES = 256 * 1024
"""A hand-written edition is a few kilobytes; anything much larger is not one."""


class Broken(msgspec.Struct):
    """A file that does not play, with what is wrong with it."""

    path: Path
    problems: list[Problem]
    base: Edition | None = None
    """The edition the file names as its base (when there is one): its names say the problems' squares."""


def at_hand(base: Edition | None) -> Edition:
    """The edition whose names say the squares of a file's problems: the file's base, else the board the
    language in force knows its squares by (the catalogue's ``editions.names.board``: classic, classic-uk)."""
    return base or EDITIONS.get(words.text("editions.names.board")) or EDITIONS["classic"]


def told(problem: Problem, base: Edition | None = None) -> str:
    """A problem as a family reads it, with its line and key, in the language in force: "Zeile 15,
    deeds.39.rents: die Mieten müssen steigen (1800 nach 1700)"."""
    return words.say(problem.said, at_hand(base))


COMMENTS = {"key": "editions.comment.key", "title": "editions.comment.title", "base": "editions.comment.base",
            "board": "editions.comment.board", "currency": "editions.comment.currency",
            "scale": "editions.comment.scale", "km_notation": "editions.comment.km_notation",
            "start_capital": "editions.comment.start_capital", "max_entry": "editions.comment.max_entry",
            "auction_min_bid": "editions.comment.auction_min_bid",
            "speed_die_bonus": "editions.comment.speed_die_bonus", "names": "editions.comment.names",
            "short": "editions.comment.short", "buildings": "editions.comment.buildings",
            "groups": "editions.comment.groups",
            "stock": "editions.comment.stock", "quick": "editions.comment.quick", "rules": "editions.comment.rules",
            "taxes": "editions.comment.taxes", "deeds": "editions.comment.deeds"}
"""The key of the comment that explains each key and table of a written file (:data:`COMMENTED`)."""


def file_comments(edition: Edition) -> dict[str, str]:
    """What each key of a written file is, in the language in force (:func:`rules.editions.to_toml`)."""
    return {key: words.say(phrase(COMMENTS[key], go=Place(0), most=MAX_DISPLAY_NAME), edition) for key in COMMENTED}


def as_file(edition: Edition, data: Mapping[str, Any] | None = None) -> str:
    """An edition (or ``data`` written against it) as a commented file a family edits by hand."""
    return to_toml(edition_data(edition) if data is None else data, comments=file_comments(edition))


class Catalogue(msgspec.Struct):
    """Every edition this box offers: the shipped ones first, then the family's, and the files that do not play."""

    editions: dict[str, Edition] = msgspec.field(default_factory=lambda: dict(EDITIONS))
    files: dict[str, Path] = msgspec.field(default_factory=dict)
    """The family edition's file, by key."""
    warnings: dict[str, list[Problem]] = msgspec.field(default_factory=dict)
    """The cross-check's hints of each family edition, by key."""
    broken: list[Broken] = msgspec.field(default_factory=list)

    def family(self) -> dict[str, Edition]:
        return {k: e for k, e in self.editions.items() if k not in EDITIONS}


def oled_problems(edition: Edition) -> list[Problem]:
    """The squares the OLED names (a booking's) whose name as it shows them (the short name, else the name) does
    not fit one line, measured with its font as the screens are laid out."""
    from device.scenes.layout import LINE_PX, px

    out = []
    for sq in sorted(DISPLAYED):
        if px(name := edition.short_names[sq]) > LINE_PX:
            where = "short" if name != edition.names[sq] else "names"
            out.append(Problem(f"{where}.{sq}", phrase("editions.problem.oled_line", name=name)))
    return out


def check_text(text: str, bases: Mapping[str, Edition], *, oled: bool = True) -> Checked:
    """A family file's edition (None if it has problems), its problems and its warnings: the rules' checks and the
    OLED's; ``base`` the edition it names as its base."""
    checked = read_edition(text, bases)
    problems = list(checked.problems)
    if checked.edition is not None and checked.edition.key in EDITIONS:
        problems.append(Problem("key", phrase("editions.problem.shipped_key", key=repr(checked.edition.key))))
    if checked.edition is not None and oled:
        problems += oled_problems(checked.edition)
    edition = checked.edition if not problems else None
    return Checked(edition, problems, checked.warnings, checked.data if edition else None, checked.base)


def load(state_dir: Path | None, *, oled: bool = True) -> Catalogue:
    """The shipped editions and the family's files from ``state_dir/editions`` (missing folder: none)."""
    return load_folder(None if state_dir is None else state_dir / FOLDER, oled=oled)


def load_folder(folder: Path | None, *, oled: bool = True) -> Catalogue:
    """The shipped editions and the edition files in ``folder`` (``bankleser replay --editions DIR``)."""
    catalogue = Catalogue()
    texts: dict[Path, str] = {}
    for path in sorted(folder.glob("*.toml")) if folder is not None and folder.is_dir() else []:
        try:
            if path.stat().st_size > MAX_BYTES:
                catalogue.broken.append(Broken(path, [Problem("", phrase("editions.problem.too_big",
                                                                         size=MAX_BYTES // 1024))]))
                continue
            texts[path] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            catalogue.broken.append(Broken(path, [Problem("", phrase("editions.problem.unreadable", error=str(err)))]))
    # A family edition may be based on another family edition: read until no more files come in.
    waiting = dict(texts)
    while waiting:
        progress = False
        for path, text in list(waiting.items()):
            checked = check_text(text, catalogue.editions, oled=oled)
            edition, problems, warnings = checked.edition, checked.problems, checked.warnings
            if edition is not None and edition.key in catalogue.editions:
                problems = [Problem("key", phrase("editions.problem.key_taken", key=repr(edition.key),
                                                  file=catalogue.files[edition.key].name))]
                edition = None
            if edition is None and any(p.path == "base" for p in problems) and len(waiting) > 1:
                continue  # its base may be a file not read yet
            del waiting[path]
            progress = True
            if edition is None:
                catalogue.broken.append(Broken(path, problems, checked.base))
            else:
                catalogue.editions[edition.key] = edition
                catalogue.files[edition.key] = path
                catalogue.warnings[edition.key] = warnings
        if not progress:  # the rest wait for bases that never come
            for path, text in waiting.items():
                checked = check_text(text, catalogue.editions, oled=oled)
                catalogue.broken.append(Broken(path, checked.problems, checked.base))
            break
    catalogue.broken.sort(key=lambda b: b.path.name)
    return catalogue


class LazyEditions(Mapping[str, Edition]):
    """The editions a new game may be started with, read from the state directory on first use (the wizard, a
    new game, a page), not before READY: five family files cost about half a second at a Pi core's pace
    (bench/bench_editions.py), and the journal's games carry their editions anyway."""

    def __init__(self, state_dir: Path) -> None:
        self._state_dir = state_dir
        self._editions: dict[str, Edition] | None = None

    def _all(self) -> dict[str, Edition]:
        if self._editions is None:
            self._editions = family_editions(self._state_dir)
        return self._editions

    def __getitem__(self, key: str) -> Edition:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def family_editions(state_dir: Path) -> dict[str, Edition]:
    """What a new game may be started with on this box; each file that does not play is logged with its problems
    (and listed on /admin), never raised: the rest plays."""
    catalogue = load(state_dir)
    with words.speaking(words.appliance_language()):  # the log's language, even when a phone's page reads first
        for broken in catalogue.broken:  # the banker fixes the file from this line
            log.warning("%s", words.text("editions.log.broken", file=broken.path.name,
                                         problems="; ".join(told(p, broken.base) for p in broken.problems)))
    return catalogue.editions


def _problem(p: Problem, base: Edition | None) -> dict[str, Any]:
    """A problem for the page, said in the language of the request that asks (the rules' key as ``code``)."""
    return {"path": p.path, "line": p.line, "code": p.message.key, "message": words.say(p.message, at_hand(base)),
            "text": told(p, base)}


class Shelf:
    """The editions as the admin pages see them: list, check, save, download (the web's side of this folder).

    Saving writes ``editions/<key>.toml`` whole (a temporary file renamed over it) and hands the ledger the new
    list: games already started keep the edition their journal holds."""

    def __init__(self, state_dir: Path, ledger: Any = None) -> None:
        self.state_dir = state_dir
        self.ledger = ledger

    def catalogue(self) -> Catalogue:
        return load(self.state_dir)

    def all(self) -> dict[str, Edition]:
        return self.catalogue().editions

    def overview(self) -> dict[str, Any]:
        cat = self.catalogue()
        return {"editions": [{"key": k, "title": e.title, "base": e.base, "family": k not in EDITIONS,
                              "warnings": [_problem(w, cat.editions.get(e.base or ""))
                                           for w in cat.warnings.get(k, [])]}
                             for k, e in cat.editions.items()],
                "broken": [{"file": b.path.name, "problems": [_problem(p, b.base) for p in b.problems]}
                           for b in cat.broken]}

    def check(self, text: str) -> tuple[Edition | None, dict[str, Any]]:
        checked = check_text(text, self.catalogue().editions)
        edition, base = checked.edition, checked.base
        return edition, {"ok": edition is not None, "key": edition.key if edition else None,
                         "problems": [_problem(p, base) for p in checked.problems],
                         "warnings": [_problem(w, base) for w in checked.warnings]}

    def save(self, text: str) -> dict[str, Any]:
        edition, answer = self.check(text)
        if edition is None:
            return answer
        folder = self.state_dir / FOLDER
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = folder / f".{edition.key}.toml.tmp"
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(folder / f"{edition.key}.toml")
        except OSError as err:
            said = words.text("editions.store.not_saved", error=err.strerror or err)
            return {**answer, "ok": False, "problems": [{"path": "", "line": None, "code": "editions.store.not_saved",
                                                         "message": said, "text": said}]}
        if self.ledger is not None:
            self.ledger.editions = self.catalogue().editions
        return answer

    def text(self, key: str) -> str | None:
        """The file of a family edition as saved, or a shipped edition as a whole file (to copy and change)."""
        cat = self.catalogue()
        if key in cat.files:
            return cat.files[key].read_text(encoding="utf-8")
        edition = cat.editions.get(key)
        return None if edition is None else as_file(edition)

    def edition(self, key: str) -> Edition | None:
        """The running game's edition when it has this key (as its journal keeps it), else the box's edition of
        that key: what the pages label a game's squares with."""
        state = self.ledger.game.state if self.ledger is not None else None
        if state is not None and state.edition.key == key:
            return state.edition  # type: ignore[no-any-return]
        return EDITIONS.get(key) or self.catalogue().editions.get(key)

    def data(self, key: str) -> dict[str, Any] | None:
        edition = self.catalogue().editions.get(key)
        return None if edition is None else edition_data(edition)
