"""As a property: whatever a page sends, and however often, each booking is booked once.

A page sends bookings with ids made when it shows them; it retries after a lost answer, repeats after a double
tap or Back, takes back the booking it names with Storno (twice, from two phones), and the appliance restarts
in between (the journal replayed). Generated at random against the real ledger and journal: the balances are
always those of the distinct bookings not taken back, and a repeat is answered as one.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from profiles import examples

from device.store.journal import Journal
from device.store.ledger import Ledger

PLAYERS = ("Anna", "Ben")


class Page(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="bankleser-once-"))
        self.ledger = self._open()
        assert self.ledger.submit({"op": "new_game", "edition": "classic", "mode": "standard",
                                   "players": list(PLAYERS)}).ok
        self.sent: list[tuple[dict[str, Any], dict[str, int]]] = []
        """Every booking sent, with what it moved (also those taken back since: a retry of them is a repeat)."""
        self.stack: list[tuple[int, dict[str, int]]] = []
        """The bookings in force, with their numbers, newest last."""

    def _open(self) -> Ledger:
        return Ledger(Journal(self.tmp / "journal.sqlite3"))

    def expected(self) -> dict[str, int]:
        cash = dict.fromkeys(PLAYERS, 1500)
        for _, moved in self.stack:
            for name, delta in moved.items():
                cash[name] += delta
        return cash

    @rule(who=st.sampled_from(PLAYERS), amount=st.integers(1, 300), pay=st.booleans())
    def book(self, who: str, amount: int, pay: bool) -> None:
        if pay and self.expected()[who] < amount:
            pay = False
        cmd = {"op": "debit" if pay else "credit", "player": who, "amount": amount, "id": f"web-{len(self.sent)}"}
        outcome = self.ledger.submit(cmd)
        assert outcome.ok and outcome.event is not None and not outcome.event.duplicate
        moved = {who: -amount if pay else amount}
        self.sent.append((cmd, moved))
        self.stack.append((outcome.event.number, moved))

    @precondition(lambda self: self.sent)
    @rule(data=st.data())
    def repeat(self, data: st.DataObject) -> None:
        """A double tap, Back and send again, a retry after a lost answer: the same id again."""
        cmd, _ = data.draw(st.sampled_from(self.sent))
        outcome = self.ledger.submit(cmd)
        assert outcome.ok and outcome.event is not None and outcome.event.duplicate

    @precondition(lambda self: self.stack)
    @rule(taps=st.integers(1, 3))
    def storno(self, taps: int) -> None:
        """Storno of the booking the page names, tapped once or more (or from two phones at once)."""
        number, _ = self.stack[-1]
        results = [self.ledger.submit({"op": "undo", "of": number}) for _ in range(taps)]
        assert results[0].ok
        assert all(not r.ok and r.code == "not_last" for r in results[1:])
        self.stack.pop()

    @rule()
    def restart(self) -> None:
        """The appliance restarts: the journal is replayed (or its checkpoint read)."""
        self.ledger.checkpoint()
        self.ledger.journal.close()
        self.ledger = self._open()

    @invariant()
    def balances_are_the_distinct_bookings_in_force(self) -> None:
        state = self.ledger.game.state
        assert state is not None
        assert {n: state.players[n].cash for n in PLAYERS} == self.expected()

    def teardown(self) -> None:
        self.ledger.journal.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


Page.TestCase.settings = settings(max_examples=examples(60), stateful_step_count=30, deadline=None)
test_each_booking_is_booked_once_whatever_the_page_sends = Page.TestCase
