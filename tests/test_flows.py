"""The transition table and the declared flows: printed by `bankleser flows`, run by the device."""

from __future__ import annotations

from pathlib import Path

import pytest
from in_play import state_now
from ui_table import Table

from device.daemon.cli import main
from device.scenes.flows import Flow, Type, describe, readme_with_flows
from device.scenes.lists import ConfirmScene
from device.scenes.runner import start_flow
from device.scenes.table import SCENES, TABLE, State, graph, mermaid


def test_bankleser_flows_prints_the_graph(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flows"]) == 0
    out = capsys.readouterr().out
    assert out == describe() + "\n"
    assert "card --LOS--> result" in out.splitlines()
    assert "Hypothek aufnehmen: Feld wählen (legal: mortgage) → Vorschau der Regeln → OK bucht" in out


def test_every_scene_is_left_somewhere_and_reached_somewhere() -> None:
    """Sleep is no scene: the display goes dark over the stack, and the input that wakes acts."""
    left = {t.source for t in TABLE if t.targets - {t.source}}
    reached = {s for t in TABLE for s in t.targets} | {State.IDLE}
    assert left == SCENES and reached == SCENES and State.SLEEP not in SCENES
    assert len(graph().splitlines()) > len(TABLE)


def test_bankleser_flows_prints_the_mermaid_diagram(capsys: pytest.CaptureFixture[str]) -> None:
    """The diagram in docs/playing.md is generated from the declared table."""
    assert main(["flows", "--mermaid"]) == 0
    out = capsys.readouterr().out
    assert out == mermaid() + "\n"
    assert out.startswith("stateDiagram-v2\n") and "    card --> result: LOS" in out.splitlines()


def test_the_readme_shows_the_graph_the_code_prints() -> None:
    readme = (Path(__file__).parent.parent / "docs" / "playing.md").read_text(encoding="utf-8")
    assert f"```mermaid\n{mermaid()}\n```" in readme
    assert readme_with_flows(readme) == readme  # the whole block, no line left over from an older graph


def test_bankleser_flows_writes_the_readme_block(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# Flows\n\n```mermaid\nstateDiagram-v2\n    idle --> z\n```\n\nAfter.\n", encoding="utf-8")
    assert main(["flows", "--readme", str(readme)]) == 0
    assert readme.read_text(encoding="utf-8") == f"# Flows\n\n```mermaid\n{mermaid()}\n```\n\nAfter.\n"


def test_a_flow_with_fields_types_them_then_confirms_the_preview(table: Table) -> None:
    """One row declares a flow: here Soll by fields, the way "An alle zahlen" will run."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    flow = Flow("Zahlen", frozenset(), op="debit", steps=(Type("amount", "Betrag?"),))
    table.press("MENU")
    table.bank.scenes.why = "OK"  # as if picked from the menu
    start_flow(table.bank, flow, "Anna")
    table.bank.render()
    assert table.text().splitlines()[:2] == ["Betrag?", "0"]
    table.type("2M")
    table.press("OK")
    assert table.text().splitlines() == ["OK bucht, C zurück", "2M", "Anna zahlt 2M an die", "Bank"]
    assert isinstance(table.bank.scene, ConfirmScene) and table.bank.scene.title == "Zahlen"  # the result's title
    table.press("OK")
    assert table.cash("Anna") == 13_000_000


def test_the_readme_shows_the_measured_presses() -> None:
    """"Measure and list in the README the presses per action against the original"."""
    from bench.presses import table

    readme = (Path(__file__).parent.parent / "docs" / "playing.md").read_text(encoding="utf-8")
    assert table() in readme


def test_a_result_is_what_came_of_a_command_a_message_is_a_note(table: Table) -> None:
    """RESULT says booked or refused; MESSAGE carries the notes nobody booked. Both leave alike."""
    from device.scenes import TWO_CARDS

    table.start("Anna", "Ben")
    table.press(".")  # the volume, without a card
    assert table.bank.state is State.MESSAGE and table.text().splitlines()[0] == "Lautstärke"
    table.tap("Anna")  # a tap on a message selects that card
    table.press("LOS")
    assert state_now(table.bank) is State.RESULT and table.text().startswith("Gebucht")
    table.bank.reader_status(False, TWO_CARDS)
    assert table.bank.state is State.MESSAGE and table.text().splitlines()[1] == "ZWEI KARTEN"
    table.now += 5
    table.bank.tick()
    assert state_now(table.bank) is State.IDLE
    table.press("MENU")
    table.choose("Karte anlernen")
    assert table.bank.state is State.MESSAGE and table.text().splitlines()[1] == "AUFLEGEN"


def test_letztes_spiel_shows_the_ranking_of_the_last_game_that_is_over(table: Table) -> None:
    """"Menü → 'Letztes Spiel' shows the last game's ranking" (one row of flows.py)."""
    table.start("Anna", "Ben")
    table.press("MENU")
    assert "Letztes Spiel" not in table.text()  # nothing is over yet
    table.press("C")
    assert table.bank.ledger.submit({"op": "bankrupt", "player": "Ben", "creditor": "Anna"}).ok
    assert table.bank.ledger.submit({"op": "new_game", "edition": "classic", "mode": "standard",
                                     "players": ["Cem", "Dana"]}).ok
    table.bank.refresh()
    table.press("MENU")
    table.choose("Letztes Spiel")
    assert table.bank.state is State.PAGES and table.text().splitlines()[:2] == ["Letztes Spiel", "Anna gewinnt"]


def test_a_flow_of_steps_is_one_row_choice_then_typed_then_booked(table: Table) -> None:
    """A declared flow: a choice whose value goes into the command, a typed field, the preview, OK."""
    from device.scenes.flows import Pick

    flow = Flow("Zahlung", op="", command=lambda v: {"op": v["_how"], "player": v.player, "amount": v["amount"]},
                steps=(Pick("_how", "Wie?", lambda v: [("Haben", "credit"), ("Soll", "debit")], "Haben oder Soll"),
                       Type("amount", "Betrag?")))
    assert flow.describe() == "Haben oder Soll → Betrag? tippen → Vorschau der Regeln → OK bucht"
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("MENU")
    table.bank.scenes.why = "OK"  # as if picked from the menu
    start_flow(table.bank, flow, "Anna")
    table.bank.render()
    table.choose("Soll")
    table.type("1M")
    table.press("C")  # corrected
    table.press("C")  # back to the list, the choice kept
    assert table.labels() == ["Haben", "Soll"]
    table.choose("Haben")
    table.type("1M")
    table.press("OK")
    assert table.text().splitlines()[:2] == ["OK bucht, C zurück", "1M"]
    assert isinstance(table.bank.scene, ConfirmScene) and table.bank.scene.title == "Zahlung"
    table.press("OK")
    assert table.cash("Anna") == 16_000_000


def test_the_banker_menu_offers_storno_only_when_there_is_something_to_take_back(table: Table) -> None:
    """"Menus offer only what the rules would accept now" — the first game's new_game cannot be
    undone, so right after it the banker's menu has no Storno; after a booking it has."""
    table.start("Anna", "Ben")
    table.press("MENU")
    assert "Storno" not in table.labels()
    table.press("C")
    assert table.bank.ledger.submit({"op": "go", "player": "Anna"}).ok
    table.bank.refresh()
    table.press("MENU")
    assert "Storno" in table.labels()


def test_the_scene_modules_import_one_another_without_a_circle() -> None:
    """Four of the old parts referred to each other in a circle (TYPE_CHECKING imports too).
    Every import between the scene modules, wherever it stands, makes a graph without a cycle."""
    import ast

    root = Path(__file__).resolve().parent.parent / "device" / "scenes"
    names = {p.stem for p in root.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in root.glob("*.py"):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                deps |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        graph[path.stem] = deps & names
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import circle: {' → '.join((*path, name))}"
        if name not in done:
            for dep in graph[name]:
                visit(dep, (*path, name))
            done.add(name)

    for name in graph:
        visit(name, ())



def test_a_flow_declared_as_data_is_the_flow_written_by_hand() -> None:
    """The common flows (a square, an amount) are made from their row of the device's table: each is the very flow
    once written out in ``flows.py``, so moving them there changed nothing the device does."""
    from device.scenes.flows import FLOWS, Square
    from device.scenes.said import phrase

    def by_hand(op: str, *steps: Square | Type, deed: bool = False) -> Flow:
        said = phrase(f"scenes.flow.{op}")
        return Flow(said, frozenset({op}), op, steps, deed_label=said if deed else "")

    flows = [by_hand("tax", Square(phrase("scenes.tax.which"), legal="tax")),
             by_hand("build", Square(legal="build"), deed=True),
             by_hand("mortgage", Square(legal="mortgage"), deed=True),
             by_hand("unmortgage", Square(legal="unmortgage"), deed=True),
             by_hand("pay_all", Type("amount", phrase("scenes.pay_all.amount"))),
             by_hand("collect_all", Type("amount", phrase("scenes.collect_all.amount"))),
             by_hand("free_parking"), by_hand("pay_debt")]
    assert [FLOWS[f.said] for f in flows] == flows


def test_a_flow_is_declared_once() -> None:
    """A row of the device's table with steps of its own gets its flow from them; a flow declared in ``flows.py``
    takes none there (they would be ignored)."""
    from device.scenes.flows import FLOWS, from_place
    from device.scenes.places import PLACES
    from device.scenes.said import phrase

    assert [p.op for p in PLACES if p.steps and FLOWS[phrase(p.flow)] != from_place(p)] == []
