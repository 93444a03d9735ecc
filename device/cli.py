"""The `bankleser` command: `run` starts the appliance, `replay FILE` audits a command file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .replay import dumps, replay_lines


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bankleser", description="MONOPOLY-Bankkartenleser für den Raspberry Pi")
    sub = parser.add_subparsers(dest="command", required=True)
    replay = sub.add_parser("replay", help="apply a file of commands, print one JSON result per line, then the state")
    replay.add_argument("file", help="one JSON command per line ('-' for standard input)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "replay":
        stream = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
        with stream:
            for result in replay_lines(stream):
                print(dumps(result))
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
