"""The transition table and the declared flows: printed by `bankleser flows`, run by the device."""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_table import Table

from device.cli import main
from device.flows import Flow, describe
from device.transitions import TABLE, State, graph


def test_bankleser_flows_prints_the_graph(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flows"]) == 0
    out = capsys.readouterr().out
    assert out == describe() + "\n"
    assert "card --LOS/go--> result" in out.splitlines()
    assert "Hypothek aufnehmen: Feld wählen (legal: mortgage) → Vorschau der Regeln → OK bucht" in out


def test_every_state_but_sleep_is_left_somewhere_and_reached_somewhere() -> None:
    left = {t.source for t in TABLE if t.targets - {t.source}}
    reached = {s for t in TABLE for s in t.targets}
    assert left == set(State) and reached == set(State)
    assert len(graph().splitlines()) > len(TABLE)


def test_the_readme_shows_the_graph_the_code_prints() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    assert describe() in readme


def test_a_flow_with_fields_types_them_then_confirms_the_preview(table: Table) -> None:
    """One row declares a flow: here Soll by fields, the way "An alle zahlen" will run."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    flow = Flow("Zahlen", frozenset(), op="debit", fields=(("amount", "Betrag?"),))
    table.bank.state = table.bank._start_flow(flow)
    table.bank.render()
    assert table.text().splitlines()[:2] == ["Betrag?", "0"]
    table.type("2M")
    table.press("OK")
    assert table.text().splitlines()[:3] == ["Zahlen", "2M", "Anna zahlt 2M an die"]
    table.press("OK")
    assert table.cash("Anna") == 13_000_000


def test_the_readme_shows_the_measured_presses() -> None:
    """Issue 10: "Measure and list in the README the presses per action against the original"."""
    from bench.presses import table

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    assert table() in readme
