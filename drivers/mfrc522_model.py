"""A register-level model of the MFRC522 and of ISO/IEC 14443A cards, on gpiozero's mock SPI.

An instrument for tests and benchmarks: the real driver (:mod:`drivers.rfid`) talks to it
through gpiozero's SPI exactly as it talks to the chip on a Pi. It is written from the NXP
MFRC522 datasheet (sections 8-10) and ISO/IEC 14443-3 (sections 6.3-6.5), and it
imports nothing from the driver, so a driver that misreads the chip fails here. Where real
hardware may be worse than the paper, the model is worse too:

* frames are bits, not bytes: TxLastBits, RxAlign and RxLastBits are honoured;
* two cards answering at once collide bit by bit (Manchester coding at 106 kBd): the first
  differing bit sets ErrorReg.CollErr and CollReg.CollPos, the bit itself reads as noise, and
  every later bit is noise too unless CollReg.ValuesAfterColl is cleared (then zeros);
  received bits below RxAlign in the first FIFO byte are noise as well;
* the timer only runs with TModeReg.TAuto set; without it an unanswered frame never raises
  an interrupt; after an unanswered frame the receiver waits for data and ignores StartSend;
* the antenna is off after any reset (TxControlReg), CommandReg.RcvOff switches the receiver
  off, and a card whose answer is weaker than RFCfgReg.RxGain can hear is not heard;
* two cards' answers may also cancel out on the antenna, so that the reader hears nothing at all
  (``collision_silence``: the share of colliding answers lost so; the reference driver reports
  such timeouts on real antennas, and 0.25 is the model's guess, not a measurement);
* the module can be unplugged (MISO floats to 0x00 or 0xFF) and replugged (all registers
  back to their reset values), or wedged until its NRSTPD pin is pulsed low.
"""

from __future__ import annotations

import random
import threading
from typing import Any

from .gpio import MockPin, MockSPIDevice

# Registers (datasheet 9.2).
COMMAND, COM_IEN, DIV_IEN, COM_IRQ, DIV_IRQ, ERROR = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06
STATUS1, STATUS2, FIFO_DATA, FIFO_LEVEL, WATER_LEVEL, CONTROL = 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C
BIT_FRAMING, COLL, MODE, TX_MODE, RX_MODE, TX_CONTROL, TX_ASK = 0x0D, 0x0E, 0x11, 0x12, 0x13, 0x14, 0x15
RF_CFG, T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = 0x26, 0x2A, 0x2B, 0x2C, 0x2D, 0x37

RESET_VALUES = {
    COMMAND: 0x20, COM_IEN: 0x80, COM_IRQ: 0x14, STATUS1: 0x21, WATER_LEVEL: 0x08, CONTROL: 0x10,
    COLL: 0xA0, MODE: 0x3F, TX_CONTROL: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4D,
    0x1C: 0x62, 0x1F: 0xEB, 0x21: 0xFF, 0x22: 0xFF, 0x24: 0x26, RF_CFG: 0x48, 0x27: 0x88,
    0x28: 0x20, 0x29: 0x20, 0x33: 0x80,
}
"""Reset values of table 20 (registers not listed reset to 0x00)."""

# CommandReg commands (10.3); ComIrqReg and ErrorReg bits (9.3.1.5, 9.3.1.7).
IDLE, TRANSCEIVE, SOFT_RESET = 0x00, 0x0C, 0x0F
RCV_OFF = 0x20
TIMER_IRQ, ERR_IRQ, IDLE_IRQ, RX_IRQ, TX_IRQ = 0x01, 0x02, 0x10, 0x20, 0x40
PROTOCOL_ERR, PARITY_ERR, COLL_ERR = 0x01, 0x02, 0x08
VALUES_AFTER_COLL, COLL_POS_NOT_VALID = 0x80, 0x20

RX_GAIN_DB = (18, 23, 18, 23, 33, 38, 43, 48)
"""RFCfgReg.RxGain[2:0] → receiver gain in dB (table 98)."""

# ISO/IEC 14443-3 type A.
REQA, WUPA, HLTA, CT = 0x26, 0x52, 0x50, 0x88
SEL = (0x93, 0x95, 0x97)


def iso_crc_a(data: bytes) -> bytes:
    """CRC_A of ISO/IEC 14443-3 annex B, computed bit by bit (x^16 + x^12 + x^5 + 1, preset 0x6363)."""
    crc = 0x6363
    for byte in data:
        for i in range(8):
            bit = ((byte >> i) ^ crc) & 1
            crc >>= 1
            if bit:
                crc ^= 0x8408
    return bytes([crc & 0xFF, crc >> 8])


def to_bits(data: bytes, last_bits: int = 8) -> list[int]:
    """A frame as transmitted: bytes LSB first, only ``last_bits`` of the last byte."""
    bits = [(b >> i) & 1 for b in data for i in range(8)]
    return bits[: len(bits) - 8 + last_bits] if data else []


def from_bits(bits: list[int]) -> bytes:
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        out[i // 8] |= bit << (i % 8)
    return bytes(out)


class Card:
    """An ISO/IEC 14443A card with a 4-, 7- or 10-byte UID (MIFARE Classic, NTAG/Ultralight stickers, …).

    The state machine of ISO/IEC 14443-3 figure 7: IDLE, READY (one per cascade level), ACTIVE,
    HALT, and READY*/ACTIVE* for a card woken from HALT, which falls back to HALT, not IDLE, on
    an unexpected frame. Anticollision is bit-oriented (6.5.3): a READY card compares the NVB's
    valid bits with its own UID CLn and, if they match, sends the rest of UID CLn and the BCC.

    ``needs_db`` is how much receiver gain the reader needs to hear this card's load modulation
    at the distance it lies: a credit-card antenna is heard at the chip's reset gain (33 dB), a
    small sticker under a deed card needs more.
    """

    def __init__(self, uid: str, *, needs_db: int = 33) -> None:
        self.uid = bytes.fromhex(uid)
        if len(self.uid) not in (4, 7, 10):
            raise ValueError("a UID has 4, 7 or 10 bytes")
        if len(self.uid) == 4 and self.uid[0] == CT:
            raise ValueError("0x88 is the cascade tag: no single-size UID starts with it")
        self.needs_db = needs_db
        u = self.uid
        parts = {4: [u], 7: [bytes([CT]) + u[:3], u[3:]], 10: [bytes([CT]) + u[:3], bytes([CT]) + u[3:6], u[6:]]}
        self.levels = [p + bytes([p[0] ^ p[1] ^ p[2] ^ p[3]]) for p in parts[len(u)]]
        """UID CLn followed by its BCC, per cascade level."""
        self.state = "IDLE"
        self.level = 0
        self.from_halt = False

    @property
    def atqa(self) -> bytes:
        """ATQA: bit frame anticollision (bit 3) and the UID size in bits 7-8 (6.3.2)."""
        return bytes([0x04 | {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)], 0x00])

    def power_off(self) -> None:
        """Out of the field (or the field switched off): the card forgets everything."""
        self.state, self.level, self.from_halt = "IDLE", 0, False

    def _error(self) -> None:
        self.state = "HALT" if self.from_halt else "IDLE"
        self.level = 0

    def receive(self, bits: list[int]) -> list[int] | None:
        """Answer one frame (a list of bits); None is silence."""
        if len(bits) == 7:  # a short frame: REQA or WUPA
            cmd = from_bits(bits)[0]
            if (cmd == REQA and self.state == "IDLE") or (cmd == WUPA and self.state in ("IDLE", "HALT")):
                self.from_halt = self.state == "HALT"
                self.state, self.level = "READY", 0
                return to_bits(self.atqa)
            if self.state != "HALT":
                self._error()
            return None
        if self.state == "HALT" or len(bits) < 16:
            return None
        frame = from_bits(bits)
        if self.state == "READY" and frame[0] == SEL[self.level]:
            return self._select(frame, bits)
        halt = self.state == "ACTIVE" and len(bits) == 32 and frame[:2] == bytes([HLTA, 0])
        if halt and iso_crc_a(frame[:2]) == frame[2:4]:
            self.state, self.from_halt = "HALT", False
            return None
        self._error()
        return None

    def _select(self, frame: bytes, bits: list[int]) -> list[int] | None:
        nvb = frame[1]
        mine = to_bits(self.levels[self.level])
        if nvb == 0x70:  # SELECT: the whole UID CLn, BCC and CRC_A
            if len(bits) == 72 and frame[2:7] == self.levels[self.level] and iso_crc_a(frame[:7]) == frame[7:9]:
                last = self.level == len(self.levels) - 1
                sak = bytes([0x08 if last else 0x04])  # bit 3: UID not complete (6.5.3.4)
                if last:
                    self.state = "ACTIVE"
                else:
                    self.level += 1
                return to_bits(sak + iso_crc_a(sak))
            self._error()
            return None
        whole, extra = nvb >> 4, nvb & 0x0F
        known = (whole - 2) * 8 + extra
        if whole < 2 or extra > 7 or known > 39 or len(bits) != 16 + known:
            self._error()
            return None
        if bits[16:] != mine[:known]:
            return None  # another card's prefix: stay READY, stay silent
        return mine[known:]


class _ResetPin(MockPin):
    """The module's NRSTPD input: low is hard power-down, the rising edge a hard reset (8.8.1)."""

    chip: Mfrc522Model | None = None

    def _set_state(self, value: Any) -> None:
        was = self.state
        super()._set_state(value)
        if self.chip is not None and was != self.state:
            self.chip.nrstpd(bool(self.state))


class Mfrc522Model(MockSPIDevice):
    """The chip on SPI0 CE0 (SCLK 11, MOSI 10, MISO 9, CE0 8), NRSTPD on GPIO 25, cards in its field.

    Create it on the MockFactory before the driver claims the pins (the reset pin must be this
    model's). ``version`` is what VersionReg reads (0x92 is an MFRC522 v2.0).
    """

    def __init__(self, *, pin_factory: Any, clock_pin: int = 11, mosi_pin: int = 10, miso_pin: int = 9,
                 select_pin: int = 8, reset_pin: int | None = 25, version: int = 0x92, seed: int = 522,
                 collision_silence: float = 0.25) -> None:
        super().__init__(clock_pin, mosi_pin, miso_pin, select_pin, pin_factory=pin_factory)
        self.version = version
        self.noise = random.Random(seed)
        """Where the datasheet leaves a bit undefined, the model answers noise, reproducibly."""
        self.collision_silence = collision_silence
        self.regs = [0] * 64
        self.fifo: list[int] = []
        self.cards: list[Card] = []
        self.lock = threading.RLock()
        self.floating: int | None = None
        """Not None: the module is unplugged and MISO floats to this byte (0x00 or 0xFF)."""
        self.wedged: int | None = None
        """Not None: the chip's SPI is stuck on this byte until NRSTPD is pulsed low."""
        self.powered_down = False
        self.corrupt_next = 0
        """Number of following answers in which one bit is flipped on the air (a parity error)."""
        self.reads = 0
        self.resets = 0
        self.waiting_for_data = False
        """After a frame nobody answered the receiver still waits: StartSend is ignored until
        CommandReg is written again (datasheet 10.3.1.8; why the reference drivers write Idle first)."""
        self.ignored_start_sends = 0
        self._addr: int | None = None
        self._read = False
        self._transfers = 0
        self._reset_registers()
        if reset_pin is not None:
            pin = pin_factory.pin(reset_pin, pin_class=_ResetPin)
            if isinstance(pin, _ResetPin):
                pin.chip = self

    # The table's verbs ---------------------------------------------------------------

    def present(self, *uids: str, needs_db: int = 33) -> None:
        """Put cards on the reader (more than one: they collide)."""
        with self.lock:
            self.cards = [Card(u, needs_db=needs_db) for u in uids]

    def lift(self) -> None:
        with self.lock:
            self.cards = []

    def unplug(self, floating: int = 0x00) -> None:
        """Pull the module off its header: MISO floats (pulled down reads 0x00, up reads 0xFF)."""
        self.floating = floating

    def replug(self) -> None:
        """Plug it back in: it powers up with every register at its reset value, antenna off."""
        self.floating = None
        self.wedged = None
        self._reset_registers()

    def wedge(self, stuck: int = 0xFF) -> None:
        """A brown-out or ESD left the chip's interface stuck; only a pulse on NRSTPD frees it."""
        self.wedged = stuck

    @property
    def antenna_on(self) -> bool:
        return bool(self.regs[TX_CONTROL] & 0x03)

    @property
    def rx_gain_db(self) -> int:
        return RX_GAIN_DB[(self.regs[RF_CFG] >> 4) & 0x07]

    # Power and reset ------------------------------------------------------------------

    def nrstpd(self, high: bool) -> None:
        """NRSTPD low: hard power-down (nothing answers); back high: a hard reset."""
        with self.lock:
            if not high:
                self.powered_down = True
                return
            self.powered_down = False
            self.wedged = None
            self.resets += 1
            self._reset_registers()

    def _reset_registers(self) -> None:
        with self.lock:
            self.regs = [RESET_VALUES.get(i, 0) for i in range(64)]
            self.regs[VERSION] = self.version
            self.fifo.clear()
            self.waiting_for_data = False
            for card in self.cards:
                card.power_off()

    # SPI ---------------------------------------------------------------------------------

    def on_start(self) -> None:
        super().on_start()
        self._addr = None
        self._transfers += 1
        if self._transfers % 256 == 0:
            # gpiozero's mock pins keep every state change; bit-banged SPI would grow those
            # lists without end. The SPI lines' history is of no use to anyone: keep it short.
            for pin in (self.clock_pin, self.mosi_pin, self.miso_pin, self.select_pin):
                if pin is not None:
                    pin.clear_states()

    def on_bit(self) -> None:
        if self.rx_bit % 8:
            return
        byte = self.rx_word() & 0xFF
        self.rx_buf = []
        value = self.byte(byte)
        if value is not None:
            self.tx_word(value)

    def byte(self, byte: int) -> int | None:
        """One byte in from the host; returns what the chip shifts out during the next byte (8.1.2)."""
        if self.floating is not None:
            return self.floating
        if self.powered_down:
            return 0x00
        if self.wedged is not None:
            return self.wedged
        with self.lock:
            if self._addr is None or self._read:
                # An address byte: the first of a transfer, or each byte of a multi-read
                # (whose closing 0x00 reads nothing).
                if self._addr is None or byte & 0x80:
                    self._read = bool(byte & 0x80)
                    self._addr = (byte >> 1) & 0x3F
                    if self._read:
                        return self._read_reg(self._addr)
                return None
            self._write_reg(self._addr, byte)
            return None

    def _read_reg(self, reg: int) -> int:
        self.reads += 1
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def _write_reg(self, reg: int, value: int) -> None:
        if reg == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif reg == COM_IRQ:
            if value & 0x80:
                self.regs[reg] |= value & 0x7F
            else:
                self.regs[reg] &= ~value & 0x7F
        elif reg == COMMAND:
            self.waiting_for_data = False
            self.regs[reg] = value & 0x3F
            if value & 0x0F == SOFT_RESET:
                self._reset_registers()
        elif reg == TX_CONTROL:
            self.regs[reg] = value
            if not self.antenna_on:
                for card in self.cards:
                    card.power_off()
        elif reg == BIT_FRAMING:
            self.regs[reg] = value & 0x7F
            if value & 0x80 and self.regs[COMMAND] & 0x0F == TRANSCEIVE:
                if self.waiting_for_data:
                    self.ignored_start_sends += 1  # no frame goes out, no interrupt comes
                else:
                    self._transceive()
        elif reg in (VERSION, STATUS1, ERROR):
            pass  # read-only
        else:
            self.regs[reg] = value

    # The air interface -----------------------------------------------------------------------

    def _transceive(self) -> None:
        framing = self.regs[BIT_FRAMING]
        tx_last, rx_align = framing & 0x07, (framing >> 4) & 0x07
        frame = to_bits(bytes(self.fifo), tx_last or 8)
        self.fifo.clear()
        self.regs[ERROR] = 0
        self.regs[COLL] = (self.regs[COLL] & VALUES_AFTER_COLL) | COLL_POS_NOT_VALID
        self.regs[COM_IRQ] |= TX_IRQ
        heard: list[list[int]] = []
        if self.antenna_on:
            for card in list(self.cards):
                answer = card.receive(frame)
                receiving = not self.regs[COMMAND] & RCV_OFF
                if answer and receiving and card.needs_db <= self.rx_gain_db:
                    heard.append(answer)
        if len({tuple(a) for a in heard}) > 1 and self.noise.random() < self.collision_silence:
            heard = []  # differing answers cancelled out on the antenna: as if nobody had answered
        if not heard:
            # Nobody answered: the timer (if TAuto started it) runs out; the receiver keeps waiting.
            if self.regs[T_MODE] & 0x80 and (self.regs[T_RELOAD_H] or self.regs[T_RELOAD_L]):
                self.regs[COM_IRQ] |= TIMER_IRQ
            self.waiting_for_data = True
            return
        bits = self._superpose(heard)
        if self.corrupt_next:
            self.corrupt_next -= 1
            bits[self.noise.randrange(len(bits))] ^= 1
            self.regs[ERROR] |= PARITY_ERR
        # The first received bit lands at bit RxAlign of the first FIFO byte; the bits below it are
        # not defined by the datasheet: noise.
        stored = [self.noise.getrandbits(1) for _ in range(rx_align)] + bits
        self.fifo.extend(from_bits(stored))
        self.regs[CONTROL] = (self.regs[CONTROL] & 0xF8) | (len(stored) % 8)
        self.regs[COM_IRQ] |= RX_IRQ
        if self.regs[ERROR]:
            self.regs[COM_IRQ] |= ERR_IRQ

    def _superpose(self, answers: list[list[int]]) -> list[int]:
        """What the receiver decodes when all these cards modulate at once."""
        out: list[int] = []
        collision: int | None = None
        for i in range(max(len(a) for a in answers)):
            values = {a[i] for a in answers if i < len(a)}
            if collision is None and len(values) > 1:
                collision = i
            if collision is None:
                out.append(values.pop())
            elif i == collision or self.regs[COLL] & VALUES_AFTER_COLL:
                out.append(self.noise.getrandbits(1))
            else:
                out.append(0)
        if collision is not None:
            self.regs[ERROR] |= COLL_ERR
            # CollPos counts the bits of the received frame as they sit in the FIFO, so an
            # RxAlign offset counts too (1 = first bit; 0 = the 32nd; beyond that: not valid).
            pos = (self.regs[BIT_FRAMING] >> 4 & 0x07) + collision + 1
            if pos <= 32:
                self.regs[COLL] = (self.regs[COLL] & VALUES_AFTER_COLL) | (pos % 32)
        return out


class RegisterSPI:
    """The same chip model behind a transfer-level SPI double, without gpiozero's bit-banging.

    For benchmarks: on the Pi a register access is one hardware-SPI transfer, so this measures
    the driver's own work, where the mock SPI measures mostly the mock's pin toggling.
    """

    def __init__(self, model: Mfrc522Model) -> None:
        self.model = model

    def transfer(self, data: list[int]) -> list[int]:
        self.model.on_start()
        out, pending = [], None
        for byte in data:
            out.append(0 if pending is None else pending)
            pending = self.model.byte(byte)
        return out

    def close(self) -> None:
        pass
