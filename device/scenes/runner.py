"""The flow runner: the flows declared in ``flows.py`` become scenes, one per step.

Each step pushes a list or a number scene whose answer fills in one field and runs the next
step; the fields filled in so far travel in the answer's closure, so C (one scene back) finds
the step before with its cursor where it was. After the last step the rules' preview waits
for OK (a confirmation scene); an op the flow books at once goes to the ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules import EDITIONS, Event, GameState, ranking, winners
from rules.errors import RuleError
from rules.legal import legal_commands

from ..store.ledger import Outcome
from .flows import RAISE_MONEY, Flow, Pick, Square, Step, Type, View, text
from .inputs import Key
from .lists import DONE, ConfirmScene, ListScene, NumberScene, Option
from .manager import Context
from .notes import PagesScene, RaiseOffer, outcome_scene, podium, verdict
from .said import Said, phrase, square_name


def start_flow(ui: Context, flow: Flow, player: str | None, values: dict[str, Any] | None = None,
               offer: RaiseOffer | None = None) -> None:
    """A menu entry picked: a one-screen entry, or the flow's first step (fields in ``values`` are known).

    ``offer``: the flow raises money for that refused payment (or goes bankrupt over it)."""
    if flow.method:
        ui.run_method(flow.method, player)
        return
    if flow.ranking is not None:
        show_ranking(ui, flow.ranking(ui.ledger), flow.said)
        return
    assert player is not None
    _step(ui, flow, player, dict(values or {}), 0, offer)


def _view(ui: Context, player: str, values: dict[str, Any], offer: RaiseOffer | None = None) -> View:
    def accepts(cmd: dict[str, Any]) -> bool:
        error = ui.ledger.check(cmd)
        return error is None or error.code == "insufficient_funds"

    assert ui.game is not None
    return View(ui.game, player, values, ui.money, offer.creditor if offer else None, offer.owed if offer else 0,
                legal_commands(ui.ledger.game, player), accepts, ui.ledger.game)


def _step(ui: Context, flow: Flow, player: str, values: dict[str, Any], i: int, offer: RaiseOffer | None) -> None:
    """Run step ``i``, or the first after it that is not already answered and whose ``when`` holds."""
    view = _view(ui, player, values, offer)
    while i < len(flow.steps) and (flow.steps[i].field in values or not _applies(flow.steps[i], view)):
        i += 1
    if i == len(flow.steps):
        # a way to raise money comes back to the payment after its booking; a bankruptcy ends it
        _finish(ui, flow, view, offer if flow.said in RAISE_MONEY[:2] else None)
        return
    step: Step = flow.steps[i]

    def answer(ui: Context, value: Any) -> None:
        _step(ui, flow, player, {**values, step.field: value}, i + 1, offer)

    if isinstance(step, Square):
        squares = legal_commands(ui.ledger.game, player, rows=(step.legal,)).squares(step.legal)
        choose_square(ui, step.title or flow.said, squares, answer, player)
    elif isinstance(step, Pick):
        _pick(ui, step, view, answer, player)
    else:
        _type(ui, flow, step, view, answer, player, offer, later=flow.steps[i + 1:])


def _type(ui: Context, flow: Flow, step: Type, view: View, answer: Callable[[Context, Any], None], player: str,
          offer: RaiseOffer | None, *, later: tuple[Step, ...]) -> None:
    def accepted(number: int) -> Said | None:
        """Why the rules refuse this number now (the prompt asks again), or None.

        Asked when the number completes the command (no later step will ask), or for the
        refusals the step names: a number offered ("OK: 0") is never one the rules refuse.
        """
        filled = _view(ui, player, {**view.values, step.field: number}, offer)
        last = not any(s.field not in filled.values and _applies(s, filled) for s in later)
        if not last and not step.refuse:
            return None
        error = ui.ledger.check(flow.build(filled))
        if error is None or error.code == "insufficient_funds":
            return None
        if error.code in step.refuse:
            return text(step.refuse[error.code], view)
        return error.said if last else None

    zero = step.zero and accepted(0) is None

    def done(ui: Context, number: int) -> Said | None:
        why = accepted(number)
        if why:
            return why
        answer(ui, number)
        return None

    hint = text(step.hint, view) or (phrase("scenes.number.ok_zero") if zero else Key.OK.value)
    ui.scenes.push(NumberScene(text(step.prompt, view), done, money=step.money, zero=zero, hint=hint, player=player))


def _pick(ui: Context, step: Pick, view: View, answer: Callable[[Context, Any], None], player: str) -> None:
    """A list of the step's options ("Fertig" closes a multiple choice), its ``start`` preselected."""
    options = [Option(label, value) for label, value in step.options(view)]
    if step.multi:
        options.append(Option(phrase("scenes.list.done"), DONE))
    if not options:
        ui.message(text(step.title, view), phrase("scenes.nothing.big"), phrase("scenes.list.nothing"), refused=True)
        return
    shown = [o.value for o in options]
    start = step.start(view) if step.start else None
    index = shown.index(start) if step.start and start in shown else 0
    ui.scenes.push(ListScene(text(step.title, view), options, answer, player=player, multi=step.multi,
                             on_tap=answer if step.tap else None, index=index))


def _finish(ui: Context, flow: Flow, view: View, then: RaiseOffer | None) -> None:
    """Every field known: book at once, or confirm the rules' preview (or the flow's own lines); ``then``: the
    refused payment to come back to after this booking."""
    cmd = flow.build(view)
    if cmd.get("op") in flow.at_once:
        ui.submit(cmd, view.player)
        return
    title = text(flow.title, view) or flow.said
    if flow.confirm is None:
        preview(ui, cmd, title, view.player, then)
        return
    event = None
    if flow.preview:
        try:
            event = ui.ledger.game.preview(cmd)
        except RuleError as err:
            refused(ui, cmd, err, view.player, title)
            return
    title, big, lines = flow.confirm(view, event)
    confirmed = cmd if event is None else {**cmd, "expect": event.effect}  # booked only as shown
    ui.scenes.push(ConfirmScene(confirmed, title, big, lines, player=view.player, big_line=flow.big_line))


def preview(ui: Context, cmd: dict[str, Any], title: Said, player: str | None, then: RaiseOffer | None = None) -> None:
    """Confirm what the rules will book: their preview's text and amount, never a recomputation."""
    try:
        event = ui.ledger.game.preview(cmd)
    except RuleError as err:
        refused(ui, cmd, err, player, title)
        return
    ui.scenes.push(_confirm(ui, cmd, title, player, event, raising_for=then))


def _confirm(ui: Context, cmd: dict[str, Any], title: Said, player: str | None, event: Event, *,
             raising_for: RaiseOffer | None = None, shown_again: RaiseOffer | None = None) -> ConfirmScene:
    amount = max((t.amount for t in event.transfers), default=0)
    lines = (event.note, event.said) if event.note else (event.said,)  # the 10 % to the bank first
    big: Said = (lambda: ui.money(amount)) if amount else ""  # nothing to pay: the title takes the big line
    # The command carries the digest of what is shown: should the rules now book otherwise, they refuse it.
    cmd = {**cmd, "expect": event.effect}
    return ConfirmScene(cmd, title, big, lines, player=player,
                        raising_for=raising_for, shown_again=shown_again)


def refused(ui: Context, cmd: dict[str, Any], err: RuleError, player: str | None, title: Said = "",
            since: Event | None = None) -> None:
    ui.tone("refused")
    ui.to_card(player, outcome_scene(ui, Outcome.refusal(err, ui.game.edition if ui.game else None), cmd, player,
                                     title, since))


def come_back(ui: Context, offer: RaiseOffer) -> bool:
    """After money was raised for ``offer``: its payment again over its card, as the rules preview it now (OK
    books it), or ZU WENIG GELD again with the way to raise more. False: it is not owed any more (the payer left
    the game, the phone paid it, or the rules no longer allow it): the booking's own result is shown instead."""
    game = ui.game
    payer = game.players.get(offer.player) if game is not None else None
    if game is None or payer is None or payer.bankrupt or game.finished or offer.paid_since(ui):
        return False
    try:
        event = ui.ledger.game.preview(offer.cmd)
    except RuleError as err:
        if err.code != "insufficient_funds":
            return False
        # the booking went through; the payment is still short, and the screen says so
        refused(ui, offer.cmd, err, offer.on_card, offer.title, offer.since)
        return True
    ui.tone("done")
    ui.to_card(offer.on_card, _confirm(ui, offer.cmd, offer.title, offer.on_card, event, shown_again=offer))
    return True


def choose_square(ui: Context, title: Said, squares: list[int], then: Callable[[Context, int], None],
                  player: str | None = None) -> None:
    if not squares:
        ui.message(title, phrase("scenes.nothing.big"), phrase("scenes.square.none"), refused=True)
        return
    edition = ui.game.edition if ui.game else EDITIONS["classic"]
    options = [Option(f"{sq:2d} {square_name(edition, sq)}", sq) for sq in squares]
    ui.scenes.push(ListScene(title, options, then, player=player))


def show_ranking(ui: Context, game: GameState | None, title: Said = "") -> None:
    """One page: the first in big, every player with their net worth below (the knob scrolls)."""
    title = title or phrase("scenes.flow.ranking")
    if game is None:
        ui.message(title, phrase("scenes.nothing.none"), phrase("scenes.ranking.no_game"))
        return
    # over: "Dana gewinnt", as the end said it; a shared win names no one first
    big: Said = verdict(game) if game.finished else phrase("scenes.end.tie") if len(winners(game)) > 1 \
        else ranking(game)[0]
    ui.scenes.push(PagesScene([(title, big, podium(ui, game))]))


def _applies(step: Step, view: View) -> bool:
    return step.when is None or step.when(view)

