"""Hypothesis profiles: how hard the property tests look for defects, chosen once for the whole run.

Each property test states its examples as a weight, ``@settings(max_examples=examples(150))``: what it draws in
the ``ci`` profile, scaled by the chosen profile's factor. A test that finds defects more often, or at a higher
cost, keeps its own weight; the profile says how long the whole run may look.

- ``dev``: a tenth, at least a few examples: a quick check while editing (hypothesis replays every failure it
  kept in ``.hypothesis/`` first, so a defect once found is tried again at once).
- ``ci``: the weights as written, the default whether ``CI=true`` or not.

Every profile keeps what hypothesis itself chose for the environment: on a CI server (``CI`` set) its own ``ci``
settings, so a red run never depends on luck (the same inputs each run, no example database, no deadline);
on a laptop new inputs each run, every failure kept in ``.hypothesis/`` and replayed first.
- ``long``: ten times the weights, for the big runs before a release; what they find is kept as a named
  regression test beside its property.

``HYPOTHESIS_PROFILE=dev|ci|long`` chooses one (hypothesis' ``settings.load_profile``); an unknown name is an
error, not a silent ``ci``.
"""

from __future__ import annotations

import os

from hypothesis import settings

ENV = "HYPOTHESIS_PROFILE"
DEFAULT = "ci"
FACTORS = {"dev": 0.1, "ci": 1.0, "long": 10.0}
"""Each profile's scale on a test's weight."""
LEAST = 3
"""Examples a property draws at the least: with fewer, ``dev`` would hardly run the test's code."""
UNWEIGHTED = 100
"""The weight of a ``@given`` test with no ``max_examples`` of its own (hypothesis' own default)."""


def chosen() -> str:
    """The profile this run uses, from the environment."""
    name = os.environ.get(ENV, DEFAULT)
    if name not in FACTORS:
        raise ValueError(f"{ENV}={name!r}: the profiles are {', '.join(FACTORS)}")
    return name


def examples(weight: int) -> int:
    """A test's ``max_examples`` in this run: its weight scaled by the chosen profile."""
    return max(LEAST, round(weight * FACTORS[chosen()]))


def load() -> str:
    """Register the three profiles and load the chosen one; returns its name (for the run's header).

    Called once, before any test module is imported: a test's ``@settings`` builds on the loaded profile."""
    environment = settings.get_profile(settings.get_current_profile_name())  # hypothesis' "ci" or "default"
    for name, factor in FACTORS.items():
        settings.register_profile(name, environment, max_examples=max(LEAST, round(UNWEIGHTED * factor)))
    name = chosen()
    settings.load_profile(name)
    return name
