"""The table's colours, one definition each: a group's bar as on the board, and each player's.

The deed stickers, the bank cards, the edition page, the status page and the games' chart all show them: a sticker
on a deed and the page a family reads beside it must agree. Plain data, as the board is (no drawing here).
"""

from __future__ import annotations

GROUP_COLOURS: dict[str, str] = {
    "brown": "#8b4513", "lightblue": "#9fd3f0", "pink": "#d6338c", "orange": "#f7941d", "red": "#e03131",
    "yellow": "#fcd116", "green": "#2b8a3e", "darkblue": "#1c4fa0", "station": "#222222", "utility": "#868e96",
}
"""Each group's colour bar (``rules.GROUPS``' keys), near the board's own: the deed stickers print it and the web
pages draw a deed's edge with it."""

PLAYER_COLOURS = ("#d62828", "#1d4ed8", "#15803d", "#b45309", "#7c3aed", "#0e7490", "#be185d", "#4d7c0f")
"""Bank card N wears colour N, and player N's line in the games' chart has it too (eight players at most)."""
