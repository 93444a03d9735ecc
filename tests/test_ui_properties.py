"""Properties of the banker's reader, checked by a generator over random inputs.

Hypothesis drives the real device (scenes, ledger, rules, journal) with random keys, knob
turns, holds, ticks, taps of player cards, deed tags and unknown cards, web changes and the own Wi-Fi
opening and closing (its join screens, for every SSID the config allows), in every edition and
mode, and after every input asserts:

1. fits: every line fits the 128×64 display, measured with the shipped font;
2. never silent: every input changes the screen or plays a tone (a tap always plays one);
3. never offered, then refused: what a list or a confirmation offers and OK takes is accepted
   by the rules (a lack of money aside: that is answered with ways to raise it);
4. the display agrees with the ledger: a card shows the ledger's balance, ≈ and the exact
   amount when rounded;
5. declared: every change of scene is in the table (the manager is strict here: it raises);
6. stable: a menu entry keeps its digit whatever else is offered;
7. not forgotten: after a booking that raised money for a payment refused for want of it, that payment is on
   the screen again (its confirmation, or ZU WENIG GELD with the list again), unless it is not owed any more.
8. the Wi-Fi's join code keeps 2 px per module wherever its payload fits a version-3 code;
9. complete as well as sound: every op the rules accept for the player on the reader, with some valid
   values, is offered at its documented place of that player's menu (docs/playing.md), on every square the rules
   accept it on, and under the house rule "doppeltes Gehalt auf LOS" the exact landing on LOS — asked of ``Game.check``
   directly, never through ``rules.legal``, which the menus use. ``HYPOTHESIS_PROFILE=long`` runs it with ten times
   the examples (``dev`` with a tenth: tests/profiles.py).

On a failure hypothesis prints the shrunk inputs and a ``@reproduce_failure`` blob (the seed);
each shrunk failure is kept below as a named regression test.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from in_play import in_play
from profiles import examples
from ui_table import UID, Table, menu_offers, rules_accept, shown

import words
from device.daemon.hotspot import ALPHABET, PASSWORD_LENGTH, JoinInfo, qr_ssid_fits, wifi_qr_payload
from device.scenes.card import CardScene
from device.scenes.inputs import Key
from device.scenes.layout import problems, qr_px, screen_qr_px
from device.scenes.lists import ConfirmScene, ListScene, NumberScene
from device.scenes.notes import MessageScene
from device.store.cards import SIM_DEED_TAGS, SIM_PLAYER_CARDS
from rules import DEEDS, EDITIONS, reader_text

NAMES = list(SIM_PLAYER_CARDS.values())
KEYS = [k.value for k in Key]
UNKNOWN = ["04aa000001", "04aa000002", "04bb0000000003"]
ACCEPTED_REFUSALS = {"insufficient_funds"}
"""The one refusal that may follow an offer: the answer to it is the raise-money list."""


class Reader(RuleBasedStateMachine):
    """The appliance on the table, driven at random."""

    def __init__(self) -> None:
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="bankleser-prop-"))
        self.table = Table(self.tmp)
        self.digits: dict[tuple[str, str], str] = {}
        self.offer: Any = None
        """The raise-money offer of the last payment refused for want of money."""
        self.complete: set[tuple[int, str]] = set()
        """(ledger version, player) whose menu was found complete: the menu changes only with a booking."""

    def teardown(self) -> None:
        self.table.buzzer.close()
        self.table.journal.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    @initialize(edition=st.sampled_from(sorted(EDITIONS)), mode=st.sampled_from(["none", "standard", "quick", "timed"]),
                players=st.integers(2, 4), speed=st.booleans(), pot=st.booleans(), double_go=st.booleans(),
                no_auctions=st.booleans())
    def start(self, edition: str, mode: str, players: int, speed: bool, pot: bool, double_go: bool = False,
              no_auctions: bool = False) -> None:
        if mode == "none":
            return
        extra: dict[str, Any] = {"minutes": 1} if mode == "timed" else {}
        if mode == "quick":
            extra["seed"] = 7
        if speed and EDITIONS[edition].speed_die_bonus and mode == "standard":
            extra["speed_die"] = True
        rules = [name for name, on in (("free_parking_pot", pot), ("double_go", double_go),
                                       ("no_auctions", no_auctions)) if on]
        if rules:
            extra["house_rules"] = rules
        self.table.start(*NAMES[:players], edition=edition, mode=mode, **extra)

    # Inputs ------------------------------------------------------------------------------

    def _input(self, do: Any, *, tap: bool = False, key: str = "") -> None:
        bank = self.table.bank
        before_screen = bank.last_screen
        before_top = bank.scene
        entry_empty_zero = isinstance(before_top, NumberScene) and before_top.zero and not before_top.entry
        tones = len(self.table.buzzer.played)
        history = len(bank.ledger.game.history)
        do()
        played = self.table.buzzer.played[tones:]
        # 2. never silent
        assert bank.last_screen != before_screen or played, f"silent: {key or 'tap'} on {before_top}"
        if tap:
            assert played, "a tap is never ignored"
        # 3. never offered, then refused
        top = bank.scene
        if key in ("OK", "PUSH") and isinstance(before_top, ListScene | ConfirmScene) and \
                isinstance(top, MessageScene) and top.code:
            assert top.code in ACCEPTED_REFUSALS, f"offered, then refused: {top.code} {top.text}"
        if key in ("OK", "PUSH") and entry_empty_zero:
            assert not (top is before_top and isinstance(top, NumberScene) and top.why), \
                f"'OK: 0' offered, then refused: {top.why}"
        if isinstance(top, MessageScene) and top.offer is not None:
            self.offer = top.offer  # a rule of several inputs may pass it: kept for the bankruptcy's check
        # 7. not forgotten
        if key in ("OK", "PUSH") and isinstance(before_top, ConfirmScene) and before_top.raising_for is not None \
                and len(bank.ledger.game.history) != history:
            self._payment_came_back(before_top.raising_for)

    def _payment_came_back(self, offer: Any) -> None:
        """Seed 001: "Können Sie Ihre Schulden danach immer noch nicht ausgleichen, sind Sie BANKROTT" — the debt is
        owed until paid: after the mortgage or the sale, the refused payment is shown again."""
        bank = self.table.bank
        top, game = bank.scene, bank.game
        error = bank.ledger.check(offer.cmd)
        owed = game is not None and not game.finished and offer.player in game.players \
            and not game.players[offer.player].bankrupt and (error is None or error.code in ACCEPTED_REFUSALS)
        if not owed:  # withdrawn: the rules no longer allow it
            assert not isinstance(top, ConfirmScene) or top.cmd != offer.cmd, f"{offer.cmd} shown, not owed"
            return
        if error is None:
            assert isinstance(top, ConfirmScene) and shown(top.cmd) == offer.cmd and top.player == offer.on_card, \
                f"forgotten: {offer.cmd}, on the screen {top}"
        else:
            assert isinstance(top, MessageScene) and top.offer is not None and top.offer.cmd == offer.cmd, \
                f"still short, not said: {offer.cmd}, on the screen {top}"

    @rule(key=st.sampled_from(KEYS))
    def press(self, key: str) -> None:
        self._input(lambda: self.table.press(key), key=key)

    @rule(key=st.sampled_from(["OK", "UP", "DOWN", "C", "PUSH"]))
    def knob_and_back(self, key: str) -> None:
        """The keys a banker uses most, weighted up."""
        self._input(lambda: self.table.press(key), key=key)

    @rule()
    def hold_c(self) -> None:
        self._input(lambda: self.table.press("hold:C"), key="hold:C")

    @rule(name=st.sampled_from(NAMES))
    def tap_player(self, name: str) -> None:
        self._input(lambda: self.table.tap(name), tap=True)

    @rule(square=st.sampled_from(sorted(SIM_DEED_TAGS.values())))
    def tap_deed(self, square: int) -> None:
        self._input(lambda: self.table.tap(square), tap=True)

    @rule(uid=st.sampled_from(UNKNOWN))
    def tap_unknown(self, uid: str) -> None:
        self._input(lambda: self.table.bank.handle("tap", uid), tap=True)

    @rule(seconds=st.sampled_from([1.0, 3.0, 5.0, 30.0, 61.0]))
    def tick(self, seconds: float) -> None:
        self.table.now += seconds
        self.table.bank.tick()

    @rule(ssid=st.one_of(st.sampled_from(["Bankleser", "Ferienwohnung-Sonnenhang-Haus-12", "Oma & Opa – Garten 5"]),
                         st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1,
                                 max_size=32).filter(lambda s: len(s.encode()) <= 32)),
          password=st.text(ALPHABET, min_size=PASSWORD_LENGTH, max_size=PASSWORD_LENGTH), up=st.booleans())
    def own_wifi(self, ssid: str, password: str, up: bool) -> None:
        """No known network: the appliance opens its own Wi-Fi, and the idle screen shows how to join
        it (its code, its name and password, the page's code, in turn); a known network coming back closes it."""
        info = JoinInfo(ssid, password, wifi_qr_payload(ssid, password)) if up else None
        self.table.bank.join = lambda: info
        self.table.bank.refresh()

    @rule(cmd=st.sampled_from(["undo", "end", "credit", "buy", "drain"]), who=st.integers(0, 3),
          square=st.sampled_from(sorted(DEEDS)))
    def web(self, cmd: str, who: int, square: int) -> None:
        """A change from the phone's admin page: the device follows it. The phone also buys deeds and books a
        Soll that leaves a player little cash: the ways to raise money and the payments refused for want of it."""
        state = self.table.ledger.game.state
        if state is None:
            return
        name = list(state.players)[who % len(state.players)]
        command: dict[str, Any] = {"op": cmd}
        if cmd == "credit":
            command |= {"player": next(iter(state.players)), "amount": state.edition.money(100)}
        elif cmd == "buy":
            command |= {"player": name, "square": square}
        elif cmd == "drain":  # a deed to raise money on, then little cash
            self.table.ledger.submit({"op": "buy", "player": name, "square": square})
            command = {"op": "debit", "player": name, "amount": state.players[name].cash - state.edition.money(10)}
        self.table.ledger.submit(command)
        self.table.bank.refresh()

    @rule(who=st.integers(0, 3), pushes=st.integers(0, 5))
    def pay_tax(self, who: int, pushes: int) -> None:
        """The banker books a tax the way a banker does: the card, MENU 3 (Steuer), OK on the first tax; then OK on
        what follows, a few times (Geld beschaffen, the first way, the first street, its booking, the tax again)."""
        state = self.table.ledger.game.state
        cards = [n for n in state.players if n in UID] if state is not None else NAMES  # a new game's own cards
        if not cards:
            return
        name = cards[who % len(cards)]
        self._input(lambda: self.table.tap(name), tap=True)
        for key in ("MENU", "3", "OK", *["OK"] * pushes):
            self._input(lambda key=key: self.table.press(key), key=key)

    # Properties after every input -----------------------------------------------------

    @invariant()
    def fits(self) -> None:
        screen = self.table.bank.screen()
        found = problems(screen)
        assert not found, f"does not fit: {found} in {screen}"

    @invariant()
    def the_wifi_code_keeps_two_pixels_per_module(self) -> None:
        """A phone's camera reads the join code from afar when each module is 2 px (0.34 mm) at least."""
        qr = self.table.bank.screen().qr
        info = self.table.bank.join()
        if qr is not None and info is not None and qr == info.wifi_qr and qr_ssid_fits(info.ssid):
            modules = qr_px(qr, 1)  # at 1 px per module, with its light border
            assert screen_qr_px(self.table.bank.screen()) >= 2 * modules, f"a small code for {info.ssid!r}"

    @invariant()
    def asleep_no_transfer_is_armed(self) -> None:
        """After the display sleeps, the card scene starts fresh: no card before the dark arms a transfer."""
        if self.table.asleep:
            armed = [s for s in self.table.bank.scenes.stack if isinstance(s, CardScene) and (s.payer or not s.booked)]
            assert not armed, f"armed while asleep: {armed}"

    @invariant()
    def display_agrees_with_the_ledger(self) -> None:
        bank = self.table.bank
        top = bank.scene
        shows = top.player if isinstance(top, CardScene) else getattr(top, "balance_of", None)
        game = bank.game
        if bank.asleep or shows is None or bank.ledger.problem or game is None or shows not in game.players:
            return
        cash = game.players[shows].cash
        screen = bank.screen()
        shown = reader_text(cash, game.edition)
        amount = shown.text.replace(".", words.text("number.decimal"))  # the language's decimal sign
        # a card shows its balance; a result names whose it is ("Anna: 996", the banker's Storno, a transfer)
        assert screen.big in (amount, words.text("scenes.result.balance", player=shows, amount=amount))
        if not shown.exact:
            assert "≈" in screen.icons and words.text("scenes.balance.exact", amount=bank.money(cash)) in screen.lines

    @invariant()
    def confirmations_are_what_the_rules_accept(self) -> None:
        top = self.table.bank.scene
        if isinstance(top, ConfirmScene) and not self.table.bank.asleep:
            error = self.table.ledger.check(top.cmd)
            assert error is None or error.code in ACCEPTED_REFUSALS, f"confirm offers {top.cmd}: {error}"

    @invariant()
    def a_confirmations_title_bar_says_what_ok_does(self) -> None:
        """The keys' line ("OK bucht, C zurück", or its short form beside marks that leave no room) in the title bar,
        or the note of an unused input for its moment; what is confirmed in the big line; and every part fits."""
        bank = self.table.bank
        top = bank.scene
        if not isinstance(top, ConfirmScene) or bank.asleep:
            return
        screen = bank.screen()
        keys = (bank.say(top.ok_line), bank.say(top.ok_short))
        assert screen.title in keys or (bank.note and screen.title == bank.say(bank.note)), screen
        assert screen.big and problems(screen) == [], screen

    @invariant()
    def a_bankruptcy_goes_to_the_refused_payments_creditor(self) -> None:
        """Seed 000: "Der Mitspieler, dem Sie mehr Geld schulden … erhält von Ihnen" — no other creditor is booked."""
        top = self.table.bank.scene
        if isinstance(top, MessageScene) and top.offer is not None:
            self.offer = top.offer
        if isinstance(top, ConfirmScene) and top.cmd.get("op") == "bankrupt":
            assert self.offer is not None, f"bankruptcy without a refused payment: {top.cmd}"
            assert (top.cmd["player"], top.cmd.get("creditor")) == (self.offer.player, self.offer.creditor), \
                f"{top.cmd} after {self.offer}"

    @invariant()
    def every_op_the_rules_accept_is_offered_at_its_place(self) -> None:
        """"every operation the rules would accept for the tapped player, with some valid values, is
        reachable from the player's menu at its documented place" (Banking's Menü 8 was not)."""
        bank = self.table.bank
        holder = next((s.player for s in reversed(bank.scenes.stack) if isinstance(s, CardScene)), None)
        if holder is None or bank.game is None or holder not in bank.game.players:
            return
        key = (self.table.ledger.version, holder)
        if key in self.complete:
            return
        accepted = rules_accept(self.table.ledger.game, holder)
        offered = menu_offers(self.table, holder, only=set(accepted))
        missing = {kind: squares - offered.get(kind, set()) for kind, squares in accepted.items()
                   if squares - offered.get(kind, set())}
        assert not missing, f"the rules accept for {holder}, the menu does not offer: {missing}"
        self.complete.add(key)

    @invariant()
    def menu_digits_are_stable(self) -> None:
        top = self.table.bank.scene
        if not isinstance(top, ListScene) or not top.numbered:
            return
        state = self.table.ledger.game.state
        title = "player" if state is not None and top.title in state.players else top.title
        for option in top.options:
            known = self.digits.setdefault((title, option.label), option.digit)
            assert known == option.digit, f"{option.label} moved from {known} to {option.digit}"


# 300 sessions of up to 50 inputs. CI's fixed inputs (derandomized) of 300 sessions reach the situation of every
# find kept below that the 500 of before reached, the Wi-Fi note aside (its first at session 417, kept as a named
# test); 200 missed two (0 beside the QR code first came at 271). A random run comes to each at least once in 44
# sessions. 500 cost 1.7 times as long for that one situation more (measured: docs/reliability.md).
Reader.TestCase.settings = settings(max_examples=examples(300), stateful_step_count=50, deadline=None,
                                    print_blob=True,
                                    # CI replays the same inputs every run (a red run does not land, so it must
                                    # not depend on luck); a developer's run draws new ones each time, and
                                    # hypothesis keeps any failure it finds in .hypothesis/ to replay.
                                    derandomize=os.environ.get("CI") == "true",
                                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_the_reader_keeps_its_properties = Reader.TestCase


# Shrunk failures the generator found, kept as regression tests --------------------------

def _screen_fits(table: Table) -> list[str]:
    screen = table.bank.screen()
    return problems(screen)


def test_regression_a_quick_games_name_fits_beside_the_qr_code(table: Table) -> None:
    """Generator: start(banking, quick) — "Schnellspiel" in bold ran under the QR code."""
    table.start("Anna", "Ben", mode="quick", seed=7)
    assert table.text().splitlines()[1] == "Schnell" and _screen_fits(table) == []


def test_regression_a_note_beside_the_qr_code_goes_to_the_title_bar(table: Table) -> None:
    """Generator: press(0) on the idle screen — "0: hier nicht" ran under the QR code."""
    table.press("0")
    assert table.text().splitlines()[0] == "0: hier nicht" and _screen_fits(table) == []
    assert table.tones() == ["refused"]


def test_regression_ok_on_an_amount_before_its_key_says_so_in_a_line_that_fits(table: Table) -> None:
    """Generator: tap Anna, 1, OK — the note "HABEN oder SOLL drücken" ran past the title bar."""
    table.start("Anna", "Ben")
    table.tap("Anna")
    table.press("1", "OK")
    assert table.tones()[-1] == "refused" and "HABEN oder SOLL" in table.text() and _screen_fits(table) == []


def test_regression_turning_up_at_the_top_of_the_ranking_says_so(table: Table) -> None:
    """Generator: four players, Rangliste, UP — the knob turned at the top and nothing answered."""
    table.start("Anna", "Ben", "Cem", "Dana")
    table.press("MENU")
    table.choose("Rangliste")
    table.tones()
    table.press("UP")
    assert table.tones() == ["refused"] and "Drehen: hier nicht" in table.text()
    table.press("DOWN")
    assert "4. Dana 15M" in table.text()


def test_regression_a_key_that_opens_the_same_note_again_clicks(table: Table) -> None:
    """Generator: MENU, 6 (Karte anlernen), 6 — the note left and came back the same: nothing answered."""
    table.press("MENU", "6")
    table.tones()
    before = table.text()
    table.press("6")
    assert table.text() == before and table.tones() == ["card"]


def test_regression_a_storno_the_phone_already_made_is_withdrawn(table: Table) -> None:
    """Generator: the banker's Storno? confirmation stood on the OLED while the phone's admin page undid that very
    booking; OK then was refused ("Nichts zu stornieren"), and had another booking been made, OK would have undone
    one the screen never showed. A confirmation the phone changed is withdrawn."""
    table.start("Anna", "Ben")
    assert table.ledger.submit({"op": "credit", "player": "Anna", "amount": 100_000}).ok
    table.bank.refresh()
    table.press("MENU")
    table.choose("Storno")
    assert table.text().splitlines()[2:4] == ["Anna erhält 100K von", "der Bank"]
    assert table.ledger.submit({"op": "undo"}).ok  # the phone
    table.bank.refresh()
    assert "Storno?" not in table.text()


def test_regression_a_storno_confirmation_never_undoes_what_it_did_not_show(table: Table) -> None:
    table.start("Anna", "Ben")
    assert table.ledger.submit({"op": "credit", "player": "Anna", "amount": 100_000}).ok
    table.bank.refresh()
    table.press("MENU")
    table.choose("Storno")
    assert table.ledger.submit({"op": "credit", "player": "Ben", "amount": 200_000}).ok  # the phone
    table.bank.refresh()
    assert "Storno?" not in table.text()
    assert table.cash("Ben") == 15_200_000


def test_regression_a_storno_the_web_took_away_is_withdrawn(table: Table) -> None:
    """The generator's find: MENU 4 Storno waits for OK, the phone's Storno takes back the only booking; OK then
    met "Nichts zu stornieren: das erste Spiel". The confirmation goes when the web makes it impossible."""
    table.start("Anna", "Ben", edition="classic")
    assert table.ledger.submit({"op": "credit", "player": "Anna", "amount": 100}).ok
    table.bank.refresh()
    table.press("MENU", "4")
    assert table.bank.scene.kind.value == "confirm"
    assert table.ledger.submit({"op": "undo"}).ok
    table.bank.refresh()
    assert table.bank.scene.kind.value != "confirm"


def test_regression_a_note_on_the_wifi_code_stays_beside_it_and_keeps_the_code_large(table: Table) -> None:
    """Generator: own_wifi(Bankleser), C — the note "C: hier nicht" went to the title bar, and under a title the
    join code had 54 px, so it was drawn at 1 px per module again. The note goes beside the code."""
    from device.daemon.hotspot import wifi_qr_payload

    info = JoinInfo("Bankleser", "abcdefghjkmn", wifi_qr_payload("Bankleser", "abcdefghjkmn"))
    table.bank.join = lambda: info
    table.bank.refresh()
    table.press("C")
    screen = table.bank.screen()
    assert screen.title == "" and screen.lines[-2:] == ("C: hier", "nicht") and _screen_fits(table) == []
    assert screen_qr_px(screen) == 62 and table.tones() == ["refused"]


def test_regression_a_tax_refused_for_want_of_money_comes_back_after_each_mortgage() -> None:
    """Generator (property 7, on the code before the fix): the phone buys Badstraße for Anna and leaves her 10;
    Steuer (200) is refused; OK, Hypothek, Badstraße, OK booked the mortgage and the tax was forgotten. Now the
    tax comes back: still short, ZU WENIG GELD with the list again."""
    machine = Reader()
    try:
        machine.start("classic", "standard", 2, False, False)
        machine.web("drain", 0, 1)
        machine.pay_tax(0, 4)  # the tax, then OK: Geld beschaffen, Hypothek, Badstraße, the mortgage's OK
        top = machine.table.bank.scene
        assert isinstance(top, MessageScene) and top.offer is not None, machine.table.text()
        assert top.offer.cmd == {"op": "tax", "player": "Anna", "square": 4}
        assert "ZU WENIG GELD" in machine.table.text() and in_play(machine.table.ledger).deeds[1].mortgaged
    finally:
        machine.teardown()


def test_regression_a_card_learned_in_the_set_up_is_asked_about_by_its_own_uid(table: Table) -> None:
    """Generator (the completeness property's own harness, KeyError 'Spieler 7'): a card learned while the players
    tap in joined the game; the property looked for its UID among the six simulated cards only."""
    card = table.cards.register_player("04aa000001")
    table.start("Anna", card.name, edition="banking")
    assert menu_offers(table, card.name) == rules_accept(table.ledger.game, card.name)
