"""Every game kept, a report for each, a Bestenliste across evenings."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from history_helpers import book, game, pages

from device.store.history import History, figures, jsonl, tell, transactions_csv
from device.store.journal import Journal, read_only, read_records
from device.store.ledger import Ledger
from device.store.replay import replay_lines


def evening(tmp_path: Path) -> tuple[Ledger, History]:
    """A classic game played to its end, a quick game replaced, a new game taken back, a timed game ended."""
    ledger = Ledger(Journal(tmp_path / "journal.sqlite3"))
    book(ledger, game(players=("Anna", "Ben")),
         {"op": "buy", "player": "Anna", "square": 39},
         {"op": "buy", "player": "Anna", "square": 37},
         {"op": "build", "player": "Anna", "square": 39},
         {"op": "rent", "player": "Ben", "square": 39},
         {"op": "rent", "player": "Ben", "square": 37},
         {"op": "buy", "player": "Anna", "square": 1},
         {"op": "mortgage", "player": "Anna", "square": 1},
         {"op": "bankrupt", "player": "Ben", "creditor": "Anna"})
    book(ledger, game("banking", "quick", ("Anna", "Ben", "Cem"), seed=7),
         {"op": "credit", "player": "Cem", "amount": 1_000_000})
    book(ledger, game("sonic", "standard", ("Dana", "Emil"), replace=True),
         {"op": "undo"})  # a new game by mistake, taken back at once: the quick game goes on
    book(ledger, {"op": "go", "player": "Ben"})
    book(ledger, game("schalke", "timed", ("Anna", "Cem"), minutes=30, replace=True),
         {"op": "credit", "player": "Cem", "amount": 500}, {"op": "end"})
    return ledger, History(ledger.journal.path)


def test_every_game_is_kept_with_its_end_and_a_replaced_game_is_marked(tmp_path: Path) -> None:
    """"Finished, ended and replaced games stay in the journal's history (a replaced game is marked so)." A game
    whose new_game was taken back by Storno never was one."""
    _, history = evening(tmp_path)
    games = history.games()
    assert [(g["edition"], g["mode"], g["status"]) for g in games] == [
        ("schalke", "timed", "beendet"), ("banking", "quick", "ersetzt"), ("classic", "standard", "beendet")]
    classic = games[-1]
    assert classic["winner"] == "Anna" and classic["ranking"][0] == "Anna" and classic["players"] == ["Anna", "Ben"]
    quick = games[1]
    assert quick["commands"] == 3  # new_game, Cem's credit, Ben's LOS after the Storno brought it back
    assert all(g["ended"] >= g["started"] > 0 for g in games)


def test_the_report_tells_rent_the_best_deed_the_biggest_payment_buildings_mortgages_and_bankruptcy(
        tmp_path: Path) -> None:
    _, history = evening(tmp_path)
    classic = history.games()[-1]
    one = history.report(classic["id"])
    assert one is not None
    f = figures(one)
    # Schlossallee with one house: 200; Parkstraße with the group complete: 2 × 35.
    assert f["Ben"]["rent_paid"] == 270 and f["Anna"]["rent_received"] == 270
    assert f["Anna"]["best_deed"] == (39, 200)
    assert f["Anna"]["buildings"] == 1 and f["Anna"]["mortgages"] == 1
    assert f["Ben"]["bankrupt_at"] is not None and f["Anna"]["bankrupt_at"] is None
    biggest = f["Anna"]["biggest"]
    assert biggest is not None and biggest[0] == 400  # Schlossallee at its printed price
    assert one.said(next(event for _, event in one.log)) == "MONOPOLY: neues Spiel, Anna und Ben (Standardspiel)"
    assert len(one.log) == 9 and len(one.points) == 9 and all("at" in p for p in one.points)


def test_a_downloaded_game_replays_to_the_same_end(tmp_path: Path) -> None:
    """"download of the game as JSON lines that `bankleser replay` reproduces exactly\""""
    _, history = evening(tmp_path)
    for summary in history.games():
        one = history.report(summary["id"])
        assert one is not None
        lines = jsonl(history.commands(one)).splitlines()
        results = list(replay_lines(lines))
        assert all(r.get("ok", True) for r in results[:-1]), results
        state = results[-1]["state"]
        assert state["ranking"] == summary["ranking"]
        assert {p["name"]: p["net_worth"] for p in state["players"]} == summary["worth"]
        assert {p["name"]: p["cash"] for p in state["players"]} == summary["cash"]


def test_the_csv_has_one_row_per_payment(tmp_path: Path) -> None:
    _, history = evening(tmp_path)
    one = history.report(history.games()[-1]["id"])
    assert one is not None
    rows = list(csv.reader(io.StringIO(transactions_csv(one)), delimiter=";"))
    assert rows[0][:6] == ["Eintrag", "Zeit", "Befehl", "Zahler", "Empfänger", "Betrag"]
    rents = [r for r in rows[1:] if r[2] == "rent"]
    assert [(r[3], r[4], r[5]) for r in rents] == [("Ben", "Anna", "200"), ("Ben", "Anna", "70")]


def test_the_bestenliste_counts_finished_games_per_name_and_filters(tmp_path: Path) -> None:
    ledger, history = evening(tmp_path)
    book(ledger, game("classic", "quick", ("anna", "Ben"), seed=1, replace=True))  # the same Anna, other case
    rows = {r["name"].casefold(): r for r in history.best()}
    assert rows["anna"]["games"] == 2 and rows["anna"]["wins"] == 1  # classic won; the timed game Cem or Anna
    timed = history.best(mode="timed")
    assert {r["name"] for r in timed} == {"Anna", "Cem"}
    winner = next(r for r in timed if r["wins"])
    assert winner["rate"] == 1.0
    assert [(r["edition"], r["mode"]) for r in history.records(mode="timed")] == [("schalke", "timed")]
    assert history.best(edition="sonic") == []
    assert [r["name"] for r in history.best(edition="classic")] == ["Anna", "Ben"]


def test_games_out_of_storno_reach_are_told_once_and_alike(tmp_path: Path) -> None:
    """Nothing changes a game three new games back: its summary is kept, and equals a replay of everything."""
    ledger = Ledger(Journal(tmp_path / "journal.sqlite3"))
    history = History(ledger.journal.path)
    for i in range(8):
        book(ledger, game(players=("Anna", "Ben"), replace=True), {"op": "go", "player": "Anna"},
             {"op": "transfer", "from": "Ben", "to": "Anna", "amount": 10 * (i + 1)})
        history.games()  # looked at after every game: the window moves on
    with read_only(ledger.journal.path) as db:
        everything = {one.id: one.summary() for one in tell(read_records(db, 0, ledger.journal.last_seq)).values()}
    assert {g["id"]: g for g in history.games()} == everything


def test_history_never_writes_to_the_journal(tmp_path: Path) -> None:
    ledger, history = evening(tmp_path)
    ledger.journal.close()
    path = Path(ledger.journal.path)
    before = {p.name: p.read_bytes() for p in path.parent.iterdir() if not p.name.endswith("-shm")}
    history.games()
    for g in history.games():
        history.report(g["id"])
    after = {p.name: p.read_bytes() for p in path.parent.iterdir() if not p.name.endswith("-shm")}
    assert {name: after[name] for name in before} == before  # every file as it was
    assert all(after[name] == b"" for name in after.keys() - before.keys())  # at most SQLite's empty WAL


def test_closed_games_are_told_once_across_restarts_and_never_for_another_journal(tmp_path: Path,
                                                                                 monkeypatch: Any) -> None:
    """The first look after a restart does not replay years of games again: their summaries are kept in a
    cache file beside the journal, bound to this code and to the journal's chain."""
    import device.store.history as history_module

    ledger = Ledger(Journal(tmp_path / "journal.sqlite3"))
    for i in range(6):
        book(ledger, game(players=("Anna", "Ben"), replace=True), {"op": "go", "player": "Anna", "id": f"go{i}"})
    cache = tmp_path / "history-cache.json"
    first = History(ledger.journal.path, cache=cache).games()
    assert cache.exists()
    told: list[int] = []
    real = history_module.tell

    def counting(records: Any, detail_for: int | None = None, **kw: Any) -> Any:
        out = real(records, detail_for, **kw)
        told.extend(out)
        return out

    monkeypatch.setattr(history_module, "tell", counting)
    assert History(ledger.journal.path, cache=cache).games() == first
    assert len(told) == history_module.OPEN_GAMES  # only the open window was replayed
    told.clear()
    other = tmp_path / "other"  # another journal (a backup restored) with the same cache file beside it
    other_ledger = Ledger(Journal(other / "journal.sqlite3"))
    for _ in range(6):
        book(other_ledger, game(players=("Cem", "Dana"), replace=True))
    games = History(other_ledger.journal.path, cache=cache).games()
    assert {name for g in games for name in g["players"]} == {"Cem", "Dana"} and len(games) == 6


def test_the_warm_up_tells_the_past_beside_the_loop_and_pages_do_not_wait_for_it(tmp_path: Path) -> None:
    """Start-up does not tell the past games; a thread does it after READY, pausing every PACE_EVERY
    commands so booking goes on; meanwhile the pages say "Einen Moment" instead of keeping a phone waiting."""
    import threading

    ledger, history = evening(tmp_path)
    client = pages(history)
    paused = threading.Event()
    go_on = threading.Event()

    def pace() -> None:  # the warm-up, held at its first pause
        paused.set()
        go_on.wait(10)

    history.warming.set()

    def warm_up() -> None:  # as the history's own warm-up runs: under its lock, the flag cleared after
        with history._lock:
            history._update(pace=pace)
        history.warming.clear()

    warm = threading.Thread(target=warm_up)
    warm.start()
    assert paused.wait(10)
    answer = client.get("/spiele")
    assert answer.status_code == 503 and "Einen Moment" in answer.get_data(as_text=True)
    assert answer.headers["Retry-After"] == "3"
    assert ledger.submit(game("banking", players=("Anna", "Ben"))).ok  # booking does not wait for it
    go_on.set()
    warm.join(10)
    answer = client.get("/spiele")
    assert answer.status_code == 200 and answer.get_data(as_text=True).count('class="card game"') == 4


def test_a_game_storno_brought_back_is_told_whole_when_the_window_moves_on(tmp_path: Path) -> None:
    """The newest games are told from a point no Storno reaches behind: the quick game, brought back by
    Storno of a new game, is one game of three bookings even after more games began."""
    ledger, history = evening(tmp_path)
    book(ledger, game("banking", players=("Anna", "Ben")))
    games = history.games()
    assert [(g["edition"], g["status"]) for g in games] == [
        ("banking", "läuft"), ("schalke", "beendet"), ("banking", "ersetzt"), ("classic", "beendet")]
    assert games[2]["commands"] == 3


def test_a_damaged_past_game_is_a_page_that_says_so_never_a_crash(tmp_path: Path) -> None:
    import sqlite3

    ledger, history = evening(tmp_path)
    ledger.journal.close()
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        db.execute("UPDATE commands SET cmd = replace(cmd, 'Anna', 'Anne') WHERE seq = 2")
    answer = pages(history).get("/spiele")
    assert answer.status_code == 503 and "Verlauf nicht lesbar: Journal beschädigt" in answer.get_data(as_text=True)


def test_a_first_start_without_a_cache_logs_no_complaint(tmp_path: Path, caplog: Any) -> None:
    """No cache yet is the normal first start: nothing to report. A cache that cannot be used
    (another journal's, damaged) is still said, as the reason the past is told anew."""
    import logging

    ledger = Ledger(Journal(tmp_path / "journal.sqlite3"))
    book(ledger, game(players=("Anna", "Ben")))
    cache = tmp_path / "history-cache.json"
    with caplog.at_level(logging.DEBUG, logger="device.store.history"):
        History(ledger.journal.path, cache=cache).games()
    assert cache.exists()
    assert [r for r in caplog.records if r.levelno >= logging.INFO] == []
    cache.write_text("{not json", encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="device.store.history"):
        History(ledger.journal.path, cache=cache).games()
    assert any("history cache not used" in r.getMessage() for r in caplog.records)


def test_the_endstand_ranks_bankrupt_players_by_when_they_went_bankrupt(tmp_path: Path) -> None:
    """The report, "Letztes Spiel" and /api/state rank who went bankrupt last above those before,
    also when the report is told anew by replaying the journal."""
    from rules import to_json

    ledger = Ledger(Journal(tmp_path / "journal.sqlite3"))
    book(ledger, game(players=("Anna", "Ben", "Cem", "Dana")), {"op": "bankrupt", "player": "Anna"},
         {"op": "bankrupt", "player": "Ben"}, {"op": "bankrupt", "player": "Dana", "creditor": "Cem"})
    assert ledger.game.state is not None
    assert to_json(ledger.game.state)["ranking"] == ["Cem", "Dana", "Ben", "Anna"]
    assert History(ledger.journal.path).games()[0]["ranking"] == ["Cem", "Dana", "Ben", "Anna"]
