"""The menus: a player's (digits that never move), the banker's, a deed's, raising money; and the
one-screen entries (Storno, Spiel beenden, Lautstärke, Karte anlernen, Banker-PIN).

What a menu offers comes from the commands ``rules.legal`` finds open: an entry shows only when one of its flows
opens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import words
from rules import DEEDS, EDITIONS, Edition, Event
from rules.legal import legal_commands, means

from .flows import BANKER_MENU, FLOWS, PLAYER_FLOWS, PLAYER_MENU, RAISE_MONEY, Entry, Flow, bankrupt_command
from .lists import ConfirmScene, ListScene, NumberScene, Option
from .manager import Context
from .notes import MessageScene, RaiseOffer, ResultScene
from .runner import choose_square, start_flow
from .said import Said, phrase, square_name
from .selftest import SelftestScene
from .wizard import ask_new_game


def _opens(ui: Context, player: str, flow: Flow, legal: set[str]) -> bool:
    if flow.opens_on and not flow.opens_on & legal:
        return False
    return flow.shown is None or flow.shown(ui.ledger.game)


def player_menu(ui: Context, player: str) -> None:
    """The entries of ``PLAYER_MENU`` that open now, each with its own digit."""
    legal = set(legal_commands(ui.ledger.game, player).rows)
    options = []
    for entry in PLAYER_MENU:
        open_flows = [f for f in entry.flows if _opens(ui, player, f, legal)]
        if open_flows:
            options.append(Option(entry.said, entry, digit=entry.digit))

    def pick(ui: Context, entry: Entry) -> None:
        if len(entry.flows) == 1:
            start_flow(ui, entry.flows[0], player)
            return
        legal = set(legal_commands(ui.ledger.game, player).rows)
        ui.scenes.push(ListScene(entry.said, [Option(f.said, f, digit=str(i))
                                               for i, f in enumerate(entry.flows, 1) if _opens(ui, player, f, legal)],
                                 lambda ui, f: start_flow(ui, f, player), player=player))

    ui.scenes.push(ListScene(player, options, pick, player=player))


def banker_menu(ui: Context) -> None:
    """The banker's menu without a card: entry n has digit n, shown when its condition holds."""
    game = ui.ledger.game
    options = [Option(f.said, f, digit=str(i % 10)) for i, f in enumerate(BANKER_MENU, 1)
               if f.shown is None or f.shown(game)]
    ui.scenes.push(ListScene(phrase("scenes.menu.title"), options, lambda ui, f: start_flow(ui, f, None)))


def deed_menu(ui: Context, player: str, square: int) -> None:
    """A deed's tag with a player's card on: the flows the rules open on that square, the square chosen."""
    on_deed = {op: f for f in PLAYER_FLOWS if f.deed_label for op in f.opens_on}
    flows = [on_deed[op] for op in legal_commands(ui.ledger.game, player, square=square).rows if op in on_deed]
    assert ui.game is not None
    name = square_name(ui.game.edition, square)
    ui.to_card(player)
    if not flows:
        ui.message(name, phrase("scenes.deed.nothing"), deed_info(ui, square), refused=True)
        return
    ui.scenes.push(ListScene(name, [Option(f.deed_label, f) for f in flows],
                             lambda ui, f: start_flow(ui, f, player, {"square": square}), player=player))


def raise_menu(ui: Context, offer: RaiseOffer) -> None:
    """After ZU WENIG GELD: what the player could raise, the ways that are open, or bankruptcy.

    Bankruptcy is offered here only, with the debt and the creditor of the refused payment.
    """
    state, player = ui.game, offer.player
    assert state is not None
    _, half, mortgages = means(ui.ledger.game, player)  # the rules' own reckoning, as `bankrupt` is checked
    options = []
    for flow, short, amount, op in ((RAISE_MONEY[0], "scenes.raise.buildings", half, "sell_building"),
                                    (RAISE_MONEY[1], "scenes.raise.mortgages", mortgages, "mortgage")):
        if op in legal_commands(ui.ledger.game, player, rows=(op,)):  # only what the rules open: no "Gebäude (0)"
            options.append(Option(_with_money(ui, short, amount), FLOWS[flow]))
    # Only a debt can end in bankruptcy, and the rules say when (its whole sum against what could be raised).
    if offer.owed and ui.ledger.check(bankrupt_command(player, offer.creditor, offer.owed)) is None:
        options.append(Option(RAISE_MONEY[2], FLOWS[RAISE_MONEY[2]]))
    if not options:
        ui.tone("refused")
        ui.scenes.replace(MessageScene(phrase("scenes.raise.title"), phrase("scenes.nothing.big"),
                                       phrase("scenes.raise.nothing"), refused=True))
        return
    # said, not left for the banker to reckon: a debt, or a bid no sale or mortgage can reach
    too_little = state.players[player].cash + half + mortgages < max(offer.owed, offer.needs)
    title = _with_money(ui, "scenes.raise.short" if too_little else "scenes.raise.can", half + mortgages)
    ui.scenes.replace(ListScene(title, options,
                                lambda ui, f: start_flow(ui, f, player, offer=offer),
                                player=player))


def unknown_card(ui: Context, uid: str) -> None:
    def register(ui: Context, kind: str | None) -> None:
        if kind == "player":
            card = ui.cards.register_player(uid)
            ui.ledger.touch()
            ui.tone("done")
            ui.scenes.unwind(ResultScene(phrase("scenes.learn.done"), phrase("scenes.learn.card", number=card.number),
                                         phrase("scenes.learn.name", player=card.name)))
            return
        if kind == "deed":
            choose_square(ui, phrase("scenes.learn.which"), sorted(DEEDS), lambda ui, sq: _tag_deed(ui, uid, sq))
            return
        ui.scenes.back()

    ui.scenes.unwind(ListScene(phrase("scenes.learn.unknown"), [Option(phrase("scenes.learn.player"), "player"),
                                                                 Option(phrase("scenes.learn.deed"), "deed"),
                                                                 Option(phrase("scenes.learn.cancel"), None)],
                               register))


def _tag_deed(ui: Context, uid: str, square: int) -> None:
    ui.cards.register_deed(uid, square)
    ui.tone("done")
    ui.scenes.unwind(ResultScene(phrase("scenes.learn.done"), phrase("scenes.learn.deed_big"),
                                 square_name(edition_of(ui), square)))


def ask_undo(ui: Context, player: str | None) -> None:
    history = ui.ledger.game.history
    if not history:
        ui.message(phrase("scenes.undo.title"), phrase("scenes.nothing.none"), phrase("scenes.undo.nothing"),
                   refused=True)
        return
    # The booking it names, by its number: refused (not_last) if the phone booked another meanwhile
    last = history[-1]
    big, lines = undone(ui, last)
    ui.scenes.push(ConfirmScene({"op": "undo", "of": last.number}, phrase("scenes.undo.ask"), big, lines,
                                player=player))


def undone(ui: Context, last: Event) -> tuple[Said, tuple[Said, ...]]:
    """What Storno takes back, under STORNO in the big line (the title bar says what OK does): a new game says so
    first, then its edition's name whole and its players (the rules' whole sentence broke "Neues Spiel (MONOPOLY /
    Sonic," on the first screen); any other booking as the rules say it."""
    game = ui.game
    if last.op != "new_game" or game is None:
        return phrase("scenes.undo.big"), (last.said,)
    edition = game.edition.title.replace("MONOPOLY ", "") or game.edition.title
    return phrase("scenes.undo.big"), (phrase("scenes.undo.new_game"), edition,
                                       phrase("scenes.undo.players", n=len(game.players)))


def ask_end(ui: Context, player: str | None) -> None:
    """ENDE in the big line, and "OK beendet, C zurück" in the title bar (its own keys: OK ends, books nothing)."""
    ui.scenes.push(ConfirmScene({"op": "end"}, phrase("scenes.end.ask"), phrase("scenes.end.big"),
                                (phrase("scenes.end.now"),), ok_line=phrase("scenes.end.ok"),
                                ok_short=phrase("scenes.end.ok_short")))


def volume(ui: Context, player: str | None = None) -> None:
    """The "." key without a card, or the menu: the volume (seed 000: "Taste . drücken")."""
    name = ui.cycle_volume()
    ui.tone("card")
    ui.message(phrase("scenes.volume.title"), name.upper(), phrase("scenes.volume.key"))  # the service's word


def learn(ui: Context, player: str | None) -> None:
    ui.message(phrase("scenes.learn.title"), phrase("scenes.learn.lay"), phrase("scenes.learn.how"))


def ask_pin(ui: Context, player: str | None) -> None:
    """The banker's PIN for the web admin, typed on the device itself: 4 to 8 digits."""
    scene: NumberScene

    def done(ui: Context, number: int) -> Said | None:
        ok = ui.set_pin(scene.entry)
        ui.tone("done" if ok else "refused")
        big = phrase("scenes.pin.saved" if ok else "scenes.pin.digits")
        ui.scenes.unwind(ResultScene(phrase("scenes.pin.title"), big, phrase("scenes.pin.what"), refused=not ok))
        return None

    scene = NumberScene(phrase("scenes.pin.new"), done, money=False, hint=phrase("scenes.pin.hint"), secret=True)
    ui.scenes.push(scene)


def _ask_new_game(ui: Context, player: str | None) -> None:
    ask_new_game(ui)


def _selftest(ui: Context, player: str | None) -> None:
    ui.scenes.push(SelftestScene())


def language(ui: Context, player: str | None = None) -> None:
    """Menü → Sprache: the OLED's language, each offered in its own words ("Deutsch", "English"); the choice takes
    effect at once and is kept in the journal across restarts, as the admin page's (``daemon.language.choose``)."""
    def pick(ui: Context, code: str) -> None:
        kept = ui.choose_language(code)
        ui.tone("done")
        ui.scenes.unwind(ResultScene(phrase("scenes.language.title"), own_name(code),
                                     phrase("scenes.language.kept" if kept else "scenes.language.not_kept")))

    codes = list(words.LANGUAGES)
    ui.scenes.push(ListScene(phrase("scenes.language.title"), [Option(_own(code), code) for code in codes], pick,
                             index=codes.index(words.appliance_language())))


def _own(code: str) -> Said:
    return lambda: own_name(code)


def own_name(code: str) -> str:
    """A language's name in its own words: whoever cannot read the language in force finds theirs."""
    with words.speaking(code):
        return words.text("scenes.language.self")


METHODS: dict[str, Callable[[Context, Any], None]] = {
    "ask_undo": ask_undo, "ask_end": ask_end, "volume": volume, "learn": learn, "ask_pin": ask_pin,
    "ask_new_game": _ask_new_game, "selftest": _selftest, "language": language,
}
"""The menus' one-screen entries by the name ``flows.py`` gives them."""


def edition_of(ui: Context) -> Edition:
    """The running game's edition, or the classic one's names where there is no game."""
    return ui.game.edition if ui.game else EDITIONS["classic"]


def deed_info(ui: Context, square: int) -> Said:
    """Who owns a deed (and whether it is mortgaged), or its price while it is free; said when drawn."""
    assert ui.game is not None
    d = ui.game.deeds[square]
    if d.owner is None:
        price = ui.game.edition.deed(square).price
        return lambda: ui.say(phrase("scenes.deed.free", amount=ui.money(price)))
    return phrase("scenes.deed.mortgaged" if d.mortgaged else "scenes.deed.owner", player=d.owner)


def _with_money(ui: Context, key: str, amount: int) -> Said:
    """A text with an amount, said when drawn (the decimal sign of the language then in force)."""
    return lambda: ui.say(phrase(key, amount=ui.money(amount)))
