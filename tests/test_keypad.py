"""The 4×4 matrix keypad, pressed at real matrix positions through gpiozero mock pins."""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.keypad import DEFAULT_LAYOUT, MatrixKeypad, MockKeyMatrix

ROWS, COLS = (5, 6, 13, 19), (12, 16, 20, 21)


@pytest.fixture
def matrix(factory: MockFactory) -> MockKeyMatrix:
    return MockKeyMatrix(factory, ROWS, COLS)


def keypad(factory: MockFactory, keys: list[str], holds: list[str] | None = None) -> MatrixKeypad:
    return MatrixKeypad(ROWS, COLS, pin_factory=factory, on_key=keys.append,
                        on_hold=(holds.append if holds is not None else None))


def test_each_matrix_position_gives_its_logical_key(factory: MockFactory, matrix: MockKeyMatrix) -> None:
    keys: list[str] = []
    with keypad(factory, keys) as kp:
        t = 0.0
        for r in range(4):
            for c in range(4):
                matrix.hold(r, c)
                kp.poll(t)
                kp.poll(t + 0.02)
                matrix.release(r, c)
                kp.poll(t + 0.04)
                kp.poll(t + 0.06)
                t += 0.1
    assert keys == [k for row in DEFAULT_LAYOUT for k in row]


def test_a_bounce_shorter_than_the_debounce_is_ignored(factory: MockFactory, matrix: MockKeyMatrix) -> None:
    keys: list[str] = []
    with keypad(factory, keys) as kp:
        matrix.hold(0, 0)
        kp.poll(0.0)
        matrix.release(0, 0)  # contact opened again before the second scan
        kp.poll(0.02)
        kp.poll(0.04)
    assert keys == []


def test_a_held_key_is_one_press(factory: MockFactory, matrix: MockKeyMatrix) -> None:
    keys: list[str] = []
    with keypad(factory, keys) as kp:
        matrix.hold(1, 1)
        for i in range(20):
            kp.poll(i * 0.02)
    assert keys == ["5"]


def test_c_held_three_seconds_is_a_hold(factory: MockFactory, matrix: MockKeyMatrix) -> None:
    """"C … gedrückt halten, bis der Bestätigungston ertönt": a new game after 3 s."""
    keys: list[str] = []
    holds: list[str] = []
    with keypad(factory, keys, holds) as kp:
        matrix.hold(2, 3)
        kp.poll(0.0)
        kp.poll(0.02)
        kp.poll(2.9)
        assert holds == []
        kp.poll(3.05)
        kp.poll(3.5)
    assert (keys, holds) == (["C"], ["C"])


def test_scan_thread_wakes_on_a_key_and_stops_at_once(factory: MockFactory, matrix: MockKeyMatrix) -> None:
    got = threading.Event()
    keys: list[str] = []

    def on_key(key: str) -> None:
        keys.append(key)
        got.set()

    kp = MatrixKeypad(ROWS, COLS, pin_factory=factory, on_key=on_key, scan_interval=0.001).start()
    assert kp.alive
    matrix.hold(3, 3)
    assert got.wait(2)
    kp.close()
    kp.close()
    assert keys == ["LOS"] and not kp.alive


def test_unknown_logical_keys_are_refused(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="unknown logical keys"):
        MatrixKeypad(ROWS, COLS, [["1", "2", "3", "X"]] * 4, pin_factory=factory)
