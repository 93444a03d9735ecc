"""The RFID reader: an MFRC522 on SPI, polled from its own thread, one tap per presentation.

Why our own protocol code and not the ``mfrc522`` package: that package imports RPi.GPIO at
import time (so it cannot even be imported off a Pi, and RPi.GPIO does not work on a Pi 5),
its ``read()`` spins forever, and its "id" packs the BCC byte in. Reading a UID is a short
protocol (reset, antenna on, WUPA, anticollision, SELECT, HALT), so we speak it ourselves
over gpiozero's SPI interface: on a Pi that is hardware SPI through lgpio (Pi 3, 4, 5 and
Zero 2 W alike); in tests it is gpiozero's mock SPI against a register-level model of the
chip (:mod:`drivers.mfrc522_model`), so this very code is what the tests run.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

import msgspec

from words import text

from .part import Part, part_name

log = logging.getLogger(__name__)

# Registers (MFRC522 datasheet, section 9).
REG_COMMAND, REG_COM_IEN, REG_COM_IRQ, REG_ERROR = 0x01, 0x02, 0x04, 0x06
REG_FIFO_DATA, REG_FIFO_LEVEL, REG_CONTROL, REG_BIT_FRAMING, REG_COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
REG_MODE, REG_TX_CONTROL, REG_TX_ASK, REG_RF_CFG = 0x11, 0x14, 0x15, 0x26
REG_T_MODE, REG_T_PRESCALER, REG_T_RELOAD_H, REG_T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
REG_VERSION = 0x37
# Commands.
CMD_IDLE, CMD_TRANSCEIVE, CMD_SOFT_RESET = 0x00, 0x0C, 0x0F
# ComIrqReg bits; ErrorReg bits; CollReg bits.
IRQ_TIMER, IRQ_IDLE, IRQ_RX = 0x01, 0x10, 0x20
ERR_PROTOCOL, ERR_PARITY, ERR_CRC, ERR_COLL, ERR_BUFFER_OVFL, ERR_RESERVED = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20
COLL_VALUES_AFTER, COLL_POS_NOT_VALID, COLL_POS = 0x80, 0x20, 0x1F
# ISO 14443A card commands.
PICC_REQA, PICC_WUPA, PICC_ANTICOLL_CL1, PICC_HALT = 0x26, 0x52, 0x93, 0x50
PICC_CASCADE = (0x93, 0x95, 0x97)
"""SEL codes of cascade levels 1–3 (ISO/IEC 14443-3, 6.5.3): 4-, 7- and 10-byte UIDs."""
CASCADE_TAG = 0x88
SAK_UID_INCOMPLETE = 0x04

KNOWN_VERSIONS = {0x88, 0x89, 0x90, 0x91, 0x92, 0x12, 0x15, 0x18, 0xB2}
"""VersionReg values real modules report (clones included); any value but 0x00/0xFF means a chip."""

RX_GAINS_DB = {18: 0b010, 23: 0b011, 33: 0b100, 38: 0b101, 43: 0b110, 48: 0b111}
"""RFCfgReg.RxGain[2:0] for each receiver gain (datasheet table 98). The chip resets to 33 dB; the
reference driver's ``PCD_SetAntennaGain(RxGain_max)`` uses 48 dB, which small stickers need."""
DEFAULT_RX_GAIN_DB = 48

TWO_CARDS = "two_cards"
"""``on_status(False, TWO_CARDS)``: more than one card lies on the reader (the device's ``TWO_CARDS``)."""


def crc_a(data: bytes) -> bytes:
    """ISO 14443-3 CRC_A (init 0x6363, reflected polynomial 0x8408), low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte ^= (byte << 4) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes([crc & 0xFF, (crc >> 8) & 0xFF])


def open_spi(pin_factory: Any, port: int, device: int) -> Any:
    """Hardware SPI, or a clear error: never gpiozero's silent bit-banged fallback.

    When hardware SPI cannot be opened (``/dev/spidev0.0`` missing: SPI not enabled), gpiozero
    (``gpiozero/pins/pi.py``) only warns ``SPISoftwareFallback`` and bit-bangs the same pins; the chip
    then answers nothing at all and the reader says "VersionReg 0x00", hiding the real cause.
    """
    from gpiozero.exc import SPISoftwareFallback

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SPISoftwareFallback)
        spi = pin_factory.spi(port=port, device=device)
    fallback = [w for w in caught if issubclass(w.category, SPISoftwareFallback)]
    if fallback:
        spi.close()
        raise ReaderError(text("service.reader.no_spi", warning=fallback[0].message, port=port, device=device))
    return spi


class ReaderError(Exception):
    """The chip does not answer as an MFRC522 should (missing, unpowered, miswired)."""


class CardError(Exception):
    """A card answered badly this time (collision, CRC or parity error): try again next poll."""


class CollisionError(CardError):
    """More than one card answered and the collision could not be resolved this time."""


class Reply(msgspec.Struct, frozen=True):
    """What the receiver put in the FIFO after one frame."""

    data: bytes
    """The FIFO's bytes; with RxAlign the first received bit sits at that bit of ``data[0]``."""
    last_bits: int
    """Valid bits in the last byte (ControlReg.RxLastBits), 8 for a whole byte."""
    collision: int | None
    """CollReg.CollPos (1–32, counted in the FIFO's bits) of the first collision; 0 when the
    chip saw a collision it cannot place; None without a collision."""

    def bits(self, rx_align: int = 0) -> list[int]:
        """The received bits, LSB first, without the RxAlign bits below them."""
        bits = [(b >> i) & 1 for b in self.data for i in range(8)]
        if self.data:
            bits = bits[: len(bits) - 8 + self.last_bits]
        return bits[rx_align:]


def _pack(bits: list[int]) -> bytes:
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        out[i // 8] |= bit << (i % 8)
    return bytes(out)


class Read(msgspec.Struct, frozen=True):
    """One card selected in the field."""

    uid: bytes
    """4, 7 or 10 bytes."""
    collided: bool
    """More than one card answered on the way: this UID is one of them, verified by its SELECT."""


class Mfrc522:
    """Register access and the UID-reading protocol, over any SPI object with ``transfer(list[int]) -> list[int]``."""

    def __init__(self, spi: Any, wait: Callable[[float], object] = time.sleep,
                 rx_gain_db: int = DEFAULT_RX_GAIN_DB) -> None:
        if rx_gain_db not in RX_GAINS_DB:
            raise ValueError(text("service.reader.gain", gains=sorted(RX_GAINS_DB), gain=rx_gain_db))
        self.spi = spi
        self._wait = wait
        self.rx_gain_db = rx_gain_db

    def write(self, reg: int, value: int) -> None:
        self.spi.transfer([(reg << 1) & 0x7E, value])

    def read(self, reg: int) -> int:
        value: int = self.spi.transfer([((reg << 1) & 0x7E) | 0x80, 0])[1]
        return value

    def version(self) -> int:
        return self.read(REG_VERSION)

    def init(self) -> int:
        """Soft reset, a short timer (5 ms) for card answers, 100 % ASK, receiver gain, antenna on."""
        version = self.version()
        if version in (0x00, 0xFF):  # a bus with nothing on it reads all zeros or all ones
            raise ReaderError(text("service.reader.no_chip", version=f"0x{version:02X}"))
        self.write(REG_COMMAND, CMD_SOFT_RESET)
        self._wait(0.05)
        self.write(REG_T_MODE, 0x80)  # TAuto: the timer starts at the end of each transmission
        self.write(REG_T_PRESCALER, 0xA9)  # 13.56 MHz / 339 = 40 kHz: 25 µs a tick
        self.write(REG_T_RELOAD_H, 0x00)
        self.write(REG_T_RELOAD_L, 200)  # 5 ms: ample for REQA/anticollision answers
        self.write(REG_TX_ASK, 0x40)
        self.write(REG_MODE, 0x3D)  # CRC preset 0x6363
        self.write(REG_RF_CFG, RX_GAINS_DB[self.rx_gain_db] << 4)
        # ValuesAfterColl = 0: bits after a collision read as zeros, not noise (ISO anticollision).
        self.write(REG_COLL, self.read(REG_COLL) & ~COLL_VALUES_AFTER & 0xFF)
        self.write(REG_TX_CONTROL, self.read(REG_TX_CONTROL) | 0x03)
        if not self.read(REG_TX_CONTROL) & 0x03:
            raise ReaderError(text("service.reader.antenna"))
        return version

    def exchange(self, data: bytes, tx_last_bits: int = 0, rx_align: int = 0) -> Reply | None:
        """Send a frame (``tx_last_bits`` of its last byte, 0 = all 8), return what came back, None for
        silence. Collisions come back as data with ``Reply.collision`` set; other errors raise.

        Every frame starts from a known modem state, as the reference drivers do
        (miguelbalboa/rfid ``PCD_CommunicateWithPICC``): Idle, interrupts cleared, FIFO flushed,
        then Transceive and StartSend. After a frame nobody answered the receiver may still be
        waiting for data, and a StartSend without a fresh Transceive command is then ignored.
        """
        framing = ((rx_align & 0x07) << 4) | (tx_last_bits & 0x07)
        self.write(REG_COMMAND, CMD_IDLE)
        self.write(REG_COM_IRQ, 0x7F)  # clear every interrupt flag
        self.write(REG_FIFO_LEVEL, 0x80)  # flush the FIFO
        self.spi.transfer([(REG_FIFO_DATA << 1) & 0x7E, *data])  # one SPI write fills the FIFO
        self.write(REG_COMMAND, CMD_TRANSCEIVE)
        self.write(REG_BIT_FRAMING, 0x80 | framing)  # StartSend
        for _ in range(40):
            irq = self.read(REG_COM_IRQ)
            if irq & (IRQ_RX | IRQ_IDLE | IRQ_TIMER):
                break
            self._wait(0.0005)
        else:
            raise ReaderError(text("service.reader.no_irq"))
        if irq & IRQ_TIMER and not irq & IRQ_RX:
            return None
        error = self.read(REG_ERROR)
        if error & ERR_RESERVED:
            # Bit 5 of ErrorReg is reserved and reads 0 on a chip: a bus floating high reads all ones,
            # which would otherwise look like a card answering with every error, for ever.
            raise ReaderError(text("service.reader.floating", value=f"0x{error:02X}"))
        if error & (ERR_CRC | ERR_PARITY | ERR_PROTOCOL | ERR_BUFFER_OVFL):
            raise CardError(text("service.card.error", value=f"0x{error:02X}"))
        count = self.read(REG_FIFO_LEVEL)
        addr = ((REG_FIFO_DATA << 1) & 0x7E) | 0x80
        fifo = bytes(self.spi.transfer([addr] * count + [0])[1:]) if count else b""
        last_bits = (self.read(REG_CONTROL) & 0x07) or 8
        collision = None
        if error & ERR_COLL:
            coll = self.read(REG_COLL)
            collision = 0 if coll & COLL_POS_NOT_VALID else (coll & COLL_POS) or 32
        return Reply(fifo, last_bits, collision)

    def transceive(self, data: bytes, last_bits: int = 8) -> bytes | None:
        """A byte-oriented exchange where a collision is just a failed read."""
        reply = self.exchange(data, tx_last_bits=last_bits & 0x07)
        if reply is None:
            return None
        if reply.collision is not None:
            raise CardError(text("service.card.collision"))
        return reply.data

    def read_uid(self) -> Read | None:
        """Wake every card in the field (also a halted one), select one through every cascade level
        (ISO/IEC 14443-3, 6.5.3; ``PICC_Select`` in the reference driver) and return its whole UID:
        4, 7 or 10 bytes. Each level's BCC and the SAK's CRC_A are checked.

        With several cards, bit-oriented anticollision picks the one with a 1 at each collision.
        A UID is only returned after its own SELECT was acknowledged, so it can never be a mix of
        two cards' bits; a collision that cannot be placed raises :class:`CardError`.
        """
        wake = self.exchange(bytes([PICC_WUPA]), tx_last_bits=7)
        if wake is None:
            return None
        collided = wake.collision is not None  # different ATQAs collide too: still somebody there
        uid = b""
        try:
            for sel in PICC_CASCADE:
                part, sak, level_collided = self._select_level(sel)
                collided = collided or level_collided
                if sak & SAK_UID_INCOMPLETE:
                    if part[0] != CASCADE_TAG:
                        raise CardError(text("service.card.cascade_tag"))
                    uid += part[1:4]
                    continue
                return Read(uid + part, collided)
            raise CardError(text("service.card.too_long"))
        except CardError as err:
            if collided and not isinstance(err, CollisionError):
                raise CollisionError(str(err)) from err
            raise

    def _select_level(self, sel: int) -> tuple[bytes, int, bool]:
        """Anticollision loop and SELECT of one cascade level: (UID CLn, SAK, whether cards collided)."""
        known: list[int] = []  # the bits of UID CLn + BCC known so far
        collided = False
        while len(known) < 40:
            whole, extra = divmod(len(known), 8)
            frame = bytes([sel, ((2 + whole) << 4) | extra]) + _pack(known)
            reply = self.exchange(frame, tx_last_bits=extra, rx_align=extra)
            if reply is None:
                raise CardError(text("service.card.no_answer"))
            got = reply.bits(extra)
            if reply.collision is None:
                known += got
                if len(known) != 40:
                    raise CardError(text("service.card.incomplete"))
                break
            collided = True
            if reply.collision == 0:
                raise CollisionError(text("service.card.collision_nowhere"))
            # CollPos counts the FIFO's bits, RxAlign included, from the first whole byte we did
            # not send; the bits before it are good, the colliding one we choose to be 1.
            at = whole * 8 + reply.collision - 1  # 0-based index of the colliding bit in UID CLn
            if not len(known) <= at < 32 or at - len(known) > len(got):
                raise CollisionError(text("service.card.collision_impossible"))
            known += [*got[: at - len(known)], 1]
        part = _pack(known[:32])
        if part[0] ^ part[1] ^ part[2] ^ part[3] != _pack(known[32:40])[0]:
            raise CardError(text("service.card.checksum"))
        select = bytes([sel, 0x70]) + part + _pack(known[32:40])
        sak = self.transceive(select + crc_a(select))
        if sak is None or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
            raise CardError(text("service.card.select"))
        return part, sak[0], collided

    def halt(self) -> None:
        """HALT: the card stays silent until the next WUPA, which tells us it is still there."""
        halt = bytes([PICC_HALT, 0x00])
        self.transceive(halt + crc_a(halt))


TapCallback = Callable[[str], None]
StatusCallback = Callable[[bool, str], None]


class RfidReader(Part):
    """Polls the chip without spinning; reports each presentation of a card once.

    A card held on the reader is one tap; lifted for ``absent_polls`` polls and put back, it
    is a second. Read errors are skipped. Two cards at once are never a tap (which one did the
    player mean?); if they lie there for ``crowded_polls`` polls the reader says so
    (``on_status(False, TWO_CARDS)``), and says again when only one is left.

    A chip that reads all 0x00 or 0xFF, or stops answering, is reported once; every
    ``retry_interval`` the reader pulses RST (NRSTPD low for a moment: a hard reset that frees a
    wedged chip and restores every register) and tries again, and reports the recovery once.
    """

    def __init__(self, *, pin_factory: Any, spi_port: int = 0, spi_device: int = 0, reset_pin: int | None = 25,
                 poll_interval: float = 0.035, absent_polls: int = 3, retry_interval: float = 1.0,
                 crowded_polls: int = 3, rx_gain_db: int = DEFAULT_RX_GAIN_DB,
                 on_tap: TapCallback | None = None, on_status: StatusCallback | None = None,
                 clock: Callable[[], float] = time.monotonic, spi: Any = None) -> None:
        """``spi``: any object with ``transfer(list[int]) -> list[int]`` (and ``close()``) to use
        instead of ``pin_factory.spi(port, device)``: an independent chip model can drive this code."""
        self.on_tap = on_tap
        self.on_status = on_status
        self.poll_interval = poll_interval
        self.absent_polls = absent_polls
        self.retry_interval = retry_interval
        self.crowded_polls = crowded_polls
        self._clock = clock
        self._stop = threading.Event()
        from gpiozero import DigitalOutputDevice  # here, not at import: the config reads RX_GAINS_DB early

        self._reset = (DigitalOutputDevice(reset_pin, initial_value=True, pin_factory=pin_factory)
                       if reset_pin is not None else None)
        try:
            self._spi = spi if spi is not None else open_spi(pin_factory, spi_port, spi_device)
        except BaseException:
            if self._reset is not None:
                self._reset.close()
            raise
        with contextlib.suppress(Exception):  # the mock interface has a fixed rate (SPIFixedRate)
            self._spi.rate = 1_000_000
        self.chip = Mfrc522(self._spi, wait=self._stop.wait, rx_gain_db=rx_gain_db)
        self.ok: bool | None = None
        self.problem = ""
        self.present: str | None = None
        self.crowded = False
        self._misses = 0
        self._collisions = 0
        self._next_retry = 0.0
        self._thread: threading.Thread | None = None

    def _set_status(self, ok: bool, why: str) -> None:
        if ok != self.ok:
            self.ok, self.problem = ok, why
            if ok:
                log.info("%s: %s", part_name("reader"), why)
            else:
                log.error("%s: %s", part_name("reader"), why)
            if self.on_status:
                self.on_status(ok, why)

    def _set_crowded(self, crowded: bool) -> None:
        if crowded != self.crowded:
            self.crowded = crowded
            said = text("service.reader.crowded" if crowded else "service.reader.one_again")
            log.info("%s: %s", part_name("reader"), said)
            if self.on_status:
                self.on_status(not crowded, TWO_CARDS if crowded else text("service.reader.one"))

    def pulse_reset(self) -> None:
        """NRSTPD low, then high: a hard reset (datasheet 8.8.1); then the oscillator needs time to start."""
        if self._reset is None:
            return
        self._reset.off()
        self._stop.wait(0.001)
        self._reset.on()
        self._stop.wait(0.05)

    def poll(self, now: float | None = None) -> None:
        """One look at the field."""
        now = self._clock() if now is None else now
        if not self.ok:
            if now < self._next_retry:
                return
            if self.ok is False:
                self.pulse_reset()
            try:
                version = self.chip.init()
            except ReaderError as err:
                self._next_retry = now + self.retry_interval
                self._set_status(False, text("service.reader.lost", error=err))
                return
            self._set_status(True, text("service.reader.ready", version=f"0x{version:02X}"))
        try:
            read = self.chip.read_uid()
            if read is None:
                self._misses += 1
                if self._misses >= self.absent_polls:
                    self.present = None
                    self._collisions = 0
                if self._misses >= 3 * self.absent_polls:
                    # Two cards' answers can cancel out on the antenna for a poll or two: the
                    # "Eine Karte auflegen" note goes only once the field has stayed silent a while.
                    self._set_crowded(False)
                return
            if read.collided:
                # More than one card: which did the player mean? Never guess; ask for one card.
                self.chip.halt()
                self._misses = 0
                self._collisions += 1
                if self._collisions >= self.crowded_polls:
                    self._set_crowded(True)
                return
            self._collisions = 0
            self._set_crowded(False)
            self._misses = 0
            uid = read.uid.hex()
            if uid != self.present:
                self.present = uid
                if self.on_tap:
                    self.on_tap(uid)  # the UID is verified: report it before finishing with the card
            self.chip.halt()
        except CollisionError as err:
            log.debug("collision: %s", err)
            self._misses = 0
            self._collisions += 1
            if self._collisions >= self.crowded_polls:
                self._set_crowded(True)
        except CardError as err:
            log.debug("read error: %s", err)
        except ReaderError as err:
            self._next_retry = now + self.retry_interval
            self._set_status(False, text("service.reader.silent", error=err))

    def start(self) -> RfidReader:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="rfid", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        next_poll = time.monotonic()
        while not self._stop.is_set():
            try:
                with self.working():
                    self.poll()
            except Exception:
                log.exception("RFID poll failed")
            # A fixed period, however long the poll took; never a busy loop if we fell behind.
            next_poll = max(next_poll + self.poll_interval, time.monotonic() + self.poll_interval / 4)
            self._stop.wait(next_poll - time.monotonic())

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1)
        self._thread = None
        self._spi.close()
        if self._reset is not None:
            self._reset.close()
