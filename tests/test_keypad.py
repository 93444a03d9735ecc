"""The 4×4 matrix keypad, pressed at real matrix positions through gpiozero mock pins."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

import words
from drivers.keypad import MatrixKeypad, MockKeyMatrix
from drivers.layout import DEFAULT_LAYOUT

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
    with pytest.raises(ValueError, match=r"unbekannte Tasten im Layout: \['X'\]"):
        MatrixKeypad(ROWS, COLS, [["1", "2", "3", "X"]] * 4, pin_factory=factory)
    with words.speaking("en"), pytest.raises(ValueError, match="unknown logical keys"):
        MatrixKeypad(ROWS, COLS, [["1", "2", "3", "X"]] * 4, pin_factory=factory)


def scans(kp: MatrixKeypad, start: float, n: int) -> float:
    for i in range(n):
        kp.poll(start + i * 0.02)
    return start + n * 0.02


def test_two_keys_in_one_column_give_no_key_and_never_short_two_outputs(factory: MockFactory,
                                                                          matrix: MockKeyMatrix) -> None:
    """Rows not scanned were driven high; two keys in a column joined a low and a high output."""
    keys: list[str] = []
    with keypad(factory, keys) as kp:
        matrix.hold(0, 1)
        matrix.hold(2, 1)  # "2" and "8" at once
        t = scans(kp, 0.0, 10)
        matrix.release(0, 1)
        matrix.release(2, 1)
        scans(kp, t, 5)
    assert keys == [] and matrix.shorts == 0


def test_a_ghost_rectangle_is_ignored_not_guessed(factory: MockFactory, matrix: MockKeyMatrix) -> None:
    """Three corners of a rectangle ("1", "4", "5") make the fourth ("2") read closed too: no key at all."""
    keys: list[str] = []
    with keypad(factory, keys) as kp:
        for pos in ((0, 0), (1, 0), (1, 1)):
            matrix.hold(*pos)
        assert kp.scan() == {(0, 0), (1, 0), (1, 1), (0, 1)}
        t = scans(kp, 0.0, 10)
        for pos in ((0, 0), (1, 0), (1, 1)):
            matrix.release(*pos)
        scans(kp, t, 5)
    assert keys == [] and matrix.shorts == 0


def test_a_key_with_contact_bounce_on_press_and_release_is_one_key(factory: MockFactory,
                                                                    matrix: MockKeyMatrix) -> None:
    keys: list[str] = []
    with keypad(factory, keys) as kp:
        t = 0.0
        for closed in (True, False, True, False, True):  # chatter, one scan each
            (matrix.hold if closed else matrix.release)(1, 2)
            t = scans(kp, t, 1)
        t = scans(kp, t, 10)  # held 200 ms
        for closed in (False, True, False, True, False):
            (matrix.hold if closed else matrix.release)(1, 2)
            t = scans(kp, t, 1)
        scans(kp, t, 5)
    assert keys == ["6"]


def test_rolling_from_one_key_to_the_next_types_both(factory: MockFactory, matrix: MockKeyMatrix) -> None:
    """Fast typing: "1" still down when "2" goes down. "2" counts once "1" is up, not before."""
    keys: list[str] = []
    with keypad(factory, keys) as kp:
        matrix.hold(0, 0)
        t = scans(kp, 0.0, 3)
        matrix.hold(0, 1)
        t = scans(kp, t, 3)
        assert keys == ["1"]
        matrix.release(0, 0)
        t = scans(kp, t, 3)
        matrix.release(0, 1)
        scans(kp, t, 3)
    assert keys == ["1", "2"]


def test_a_scan_drives_one_row_low_and_releases_the_rest_then_all_wait_low(
        factory: MockFactory, matrix: MockKeyMatrix) -> None:
    """No row is ever driven high. Between scans every row is low, so a key is a column edge that
    wakes the scan thread: an idle keypad costs no CPU."""
    seen: list[tuple[tuple[str, bool], ...]] = []
    with keypad(factory, []) as kp:
        update = matrix.update

        def spy() -> None:
            seen.append(tuple((p.function, bool(p.state)) for p in matrix.rows))
            update()

        matrix.update = spy  # type: ignore[method-assign]
        kp.scan()
        matrix.update = update  # type: ignore[method-assign]
        assert all(p.function == "output" and not p.state for p in matrix.rows)
    assert ("output", True) not in {row for snapshot in seen for row in snapshot}
    scanning = [snap for snap in seen if [f for f, _ in snap].count("output") == 1]
    assert {[f for f, _ in snap].index("output") for snap in scanning} == {0, 1, 2, 3}


def test_the_key_left_down_after_an_ambiguous_chord_is_typed_by_the_scan_thread(
        factory: MockFactory, matrix: MockKeyMatrix) -> None:
    """Lifting one of two keys in a column makes no column edge: the thread must keep scanning anyway."""
    got = threading.Event()
    keys: list[str] = []

    def on_key(key: str) -> None:
        keys.append(key)
        got.set()

    with MatrixKeypad(ROWS, COLS, pin_factory=factory, on_key=on_key, scan_interval=0.002).start():
        matrix.hold(0, 1)
        matrix.hold(2, 1)
        time.sleep(0.05)  # the thread's own scans see the chord (a real-time thread: no fake clock here)
        assert keys == []
        matrix.release(0, 1)
        assert got.wait(2)
    assert keys == ["8"]
