"""The family's editions: the TOML files in the state directory's ``editions/`` folder, beside the shipped five.

Read at the first use and again at the next use after a file changed (:class:`Editions`). A broken file never
stops the appliance: it is listed with its problems, the rest plays. A file may name a shipped edition or another
family edition as its base; a family file cannot take a shipped edition's key. Names are measured here as the
OLED draws them (device side): ``rules`` checks a character limit, the device its pixels.

The rules name each problem as a phrase; it is said here (:func:`told`), in the language in force when it is
shown (a page request's own, the log's), never stored as text.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import msgspec

import words
from rules import EDITIONS, Edition
from rules.editions import Checked, Problem
from rules.editions.reading import MAX_BYTES, Decoded, decode, replacement_problems, too_big
from rules.phrase import Phrase, Place, phrase

from .edition_versions import keep, kept_path, versions

FOLDER = "editions"
log = logging.getLogger(__name__)

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
    deeds.39.rents: die Mieten müssen steigen: auf 1800 folgt 1700"."""
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
    # An edition's file format (its schema and its checks) loads when a file is read or written, after READY.
    from rules.editions.fileformat import COMMENTED, MAX_DISPLAY_NAME

    return {key: words.say(phrase(COMMENTS[key], go=Place(0), most=MAX_DISPLAY_NAME), edition) for key in COMMENTED}


def as_file(edition: Edition, data: Mapping[str, Any] | None = None) -> str:
    """An edition (or ``data`` written against it) as a commented file a family edits by hand."""
    from rules.editions.fileformat import edition_data, to_toml

    return to_toml(edition_data(edition) if data is None else data, comments=file_comments(edition))


class Catalogue(msgspec.Struct):
    """Every edition this box offers: the shipped ones first, then the family's, and the files that do not play."""

    editions: dict[str, Edition] = msgspec.field(default_factory=lambda: dict(EDITIONS))
    files: dict[str, Path] = msgspec.field(default_factory=dict)
    """The family edition's file, by key."""
    warnings: dict[str, list[Problem]] = msgspec.field(default_factory=dict)
    """The cross-check's hints of each family edition, by key."""
    broken: list[Broken] = msgspec.field(default_factory=list)
    claims: dict[str, list[Path]] = msgspec.field(default_factory=dict)
    """The files that claim each key (a broken file's too): what saving under that key replaces."""
    refused: dict[str, Phrase] = msgspec.field(default_factory=dict)
    """Keys no new game may be started with, and why: two files claim each."""
    notes: dict[Path, list[Problem]] = msgspec.field(default_factory=dict)
    """How a file was read, where that is worth a word (converted from Windows-1252)."""

    def family(self) -> dict[str, Edition]:
        return {k: e for k, e in self.editions.items() if k not in EDITIONS}


def oled_problems(edition: Edition) -> list[Problem]:
    """The squares the OLED names (a booking's) whose name as it shows them (the short name, else the name) does
    not fit one line, measured with its font as the screens are laid out."""
    from drivers.measure import LINE_PX, px  # Pillow and the font: only when a file is checked
    from rules.editions.fileformat import DISPLAYED

    out = []
    for sq in sorted(DISPLAYED):
        if px(name := edition.short_names[sq]) > LINE_PX:
            where = "short" if name != edition.names[sq] else "names"
            out.append(Problem(f"{where}.{sq}", phrase("editions.problem.oled_line", name=name)))
    return out


def check_text(text: str, bases: Mapping[str, Edition], *, oled: bool = True) -> Checked:
    """A family file's edition (None if it has problems), its problems and its warnings: the rules' checks and the
    OLED's; ``base`` the edition it names as its base. A text with a "�" is never an edition: a character was lost
    before it came here, and saving would keep the loss."""
    from rules.editions.fileformat import read_edition

    lost = replacement_problems(text)
    if not lost and (empty := _checked_empty(text)):
        return Checked(None, empty)
    checked = read_edition(text, bases)
    problems = lost + list(checked.problems)
    if checked.edition is not None and checked.edition.key in EDITIONS:
        problems.append(Problem("key", phrase("editions.problem.shipped_key", key=repr(checked.edition.key))))
    if checked.edition is not None and oled:
        problems += oled_problems(checked.edition)
    edition = checked.edition if not problems else None
    return Checked(edition, problems, checked.warnings, checked.data if edition else None, checked.base)


def _checked_empty(text: str) -> list[Problem]:
    """A text with nothing but comments is said "empty", not as the sixty keys it lacks."""
    return [] if any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()) else \
        [Problem("", phrase("editions.problem.empty"))]


def read_path(path: Path) -> Decoded:
    """A file of the folder (or the command line's) through the one reader (:func:`rules.editions.reading.decode`);
    its size is asked first, so a stray large file is never read whole."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return too_big()
        return decode(path.read_bytes())
    except OSError as err:
        return Decoded(None, [Problem("", phrase("editions.problem.unreadable", error=err.strerror or str(err)))])


_KEY_LINE = re.compile(r'^\s*key\s*=\s*["\']([^"\']*)["\']', re.M)


def claimed_key(text: str) -> str | None:
    """The key a file claims, even when the rest of it has mistakes: two files that claim one key are a twin
    whatever else is wrong with them."""
    try:
        key = tomllib.loads(text).get("key")
    except tomllib.TOMLDecodeError:
        m = _KEY_LINE.search(text)
        key = m.group(1) if m else None
    return key if isinstance(key, str) else None


def base_loops(texts: Iterable[str]) -> dict[str, list[str]]:
    """The keys whose bases lead back to themselves, each with its loop from itself round to itself
    ("stadt-a" → "stadt-b" → "stadt-a"): said as a loop, not as an unknown base that is there."""
    bases: dict[str, str] = {}
    for text in texts:
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            continue
        if isinstance(raw.get("key"), str) and isinstance(raw.get("base"), str):
            bases[raw["key"]] = raw["base"]
    loops: dict[str, list[str]] = {}
    for start in bases:
        chain = [start]
        while (nxt := bases.get(chain[-1])) is not None and nxt not in chain:
            chain.append(nxt)
        if nxt == start:
            loops[start] = [*chain, start]
    return loops


def load(state_dir: Path | None, *, oled: bool = True) -> Catalogue:
    """The shipped editions and the family's files from ``state_dir/editions`` (missing folder: none)."""
    return load_folder(None if state_dir is None else state_dir / FOLDER, oled=oled)


def _files(folder: Path | None) -> list[Path]:
    return sorted(folder.glob("*.toml")) if folder is not None and folder.is_dir() else []


def load_folder(folder: Path | None, *, oled: bool = True) -> Catalogue:
    """The shipped editions and the edition files in ``folder`` (``bankleser replay --editions DIR``).

    Two files that claim one key (a backup "hamburg kopie.toml" beside "hamburg.toml") are both listed as broken,
    each naming both, and the key is refused for a new game: which of them is "Hamburg" is the family's to say (by
    deleting one), never the order of the file names'."""
    catalogue = Catalogue()
    texts: dict[Path, str] = {}
    for path in _files(folder):
        decoded = read_path(path)
        if decoded.text is None:
            catalogue.broken.append(Broken(path, decoded.problems))
            continue
        texts[path] = decoded.text
        catalogue.notes[path] = decoded.notes
        if (key := claimed_key(decoded.text)) is not None:
            catalogue.claims.setdefault(key, []).append(path)
    for key, paths in catalogue.claims.items():
        if len(paths) > 1 and key not in EDITIONS:
            said = phrase("editions.problem.key_twins", key=repr(key), files=", ".join(p.name for p in paths))
            catalogue.refused[key] = said
            for path in paths:
                catalogue.broken.append(Broken(path, [Problem("key", said)]))
                del texts[path]
    # A family edition may be based on another family edition: read until no more files come in.
    waiting = dict(texts)
    while waiting:
        progress = False
        for path, text in list(waiting.items()):
            checked = check_text(text, catalogue.editions, oled=oled)
            edition, problems, warnings = checked.edition, checked.problems, checked.warnings
            if edition is None and any(p.path == "base" for p in problems) and len(waiting) > 1:
                continue  # its base may be a file not read yet
            del waiting[path]
            progress = True
            if edition is None:
                catalogue.broken.append(Broken(path, problems, checked.base))
            else:
                catalogue.editions[edition.key] = edition
                catalogue.files[edition.key] = path
                catalogue.warnings[edition.key] = catalogue.notes.get(path, []) + warnings
        if not progress:  # the rest wait for bases that never come: a loop of them, or one that is not there
            loops = base_loops(waiting.values())
            for path, text in waiting.items():
                loop = loops.get(claimed_key(text) or "")
                if loop:
                    catalogue.broken.append(Broken(path, [Problem("base", phrase(
                        "editions.problem.base_loop", keys=" → ".join(map(repr, loop))))]))
                    continue
                checked = check_text(text, catalogue.editions, oled=oled)
                catalogue.broken.append(Broken(path, checked.problems, checked.base))
            break
    catalogue.broken.sort(key=lambda b: b.path.name)
    return catalogue


def _signature(folder: Path) -> tuple[tuple[str, int, bytes], ...]:
    """What changes when a file of the folder is added, removed, replaced or written: its name and a digest of
    its bytes (a few small files: far cheaper than checking them; a file's time stamp alone misses two writes
    within one tick of the file system's clock)."""
    import hashlib  # OpenSSL: loaded when the family's folder is first looked at, after READY

    out = []
    for path in _files(folder):
        try:
            size = path.stat().st_size
            digest = hashlib.blake2b(path.read_bytes(), digest_size=16).digest() if size <= MAX_BYTES else b""
        except OSError:
            continue  # gone between the listing and the look: the next use sees it gone
        out.append((path.name, size, digest))
    return tuple(out)


class Editions(Mapping[str, Edition]):
    """The editions a new game may be started with: the folder as it is now, for the device, the pages and
    /admin alike (the same object: one answer at one moment). Read on first use (the wizard, a new game, a page),
    not before READY: five family files cost about half a second at a Pi core's pace (bench/bench_editions.py);
    read again at the next use after a file was added, changed or removed, by /admin or by hand, never at a
    restart only. The journal's games carry their editions, so a started game never reads the folder again."""

    def __init__(self, state_dir: Path) -> None:
        self._folder = state_dir / FOLDER
        self._seen: tuple[tuple[str, int, bytes], ...] | None = None
        self._catalogue = Catalogue(editions={})  # never read: the first catalogue() reads the folder
        self._lock = threading.Lock()

    def catalogue(self) -> Catalogue:
        with self._lock:
            seen = _signature(self._folder)
            if seen != self._seen:
                self._catalogue = load_folder(self._folder)
                self._seen = seen
                _log_broken(self._catalogue)
            return self._catalogue

    def refused(self, key: object) -> Phrase | None:
        """Why a new game of ``key`` cannot be started though a file names it (two files claim it), else None."""
        return self.catalogue().refused.get(key) if isinstance(key, str) else None

    def __getitem__(self, key: str) -> Edition:
        return self.catalogue().editions[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.catalogue().editions)

    def __len__(self) -> int:
        return len(self.catalogue().editions)


LazyEditions = Editions
"""The name the daemon knew it by."""


def _log_broken(catalogue: Catalogue) -> None:
    with words.speaking(words.appliance_language()):  # the log's language, even when a phone's page reads first
        for broken in catalogue.broken:  # the banker fixes the file from this line
            log.warning("%s", words.text("editions.log.broken", file=broken.path.name,
                                         problems="; ".join(told(p, broken.base) for p in broken.problems)))


def family_editions(state_dir: Path) -> dict[str, Edition]:
    """What a new game may be started with on this box; each file that does not play is logged with its problems
    (and listed on /admin), never raised: the rest plays."""
    catalogue = load(state_dir)
    _log_broken(catalogue)
    return catalogue.editions


# The answers' shapes (shapes.editions, one copy for the store and the web), for mypy alone: a TypedDict
# compiles each key's annotation when it is made (about 9 M instructions before READY), and nothing makes or
# checks them at run time.
if TYPE_CHECKING:
    from shapes.editions import (
        CheckAnswer,
        Deleted,
        EditionData,
        FileRefused,
        Overview,
        Restored,
        Said,
        ToldAs,
        ToReplace,
    )


def _problem(p: Problem, base: Edition | None) -> Said:
    """A problem for the page, said in the language of the request that asks (the rules' key as ``code``)."""
    return {"path": p.path, "line": p.line, "code": p.message.key, "message": words.say(p.message, at_hand(base)),
            "text": told(p, base)}


def free_name(folder: Path, key: str) -> Path:
    """``<key>.toml``, or ``<key>-2.toml`` … when a file of that name holds another edition (a hand copy named
    hamburg.toml that says key = "koeln"): saving never writes over a file it was not asked to replace."""
    n = 1
    while (path := folder / (f"{key}.toml" if n == 1 else f"{key}-{n}.toml")).exists():
        n += 1
    return path


def _said(code: str, **values: object) -> Said:
    """A store's word for the page, as a problem without a place (the code is its key)."""
    said = words.text(code, **values)
    return {"path": "", "line": None, "code": code, "message": said, "text": said}


class Shelf:
    """The editions as the admin pages see them: list, check, save, delete, bring back, download (the web's side
    of this folder), through the device's own :class:`Editions` when there is one: /admin and the device read
    one catalogue.

    Saving writes ``editions/<key>.toml`` whole (a temporary file renamed over it). A file that already claims
    the key (by any name: a hand copy too) is replaced only when the banker said so (``replace``), and is kept
    as a previous version (:mod:`device.store.edition_versions`), as is a deleted file; games already started
    keep the edition their journal holds."""

    def __init__(self, state_dir: Path, ledger: Any = None) -> None:
        self.state_dir = state_dir
        self.ledger = ledger

    @property
    def folder(self) -> Path:
        return self.state_dir / FOLDER

    def catalogue(self) -> Catalogue:
        store = getattr(self.ledger, "editions", None)
        return store.catalogue() if isinstance(store, Editions) else load(self.state_dir)

    def all(self) -> dict[str, Edition]:
        return self.catalogue().editions

    def overview(self) -> Overview:
        cat = self.catalogue()
        return {"editions": [{"key": k, "title": e.title, "base": e.base, "family": k not in EDITIONS,
                              "file": cat.files[k].name if k in cat.files else None,
                              "warnings": [_problem(w, cat.editions.get(e.base or ""))
                                           for w in cat.warnings.get(k, [])]}
                             for k, e in cat.editions.items()],
                "broken": [{"file": b.path.name, "problems": [_problem(p, b.base) for p in b.problems]}
                           for b in cat.broken],
                "previous": [{"name": v.name, "file": v.file,
                              "at": time.strftime("%Y-%m-%d %H:%M", time.localtime(v.at))}
                             for v in versions(self.folder)]}

    def check(self, source: str | bytes, told_as: ToldAs | None = None) -> tuple[Edition | None, CheckAnswer]:
        """``source`` a file's bytes (an upload: read as every file is, :func:`decode`) or the form's text;
        ``told_as`` says each problem for the page that asks (the form names its fields, a file its lines)."""
        notes: list[Problem] = []
        if isinstance(source, bytes):
            decoded = decode(source)
            if decoded.text is None:
                return None, {"ok": False, "key": None, "problems": [_problem(p, None) for p in decoded.problems],
                              "warnings": []}
            source, notes = decoded.text, decoded.notes
        checked = check_text(source, self.catalogue().editions)
        edition, base = checked.edition, checked.base

        def said(p: Problem) -> Said:
            return _problem(p, base) if told_as is None else told_as(p, at_hand(base))

        return edition, {"ok": edition is not None, "key": edition.key if edition else None,
                         "problems": [said(p) for p in checked.problems],
                         "warnings": [said(w) for w in notes + checked.warnings], "text": source}

    def save(self, source: str | bytes, *, replace: bool = False, was: str | None = None,
             told_as: ToldAs | None = None) -> CheckAnswer | ToReplace:
        """Save a file that plays; ask first (``question``, nothing written) when it would replace a file that
        claims its key, or when the form of edition ``was`` now names another key (a second edition, not a
        rename: said before it is made)."""
        edition, answer = self.check(source, told_as)
        text = answer.pop("text", "")
        if edition is None:
            return answer
        cat = self.catalogue()
        claimants = cat.claims.get(edition.key, [])
        if [read_path(p).text for p in claimants] == [text]:
            return answer  # the same text again: nothing to replace, nothing to keep
        if claimants and not replace:
            shown = cat.editions[edition.key].title if edition.key in cat.editions else edition.key
            return {**answer, "ok": False, "code": "exists",
                    "question": words.text("editions.store.replace", title=shown, key=edition.key,
                                           files=", ".join(p.name for p in claimants))}
        if was and was != edition.key and was in cat.files and not replace:
            return {**answer, "ok": False, "code": "exists",
                    "question": words.text("editions.store.second", was=was, key=edition.key)}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp = self.folder / f".{edition.key}.toml.tmp"
            tmp.write_text(text, encoding="utf-8")
            for path in claimants:
                keep(path)
            tmp.replace(free_name(self.folder, edition.key))
        except OSError as err:
            said = _said("editions.store.not_saved", error=err.strerror or err)
            return {**answer, "ok": False, "problems": [said]}
        return answer

    def delete(self, file: str) -> Deleted | FileRefused:
        """Move a file of the folder (one that plays or not) to the previous versions."""
        path = self.folder / file
        if "/" in file or not file.endswith(".toml") or not path.is_file():
            return {"ok": False, "code": "no_file", "problems": [_said("editions.store.no_file", file=file)]}
        try:
            version = keep(path)
        except OSError as err:
            return {"ok": False, "code": "not_saved",
                    "problems": [_said("editions.store.not_deleted", error=err.strerror or err)]}
        return {"ok": True, "kept": version.name}

    def restore(self, name: str) -> Restored | FileRefused:
        """Bring a previous version back under its key; what claims that key now is kept in its place."""
        path = kept_path(self.folder, name)
        if path is None:
            return {"ok": False, "code": "no_file", "problems": [_said("editions.store.no_file", file=name)]}
        decoded = read_path(path)
        key = claimed_key(decoded.text) if decoded.text is not None else None
        from rules.editions.fileformat import KEY

        try:
            for claimant in self.catalogue().claims.get(key or "", []):
                keep(claimant)
            target = free_name(self.folder, key) if key and KEY.fullmatch(key) else \
                free_name(self.folder, name.partition("_")[2].removesuffix(".toml"))
            os.replace(path, target)
        except OSError as err:
            return {"ok": False, "code": "not_saved",
                    "problems": [_said("editions.store.not_saved", error=err.strerror or err)]}
        return {"ok": True, "key": key, "file": target.name}

    def text(self, key: str) -> str | None:
        """The file of a family edition as saved, or a shipped edition as a whole file (to copy and change)."""
        cat = self.catalogue()
        if key in cat.files:
            return read_path(cat.files[key]).text  # a Windows-1252 file comes back as UTF-8, as it plays
        edition = cat.editions.get(key)
        return None if edition is None else as_file(edition)

    def edition(self, key: str) -> Edition | None:
        """The running game's edition when it has this key (as its journal keeps it), else the box's edition of
        that key: what the pages label a game's squares with."""
        state = self.ledger.game.state if self.ledger is not None else None
        if state is not None and state.edition.key == key:
            return state.edition  # type: ignore[no-any-return]
        return EDITIONS.get(key) or self.catalogue().editions.get(key)

    def data(self, key: str) -> EditionData | None:
        from rules.editions.fileformat import edition_data

        edition = self.catalogue().editions.get(key)
        return None if edition is None else cast("EditionData", edition_data(edition))  # the rules' plain data
