"""What polkit answers a caller, by polkitd's own rules language run in node (tests/polkit_model.js).

The rule install.sh writes is JavaScript; a regular expression over it would pass a rule that never
matches (a typo in ``subject.user``) or one that grants too much. Running it as polkitd does answers
the question that matters: which actions this user may take."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

import pytest

MODEL = Path(__file__).with_name("polkit_model.js")


def answers(rules: Iterable[Path], user: str, actions: Iterable[str], groups: Iterable[str] = ()) -> dict[str, str]:
    """{action: "yes" | "no" | "auth"} for ``user`` outside any session (as a system service is)."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing (./dev test installs npm, which brings it)")
    query = {"rules": [str(r) for r in rules], "user": user, "groups": list(groups), "actions": list(actions)}
    done = subprocess.run([node, str(MODEL)], input=json.dumps(query), capture_output=True, text=True, check=True,
                          timeout=30)
    result: dict[str, str] = json.loads(done.stdout)
    return result
