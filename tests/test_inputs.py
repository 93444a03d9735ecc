"""Typed inputs: the wire names of today still work, anything else is refused."""

from __future__ import annotations

import pytest

from device.scenes.inputs import WIRE_KEYS, Hold, Key, Press, Tap, Tick, parse_key, trigger


def test_every_wire_key_parses_and_names_its_trigger() -> None:
    assert parse_key("5") == Press(Key.D5)
    assert parse_key("hold:C") == Hold(Key.C)
    assert trigger(parse_key("5")) == "digit"
    assert trigger(parse_key("K")) == "digit"
    assert trigger(parse_key("PUSH")) == "OK"
    assert trigger(parse_key("HABEN")) == "HABEN"
    assert trigger(Tap("04a1")) == "tap" and trigger(Tick()) == "tick"
    assert {trigger(parse_key(k)) for k in WIRE_KEYS} == {"digit", "HABEN", "SOLL", "LOS", "MENU", "OK", "C", "UP",
                                                         "DOWN", "hold:C"}


@pytest.mark.parametrize("bad", ["", "X", "hold:5", "haben", "10"])
def test_unknown_key_names_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_key(bad)


def test_the_wire_names_are_the_keypads_keys_the_encoder_and_hold_c() -> None:
    """The sim API keeps accepting today's key strings: the keypad's, UP/DOWN/PUSH and hold:C."""
    from drivers.keypad import KEYS

    assert {*KEYS, "UP", "DOWN", "PUSH", "hold:C"} == WIRE_KEYS
