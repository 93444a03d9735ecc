"""The new-game wizard: replace?, edition, mode (minutes), players join by tapping, the deal.

A part of :class:`device.ui.Banker` (a mixin): the state lives on the Banker.
"""

from __future__ import annotations

import re
from typing import Any

from drivers.screen import Screen
from rules import EDITIONS, Mode, square_name
from rules.errors import RuleError
from rules.game import new_game_state

from .card_keys import CardKeys
from .lists import Choice, Entry, Option
from .screens import LINE, _quick_name
from .transitions import State


class Wizard(CardKeys):
    """Hold C: a new game, the last game's edition, mode and players offered as the default."""

    def _ask_new_game(self, key: Any = None) -> State:
        self.tone("new_game")
        self.stack.clear()
        self.choice = None
        self.player = None
        running = self.game is not None and not self.game.finished
        title, yes = ("Spiel ersetzen?", "Ja: ersetzen") if running else ("Neues Spiel?",
                                                                                    "Ja: alle Stände neu")
        return self._open_choice(Choice(title, [Option(yes, True), Option("Nein", False)],
                                        lambda ok: self._pick_edition(running) if ok else self._to_idle()))

    def _pick_edition(self, replace: bool = False) -> State:
        """The wizard; over a running game the command says so (``replace``), and Storno brings it back."""
        self.new_game = {"op": "new_game", **({"replace": True} if replace else {})}
        keys = list(EDITIONS)
        last = self.game.edition.key if self.game is not None else keys[0]  # the last game's: OK keeps it
        return self._open_choice(Choice("Ausgabe", [Option(e.title.replace("MONOPOLY ", "") or e.title, k)
                                                    for k, e in EDITIONS.items()], self._pick_mode,
                                        index=keys.index(last) if last in keys else 0))

    def _pick_mode(self, edition: str) -> State:
        self.new_game["edition"] = edition
        options = [Option("Standard", ("standard", False)), Option(_quick_name(EDITIONS[edition]), ("quick", False)),
                   Option("Auf Zeit", ("timed", False))]
        if EDITIONS[edition].speed_die_bonus:
            options.append(Option("Mit Tempo-Würfel", ("standard", True)))
        index = 0
        if self.game is not None:
            last = (self.game.mode.value, self.game.speed_die)
            index = next((i for i, o in enumerate(options) if o.value == last), 0)
        return self._open_choice(Choice("Spielart", options, self._picked_mode, index=index))

    def _picked_mode(self, mode: tuple[str, bool]) -> State:
        self.new_game["mode"], speed = mode
        if speed:
            self.new_game["speed_die"] = True
        if mode[0] == "timed":
            return self._ask_number(Entry("Minuten?", self._minutes, money=False))
        return self._start_join()

    def _minutes(self, minutes: int) -> State | None:
        try:  # asked of the rules now, not after every player has tapped
            new_game_state({**self.new_game, "minutes": minutes, "players": ["Probe1", "Probe2"]})
        except RuleError as err:
            limits = re.search(r"\(([^)]*)\)$", err.message)
            return self._reprompt(f"nur {limits.group(1)}" if limits else err.message[:LINE])
        self.new_game["minutes"] = minutes
        return self._start_join()

    def _start_join(self) -> State:
        """Players join by tapping; the last game's players are already in (C clears them)."""
        last = self.game
        known = {c.name for c in self.cards.players()}
        self.joined = [n for n in last.players if n in known] if last is not None else []
        self.choice = None
        self.stack.clear()
        return State.JOIN

    def _join_clear(self, key: str) -> State | None:
        """C: first empties the list of players (the last game's), then leaves the wizard."""
        if self.joined:
            self.joined = []
            return None
        return self._to_idle()

    def _join(self, uid: str) -> State | None:
        card = self.cards.get(uid)
        if card is not None and card.kind == "deed":
            return None
        if card is None:
            card = self.cards.register_player(uid)
            self.ledger.touch()
        if card.name not in self.joined and len(self.joined) < 8:
            self.joined.append(card.name)
            self.tone("card")
        return None

    def _start_game(self, key: str) -> State | None:
        if len(self.joined) < 2:
            self.tone("refused")
            return None
        cmd = {**self.new_game, "players": list(self.joined)}
        if cmd["mode"] == "quick":
            cmd["seed"] = self.new_seed()
        outcome = self.ledger.submit(cmd)
        if not outcome.ok:
            return self._outcome(outcome, State.IDLE)
        self.tone("new_game")
        state = self.game
        if state.mode is Mode.QUICK:  # the deal, shown player by player: OK shows the next
            deal = [Screen(title="Austeilen", big=name, lines=tuple(
                f"{sq:2d} {square_name(state.edition, sq)}"[:LINE]
                for sq, d in state.deeds.items() if d.owner == name)[:3]) for name in state.players]
            first = Screen(title="Neues Spiel", big=f"{len(self.joined)} Spieler",
                           lines=(state.edition.title[:LINE], "OK: Karten zeigen"))
            return self._show_pages([first, *deal], State.IDLE)
        self.result = Screen(title="Neues Spiel", big=f"{len(self.joined)} Spieler",
                             lines=(state.edition.title[:LINE], ""))
        self.result_at = self.clock()
        self.result_next = State.IDLE
        return State.RESULT
