"""The banker's reader: :class:`Banker`, the state machine assembled from its parts.

Each part is a module one can read in one sitting, built on the parts before it (the core at the
bottom; the few calls that go upward are declared where they are made); the Banker is the top:

- ``machine.py``    the state, the one entry point (``feed``) and the one change of state (``_go_to``);
- ``results.py``    a booked or refused command's result, messages, pages, the verdict words;
- ``lists.py``      the steps flows are made of: lists, typed numbers, the rules' preview, OK;
- ``runner.py``     runs the flows declared in ``flows.py``: steps, then the rules' preview, then OK;
- ``menus.py``      which menu entries open now (from ``flows.py``), and the one-screen entries;
- ``card_keys.py``  taps (player, deed, unknown card), Haben, Soll, LOS and transfers;
- ``wizard.py``     the new game.

Where the machine may go is ``transitions.py``; the player's menu is ``flows.py``; what the
OLED shows is ``screens.py``.
"""

from __future__ import annotations

from .lists import Choice, Entry, Option, Pending
from .machine import SLEEP_AFTER, TWO_CARDS
from .results import RESULT_SHOWN, VERDICTS
from .transitions import State
from .wizard import Wizard

__all__ = ["RESULT_SHOWN", "SLEEP_AFTER", "TWO_CARDS", "VERDICTS", "Banker", "Choice", "Entry", "Option",
           "Pending", "State"]


class Banker(Wizard):
    """The state machine. ``show`` draws a screen, ``tone`` plays a tune; ``url`` is the page.

    Constructed with the fields of :class:`device.machine.Machine`; its methods come from the parts.
    """
