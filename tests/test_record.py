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

from rules.record import mutable_record, record


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


@mutable_record
class MyState:
    name: str
    cash: int = 0
    seen: list[int] = field(default_factory=list)
    quiet: int = field(default=0, repr=False, compare=False)


@dataclass(slots=True)
class TheirState:
    name: str
    cash: int = 0
    seen: list[int] = field(default_factory=list)
    quiet: int = field(default=0, repr=False, compare=False)


def test_a_mutable_record_behaves_as_a_slotted_dataclass() -> None:
    """The game's state: changed in place, compared, shown and copied as ``@dataclass(slots=True)`` did."""
    cases: list[dict[str, Any]] = [{"name": "A"}, {"name": "A", "cash": 5}, {"name": "A", "quiet": 1},
                                   {"name": "B", "seen": [1]}]
    for one in cases:
        for two in cases:
            assert (MyState(**one) == MyState(**two)) == (TheirState(**one) == TheirState(**two))
        assert repr(MyState(**one)).replace("MyState", "TheirState") == repr(TheirState(**one))
    assert MyState.__hash__ is None and TheirState.__hash__ is None
    assert MyState.__match_args__ == TheirState.__match_args__
    mine = MyState("A")
    mine.cash = 7
    mine.seen.append(1)
    assert MyState("A").seen == []  # a fresh list each
    assert not hasattr(mine, "__dict__")
    with pytest.raises(AttributeError):
        setattr(mine, "other", 1)  # noqa: B010 (an attribute no field names: slots refuse it)
    assert dataclasses.replace(mine, cash=9) == MyState("A", 9, [1])
    assert pickle.loads(pickle.dumps(mine)) == mine == copy.deepcopy(mine)
    assert [f.name for f in dataclasses.fields(mine)] == ["name", "cash", "seen", "quiet"]
    make: Callable[..., object] = MyState  # a wrong call on purpose
    with pytest.raises(TypeError):
        make()
    assert MyState.__init__.__qualname__ == "MyState.__init__"
