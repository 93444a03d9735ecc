"""A card laid on that the scene on top has no use for: that card, deed or unknown card, at once."""

from __future__ import annotations

from .card import CardScene
from .manager import Context
from .menus import deed_info, deed_menu, edition_of, unknown_card
from .notes import verdict
from .said import phrase, square_name
from .table import State

UNFINISHED = frozenset({State.AMOUNT, State.CHOOSE, State.ENTER, State.CONFIRM})
"""Scenes whose input a tap drops (the card scene then says "Eingabe verworfen")."""


def tapped(ui: Context, uid: str) -> None:
    """A tap the scene on top has no use for: that card, deed or unknown card, whatever was under way.

    An unfinished input is dropped, and the card scene says so ("Eingabe verworfen").
    """
    ui.tone("card")
    card = ui.cards.get(uid)
    top = ui.scenes.top
    if getattr(top, "setup", False):  # a new game being set up: kept, the cards come after
        ui.tone("refused")
        ui.note = phrase("scenes.tap.later")
        return
    game = ui.game
    if card is None:
        unknown_card(ui, uid)
        return
    current = ui.scenes.find(State.CARD)
    holder = current.player if current is not None else None
    if card.kind == "deed":
        square = card.square
        assert square is not None
        if game is None or game.finished:
            ui.message(phrase("scenes.tap.square", square=square), phrase("scenes.tap.no_game"),
                       square_name(edition_of(ui), square), unwind=True)
            return
        if holder is None:
            ui.message(phrase("scenes.tap.square", square=square), square_name(game.edition, square),
                       deed_info(ui, square), unwind=True)
            return
        deed_menu(ui, holder, square)
        return
    if game is None or card.name not in game.players:
        ui.message(phrase("scenes.learn.card", number=card.number), card.name, phrase("scenes.tap.not_playing"),
                   unwind=True)
        return
    if game.finished:
        ui.message(phrase("scenes.end.title"), verdict(game), phrase("scenes.tap.new_game"), unwind=True)
        return
    if game.players[card.name].bankrupt:
        ui.message(phrase("scenes.card.title", player=card.name, number=card.number), phrase("scenes.tap.bankrupt"),
                   phrase("scenes.tap.out", player=card.name), refused=True, unwind=True)
        return
    payer = holder if isinstance(top, CardScene) and not top.booked and holder != card.name else None
    ui.scenes.unwind(CardScene(card.name, payer))
    if top.kind in UNFINISHED:
        ui.note = phrase("scenes.tap.dropped")
