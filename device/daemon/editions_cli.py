"""`bankleser edition list | show KEY | check FILE | new --from KEY -o FILE`: a family's editions from the shell.

Every answer is German and names each problem with its line and key; a broken file is exit status 1, never a
traceback. The state directory's ``editions/`` folder holds the family's files (docs/editions.md).
"""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False  # typing's import costs before the first frame of `bankleser run` (cli.py does the same)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from rules import Edition

    from ..store.editions import Catalogue

# The parser is built at every start of `bankleser`: the rules and the editions load only when this command runs
# (before the first frame of `bankleser run` nothing of them is needed: bench.instructions).


def _path(text: str) -> Path:
    """argparse's ``type`` for a file name: pathlib is loaded when one is given (cli.py does the same)."""
    from pathlib import Path

    return Path(text)


def add_parser(sub: Any) -> None:
    """The ``edition`` command and its four verbs, on the main parser's subparsers."""
    edition = sub.add_parser("edition", help="the editions: list, show one, check a family's file, write a new one")
    verbs = edition.add_subparsers(dest="verb", required=True)
    for name, text in (("list", "every edition of this box, and the family's files that do not play"),
                       ("show", "one edition as a file (every key)"),
                       ("check", "check a family's edition file: each problem with its line and key"),
                       ("new", "write a commented file to edit by hand, copied from an edition")):
        verb = verbs.add_parser(name, help=text)
        verb.add_argument("--state-dir", type=_path, help="the folder with editions/ (default: the appliance's)")
        if name == "show":
            verb.add_argument("key", help="the edition's key")
        if name == "check":
            verb.add_argument("file", type=_path, help="the edition's TOML file")
        if name == "new":
            verb.add_argument("--from", dest="base", required=True, help="the edition to copy (its key)")
            verb.add_argument("--key", help="the new edition's key (default: KEY-familie)")
            verb.add_argument("-o", "--output", type=_path, required=True, help="the file to write (must not exist)")


def _catalogue(args: argparse.Namespace) -> Catalogue:
    from ..store.editions import load

    if args.state_dir is None:
        from .config import default_state_dir

        args.state_dir = default_state_dir()
    return load(args.state_dir)


def main(args: argparse.Namespace) -> int:
    catalogue = _catalogue(args)
    if args.verb == "list":
        return _list(catalogue)
    if args.verb == "show":
        edition = catalogue.editions.get(args.key)
        if edition is None:
            print(f"bankleser edition show: keine Ausgabe {args.key!r} ({', '.join(catalogue.editions)})",
                  file=sys.stderr)
            return 1
        from rules.editions import edition_data, to_toml

        print(to_toml(edition_data(edition), comments=True), end="")
        return 0
    if args.verb == "check":
        return _check(args.file, catalogue)
    return _new(args, catalogue)


def _list(catalogue: Catalogue) -> int:
    from rules import EDITIONS

    for key, edition in catalogue.editions.items():
        where = "mitgeliefert" if key in EDITIONS else str(catalogue.files[key])
        base = f", Basis {edition.base}" if edition.base and key not in EDITIONS else ""
        print(f"{key:<16} {edition.title} ({where}{base})")
    for broken in catalogue.broken:
        count = len(broken.problems)
        print(f"{broken.path.name:<16} spielt nicht ({count} Problem{'e' if count != 1 else ''}):")
        for problem in broken.problems:
            print(f"    {problem}")
    return 0


def summary(edition: Edition) -> str:
    """One paragraph a family recognises its board in."""
    from rules import EDITIONS

    base = EDITIONS.get(edition.base or "")
    renamed = sum(1 for sq, n in enumerate(edition.names) if base is None or n != base.names[sq])
    money = f"{edition.currency} " if edition.currency else ""
    return (f"{edition.title} ({edition.key}{', Basis ' + edition.base if edition.base else ''}): "
            f"{renamed} eigene Namen, {edition.house}/{edition.houses} und {edition.hotel}/{edition.hotels}, "
            f"Startkapital {money}{edition.start_capital}, LOS {money}{edition.salary}")


def _check(path: Path, catalogue: Catalogue) -> int:
    from ..store.editions import check_text

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        print(f"{path}: nicht lesbar ({getattr(err, 'strerror', None) or err})", file=sys.stderr)
        return 1
    bases = {k: e for k, e in catalogue.editions.items() if catalogue.files.get(k) != path}
    edition, problems, warnings = check_text(text, bases)
    for problem in problems:
        print(f"{path.name}: {problem}")
    for warning in warnings:
        print(f"{path.name}: Hinweis: {warning}")
    if edition is None:
        count = f"{len(problems)} Problem{'e' if len(problems) != 1 else ''}"
        print(f"{path.name}: {count} – diese Ausgabe spielt so nicht")
        return 1
    print(f"{path.name}: in Ordnung – {summary(edition)}")
    return 0


def _new(args: argparse.Namespace, catalogue: Catalogue) -> int:
    edition = catalogue.editions.get(args.base)
    if edition is None:
        print(f"bankleser edition new: keine Ausgabe {args.base!r} ({', '.join(catalogue.editions)})", file=sys.stderr)
        return 1
    from rules.editions import edition_data, to_toml

    key = args.key or f"{edition.key}-familie"
    data = {**edition_data(edition), "key": key, "title": f"{edition.title} (Familie)", "base": edition.key}
    head = (f"# A family edition based on {edition.key}: change what your board prints, delete what stays.\n"
            f"# Check it with: bankleser edition check {args.output.name}   (docs/editions.md has every key)\n\n")
    try:
        with args.output.open("x", encoding="utf-8") as out:
            out.write(head + to_toml(data, comments=True))
    except OSError as err:
        print(f"bankleser edition new: {args.output}: {err.strerror}", file=sys.stderr)
        return 1
    print(f"{args.output}: geschrieben ({key}, Basis {edition.key})")
    return 0
