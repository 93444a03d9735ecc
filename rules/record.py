"""``@record``: ``@dataclass(frozen=True, slots=True)`` with comparison, hash and repr made without compiling.

On Python 3.11 a dataclass compiles each method it generates from source, at every start: six for a frozen one,
about 3.8 M instructions a class (≈ 14 ms at a Pi core's pace), and the rules define about 40 before READY.
``__eq__``, ``__hash__`` and ``__repr__`` do the same thing for every class, so here they are closures over the
class's field names (``operator.attrgetter``): a third of that cost less a class. ``__init__`` and the frozen
``__setattr__``/``__delattr__`` stay the dataclass's own. The closures compare, hash and show exactly what the
dataclass's methods would: the same tuple of the same fields (``compare``, ``hash`` and ``repr`` honoured), the
same ``NotImplemented`` for another class, the same ``...`` for a record inside itself.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


def _values(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The fields' values as a tuple (``attrgetter`` of one name gives the bare value, of none fails)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    return lambda obj: ()


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T]) -> type[T]:
    """The frozen, slotted dataclass of ``cls``, equal, hashed and shown as ``@dataclass`` would."""
    made: type[T] = dataclass(frozen=True, slots=True, eq=False, repr=False)(cls)
    every = fields(made)  # type: ignore[arg-type]
    compared = _values(tuple(f.name for f in every if f.compare))
    hashed = _values(tuple(f.name for f in every if (f.compare if f.hash is None else f.hash)))
    shown = tuple(f.name for f in every if f.repr)

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(hashed(self))

    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    own = dict(cls.__dict__)
    if own.get("__hash__", 0) is None and "__eq__" in own:
        del own["__hash__"]  # the None Python sets beside a class's own __eq__: the dataclass adds its hash
    for method in (__eq__, __hash__, __repr__):
        if method.__name__ not in own:
            method.__qualname__ = f"{made.__qualname__}.{method.__name__}"
            setattr(made, method.__name__, method)
    return made
