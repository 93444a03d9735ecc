"""The new game: replace?, edition, mode (minutes), house rules, players join by tapping, the deal.

The command being put together travels in the closures of the wizard's lists, so C goes back
one list with everything chosen before it kept; the join scene holds the players who tapped.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

import words
from drivers.screen import Screen
from rules import GameState, Mode
from rules.errors import RuleError
from rules.game import HOUSE_RULE_NAMES, new_game_state
from rules.newgame import with_edition_data

from .idle import quick_name
from .inputs import Input, Key, Press, Tap
from .layout import page
from .lists import DONE, ListScene, NumberScene, Option
from .manager import Context, Scene
from .notes import PagesScene, ResultScene, outcome_scene
from .said import Said, phrase, square_name
from .table import State


def ask_new_game(ui: Context) -> None:
    """Hold C (or the banker's menu): a new game, the last game's edition and mode offered."""
    ui.tone("new_game")
    running = ui.game is not None and not ui.game.finished
    title, yes = (phrase("scenes.new.replace"), phrase("scenes.new.replace_yes")) if running else \
        (phrase("scenes.new.ask"), phrase("scenes.new.ask_yes"))

    def answer(ui: Context, ok: bool) -> None:
        if ok:
            _pick_edition(ui, {"op": "new_game", **({"replace": True} if running else {})})
        else:
            ui.scenes.back()

    ui.scenes.unwind(ListScene(title, [Option(yes, True), Option(phrase("scenes.new.no"), False)], answer, setup=True))


def _folder(editions: Any) -> Any:
    """The device's live folder read now (its :class:`~device.store.editions.Catalogue`), or None for a test's
    plain dict of editions."""
    catalogue = getattr(editions, "catalogue", None)
    return catalogue() if callable(catalogue) else None


def _twins(cat: Any) -> dict[str, Said]:
    """The keys two family files claim, each said with the files' names in the OLED's few lines."""
    if cat is None:
        return {}
    return {key: phrase("scenes.new.edition_twins", key=key, files=", ".join(p.name for p in cat.claims[key]))
            for key in cat.refused}


def _pick_edition(ui: Context, cmd: dict[str, Any]) -> None:
    editions = ui.ledger.editions  # the shipped ones and the family's
    cat = _folder(editions)
    if cat is not None:  # one reading for the whole list: each look at the live folder may see it changed by hand
        editions = cat.editions
    refused = _twins(cat)
    shown = {k: e.title.replace("MONOPOLY ", "") or e.title for k, e in editions.items()}
    keys = [*editions, *refused]
    last = ui.game.edition.key if ui.game is not None else keys[0]  # the last game's: OK keeps it

    def picked(ui: Context, edition: str) -> None:
        """A key two files claim is listed (the family looks for it) and refused with the files' names, in the
        OLED's few lines (the pages say it whole). The list may have stood a while: the folder is asked again at
        OK, so an edition deleted meanwhile (on /admin, by hand) is said to be gone, and a new twin is a twin."""
        now = _folder(ui.ledger.editions)
        twins = refused if now is None else _twins(now)
        if edition in twins:
            ui.tone("refused")
            ui.note = twins[edition]
            return
        if now is not None and edition not in now.editions:
            ui.tone("refused")
            ui.note = phrase("scenes.new.edition_gone", edition=shown.get(edition, edition))
            return
        _pick_mode(ui, {**cmd, "edition": edition})

    ui.scenes.push(ListScene(phrase("scenes.new.edition"),
                             [*(Option(shown[k], k) for k in editions), *(Option(k, k) for k in refused)],
                             picked, index=keys.index(last) if last in keys else 0, setup=True))


def _pick_mode(ui: Context, cmd: dict[str, Any]) -> None:
    """The mode; its last entry opens the house rules, none marked: they are agreed anew for each game (a rule
    chosen once carried into every later game and edition, shown only as "Hausregeln: 1")."""
    edition = ui.ledger.editions[cmd["edition"]]
    options = [Option(phrase("scenes.mode.standard"), ("standard", False)),
               Option(quick_name(edition), ("quick", False)), Option(phrase("scenes.mode.timed"), ("timed", False))]
    if edition.speed_die_bonus:
        options.append(Option(phrase("scenes.mode.speed_die"), ("standard", True)))
    index = 0
    if ui.game is not None:
        last = (ui.game.mode.value, ui.game.speed_die)
        index = next((i for i, o in enumerate(options) if o.value == last), 0)
    chosen: list[str] = []
    rules = Option(lambda: _rules_label(chosen), HOUSE_RULES)
    options.append(rules)

    def picked(ui: Context, mode: Any) -> None:
        if mode is HOUSE_RULES:
            _house_rules(ui, chosen, rules)
            return
        with_rules = {**cmd, **({"house_rules": list(chosen)} if chosen else {})}
        full = {**with_rules, "mode": mode[0], **({"speed_die": True} if mode[1] else {})}
        if mode[0] == "timed":
            ui.scenes.push(NumberScene(phrase("scenes.new.minutes"), lambda ui, n: _minutes(ui, full, n), money=False,
                                       hint=phrase("scenes.new.minutes_hint"), setup=True))
        else:
            ui.scenes.push(JoinScene(full))

    ui.scenes.push(ListScene(phrase("scenes.new.mode"), options, picked, index=index, setup=True))


HOUSE_RULES = object()
"""The mode list's entry that opens the house rules."""


def _rules_label(chosen: list[str]) -> str:
    """The mode list's last entry: how many house rules are marked, said when drawn."""
    return words.text("scenes.new.rules_count", n=len(chosen)) if chosen else words.text("scenes.new.rules_none")


HOUSE_RULES_SAID = {"free_parking_pot": "scenes.house_rule.free_parking_pot",
                    "double_go": "scenes.house_rule.double_go", "no_auctions": "scenes.house_rule.no_auctions"}
"""Seed 001's house rules as the OLED names them, by the rules' code (``rules.titles.HOUSE_RULE_NAMES``): each
whole on one row of the list, so that no word of a name stands alone and reads as an entry ("keine")."""


def _rule_said(rule: str) -> Said:
    return phrase(HOUSE_RULES_SAID[rule]) if rule in HOUSE_RULES_SAID else HOUSE_RULE_NAMES[rule]


def _minutes(ui: Context, cmd: dict[str, Any], minutes: int) -> Said | None:
    try:  # asked of the rules now, not after every player has tapped
        new_game_state(with_edition_data({**cmd, "minutes": minutes, "players": ["Probe1", "Probe2"]},
                                         ui.ledger.editions))  # a family's edition too
    except RuleError as err:
        message = ui.say(err.said)  # the rules' refusal names its limits last: "(1–1440)"
        limits = re.search(r"\(([^)]*)\)$", message)
        return phrase("scenes.new.minutes_only", range=limits.group(1)) if limits else err.said
    ui.scenes.push(JoinScene({**cmd, "minutes": minutes}))
    return None


def _house_rules(ui: Context, chosen: list[str], entry: Option) -> None:
    """Seed 001's house rules to mark; "Fertig" goes back to the mode list, its entry counting them."""
    options = [Option(_rule_said(rule), rule, selected=rule in chosen) for rule in HOUSE_RULE_NAMES]
    options.append(Option(phrase("scenes.list.done"), DONE))

    def done(ui: Context, rules: list[str]) -> None:
        chosen[:] = rules  # the mode list's entry counts them when it is drawn
        ui.scenes.back()

    ui.scenes.push(ListScene(phrase("scenes.new.rules"), options, done, multi=True, index=len(options) - 1,
                             setup=True))


def _summary(state: GameState) -> tuple[Said, ...]:
    """The new game's first screen: the edition's name whole (no "MONOPOLY" to break "FC Schalke | 04"), the
    mode with a timed game's minutes ("1 Minute", "30 Minuten"), and the house rules by name, one a line under
    "Hausregeln:" (not "Hausregeln: 1", and no name broken so that a word of it stands alone)."""
    edition = state.edition.title.replace("MONOPOLY ", "") or state.edition.title
    mode: Said = {Mode.QUICK: quick_name(state.edition),
                  Mode.TIMED: phrase("scenes.mode.timed_minutes", n=state.minutes or 0)}.get(
        state.mode, phrase("scenes.mode.speed_die") if state.speed_die else phrase("scenes.mode.standard"))
    chosen = [_rule_said(r) for r in sorted(state.house_rules) if r in HOUSE_RULE_NAMES]
    if not chosen:
        return edition, mode, phrase("scenes.new.rules_none")
    return edition, mode, phrase("scenes.new.rules_head"), *chosen


class JoinScene(Scene, msgspec.Struct):
    """Players join by tapping, starting from none (docs/playing.md: "each player taps a card"; pre-filled, the
    last game's players left when they tapped). A card tapped again leaves; C clears, then goes back."""

    kind = State.JOIN
    cmd: dict[str, Any]
    joined: list[str] = []

    def on_event(self, ui: Context, inp: Input) -> bool:
        if isinstance(inp, Tap):
            return self._join(ui, inp.uid)
        if not isinstance(inp, Press):
            return False
        if inp.key is Key.C:
            if self.joined:
                self.joined = []
            else:
                ui.scenes.back()
            return True
        if inp.key in (Key.OK, Key.PUSH):
            return self._start(ui)
        return False

    def _join(self, ui: Context, uid: str) -> bool:
        card = ui.cards.get(uid)
        if card is not None and card.kind == "deed":
            ui.tone("refused")
            ui.note = phrase("scenes.join.no_bank_card")
            return True
        if card is None:
            card = ui.cards.register_player(uid)
            ui.ledger.touch()
        if card.name in self.joined:  # a joined card tapped again leaves
            self.joined.remove(card.name)
            ui.tone("card")
            return True
        if len(self.joined) >= 8:
            ui.tone("refused")
            ui.note = phrase("scenes.join.at_most", n=8)
            return True
        self.joined.append(card.name)
        ui.tone("card")
        return True

    def _start(self, ui: Context) -> bool:
        if len(self.joined) < 2:
            ui.tone("refused")
            ui.note = phrase("scenes.join.at_least", n=2)
            return True
        cmd = {**self.cmd, "players": list(self.joined)}
        if cmd["mode"] == "quick":
            cmd["seed"] = ui.new_seed()
        outcome = ui.ledger.submit(cmd)
        ui.seen = ui.game
        ui.seen_running = ui.game is not None and not ui.game.finished
        if not outcome.ok:
            ui.tone("refused")
            ui.scenes.push(outcome_scene(ui, outcome, cmd, None))
            return True
        ui.tone("new_game")
        state = ui.game
        assert state is not None
        title = phrase("scenes.new.title")
        lines = (phrase("scenes.join.players", n=len(self.joined)), *_summary(state))
        if state.mode is Mode.QUICK:  # the deal, shown player by player: OK shows the next
            deal: list[tuple[Said, Said, tuple[Said, ...]]] = [
                (phrase("scenes.new.deal"), name, tuple(f"{sq:2d} {square_name(state.edition, sq)}"
                                                        for sq, d in state.deeds.items() if d.owner == name))
                for name in state.players]
            ui.scenes.unwind(PagesScene([(title, "", (*lines, phrase("scenes.new.show_deal"))), *deal]))
            return True
        ui.scenes.unwind(ResultScene(title, "", lambda: "\n".join(ui.say(line) for line in lines)))
        return True

    def view(self, ui: Context) -> Screen:
        hint = phrase("scenes.join.clear" if self.joined else "scenes.join.back")
        return page(ui.say(phrase("scenes.join.title")), ui.say(phrase("scenes.join.players", n=len(self.joined))),
                    [words.text("list.separator").join(self.joined) or "–"], pinned=(ui.say(hint),))
