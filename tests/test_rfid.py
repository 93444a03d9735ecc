"""The MFRC522 driver, at the register level, against a model of the chip and ISO 14443A cards
on gpiozero's mock SPI: present, hold, lift and swap cards; collisions; errors; a missing chip."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from drivers.mfrc522_model import Mfrc522Model, RegisterSPI, iso_crc_a
from drivers.rfid import TWO_CARDS, CardError, Mfrc522, RfidReader, crc_a

ANNA, BEN = "04a1b2c3", "0badcafe"


@pytest.fixture
def chip(factory: MockFactory) -> Mfrc522Model:
    return Mfrc522Model(pin_factory=factory)


class Table:
    """The reader with what it reported, stepped poll by poll (no threads, no sleeps)."""

    def __init__(self, factory: MockFactory) -> None:
        self.taps: list[str] = []
        self.status: list[tuple[bool, str]] = []
        self.now = 0.0
        self.reader = RfidReader(pin_factory=factory, on_tap=self.taps.append,
                                 on_status=lambda ok, why: self.status.append((ok, why)))

    def polls(self, n: int = 1) -> None:
        for _ in range(n):
            self.reader.poll(self.now)
            self.now += 0.04


@pytest.fixture
def table(factory: MockFactory, chip: Mfrc522Model) -> Iterator[Table]:
    t = Table(factory)
    t.polls()
    yield t
    t.reader.close()  # gpiozero shares the SPI bus between instances: release it for the next test


def test_crc_a_matches_iso_14443_3_examples() -> None:
    assert crc_a(bytes([0x50, 0x00])) == bytes([0x57, 0xCD])  # HALT
    assert crc_a(bytes([0x00, 0x00])) == bytes([0xA0, 0x1E])
    # The model computes it its own way (bit by bit, annex B): both agree.
    for data in (b"\x50\x00", b"\x12\x34", b"\x93\x70\x04\xa1\xb2\xc3\xd4", b""):
        assert crc_a(data) == iso_crc_a(data)


def test_reader_reports_ready_with_the_chip_version(table: Table) -> None:
    assert table.status == [(True, "MFRC522 bereit (Version 0x92)")]


def test_a_presented_card_is_one_tap_with_its_hex_uid(table: Table, chip: Mfrc522Model) -> None:
    chip.present(ANNA)
    table.polls(10)  # held on the reader for 400 ms
    assert table.taps == [ANNA]


def test_lifting_and_tapping_again_is_a_second_tap(table: Table, chip: Mfrc522Model) -> None:
    chip.present(ANNA)
    table.polls(2)
    chip.lift()
    table.polls(3)
    chip.present(ANNA)
    table.polls(2)
    assert table.taps == [ANNA, ANNA]


def test_a_very_short_gap_is_not_a_new_tap(table: Table, chip: Mfrc522Model) -> None:
    """A card wobbling at the edge of the field for one poll is still the same presentation."""
    chip.present(ANNA)
    table.polls(2)
    chip.lift()
    table.polls(1)
    chip.present(ANNA)
    table.polls(2)
    assert table.taps == [ANNA]


def test_swapping_cards_taps_the_new_one(table: Table, chip: Mfrc522Model) -> None:
    chip.present(ANNA)
    table.polls(2)
    chip.present(BEN)
    table.polls(2)
    assert table.taps == [ANNA, BEN]


def test_two_cards_at_once_collide_and_are_not_read(table: Table, chip: Mfrc522Model) -> None:
    chip.present(ANNA, BEN)
    table.polls(3)
    assert table.taps == []
    chip.present(BEN)
    table.polls(1)
    assert table.taps == [BEN]


def test_a_read_error_is_skipped_and_the_card_read_next_time(table: Table, chip: Mfrc522Model) -> None:
    chip.corrupt_next = 1
    chip.present(ANNA)
    table.polls(1)
    assert table.taps == []
    table.polls(2)  # the card fell back to IDLE after the garbled exchange; it answers again
    assert table.taps == [ANNA]


def test_missing_chip_is_reported_and_recovery_too(factory: MockFactory) -> None:
    """No chip on the bus: VersionReg reads 0x00; the reader says so and retries each second."""
    chip = Mfrc522Model(pin_factory=factory)
    chip.unplug(0x00)  # not plugged in: nobody drives MISO, the pull-down reads zeros
    with Table(factory).reader as reader:
        table = Table.__new__(Table)
        table.taps, table.status, table.now = [], [], 0.0
        reader.on_tap, reader.on_status = table.taps.append, lambda ok, why: table.status.append((ok, why))
        table.reader = reader
        table.polls(1)
        assert table.status[-1][0] is False and "nicht gefunden" in table.status[-1][1]
        chip.replug()  # plugged in: the next retry, a second later, finds it
        chip.present(ANNA)
        table.polls(1)
        assert len(table.status) == 1
        table.now += 1.0
        table.polls(1)
        assert table.status[-1] == (True, "MFRC522 bereit (Version 0x92)") and table.taps == [ANNA]


@pytest.mark.parametrize("floating", [0x00, 0xFF])
def test_a_chip_that_stops_answering_is_reported_once_and_its_return_once(table: Table, chip: Mfrc522Model,
                                                                          floating: int) -> None:
    """A module pulled off reads all zeros or all ones; plugged back, it has lost every register."""
    chip.present(ANNA)
    table.polls(2)
    chip.unplug(floating)
    table.polls(1)
    assert table.status[-1][0] is False and "antwortet nicht" in table.status[-1][1]
    for _ in range(5):  # unplugged for five seconds: retried each second, reported once
        table.now += 1.0
        table.polls(1)
    assert [ok for ok, _ in table.status] == [True, False]
    chip.replug()  # reset values: antenna off, no timer; only a fresh init reads cards again
    assert not chip.antenna_on
    chip.lift()
    table.polls(3)
    table.now += 1.0
    table.polls(1)
    assert [ok for ok, _ in table.status] == [True, False, True]
    chip.present(BEN)
    table.polls(1)
    assert table.taps == [ANNA, BEN] and chip.antenna_on


def test_polling_thread_reports_taps_and_stops_at_once(factory: MockFactory, chip: Mfrc522Model) -> None:
    tapped = threading.Event()
    reader = RfidReader(pin_factory=factory, poll_interval=0.005, on_tap=lambda uid: tapped.set())
    with reader.start():
        assert reader.alive
        chip.present(ANNA)
        assert tapped.wait(5)
    assert not reader.alive
    reader.close()


def test_transfer_level_double_answers_exactly_like_the_bit_banged_chip(factory: MockFactory,
                                                                        chip: Mfrc522Model) -> None:
    """The benchmark's transfer-level SPI double runs the same chip model: same taps, same states."""
    from drivers.mfrc522_model import RegisterSPI

    taps: list[str] = []
    with RfidReader(pin_factory=factory, spi=RegisterSPI(chip), reset_pin=None, on_tap=taps.append) as reader:
        reader.poll(0.0)
        chip.present(ANNA)
        reader.poll(0.04)
        reader.poll(0.08)
        chip.present(ANNA, BEN)
        reader.poll(0.12)
        chip.present(BEN)
        reader.poll(0.16)
        assert reader.ok and taps == [ANNA, BEN]


class HangingSPI:
    """A bus that stops answering mid-transfer (a loose wire, a wedged kernel driver)."""

    def __init__(self, model: Mfrc522Model) -> None:
        from drivers.mfrc522_model import RegisterSPI

        self.inner = RegisterSPI(model)
        self.hang = threading.Event()
        self.hanging = threading.Event()
        """Set once a transfer is stuck (the test waits for it, never for a guessed time)."""
        self.release = threading.Event()

    def transfer(self, data: list[int]) -> list[int]:
        if self.hang.is_set():
            self.hanging.set()
            self.release.wait(10)
        return self.inner.transfer(data)

    def close(self) -> None:
        self.release.set()


def test_a_reader_thread_blocked_in_a_transfer_counts_as_stalled(factory: MockFactory, chip: Mfrc522Model) -> None:
    """The watchdog only checked that threads exist; a thread stuck in SPI kept the pings going."""
    spi = HangingSPI(chip)
    reader = RfidReader(pin_factory=factory, poll_interval=0.005, spi=spi, reset_pin=None)
    with reader.start():
        now = time.monotonic()
        assert reader.alive and not reader.stalled(now)
        spi.hang.set()
        assert spi.hanging.wait(5)  # the thread entered its next poll and hangs there
        later = time.monotonic()
        assert reader.alive and not reader.stalled(later)
        assert reader.stalled(later + reader.stall_after + 1)
        spi.release.set()


STICKER = "04c2a51a6e5c80"  # NTAG213: 7 bytes, as printed on a roll of deed stickers
NEXT_ON_THE_ROLL = "04c2a51a6e5c81"
TEN = "04112233445566778899"


def test_seven_byte_stickers_are_read_whole_and_told_apart(table: Table, chip: Mfrc522Model) -> None:
    """Cascade level 1 alone gave '88' + three bytes, the same for every sticker of a roll."""
    chip.present(STICKER)
    table.polls(2)
    chip.lift()
    table.polls(5)
    chip.present(NEXT_ON_THE_ROLL)
    table.polls(2)
    assert table.taps == [STICKER, NEXT_ON_THE_ROLL]


def test_ten_byte_uids_are_read_through_three_cascade_levels(table: Table, chip: Mfrc522Model) -> None:
    chip.present(TEN)
    table.polls(2)
    assert table.taps == [TEN] and len(TEN) == 20


def test_a_thousand_empty_polls_never_report_the_reader_missing(table: Table, chip: Mfrc522Model) -> None:
    """After a frame nobody answers the receiver keeps waiting; StartSend alone is then ignored."""
    table.polls(1000)
    assert table.status == [(True, "MFRC522 bereit (Version 0x92)")]
    assert chip.ignored_start_sends == 0
    chip.present(ANNA)
    table.polls(1)
    assert table.taps == [ANNA]


@pytest.mark.parametrize("version", [0x88, 0x89, 0x90, 0x91, 0x92, 0x12, 0x15, 0x18, 0xB2])
def test_every_real_chip_version_counts_as_present(factory: MockFactory, version: int) -> None:
    Mfrc522Model(pin_factory=factory, version=version)
    t = Table(factory)
    try:
        t.polls(1)
        assert t.status == [(True, f"MFRC522 bereit (Version 0x{version:02X})")]
    finally:
        t.reader.close()


@pytest.mark.parametrize("version", [0x00, 0xFF])
def test_all_zeros_or_all_ones_is_no_chip(factory: MockFactory, version: int) -> None:
    Mfrc522Model(pin_factory=factory, version=version)
    t = Table(factory)
    try:
        t.polls(1)
        assert t.status[-1][0] is False and "nicht gefunden" in t.status[-1][1]
    finally:
        t.reader.close()


def test_two_cards_at_once_never_give_a_wrong_uid(table: Table, chip: Mfrc522Model) -> None:
    chip.present(STICKER, ANNA)
    table.polls(20)
    assert table.taps == []


def test_a_wedged_chip_is_freed_by_a_pulse_on_rst(table: Table, chip: Mfrc522Model) -> None:
    """A chip that reads all 0xFF after a brown-out only recovers by a hard reset on NRSTPD."""
    resets = chip.resets
    chip.wedge(0xFF)
    table.polls(1)
    assert table.status[-1][0] is False
    for _ in range(3):
        table.now += 1.0
        table.polls(1)
    assert chip.resets == resets + 1 and [ok for ok, _ in table.status] == [True, False, True]
    chip.present(ANNA)
    table.polls(1)
    assert table.taps == [ANNA]


def test_a_small_sticker_needs_the_configured_receiver_gain(factory: MockFactory, chip: Mfrc522Model) -> None:
    """The chip resets to 33 dB; a sticker under a deed card is only heard at a higher gain."""
    taps: list[str] = []
    with RfidReader(pin_factory=factory, on_tap=taps.append) as reader:
        reader.poll(0.0)
        chip.present(STICKER, needs_db=43)
        reader.poll(0.04)
    assert taps == [STICKER] and chip.rx_gain_db == 48
    chip.lift()
    with RfidReader(pin_factory=factory, rx_gain_db=33, on_tap=taps.append) as reader:
        reader.poll(0.0)
        chip.present(STICKER, needs_db=43)
        reader.poll(0.04)
    assert taps == [STICKER] and chip.rx_gain_db == 33


def test_an_impossible_gain_is_refused() -> None:
    with pytest.raises(ValueError, match="rx_gain_db"):
        Mfrc522(RegisterSPI.__new__(RegisterSPI), rx_gain_db=40)


PAIRS = [
    (ANNA, BEN),
    (STICKER, NEXT_ON_THE_ROLL),  # same cascade level 1, they differ in the very last bit
    ("04c2a51a6e5c80", "04c2a51a6e5c00"),  # differ in the last byte's top bit
    (STICKER, ANNA),  # different ATQAs collide too
    (TEN, "04112233445566778898"),
    (TEN, STICKER),
    ("01000000", "01000001"),
    ("fe000000", "7e000000"),
]


def _chip_over_register_spi(factory: MockFactory) -> tuple[Mfrc522Model, Mfrc522]:
    model = Mfrc522Model(pin_factory=factory, reset_pin=None, collision_silence=0.0)  # the algorithm, not the air
    driver = Mfrc522(RegisterSPI(model), wait=lambda s: None)
    driver.init()
    return model, driver


@pytest.mark.parametrize("uids", PAIRS)
def test_bit_oriented_anticollision_selects_one_whole_card(factory: MockFactory, uids: tuple[str, str]) -> None:
    """ISO/IEC 14443-3 6.5.3: at each collision the driver picks the card with a 1 there; its SELECT
    proves the UID is one card's, never a mix of two."""
    model, driver = _chip_over_register_spi(factory)
    model.present(*uids)
    read = driver.read_uid()
    assert read is not None and read.collided and read.uid.hex() in uids


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(uids=st.lists(st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
                     min_size=2, max_size=4, unique=True))
def test_any_cards_at_once_never_give_a_wrong_uid(factory: MockFactory, uids: list[bytes]) -> None:
    hexes = [u.hex() for u in uids if not (len(u) == 4 and u[0] == 0x88)]
    model, driver = _chip_over_register_spi(factory)
    model.present(*hexes)
    for _ in range(3):
        try:
            read = driver.read_uid()
        except CardError:
            continue
        if read is not None:
            assert read.uid.hex() in hexes
            driver.halt()


def test_two_cards_that_stay_ask_for_one_and_the_last_one_is_tapped(table: Table, chip: Mfrc522Model) -> None:
    """Two cards are never a tap; if they stay, the reader says so once, and again when one goes."""
    chip.present(ANNA, STICKER)
    table.polls(10)
    assert table.taps == [] and table.status[1:] == [(False, TWO_CARDS)]
    chip.present(STICKER)
    table.polls(2)
    assert table.taps == [STICKER] and table.status[1:] == [(False, TWO_CARDS), (True, "eine Karte")]


def test_two_cards_on_the_reader_reach_the_banker_screen(factory: MockFactory, chip: Mfrc522Model,
                                                         tmp_path: Path) -> None:
    """End to end: chip model, real driver, the banker UI's screen ("Eine Karte auflegen")."""
    from ui_table import Table as BankTable

    from device.scenes import TWO_CARDS as UI_TWO_CARDS

    assert UI_TWO_CARDS == TWO_CARDS
    table = BankTable(tmp_path)
    reader = RfidReader(pin_factory=factory, on_tap=lambda uid: table.bank.handle("tap", uid),
                        on_status=table.bank.reader_status)
    try:
        for i in range(12):  # some polls hear nothing from two cards (collision_silence)
            reader.poll(i * 0.04)
            if i == 0:
                chip.present(ANNA, BEN)
        assert table.text().splitlines()[1:3] == ["ZWEI KARTEN", "Nur eine Karte!"]
    finally:
        reader.close()


def test_two_cards_whose_answers_often_cancel_out_still_ask_once_for_one_card(table: Table,
                                                                              chip: Mfrc522Model) -> None:
    """Real antennas sometimes hear nothing at all from two cards (the reference driver's timeouts): the
    silent polls neither tap a card nor make the "Eine Karte auflegen" note come and go."""
    chip.collision_silence = 0.4
    chip.present(ANNA, STICKER)
    table.polls(60)
    assert table.taps == [] and table.status[1:] == [(False, TWO_CARDS)]
    chip.present(STICKER)
    table.polls(2)
    assert table.taps == [STICKER] and table.status[1:] == [(False, TWO_CARDS), (True, "eine Karte")]
    chip.lift()
    table.polls(10)
    assert table.status[-1] == (True, "eine Karte")
    chip.present(STICKER)
    table.polls(1)
    assert table.taps == [STICKER, STICKER]
