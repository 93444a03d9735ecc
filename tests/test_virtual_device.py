"""The virtual device drives the box's own drivers: a key it presses is scanned and debounced by the matrix
keypad's thread on gpiozero's mock pins, a card it taps is woken, selected and halted by the MFRC522 driver
on the chip model, the knob turns the rotary encoder's pins, and the OLED's frames come from the display's
own thread. What a newcomer plays on a laptop is what runs on the box."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from device.daemon.service import Daemon
from drivers.display import Display
from drivers.encoder import Encoder
from drivers.hardware import Callbacks, Hardware, HardwareConfig, open_hardware
from drivers.keypad import MatrixKeypad
from drivers.mfrc522_model import Mfrc522Model, from_bits
from drivers.rfid import RfidReader
from drivers.screen import Screen

ANNA = "0a000001"


class Heard:
    """What the drivers reported, as the daemon's callbacks receive it."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def callbacks(self) -> Callbacks:
        return Callbacks(on_key=lambda k: self.events.append(("key", k)),
                         on_hold=lambda k: self.events.append(("hold", k)),
                         on_encoder=lambda e: self.events.append(("knob", e)),
                         on_tap=lambda uid: self.events.append(("tap", uid)),
                         on_reader_status=lambda ok, why: None)


@pytest.fixture
def heard() -> Heard:
    return Heard()


@pytest.fixture
def hw(heard: Heard) -> Iterator[Hardware]:
    hardware = open_hardware(HardwareConfig().simulated(), heard.callbacks())
    hardware.start()
    try:
        yield hardware
    finally:
        hardware.close()


def test_the_simulated_parts_are_the_boxs_drivers(hw: Hardware) -> None:
    assert isinstance(hw.keypad, MatrixKeypad) and isinstance(hw.encoder, Encoder)
    assert isinstance(hw.reader, RfidReader) and type(hw.display) is Display
    assert hw.keypad.alive and hw.reader.alive and hw.faults == {} and hw.virtual is not None


def test_a_virtual_key_is_scanned_and_debounced_by_the_matrix_driver(hw: Hardware, heard: Heard,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The key closes its contact on the membrane model; the keypad's thread finds it by driving the rows
    low one at a time and reports it after ``debounce_scans`` identical scans."""
    assert hw.virtual is not None and isinstance(hw.keypad, MatrixKeypad)
    scans: list[frozenset[tuple[int, int]]] = []
    scan = hw.keypad.scan

    def spy() -> frozenset[tuple[int, int]]:
        found = scan()
        scans.append(found)
        return found

    monkeypatch.setattr(hw.keypad, "scan", spy)
    hw.virtual.press("5")
    assert heard.events == [("key", "5")]
    assert scans.count(frozenset({(1, 1)})) >= hw.keypad.debounce_scans  # "5": row 1, column 1 of the layout
    hw.virtual.press("5")  # the same key again is a second press: the first was released and seen released
    assert heard.events == [("key", "5"), ("key", "5")]
    matrix = hw.virtual.matrix
    assert matrix is not None and matrix.shorts == 0 and not matrix.closed
    # Between keys the driver idles with every row driven low (so a key wakes it by an edge, at no CPU).
    assert all(pin.function == "output" and not pin.state for pin in matrix.rows)


def test_a_held_key_is_the_drivers_hold(hw: Hardware, heard: Heard) -> None:
    assert hw.virtual is not None
    hw.virtual.hold("C")
    assert heard.events == [("key", "C"), ("hold", "C")]


def test_a_key_the_layout_does_not_have_is_refused(hw: Hardware) -> None:
    assert hw.virtual is not None
    with pytest.raises(ValueError):
        hw.virtual.press("Q")


def test_the_knob_turns_the_encoders_pins(hw: Hardware, heard: Heard) -> None:
    assert hw.virtual is not None
    a, b = (hw.virtual.factory.pin(p) for p in (17, 27))
    hw.virtual.turn(-1)
    hw.virtual.turn(1)  # the pins keep what this turn did (each action starts their history anew)
    # One detent clockwise: A falls before B, then A rises before B (a full quadrature cycle).
    assert [s.state for s in a.states] == [True, False, True] and [s.state for s in b.states] == [True, False, True]
    hw.virtual.push()
    assert heard.events == [("knob", "UP"), ("knob", "DOWN"), ("knob", "PUSH")]


def test_a_virtual_tap_is_read_by_the_mfrc522_driver(hw: Hardware, heard: Heard,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The card lies on the chip model until the reader's thread has woken it (WUPA), resolved it by
    anticollision, selected it and halted it; the same card tapped again is a second presentation."""
    frames: list[bytes] = []
    transceive = Mfrc522Model._transceive

    def spy(self: Mfrc522Model) -> None:
        if self.cards:
            framing = self.regs[0x0D]
            frames.append(from_bits([(b >> i) & 1 for b in self.fifo for i in range(8)][
                : len(self.fifo) * 8 - (8 - (framing & 7) if framing & 7 else 0)]))
        transceive(self)

    monkeypatch.setattr(Mfrc522Model, "_transceive", spy)
    assert hw.virtual is not None
    hw.virtual.tap(ANNA)
    assert heard.events == [("tap", ANNA)]
    assert frames[0] == bytes([0x52])  # WUPA: wake every card in the field
    assert frames[1] == bytes([0x93, 0x20])  # anticollision, cascade level 1, no bit known yet
    assert frames[2][:2] == bytes([0x93, 0x70]) and frames[2][2:6] == bytes.fromhex(ANNA)  # SELECT
    assert frames[3][:2] == bytes([0x50, 0x00])  # HALT
    hw.virtual.tap(ANNA.upper())  # a UID as a person may type it: the reader reports lower-case hex
    assert heard.events == [("tap", ANNA), ("tap", ANNA)]
    assert hw.virtual.chip is not None and not hw.virtual.chip.cards  # lifted again


def test_what_no_card_could_send_is_refused(hw: Hardware) -> None:
    assert hw.virtual is not None
    for bad in ("not a uid", "0a0001", "880a0001"):
        with pytest.raises(ValueError):
            hw.virtual.tap(bad)


def test_the_frames_come_from_the_display_thread(hw: Hardware) -> None:
    assert hw.virtual is not None
    frames = hw.virtual.frames
    hw.display.show(Screen(title="A", big="1M"))
    hw.display.show(Screen(big="x"))
    assert hw.display.flush()
    last = frames.last
    assert last is not None and last.text == "x" and frames.wait_for(last.seq - 1, 0) is last
    assert hw.display.drawn >= 1


def _until(done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 5
    while not done():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def _post(daemon: Daemon, path: str, body: dict[str, Any]) -> int:
    client = daemon.app.test_client()
    reply = client.post(path, json=body)
    assert reply.status_code == 200, reply.get_json()
    seq: int = reply.get_json()["seq"]
    return seq


def test_the_sim_api_reaches_the_drivers(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/api/sim/key`` and ``/api/sim/tap`` go through the keypad's scan and the reader's poll, and answer
    with the frame the key led to."""
    hw = daemon.hardware
    assert hw is not None and isinstance(hw.keypad, MatrixKeypad) and isinstance(hw.reader, RfidReader)
    reader = hw.reader
    _until(lambda: bool(reader.ok))  # the first poll resets the chip (50 ms): it reads a card tapped meanwhile
    polls: list[str] = []
    for name, part in (("keypad", hw.keypad), ("reader", hw.reader)):
        def spy(now: float | None = None, *, _poll: Any = part.poll, _name: str = name) -> None:
            polls.append(_name)
            _poll(now)

        monkeypatch.setattr(part, "poll", spy)
    _post(daemon, "/api/sim/tap", {"uid": ANNA})
    assert "reader" in polls
    polls.clear()
    seq = _post(daemon, "/api/sim/key", {"key": "HABEN"})
    assert polls.count("keypad") >= 2
    assert daemon.app.test_client().get("/api/sim/display").get_json()["seq"] == seq
