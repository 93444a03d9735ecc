"""``@record``: ``@dataclass(frozen=True, slots=True)`` whose methods are made without compiling until used.

On Python 3.11 a dataclass compiles each method it generates from source, at every start: six for a frozen one,
about 3.8 M instructions a class (≈ 14 ms at a Pi core's pace), and the rules define about 40 before READY.
Five of them do the same thing for every class, so here they are closures over the class's field names:
``__eq__``, ``__hash__`` and ``__repr__`` (``operator.attrgetter``), and the frozen ``__setattr__`` and
``__delattr__``. ``__init__``, the one method that differs per class, is compiled by ``dataclass`` itself the
first time the class is instantiated (most of the commands' classes are not before READY). Each behaves exactly
as the dataclass's: the same tuples compared and hashed, the same repr, ``FrozenInstanceError`` on assignment,
pickling and ``copy`` through ``__getstate__``/``__setstate__`` as a frozen slotted dataclass has them.
``__dataclass_params__.frozen`` reads False (the class is made with ``frozen=False`` and frozen by these methods).
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, field, fields
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


def _frozen_methods(cls: type[Any], names: frozenset[str]) -> dict[str, Any]:
    """``__setattr__``/``__delattr__`` as a frozen dataclass's (``dataclasses._frozen_get_del_attr``), and the
    pickling that a frozen slotted dataclass gets (its own ``__setattr__`` would refuse the unpickling)."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, f.name) for f in fields(self)]

    def __setstate__(self: Any, state: list[Any]) -> None:
        for f, value in zip(fields(self), state, strict=False):
            object.__setattr__(self, f.name, value)

    return {"__setattr__": __setattr__, "__delattr__": __delattr__, "__getstate__": __getstate__,
            "__setstate__": __setstate__}


def _compiled_init(cls: type[Any], *, frozen: bool = True) -> Callable[..., None]:
    """The ``__init__`` ``@dataclass(frozen=frozen)`` makes for ``cls``'s fields (a frozen one sets them with
    ``object.__setattr__``; both call ``__post_init__``), compiled on a twin class with the same fields."""
    every = fields(cls)
    space: dict[str, Any] = {"__annotations__": {f.name: f.type for f in every}, "__module__": cls.__module__,
                             "__qualname__": cls.__qualname__}
    for f in every:
        space[f.name] = field(default=f.default, default_factory=f.default_factory, init=f.init, kw_only=f.kw_only)
    if hasattr(cls, "__post_init__"):
        space["__post_init__"] = cls.__post_init__
    twin: type[Any] = dataclass(frozen=frozen, eq=False, repr=False, match_args=False)(type(cls.__name__, (), space))
    init: Callable[..., None] = twin.__init__
    return init


def _made(cls: type[T], *, frozen: bool) -> type[T]:
    """The slotted dataclass of ``cls`` with its methods made as closures, ``__init__`` compiled at the first
    instance: frozen and hashed as ``@dataclass(frozen=True)``, or mutable with ``__hash__`` None as
    ``@dataclass`` (eq) leaves a class that is changed in place."""
    made: type[T] = dataclass(slots=True, init=False, eq=False, repr=False)(cls)
    every = fields(made)  # type: ignore[arg-type]
    compared = _values(tuple(f.name for f in every if f.compare))
    shown = tuple(f.name for f in every if f.repr)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init = _compiled_init(made, frozen=frozen)
        init.__qualname__ = f"{made.__qualname__}.__init__"
        type.__setattr__(made, "__init__", init)
        init(self, *args, **kwargs)

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    own = dict(cls.__dict__)
    methods: dict[str, Callable[..., Any]] = {"__init__": __init__, "__eq__": __eq__, "__repr__": __repr__}
    if frozen:
        hashed = _values(tuple(f.name for f in every if (f.compare if f.hash is None else f.hash)))

        def __hash__(self: Any) -> int:
            return hash(hashed(self))

        if own.get("__hash__", 0) is None and "__eq__" in own:
            del own["__hash__"]  # the None Python sets beside a class's own __eq__: the dataclass adds its hash
        methods.update(__hash__=__hash__, **_frozen_methods(made, frozenset(f.name for f in every)))
    for name, method in methods.items():
        if name not in own:
            method.__qualname__ = f"{made.__qualname__}.{name}"
            setattr(made, name, method)
    if not frozen and ("__hash__" not in own or (own["__hash__"] is None and "__eq__" in own)):
        made.__hash__ = None  # type: ignore[assignment]
    return made


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T]) -> type[T]:
    """The frozen, slotted dataclass of ``cls``, made, equal, hashed and shown as ``@dataclass`` would."""
    return _made(cls, frozen=True)


@dataclass_transform(field_specifiers=(field,))
def mutable_record(cls: type[T]) -> type[T]:
    """The slotted, mutable dataclass of ``cls`` (``@dataclass(slots=True)``), its methods made as :func:`record`
    makes them, and ``__hash__`` None, as a mutable dataclass that compares its fields has it (the game's state
    is changed in place: it must not sit in a set)."""
    return _made(cls, frozen=False)
