"""The banker's flows, declared in one place: a menu entry, when the rules open it, its steps.

A flow on a square ("Hypothek aufnehmen") is: choose a square from those the rules accept
(``rules.legal.legal_squares``) → confirm what ``Game.preview`` says → book. A flow with
fields ("An alle zahlen") types each field, then confirms and books. Flows whose steps differ
(buying with an auction, rent with the dice, trade) name the Banker's method that runs them.
Adding a flow is one row here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .transitions import graph


@dataclass(frozen=True)
class Flow:
    label: str
    """The menu entry."""
    opens_on: frozenset[str]
    """Rows of ``rules.legal.OPS_TABLE``: the entry is offered when any is legal (empty: always)."""
    op: str = ""
    """The command's op for the generic flows."""
    square: str = ""
    """Choose a square from the legal ones for this row of ``rules.legal`` first."""
    fields: tuple[tuple[str, str], ...] = ()
    """(command field, prompt) typed as amounts, in order."""
    method: str = ""
    """A Banker method that runs a flow of its own shape instead."""
    each_square: bool = False
    """One menu entry per legal square, named after it (the tax squares: no list in between)."""

    def steps(self) -> str:
        if self.method:
            return f"{self.method.lstrip('_')}()"
        parts = []
        if self.each_square:
            parts.append(f"ein Menüeintrag je Feld (legal: {self.square})")
        elif self.square:
            parts.append(f"Feld wählen (legal: {self.square})")
        parts += [f"{prompt} tippen" for _, prompt in self.fields]
        parts += ["Vorschau der Regeln", "OK bucht"]
        return " → ".join(parts)


def _f(label: str, *opens: str, **kw: object) -> Flow:
    return Flow(label, frozenset(opens), **kw)  # type: ignore[arg-type]


PLAYER_FLOWS: tuple[Flow, ...] = (
    _f("Kaufen", "buy", method="_buy"),
    _f("Miete zahlen", "rent", method="_rent"),
    _f("Steuer", "tax", op="tax", square="tax", each_square=True),
    _f("Gefängnis", "jail_fine", "jail_card_drawn", "jail_card_used", method="_jail"),
    _f("Bauen", "build", op="build", square="build"),
    _f("Gebäude verkaufen", "sell_building", method="_sell"),
    _f("Hypothek aufnehmen", "mortgage", op="mortgage", square="mortgage"),
    _f("Hypothek lösen", "unmortgage", op="unmortgage", square="unmortgage"),
    # These four open once the rules know their ops (rules branch, ARCHITECTURE.md).
    _f("An alle zahlen", "pay_all", op="pay_all", fields=(("amount", "Betrag an jeden?"),)),
    _f("Von allen kassieren", "collect_all", op="collect_all", fields=(("amount", "Betrag von jedem?"),)),
    _f("Renovierung", "repairs", op="repairs", fields=(("per_house", "Je Haus?"), ("per_hotel", "Je Hotel?"))),
    _f("Frei Parken", "free_parking", op="free_parking"),
    _f("Tausch", method="_trade"),
    _f("Bankrott", "bankrupt", method="_bankrupt"),
    _f("Storno", method="_ask_undo"),
    _f("Rangliste", method="_ranking"),
)
"""The menu of a player on the reader, in this order, each entry only when it opens."""


README_BLOCK = "```\n# Transitions ("
"""Where the README's copy of :func:`describe` starts; it ends at the code block's end."""


def readme_with_flows(readme: str) -> str:
    """The README with its block of flows as the code has them (``bankleser flows --readme README.md``)."""
    start = readme.index(README_BLOCK) + 4
    end = readme.index("\n```", start)
    return readme[:start] + describe() + readme[end:]


def describe() -> str:
    """What ``bankleser flows`` prints: the transition graph, then the declared flows."""
    flows = "\n".join(f"{f.label}: {f.steps()}" for f in PLAYER_FLOWS)
    return f"# Transitions (state --trigger/action--> destinations)\n{graph()}\n\n# Banker flows\n{flows}"
