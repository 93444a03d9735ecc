"""The banker's reader as scenes, the way the Flipper Zero builds its 128×64 apps.

- ``table.py``    every scene and every change between them, declared (printed by ``bankleser flows``);
- ``manager.py``  the scene stack: C goes back one scene, a booking unwinds to the card; every change checked;
                  ``Context``, what a scene may use of the reader (scenes reach each other through it:
                  no scene module imports the reader, and the imports between them have no circle);
- ``ui.py``       :class:`Ui`, the one object the daemon talks to: inputs in arrival order, the screen out;
- ``layout.py``   every line measured with the shipped font: wrapped or scrolled, never cut;
- ``flows.py``    the banker's flows as data; ``runner.py`` turns their steps into scenes;
- the scenes: ``idle``, ``card`` (card, amount), ``lists`` (list, number, confirmation),
  ``notes`` (result, message, pages), ``menus``, ``wizard`` (the new game, joining), ``selftest``;
  ``taps`` what a card does that the scene on top has no use for.
"""

from .inputs import WIRE_KEYS
from .table import State
from .ui import SLEEP_AFTER, TWO_CARDS, Ui

__all__ = ["SLEEP_AFTER", "TWO_CARDS", "WIRE_KEYS", "State", "Ui"]
