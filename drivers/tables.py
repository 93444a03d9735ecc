"""A table of the config file read into its record, every wrong key named with the values it allows.

msgspec checks each value against the record's annotations: a ``Literal`` lists the allowed words,
``msgspec.Meta`` holds a range and, in its ``description``, what is allowed in the words of the person
who edits the file. This module only words msgspec's findings: the table, the key, the value as it
was written, what is allowed. Each key is checked on its own, so one start names every mistake in the
file, not one per attempt (a config error stops the service without a restart: exit 78).
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from words import text

T = TypeVar("T", bound=msgspec.Struct)


class ConfigError(ValueError):
    """Wrong values in the config file: one line each (table, key, value, what is allowed)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def seconds(low: float, high: float, what: str) -> Any:
    """A number of seconds from ``low`` to ``high`` (a TOML integer is taken too), and the key of what it sets.

    The ``description`` holds catalogue keys, "KEY|low|high", rendered in the language in force when a value
    is wrong (:func:`described`): the record is made at import, the language chosen later."""
    from typing import Annotated

    return Annotated[float, msgspec.Meta(ge=low, le=high, description=f"{what}|{low:g}|{high:g}")]


def described(description: str) -> str:
    """A ``Meta`` description in words: a catalogue key, or "KEY|low|high" from :func:`seconds`."""
    key, *bounds = description.split("|")
    said = key if " " in key else text(key)  # words, not a key: a module not converted yet (drivers.hardware)
    if len(bounds) == 2:
        return text("config.seconds", what=said, low=bounds[0], high=bounds[1])
    return said


def toml_value(value: object) -> str:
    """A value as it would be written in the file (strings in double quotes, true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    return repr(value)


def allowed(cls: type[msgspec.Struct], key: str) -> str:
    """What ``key`` of ``cls`` takes: its ``Meta`` description, else the words of its ``Literal``."""
    from typing import Annotated, Literal, get_args, get_origin, get_type_hints  # only when a value is wrong

    hint: Any = get_type_hints(cls, include_extras=True)[key]
    while True:
        if get_origin(hint) is Annotated:
            base, *metas = get_args(hint)
            descriptions = [m.description for m in metas if isinstance(m, msgspec.Meta) and m.description]
            if descriptions:
                return described(descriptions[0])
            hint = base
        elif get_origin(hint) is Literal:
            words = [toml_value(v) for v in get_args(hint)]
            if len(words) == 1:
                return text("config.allowed.one", value=words[0])
            return text("config.allowed.some", values=", ".join(words[:-1]), last=words[-1])
        else:
            return text("config.expected", type=getattr(hint, "__name__", hint))


def read_table(cls: type[T], data: object, table: str, problems: list[str]) -> T:
    """``data`` (a TOML table) as ``cls``: every valid key taken, a line in ``problems`` for each other one.

    Keys the record does not have are mistakes too (a typo must not be ignored in silence)."""
    if not isinstance(data, dict):
        problems.append(text("config.not_a_table", table=table))
        return cls()
    known = cls.__struct_fields__
    good: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            problems.append(text("config.unknown_key", table=table, key=key, known=", ".join(known)))
            continue
        try:
            msgspec.convert({key: value}, cls)
        except msgspec.ValidationError:
            problems.append(f"[{table}] {key} = {toml_value(value)}: {allowed(cls, key)}")
        else:
            good[key] = value
    return msgspec.convert(good, cls)


def check_record(record: msgspec.Struct, table: str, problems: list[str]) -> None:
    """The same checks for a record made or changed in code (its values as if read from the file)."""
    read_table(type(record), msgspec.to_builtins(record), table, problems)
