"""`bankleser edition list | show KEY | check FILE | new --from KEY -o FILE`: a family's editions from the shell.

Every answer is in the language in force (``--language``, else the config's ``[ui] language``, else German) and
names each problem with its line and key; a broken file is exit status 1, never a traceback. The state directory's
``editions/`` folder holds the family's files (docs/editions.md).
"""

from __future__ import annotations

import argparse
import sys

from .cliparse import LANGUAGES, file_path

TYPE_CHECKING = False  # typing's import costs before the first frame of `bankleser run` (cli.py does the same)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from rules import Edition
    from rules.editions import Problem

    from ..store.editions import Catalogue

# The parser is built at every start of `bankleser`: the rules and the editions load only when this command runs
# (before the first frame of `bankleser run` nothing of them is needed: bench.instructions).


CONFIG = "/etc/bankleser/config.toml"
"""Where the appliance's config is (as ``bankleser doctor``): its ``[ui] language`` is the answers' language."""


def add_parser(sub: Any) -> None:
    """The ``edition`` command and its four verbs, on the main parser's subparsers."""
    edition = sub.add_parser("edition", help="editions.help.edition")
    verbs = edition.add_subparsers(dest="verb", required=True)
    for name, key in (("list", "editions.help.list"), ("show", "editions.help.show"), ("check", "editions.help.check"),
                      ("new", "editions.help.new")):
        verb = verbs.add_parser(name, help=key)
        verb.add_argument("--state-dir", type=file_path, help="editions.help.state_dir")
        verb.add_argument("--config", default=CONFIG, help="editions.help.config")
        verb.add_argument("--language", choices=LANGUAGES, help="editions.help.language")
        if name == "show":
            verb.add_argument("key", help="editions.help.key")
        if name == "check":
            verb.add_argument("file", type=file_path, help="editions.help.file")
        if name == "new":
            verb.add_argument("--from", dest="base", required=True, help="editions.help.from")
            verb.add_argument("--key", help="editions.help.new_key")
            verb.add_argument("-o", "--output", type=file_path, required=True, help="editions.help.output")


def _catalogue(args: argparse.Namespace) -> Catalogue:
    from ..store.editions import load

    if args.state_dir is None:
        from .config import default_state_dir

        args.state_dir = default_state_dir()
    return load(args.state_dir)


def _choose(code: str | None, config: str | None) -> None:
    """The flag's language, else the config file's ``[ui] language`` (as ``bankleser doctor``), else German."""
    import words

    if not code and config:
        from pathlib import Path

        from .config import Config

        try:
            code = Config.load(Path(config)).ui.language if Path(config).exists() else None
        except SystemExit:
            code = None  # a config with a mistake is the doctor's to name: the default language here
    words.use(code if code in words.LANGUAGES else words.DEFAULT)


def main(args: argparse.Namespace) -> int:
    _choose(getattr(args, "language", None), getattr(args, "config", None))
    catalogue = _catalogue(args)
    if args.verb == "list":
        return _list(catalogue)
    if args.verb == "show":
        edition = catalogue.editions.get(args.key)
        if edition is None:
            return _none("show", args.key, catalogue)
        from ..store.editions import as_file

        print(as_file(edition), end="")
        return 0
    if args.verb == "check":
        return _check(args.file, catalogue)
    return _new(args, catalogue)


def _none(verb: str, key: str, catalogue: Catalogue) -> int:
    import words

    print(words.text("editions.cli.none", verb=verb, key=repr(key), known=", ".join(catalogue.editions)),
          file=sys.stderr)
    return 1


def _list(catalogue: Catalogue) -> int:
    import words
    from rules import EDITIONS

    from ..store.editions import told

    for key, edition in catalogue.editions.items():
        where = words.text("editions.cli.shipped") if key in EDITIONS else str(catalogue.files[key])
        base = words.text("editions.cli.base", base=edition.base) if edition.base and key not in EDITIONS else ""
        print(words.text("editions.cli.listed", key=f"{key:<16}", title=edition.title, where=where, base=base))
    for broken in catalogue.broken:
        print(words.plural("editions.cli.broken", len(broken.problems), file=f"{broken.path.name:<16}"))
        for problem in broken.problems:
            print(f"    {told(problem, broken.base)}")
    return 0


def summary(edition: Edition) -> str:
    """One paragraph a family recognises its board in, in the language in force."""
    import words
    from rules import EDITIONS
    from rules.phrase import Cash, Place, phrase

    base = EDITIONS.get(edition.base or "")
    renamed = sum(1 for sq, n in enumerate(edition.names) if base is None or n != base.names[sq])

    def money(amount: int) -> str:
        said = words.say(phrase("editions.cli.amount", amount=Cash(amount)), edition)
        if not edition.currency:
            return said
        key = "editions.cli.currency_sign" if len(edition.currency) == 1 else "editions.cli.currency_word"
        return words.text(key, currency=edition.currency, amount=said)

    return words.say(phrase("editions.cli.summary", n=renamed, title=edition.title, key=edition.key,
                            base=words.text("editions.cli.base", base=edition.base) if edition.base else "",
                            house=edition.house, houses=edition.houses, hotel=edition.hotel, hotels=edition.hotels,
                            start=money(edition.start_capital), go=Place(0), salary=money(edition.salary)), edition)


def _twin(path: Path, text: str, catalogue: Catalogue) -> Problem | None:
    """The box's refusal of a file of its folder that another file there claims the key of: the check of that file
    says what /admin and the device say of it, not "in Ordnung"."""
    from rules.editions import Problem

    from ..store.editions import claimed_key

    key = claimed_key(text)
    said = catalogue.refused.get(key or "")
    if said is None or not any(p.resolve() == path.resolve() for p in catalogue.claims.get(key or "", [])):
        return None
    return Problem("key", said)


def _check(path: Path, catalogue: Catalogue) -> int:
    import words
    from rules.editions import Checked

    from ..store.editions import check_text, read_path, told

    decoded = read_path(path)  # the one reader: as the state folder and an upload read it
    for note in decoded.notes:
        print(words.text("editions.cli.warning", file=path.name, problem=told(note)))
    if decoded.text is None:
        for problem in decoded.problems:
            print(f"{path.name}: {told(problem)}", file=sys.stderr)
        return 1
    text = decoded.text
    bases = {k: e for k, e in catalogue.editions.items() if catalogue.files.get(k) != path}
    checked = check_text(text, bases)
    twin = _twin(path, text, catalogue)
    if twin is not None:  # fine by itself, refused in the box's folder: said as the box says it
        checked = Checked(None, [twin, *checked.problems], checked.warnings, None, checked.base)
    for problem in checked.problems:
        print(f"{path.name}: {told(problem, checked.base)}")
    for warning in checked.warnings:
        print(words.text("editions.cli.warning", file=path.name, problem=told(warning, checked.base)))
    if checked.edition is None:
        print(words.plural("editions.cli.failed", len(checked.problems), file=path.name))
        return 1
    print(words.text("editions.cli.fine", file=path.name, summary=summary(checked.edition)))
    return 0


def _new(args: argparse.Namespace, catalogue: Catalogue) -> int:
    edition = catalogue.editions.get(args.base)
    if edition is None:
        return _none("new", args.base, catalogue)
    import words
    from rules import EDITIONS
    from rules.editions import Problem, edition_data
    from rules.editions.fileformat import KEY, key_problem
    from rules.phrase import phrase

    from ..store.editions import as_file, told

    key = args.key or words.text("editions.new.key", key=edition.key)
    if not KEY.fullmatch(key) or key in EDITIONS:  # what the form and the check refuse, refused before it is written
        problem = key_problem(key) if not KEY.fullmatch(key) else \
            Problem("key", phrase("editions.problem.shipped_key", key=repr(key)))
        print(f"bankleser edition new: {told(problem)}", file=sys.stderr)
        return 1
    data = {**edition_data(edition), "key": key, "title": words.text("editions.new.title", title=edition.title),
            "base": edition.key}
    head = "".join(f"# {words.text(line, base=edition.key, file=args.output.name)}\n"
                   for line in ("editions.new.head", "editions.new.check")) + "\n"
    try:
        with args.output.open("x", encoding="utf-8") as out:
            out.write(head + as_file(edition, data))
    except OSError as err:
        print(f"bankleser edition new: {args.output}: {err.strerror}", file=sys.stderr)
        return 1
    print(words.text("editions.cli.written", path=args.output, key=key, base=edition.key))
    return 0
