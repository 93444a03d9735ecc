"""The pages after the game: every game (/spiele), a report per game, the Bestenliste.

They read the journal's history (``device.store.history``) on a connection of their own, in the page
threads, never in the daemon's loop; nothing here can change a game.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from flask import Blueprint, Flask, Response, abort, render_template, request

from rules import DEEDS, EDITIONS, square_name
from rules.colours import PLAYER_COLOURS
from rules.game import HOUSE_RULE_NAMES, MODE_NAMES
from rules.phrase import from_data
from shapes.reports import GameSummary
from words import plural, say, text

from .auth import public
from .backend import PastGames, Report
from .chart import money_label, money_unit, timeline_svg

Asked = ParamSpec("Asked")
Found = TypeVar("Found")

MODES = {mode.value: name for mode, name in MODE_NAMES.items()}
"""Each mode by its program word (the commands' ``mode``) and the rules' name for it."""
STATUS = {"läuft": "reports.status.running", "beendet": "reports.status.finished", "ersetzt": "reports.status.replaced"}
"""A game's status (the history's program word) and how the pages say it."""
CLOCKS = {"pi": "service.clock.pi", "pi_unsynced": "service.clock.pi_unsynced",
          "pi_unchecked": "service.clock.pi_unchecked", "phone": "service.clock.phone",
          "unknown": "service.clock.unknown"}
"""Which clock dated a game (the history's ``clock``, one of ``device.store.clocks.SOURCES``): the same words the
banker's login says it in (the service's messages; the web does not import the device)."""


def when(at: float | None) -> str:
    return time.strftime(text("reports.time.day"), time.localtime(at)) if at else "–"


def clock(at: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at)) if at else "–"


def names(who: list[str]) -> str:
    """"Anna", "Anna und Ben", "Anna, Ben und Cem": as a sentence of the language in force lists them."""
    if len(who) < 2:
        return "".join(who)
    return text("list.last", head=text("list.separator").join(who[:-1]), last=who[-1])


def duration(seconds: float) -> str:
    """A game's length: seconds under a minute (a 55 s game is not "0 min"), else minutes and hours."""
    if seconds < 60:
        return plural("reports.duration.seconds", max(0, int(seconds)))
    minutes = int(seconds // 60)
    if minutes < 60:
        return plural("reports.duration.minutes", minutes)
    return plural("reports.duration.hours", minutes // 60, minutes=f"{minutes % 60:02d}")


def mode_title(game: GameSummary) -> str:
    """A game's mode as its edition's book calls it, "mit Tempo-Würfel" when it was played with it: the rules'
    phrase the history kept, said now."""
    try:
        return say(from_data(game.get("mode_said")))
    except ValueError:  # a summary without it: the mode's own name
        return say(MODES.get(game["mode"], MODES["standard"]))


def status(game: GameSummary) -> str:
    return text(STATUS.get(game["status"], STATUS["läuft"]))


def clock_name(game: GameSummary) -> str:
    """Which clock dated the game's times (the Pi's, set or not, or the banker's phone's), in today's words."""
    return text(CLOCKS.get(game.get("clock", "unknown"), CLOCKS["unknown"]))


def rule_name(rule: str) -> str:
    """A house rule by the rules' name for it; a rule this version does not know by its program word."""
    return say(HOUSE_RULE_NAMES[rule]) if rule in HOUSE_RULE_NAMES else rule


def rule_names(rules: list[str]) -> str:
    return text("list.separator").join(rule_name(rule) for rule in rules)


SAYING = {"when": when, "clock": clock, "names": names, "duration": duration, "mode_title": mode_title,
          "status": status, "clock_name": clock_name, "rule_names": rule_names}
"""What the templates after the game say with: each renders in the language in force when the page is drawn."""


def now() -> float:
    return time.time()


def lasted(game: GameSummary) -> float:
    """How long a game has lasted: to its end, or, while it runs, to now ("läuft · 12 s" after four
    minutes was the time to its last booking)."""
    end = now() if game["status"] == "läuft" else float(game["ended"])
    return end - float(game["started"])


def register(app: Flask, history: Callable[[], PastGames | None], sim: bool = False) -> None:
    """``history()``: the journal's :class:`device.store.history.History`, or None while the journal is unreadable.

    Every page here is public: phones read the past games as they read the running one."""
    pages = Blueprint("games", __name__)

    def games_or_503() -> PastGames:
        found = history()
        if found is None:
            abort(503, text("reports.error.unreadable"))
        if found.warming.is_set():  # told beside the loop after start-up: no phone waits for it
            first, last = found.progress
            abort(Response(render_template("lesen.html", first=first, last=last), status=503,
                           headers={"Retry-After": "3"}))
        return found

    def read(fn: Callable[Asked, Found], *args: Asked.args, **kwargs: Asked.kwargs) -> Found:
        """A question to the history; a journal that cannot be read is a 503 that says why, never a 500."""
        try:
            return fn(*args, **kwargs)
        except Exception as err:  # the journal's own errors say what is wrong
            abort(503, text("reports.error.history", why=getattr(err, "message", err)))

    @pages.get("/spiele")
    @public
    def games_page() -> str:
        games = read(games_or_503().games)
        return render_template("spiele.html", games=games, money=money_unit, lasted=lasted, sim=sim, **SAYING)

    def report_or_404(game_id: int) -> tuple[PastGames, Report]:
        hist = games_or_503()
        one = read(hist.report, game_id)
        if one is None:
            abort(404, text("reports.error.no_game"))
        return hist, one

    def download(body: str, mimetype: str, name: str) -> Response:
        return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @pages.get("/spiele/<int:game_id>")
    @public
    def game_page(game_id: int) -> str:
        _, one = report_or_404(game_id)
        ed = one.board()
        chart = timeline_svg(one.points, one.players, money_label(ed))
        return render_template("spiel.html", g=one.summary(), figures=one.figures(), log=one.log, chart=chart,
                               colours=PLAYER_COLOURS, money=money_unit(ed), lasted=lasted, sim=sim, said=one.said,
                               deed=lambda sq: square_name(ed, sq) if sq in DEEDS else str(sq), **SAYING)

    @pages.get("/spiele/<int:game_id>.jsonl")
    @public
    def game_jsonl(game_id: int) -> Response:
        hist, one = report_or_404(game_id)
        name = text("reports.download.game", id=game_id) + ".jsonl"
        return download(read(hist.jsonl, one), "application/x-ndjson", name)

    @pages.get("/spiele/<int:game_id>.csv")
    @public
    def game_csv(game_id: int) -> Response:
        _, one = report_or_404(game_id)
        # Flask adds the charset
        return download("\ufeff" + one.csv(), "text/csv", text("reports.download.game", id=game_id) + ".csv")

    @pages.get("/bestenliste")
    @public
    def best_page() -> str:
        edition = request.args.get("edition") or None
        mode = request.args.get("mode") or None
        if (edition and not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,31}", edition)) or (mode and mode not in MODES):
            abort(404, text("reports.error.filter"))
        hist = games_or_503()
        rows, records = read(hist.best, edition, mode), read(hist.records, edition, mode)
        modes = {key: say(name) for key, name in MODES.items()}
        return render_template("bestenliste.html", rows=rows, records=records, editions=EDITIONS, modes=modes,
                               edition=edition, mode=mode, money=money_unit, sim=sim, **SAYING)

    app.register_blueprint(pages)
