"""One rule for players' names: short, visible, unmistakable."""

from __future__ import annotations

import pytest
from told import told

from conftest import start
from rules import RuleError, check_distinct, clean_name, name_key


def test_spaces_around_and_between_are_tidied() -> None:
    assert clean_name("  Anna  Lena ") == "Anna Lena"


@pytest.mark.parametrize("raw", ["", "   ", "A" * 13, "An\nna", "An\tna", "An\u200bna", "An\u202ena", "x\ud800", 42])
def test_what_is_not_a_name(raw: object) -> None:
    with pytest.raises(RuleError) as err:
        clean_name(raw)
    assert err.value.code == "bad_command"


def test_names_that_differ_only_in_case_are_one_player() -> None:
    assert name_key("Anna") == name_key("ANNA")
    with pytest.raises(RuleError) as err:
        check_distinct(["Anna", "anna"])
    assert "gibt es schon" in told(err)


def test_new_game_uses_the_same_rule() -> None:
    with pytest.raises(RuleError):
        start(players=("Anna", "ANNA"))
    with pytest.raises(RuleError):
        start(players=(" Anna", "Ben"))
