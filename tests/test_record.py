"""``rules.record.record`` behaves as ``@dataclass(frozen=True, slots=True)``: equal, hashed and shown alike.

Its comparison, hash and repr are shared closures instead of compiled methods (start-up cost); a set or a dict
of records, a repr in a log or a test's equality must not notice."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, ClassVar

import pytest

from rules.record import record


@record
class MyBase:
    op: ClassVar[str] = "base"
    id: str | None = field(default=None, kw_only=True)


@record
class Mine(MyBase):
    a: int
    b: tuple[int, ...] = ()
    quiet: int = field(default=0, repr=False, compare=False)
    unhashed: str = field(default="", hash=False)


@dataclass(frozen=True, slots=True)
class TheirBase:
    op: ClassVar[str] = "base"
    id: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Theirs(TheirBase):
    a: int
    b: tuple[int, ...] = ()
    quiet: int = field(default=0, repr=False, compare=False)
    unhashed: str = field(default="", hash=False)


@record
class Box:
    items: list[object]


CASES: list[dict[str, Any]] = [
    {"a": 1}, {"a": 1, "b": (2, 3)}, {"a": 1, "quiet": 5}, {"a": 1, "unhashed": "x"}, {"a": 2, "id": "r"},
    {"a": float("nan")}]


def test_records_equal_hash_and_show_as_dataclasses() -> None:
    for one in CASES:
        for two in CASES:
            assert (Mine(**one) == Mine(**two)) == (Theirs(**one) == Theirs(**two))
            assert (Mine(**one) != Mine(**two)) == (Theirs(**one) != Theirs(**two))
        assert hash(Mine(**one)) == hash(Theirs(**one))
        assert repr(Mine(**one)).replace("Mine", "Theirs") == repr(Theirs(**one))
    mine: object = Mine(a=1)  # compared with another class on purpose: object, as == takes it
    assert Mine(a=1).__eq__(Theirs(a=1)) is NotImplemented
    assert mine != Theirs(a=1)
    assert mine != MyBase()


def test_a_record_stays_a_frozen_slotted_dataclass() -> None:
    one = Mine(a=1, b=(2,))
    with pytest.raises(FrozenInstanceError):
        one.a = 2  # type: ignore[misc]
    assert not hasattr(one, "__dict__")
    assert dataclasses.is_dataclass(one)
    assert dataclasses.replace(one, a=3) == Mine(a=3, b=(2,))
    assert pickle.loads(pickle.dumps(one)) == one
    assert [f.name for f in dataclasses.fields(one)] == ["id", "a", "b", "quiet", "unhashed"]


def test_a_record_inside_itself_is_shown_as_dots() -> None:
    box = Box([])
    box.items.append(box)
    assert repr(box) == "Box(items=[...])"


def test_the_rules_records_compare_as_before() -> None:
    from rules.board import DEEDS
    from rules.commands import Credit, Debit

    assert Credit(player="A", amount=5) == Credit(player="A", amount=5)
    credit: object = Credit(player="A", amount=5)  # another command class on purpose
    assert credit != Debit(player="A", amount=5)
    assert len({DEEDS[1], DEEDS[1], DEEDS[3]}) == 2
    assert repr(Credit(player="A", amount=5)) == "Credit(id=None, expect=None, player='A', amount=5)"


def test_a_record_is_made_as_the_dataclass_makes_it() -> None:
    """``__init__`` is the dataclass's own (compiled at the first instance): positions, keywords, defaults."""
    makers: tuple[Callable[..., object], ...] = (Mine, Theirs)  # wrong calls on purpose: any arguments
    for make in makers:
        assert make(1, (2,), id="x") == make(a=1, b=(2,), id="x")
        with pytest.raises(TypeError):
            make(1, (2,), 3, "u", "x")  # id is keyword-only
        with pytest.raises(TypeError):
            make()  # a has no default
    with pytest.raises(FrozenInstanceError):
        del Mine(a=1).a
    one = Mine(a=1, b=(2,))
    assert copy.copy(one) == one and copy.deepcopy(one) == one
    assert Mine.__init__.__qualname__ == "Mine.__init__"
