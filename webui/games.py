"""The pages after the game: every game (/spiele), a report per game, the Bestenliste.

They read the journal's history (``device.store.history``) on a connection of their own, in the page
threads, never in the daemon's loop; nothing here can change a game.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, Response, abort, render_template, request

from rules import DEEDS, EDITIONS, square_name
from rules.game import HOUSE_RULE_NAMES, MODE_NAMES

from .auth import public
from .backend import PastGames
from .chart import COLOURS, money_label, money_unit, timeline_svg

MODE_TITLES = {mode.value: name for mode, name in MODE_NAMES.items()}


def when(at: float | None) -> str:
    return time.strftime("%d.%m.%Y %H:%M", time.localtime(at)) if at else "–"


def clock(at: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at)) if at else "–"


def names(who: list[str]) -> str:
    """"Anna", "Anna und Ben", "Anna, Ben und Cem": as a German sentence lists them."""
    return " und ".join([", ".join(who[:-1]), who[-1]] if len(who) > 1 else who)


def duration(seconds: float) -> str:
    """A game's length: seconds under a minute (a 55 s game is not "0 min"), else minutes and hours."""
    if seconds < 60:
        return f"{max(0, int(seconds))} s"
    minutes = int(seconds // 60)
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


def now() -> float:
    return time.time()


def lasted(game: dict[str, Any]) -> float:
    """How long a game has lasted: to its end, or, while it runs, to now (issue 28 #13: "läuft · 12 s" after four
    minutes was the time to its last booking)."""
    end = now() if game["status"] == "läuft" else float(game["ended"])
    return end - float(game["started"])


def register(app: Flask, history: Callable[[], PastGames | None], sim: bool = False) -> None:
    """``history()``: the journal's :class:`device.store.history.History`, or None while the journal is unreadable.

    Every page here is public: phones read the past games as they read the running one."""
    pages = Blueprint("games", __name__)

    def games_or_503() -> Any:
        found = history()
        if found is None:
            abort(503, "Das Journal ist gerade nicht lesbar")
        if found.warming.is_set():  # told beside the loop after start-up: no phone waits for it
            first, last = found.progress
            abort(Response(render_template("lesen.html", first=first, last=last), status=503,
                           headers={"Retry-After": "3"}))
        return found

    def read(fn: Callable[..., Any], *args: Any) -> Any:
        """A question to the history; a journal that cannot be read is a 503 that says why, never a 500."""
        try:
            return fn(*args)
        except Exception as err:  # the journal's own errors say in German what is wrong
            abort(503, f"Verlauf nicht lesbar: {getattr(err, 'message', err)}")

    @pages.get("/spiele")
    @public
    def games_page() -> str:
        games = read(games_or_503().games)
        return render_template("spiele.html", games=games, when=when, duration=duration, money=money_unit,
                               lasted=lasted, sim=sim,
                               names=names)

    def report_or_404(game_id: int) -> tuple[Any, Any]:
        hist = games_or_503()
        one = read(hist.report, game_id)
        if one is None:
            abort(404, "Dieses Spiel gibt es nicht")
        return hist, one

    def download(body: str, mimetype: str, name: str) -> Response:
        return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @pages.get("/spiele/<int:game_id>")
    @public
    def game_page(game_id: int) -> str:
        _, one = report_or_404(game_id)
        ed = one.final.edition if one.final is not None else EDITIONS.get(one.edition, EDITIONS["classic"])
        chart = timeline_svg(one.points, one.players, money_label(ed))
        return render_template("spiel.html", g=one.summary(), figures=one.figures(), log=one.lines(), chart=chart,
                               colours=COLOURS, money=money_unit(ed), when=when, clock=clock,  # the phone's words
                               duration=duration, lasted=lasted, rule_names=HOUSE_RULE_NAMES, sim=sim,
                               deed=lambda sq: square_name(ed, sq) if sq in DEEDS else str(sq))

    @pages.get("/spiele/<int:game_id>.jsonl")
    @public
    def game_jsonl(game_id: int) -> Response:
        hist, one = report_or_404(game_id)
        return download(read(hist.jsonl, one), "application/x-ndjson", f"spiel-{game_id}.jsonl")

    @pages.get("/spiele/<int:game_id>.csv")
    @public
    def game_csv(game_id: int) -> Response:
        _, one = report_or_404(game_id)
        return download("\ufeff" + one.csv(), "text/csv", f"spiel-{game_id}.csv")  # Flask adds the charset

    @pages.get("/bestenliste")
    @public
    def best_page() -> str:
        edition = request.args.get("edition") or None
        mode = request.args.get("mode") or None
        if (edition and not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,31}", edition)) or (mode and mode not in MODE_TITLES):
            abort(404, "Unbekannte Ausgabe oder Spielart")
        hist = games_or_503()
        rows, records = read(hist.best, edition, mode), read(hist.records, edition, mode)
        return render_template("bestenliste.html", rows=rows, records=records, editions=EDITIONS, modes=MODE_TITLES,
                               edition=edition, mode=mode, money=money_unit, sim=sim)

    app.register_blueprint(pages)
