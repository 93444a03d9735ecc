"""The `bankleser` command: `run` starts the appliance, `replay FILE` audits a command file."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from ..store.replay import dumps, replay_lines


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bankleser", description="MONOPOLY-Bankkartenleser für den Raspberry Pi")
    sub = parser.add_subparsers(dest="command", required=True)
    replay = sub.add_parser("replay", help="apply a file of commands, print one JSON result per line, then the state")
    replay.add_argument("file", help="one JSON command per line ('-' for standard input)")
    salvage = sub.add_parser("salvage", help="copy every verifiable command of a damaged journal into a new one")
    salvage.add_argument("source", type=Path, help="the damaged journal (read, never written)")
    salvage.add_argument("target", type=Path, help="the new journal (must not exist)")
    flows = sub.add_parser("flows", help="print the device's transition graph and the banker's flows")
    flows.add_argument("--readme", type=Path, help="write the Mermaid diagram into this page's ```mermaid block")
    flows.add_argument("--mermaid", action="store_true", help="print the scene graph as a Mermaid diagram")
    run = sub.add_parser("run", help="start the appliance (simulated hardware off a Pi)")
    run.add_argument("--sim", action="store_true", help="simulate every part (the default off a Pi)")
    run.add_argument("--config", type=Path, help="TOML config file")
    run.add_argument("--state-dir", type=Path, help="journal and registered cards (default: per-user data dir)")
    run.add_argument("--host", help="address to serve on (default 127.0.0.1 off a Pi, all interfaces on it)")
    run.add_argument("--port", type=int, help="port of the status page (default 8080)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "run":
        return _run(args)
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
    if args.command == "replay":
        try:
            stream = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")  # noqa: SIM115
        except OSError as err:
            print(f"bankleser replay: {args.file}: {err.strerror}", file=sys.stderr)
            return 1
        with stream:
            for result in replay_lines(stream):
                print(dumps(result))
        return 0
    if args.command == "salvage":
        from ..store.salvage import salvage

        try:
            report = salvage(args.source, args.target)
        except (OSError, ValueError) as err:
            print(f"bankleser salvage: {err}", file=sys.stderr)
            return 1
        print(report.text())
        return 0 if report.complete else 3
    return 2


def _open_later(url: str) -> None:
    """Open the virtual device in the desktop's browser once the server listens (./dev run)."""
    import threading
    import webbrowser

    threading.Timer(1.5, lambda: webbrowser.open(url)).start()


def _run(args: argparse.Namespace) -> int:
    from drivers.hardware import on_raspberry_pi

    from .config import Config, default_host, default_state_dir
    from .service import run_daemon

    logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(levelname)s %(name)s: %(message)s")
    config = Config.load(args.config)
    # Simulated with --sim, or off a Pi when no config names the hardware. A config file given
    # explicitly (the service's) means real parts unless it says "sim": never a silent fake.
    sim = args.sim or (args.config is None and not on_raspberry_pi())
    if sim and os.environ.get("BANKLESER_OPEN_BROWSER") == "1":
        _open_later(f"http://127.0.0.1:{args.port or config.port}/device")
    return run_daemon(
        config,
        state_dir=args.state_dir or default_state_dir(),
        sim=sim,
        host=args.host or (None if sim else config.host) or default_host(sim=sim),
        port=args.port or config.port,
    )


if __name__ == "__main__":
    sys.exit(main())
