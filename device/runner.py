"""The flow runner: interprets the flows declared in ``device/flows.py`` step by step.

Each step opens a list (``CHOOSE``) or a prompt (``ENTER``) whose answer fills in one field and
runs the next step; after the last, the rules' preview waits for OK (``CONFIRM``), or an op the
flow books at once goes to the ledger. The runner never changes the state itself: it answers
the next state to the transition that called it (``device/transitions.py``). Going back (C) is
the lists' stack: every step keeps the fields filled in before it.

A part of :class:`device.ui.Banker` (a mixin): the state lives on the Banker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drivers.screen import Screen
from rules import ranking
from rules.errors import RuleError
from rules.legal import legal_squares

from .flows import Flow, Pick, Square, Step, Type, View, text
from .lists import DONE, Choice, Entry, Lists, Option
from .transitions import State


class FlowRunner(Lists):
    """Start a declared flow, run its steps, confirm and book."""

    def _start_flow(self, flow: Flow, values: dict[str, Any] | None = None) -> State:
        """A menu entry picked: a one-screen entry, or the flow's first step (fields in ``values`` are known)."""
        if flow.method:
            nxt: State = getattr(self, flow.method)()
            return nxt
        if flow.ranking is not None:
            return self._ranking(flow.ranking(self.ledger), flow.label)
        return self._step(flow, dict(values or {}), 0)

    def _view(self, values: dict[str, Any]) -> View:
        return View(self.game, self.player or "", values, self._money, self.raise_creditor)

    def _step(self, flow: Flow, values: dict[str, Any], i: int) -> State:
        """Run step ``i``, or the first after it that is not already answered and whose ``when`` holds."""
        view = self._view(values)
        while i < len(flow.steps) and (flow.steps[i].field in values or not _applies(flow.steps[i], view)):
            i += 1
        if i == len(flow.steps):
            return self._finish(flow, view)
        step: Step = flow.steps[i]

        def answer(value: Any) -> State:
            return self._step(flow, {**values, step.field: value}, i + 1)

        if isinstance(step, Square):
            return self._choose_square(step.title or flow.label, self._legal(step.legal), answer)
        if isinstance(step, Pick):
            return self._pick(step, view, answer)
        return self._ask_number(Entry(text(step.prompt, view), lambda n: self._typed(flow, step, view, n, answer),
                                      money=step.money, allow_zero=step.zero,
                                      hint=text(step.hint, view) or ("OK: 0" if step.zero else "OK")))

    def _pick(self, step: Pick, view: View, answer: Callable[[Any], State]) -> State:
        """A list of the step's options ("Fertig" closes a multiple choice), its ``start`` preselected."""
        options = [Option(label, value) for label, value in step.options(view)]
        if step.multi:
            options.append(Option("Fertig", DONE))
        shown = [o.value for o in options]
        start = step.start(view) if step.start else None
        index = shown.index(start) if step.start and start in shown else 0
        return self._open_choice(Choice(text(step.title, view), options, answer, multi=step.multi,
                                        on_tap=answer if step.tap else None, index=index))

    def _typed(self, flow: Flow, step: Type, view: View, number: int,
               answer: Callable[[Any], State]) -> State | None:
        """A typed number: asked again at once when the rules refuse it for a reason the step names."""
        if step.refuse:
            error = self.ledger.check(flow.build(self._view({**view.values, step.field: number})))
            if error is not None and error.code in step.refuse:
                return self._reprompt(text(step.refuse[error.code], view))
        nxt: State = answer(number)
        return nxt

    def _finish(self, flow: Flow, view: View) -> State:
        """Every field known: book at once, or confirm the rules' preview (or the flow's own lines)."""
        cmd = flow.build(view)
        if cmd.get("op") in flow.at_once:
            return self._submit(cmd, State.CARD)
        title = text(flow.title, view) or flow.label
        if flow.confirm is None:
            return self._preview(cmd, title)
        event = None
        if flow.preview:
            try:
                event = self.ledger.game.preview(cmd)
            except RuleError as err:
                return self._refused(cmd, err.code, err.message)
        title, big, lines = flow.confirm(view, event)
        return self._ask(cmd, title, big, lines)

    def _ranking(self, game: Any, title: str = "Rangliste") -> State:
        """One page: the first in big, the three richest with their net worth below."""
        back = State.CARD if self.player else State.IDLE
        if game is None:
            return self._show_message(title, "NICHTS", "Noch kein Spiel", back)
        return self._show_pages([Screen(title=title, big=ranking(game)[0], lines=self._podium(game))], back)

    def _legal(self, op: str) -> list[int]:
        """The squares the rules accept ``op`` on for the player now (rules/legal.py)."""
        assert self.player is not None
        return legal_squares(self.ledger.game, self.player, op)


def _applies(step: Step, view: View) -> bool:
    return step.when is None or step.when(view)
