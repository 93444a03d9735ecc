"""The `bankleser` command: `run` starts the appliance, `replay FILE` audits a command file.

Imports are ordered by what the screen needs first: on a Pi Zero 2 W's core every 10 ms of
imports here is about 140 ms there. `run` puts "Startet…" on the OLED first, with nothing but
smbus2 and the config file's display section (:mod:`drivers.splash`); then logging, the config,
the rules, the device and gpiozero, Pillow and luma; the web stack follows after READY.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys

from .cliparse import LANGUAGES, file_path

TYPE_CHECKING = False  # typing's (and pathlib's) import costs before the first frame
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from typing import Any, NoReturn

EX_CONFIG = 78
"""sysexits.h's "configuration error": the unit's RestartPreventExitStatus, so a bad config is no restart loop."""


ARGPARSE_WORDS = {
    "usage: ": "service.cli.usage", "positional arguments": "service.cli.positionals", "options": "service.cli.options",
    "show this help message and exit": "service.cli.help", "%(prog)s: error: %(message)s\n": "service.cli.error",
    "argument %(argument_name)s: %(message)s": "service.cli.argument",
    "the following arguments are required: %s": "service.cli.required", "unrecognized arguments: %s":
    "service.cli.unrecognized", "invalid choice: %(value)r (choose from %(choices)s)": "service.cli.choice",
    "invalid %(type)s value: %(value)r": "service.cli.value", "expected one argument": "service.cli.one",
    "ambiguous option: %(option)s could match %(matches)s": "service.cli.ambiguous",
}
"""argparse's own words (its gettext message ids, what it asks :func:`gettext.gettext` for) and the keys of ours."""


class _Refused(Exception):
    """The command line is wrong: said again, in the language asked for, by a parser that speaks it."""


class _Words(argparse.HelpFormatter):
    """Help texts are keys of the catalogue, rendered only when help is printed: ``run`` parses its line without
    loading the catalogues (they need the rules, which come after the first frame). The one way a help is said:
    every parser of the command line (the ``edition`` verbs too) is a :class:`_Parser` and formats with this."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        # While the line is first parsed (``_Parser.quiet``) no formatter prints anything: argparse makes them
        # only to check each argument, and a refusal is said by a second parser. Asking the terminal's width
        # there would import shutil (with zlib, bz2 and lzma) before the first frame, ≈ 10 M instructions.
        if width is None and _Parser.quiet:
            width = 78
        super().__init__(prog, indent_increment, max_help_position, width)

    def _format_text(self, text: str) -> str:
        return super()._format_text(_said(text))

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return None if action.help is None else _said(action.help)


class _Parser(argparse.ArgumentParser):
    quiet = False
    """While the line is first parsed (no catalogue loaded yet): a refusal is raised, not said."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Words)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        if self.quiet:
            raise _Refused(message)
        super().error(message)

    def _check_help(self, action: argparse.Action) -> None:
        """Python 3.14's argparse formats each help as it is added, to find a broken one early: ours are keys,
        said only when a help is shown (formatting them here would load the catalogues before the first frame)."""


def _said(text: str) -> str:
    """A key's text in the language in force; any other help (a surface not converted yet) as it is."""
    if " " in text:  # words, not a key
        return text
    from words import text as said

    return said(text)


def _asked(argv: Sequence[str]) -> str:
    """The language of the command line's help and refusals: ``--language``'s, else the environment's locale
    (gettext's order: LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else German."""
    for i, arg in enumerate(argv):
        code = argv[i + 1] if arg == "--language" and i + 1 < len(argv) else arg.partition("--language=")[2]
        if code in LANGUAGES:
            return code
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            spoken = (part[:2] for part in value.split(":") if part[:2] in LANGUAGES and part[2:3] in ("", "_", "."))
            return next(spoken, LANGUAGES[0])
    return LANGUAGES[0]


def _parse(argv: Sequence[str], *, speaking: bool) -> argparse.Namespace:
    """The command line read; with ``speaking``, help and refusals said in the language asked for: our help texts
    through :class:`_Words`, and argparse's own words ("usage:", "invalid choice") through its gettext hook
    ``argparse._``, for this parse only (other parsers in the process keep argparse's English)."""
    if not speaking:
        _Parser.quiet = True
        try:
            return (_run_parser() if argv[:1] == ["run"] else _parser()).parse_args(argv)
        finally:
            _Parser.quiet = False
    import words

    words.use(_asked(argv))
    english = argparse._  # type: ignore[attr-defined]
    argparse._ = lambda message: words.text(ARGPARSE_WORDS[message]) if message in ARGPARSE_WORDS else message  # type: ignore[attr-defined]
    try:
        return _parser().parse_args(argv)
    finally:
        argparse._ = english  # type: ignore[attr-defined]


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bankleser", description="service.cli.description")
    sub = parser.add_subparsers(dest="command", required=True)
    replay = sub.add_parser("replay", help="service.cli.replay")
    replay.add_argument("file", help="service.cli.replay.file")
    replay.add_argument("--journal", action="store_true", help="service.cli.replay.journal")
    replay.add_argument("--editions", type=file_path, help="service.cli.replay.editions")
    salvage = sub.add_parser("salvage", help="service.cli.salvage")
    salvage.add_argument("source", type=file_path, help="service.cli.salvage.source")
    salvage.add_argument("target", type=file_path, help="service.cli.salvage.target")
    doctor = sub.add_parser("doctor", help="service.cli.doctor")
    doctor.add_argument("--config", type=file_path, default="/etc/bankleser/config.toml", help="service.cli.config")
    doctor.add_argument("--state-dir", type=file_path, default="/var/lib/bankleser",
                        help="service.cli.doctor.state_dir")
    doctor.add_argument("--language", choices=LANGUAGES, help="service.cli.doctor.language")
    flows = sub.add_parser("flows", help="service.cli.flows")
    flows.add_argument("--readme", type=file_path, help="service.cli.flows.readme")
    flows.add_argument("--mermaid", action="store_true", help="service.cli.flows.mermaid")
    prints = sub.add_parser("print", help="service.cli.print")
    prints.add_argument("what", choices=("wiring", "keypad", "cards", "deeds"), help="service.cli.print.what")
    prints.add_argument("--config", type=file_path, help="service.cli.print.config")
    prints.add_argument("--edition", default="classic", help="service.cli.print.edition")
    prints.add_argument("--players", type=int, default=6, help="service.cli.print.players")
    prints.add_argument("-o", "--output", type=file_path, help="service.cli.print.output")
    prints.add_argument("--language", choices=LANGUAGES, help="service.cli.print.language")
    prints.add_argument("--one-language", action="store_true", help="service.cli.print.one_language")
    from .editions_cli import add_parser as add_edition_parser

    add_edition_parser(sub)
    _add_run(sub)
    return parser


def _run_parser() -> argparse.ArgumentParser:
    """The parser with ``run`` alone: what the service's start reads, without building the other ten commands'
    parsers (about 11 M instructions before the first frame, ≈ 0.04 s at a Pi core's pace). Help and any refusal
    go through :func:`_parser`, so they say exactly what they said before."""
    parser = _Parser(prog="bankleser", description="service.cli.description")
    _add_run(parser.add_subparsers(dest="command", required=True))
    return parser


def _add_run(sub: Any) -> None:
    run = sub.add_parser("run", help="service.cli.run")
    run.add_argument("--sim", action="store_true", help="service.cli.run.sim")
    # run's file names stay text until "Startet…" is on the panel (_run): pathlib costs 50 ms on a Pi core
    run.add_argument("--config", help="service.cli.config")
    run.add_argument("--state-dir", help="service.cli.run.state_dir")
    run.add_argument("--host", help="service.cli.run.host")
    run.add_argument("--port", type=int, help="service.cli.run.port")
    run.add_argument("--language", choices=LANGUAGES, help="service.cli.run.language")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _parse(argv, speaking="-h" in argv or "--help" in argv)
    except _Refused:  # said again by a parser that speaks the language asked for (it exits 2)
        _parse(argv, speaking=True)
        raise
    if args.command == "run":
        return _run(args)
    if args.command == "print":
        return _print(args)
    if args.command == "flows":
        from ..scenes.flows import describe, readme_with_flows
        from ..scenes.table import mermaid

        if args.mermaid:
            print(mermaid())
        elif args.readme:
            args.readme.write_text(readme_with_flows(args.readme.read_text(encoding="utf-8")), encoding="utf-8")
        else:
            print(describe())
        return 0
    if args.command == "edition":
        from .editions_cli import main as edition_main

        return edition_main(args)
    if args.command == "replay":
        from ..store.replay import dumps, replay_lines

        try:
            stream = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")  # noqa: SIM115
        except OSError as err:
            print(f"bankleser replay: {args.file}: {err.strerror}", file=sys.stderr)
            return 1
        with stream:
            try:
                editions = None
                if args.editions is not None:
                    from ..store.editions import load_folder

                    editions = load_folder(args.editions, oled=False).editions
                for result in replay_lines(stream, journal=args.journal, editions=editions):
                    print(dumps(result))
                sys.stdout.flush()
            except BrokenPipeError:
                # The reader stopped early (`| head`): not an error. Python would flush stdout once more at
                # exit and complain; its descriptor goes to /dev/null first (the Python docs' recipe).
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    if args.command == "doctor":
        return _doctor(args)
    if args.command == "salvage":
        from ..store.journal import JournalError
        from ..store.salvage import salvage

        try:
            report = salvage(args.source, args.target)
        except (OSError, ValueError, JournalError) as err:
            print(f"bankleser salvage: {err}", file=sys.stderr)
            return 1
        print(report.text())
        return 0 if report.complete else 3
    return 2


def _doctor(args: argparse.Namespace) -> int:
    import tempfile

    import words
    from drivers.hints import Access

    from .config import Config
    from .doctor import USER, Check, System, diagnose, report

    path = args.config if args.config.exists() else None
    if args.language:
        words.use(args.language)
    try:
        config = Config.load(path)
    except SystemExit as err:  # unreadable (/etc/bankleser is 750: run with sudo) or broken: the service would
        config = Config()      # not start (exit 78); the rest is checked with the default wiring
        first, *wrong = (line.strip() for line in str(err).splitlines())
        said = Check(words.text("doctor.config"), False, first.rstrip(":") + "".join(
            f"; {w}" if i else f": {w}" for i, w in enumerate(wrong)), words.text("doctor.config.fix"))
    else:
        if not args.language and config.ui.language:
            words.use(config.ui.language)
        said = Check(words.text("doctor.config"), True,
                     words.text("doctor.config.valid", path=path) if path else words.text("doctor.config.none"))
    access = Access.of_user(USER) or Access.of_process()
    state_dir = args.state_dir.absolute()  # opening GPIO as the daemon does: lgpio may chdir() the process
    with tempfile.TemporaryDirectory(prefix="bankleser-doctor-") as fifos:
        if not any(os.environ.get(v) for v in ("LG_WD", "RUNTIME_DIRECTORY", "XDG_RUNTIME_DIR")):
            os.environ["LG_WD"] = fifos  # lgpio's FIFOs go with the doctor, not into a folder left behind
        checks = [said, *diagnose(System(hardware=config.hardware, state_dir=state_dir, access=access,
                                         page_port=config.port))]
    print(report(checks))
    return 0 if all(c.ok for c in checks) else 1


def _print(args: argparse.Namespace) -> int:
    import words

    from ..prints.labels import deed_stickers, keypad_overlay, player_cards
    from ..prints.wiring import wiring_svg
    from .config import Config

    if args.language:
        words.use(args.language)
    try:
        config = Config.load(args.config)
    except SystemExit as err:  # a config error: said like the picture's own refusals
        print(f"bankleser print {args.what}: {err}", file=sys.stderr)
        return 1
    hardware = config.hardware
    if not args.language and config.ui.language:
        words.use(config.ui.language)
    try:
        picture = {
            "wiring": lambda: wiring_svg(hardware),
            "keypad": lambda: keypad_overlay(hardware.keypad.layout, one_language=args.one_language),
            "cards": lambda: player_cards(args.players),
            "deeds": lambda: deed_stickers(args.edition, _family_editions()),
        }[args.what]()
    except ValueError as err:
        print(f"bankleser print {args.what}: {err}", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(picture)
    else:
        args.output.write_text(picture, encoding="utf-8")
    return 0


def _family_editions() -> Any:
    """The shipped editions and the family's from the appliance's state directory (``print deeds --edition``)."""
    from ..store.editions import load
    from .config import default_state_dir

    return load(default_state_dir(), oled=False).editions


def _open_later(url: str) -> None:
    """Open the virtual device in the desktop's browser once the server listens (./dev run)."""
    import threading
    import webbrowser

    threading.Timer(1.5, lambda: webbrowser.open(url)).start()


def _first_screen(config: str | Path | None, *, sim: bool, notifier: Any, language: str | None = None) -> Any:
    """Say "Startet…" on the OLED before the rest is even imported (:mod:`drivers.splash`). Returns the
    greeting, or the reason there is none: then the daemon opens the display with the other parts and
    reports its fault as it always does. ``language``: the flag's (else the config file's, else German)."""
    from drivers.splash import Splash

    try:
        splash = Splash.from_config(config, sim=sim, language=language)
        splash.send()
    except Exception as err:  # no bus, no panel, a config the check will name: no greeting, no crash
        return err
    notifier.status(splash.words())
    return splash


def _run(args: argparse.Namespace) -> int:
    # Start-up makes hundreds of thousands of objects and almost no garbage: the cyclic collector
    # would walk them again and again (2% of the start). The loop turns it back on after READY.
    gc.disable()
    from drivers.board import on_raspberry_pi

    from .notify import Notifier

    # Simulated with --sim, or off a Pi when no config names the hardware. A config file given
    # explicitly (the service's) means real parts unless it says "sim": never a silent fake.
    sim = args.sim or (args.config is None and not on_raspberry_pi())
    notifier = Notifier()
    greeted = _first_screen(args.config, sim=sim, notifier=notifier, language=args.language)

    import logging
    from pathlib import Path

    from .config import Config, default_state_dir, listen_address

    config_path = None if args.config is None else Path(args.config)

    logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(levelname)s %(name)s: %(message)s")
    if isinstance(greeted, Exception):
        # Not a warning: opening the parts tries the panel again and logs its cause and fix, once.
        logging.getLogger(__name__).debug("no first frame: %s", greeted)
    import words

    if args.language:
        words.use(args.language)
    try:
        config = Config.load(config_path)
    except SystemExit as err:  # a config error: said once; the unit does not restart on EX_CONFIG (no loop)
        if not isinstance(greeted, Exception):
            try:
                greeted.off()  # not "Startet…" for ever on a box that will not start
            except Exception as off_err:
                logging.getLogger(__name__).debug("first frame not taken back: %s", off_err)
        print(f"bankleser run: {err}\n" + words.text("config.not_started"), file=sys.stderr)
        return EX_CONFIG
    # the language until the journal's own is read (device.daemon.language): the flag's, else the file's
    config.ui.language = args.language or config.ui.language
    words.use(config.ui.language or words.DEFAULT)

    from .service import run_daemon  # the rules, the device, gpiozero: after the first screen

    port = args.port or config.port
    host, why = listen_address(flag=args.host, configured=config.host, sim=sim)
    shown = f"[{host}]" if ":" in host else host
    logging.getLogger(__name__).info("%s", words.text("service.log.listening", host=shown, port=port, why=why))
    if sim and os.environ.get("BANKLESER_OPEN_BROWSER") == "1":
        _open_later(f"http://127.0.0.1:{port}/device")
    return run_daemon(
        config,
        # absolute: lgpio may chdir() the process
        state_dir=(Path(args.state_dir) if args.state_dir else default_state_dir()).absolute(),
        sim=sim,
        host=host,
        port=port,
        notifier=notifier,
        language_flag=args.language or "",
    )


if __name__ == "__main__":
    sys.exit(main())
