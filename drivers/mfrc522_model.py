"""A register-level model of the MFRC522 and of ISO 14443A cards, on gpiozero's mock SPI.

An instrument for tests and benchmarks: the real driver (:mod:`drivers.rfid`) talks to it
through gpiozero's SPI exactly as it talks to the chip on a Pi. Cards can be presented,
held, lifted and swapped; two cards at once collide; a read error can be injected.

Modelled: register reads/writes with the MFRC522 address byte, the FIFO, CommandReg
(Idle, Transceive, SoftReset), BitFramingReg StartSend, ComIrqReg, ErrorReg, FIFOLevelReg,
ControlReg; on the card side REQA/WUPA → ATQA, anticollision CL1 → UID + BCC, SELECT → SAK,
HALT, with the card states IDLE, READY, ACTIVE, HALT.
"""

from __future__ import annotations

import threading
from typing import Any

from gpiozero.pins.mock import MockSPIDevice

from .rfid import (
    CASCADE_TAG,
    CMD_IDLE,
    CMD_SOFT_RESET,
    CMD_TRANSCEIVE,
    ERR_COLL,
    ERR_CRC,
    IRQ_IDLE,
    IRQ_RX,
    IRQ_TIMER,
    PICC_CASCADE,
    PICC_HALT,
    PICC_REQA,
    PICC_WUPA,
    REG_BIT_FRAMING,
    REG_COM_IRQ,
    REG_COMMAND,
    REG_CONTROL,
    REG_ERROR,
    REG_FIFO_DATA,
    REG_FIFO_LEVEL,
    REG_VERSION,
    SAK_UID_INCOMPLETE,
    crc_a,
)


class Card:
    """An ISO 14443A card with a 4-, 7- or 10-byte UID (MIFARE Classic, NTAG/Ultralight stickers, …).

    Written from ISO/IEC 14443-3: the UID is split over cascade levels; every level but the last
    answers its anticollision with the cascade tag 0x88 and three UID bytes, and its SELECT with a
    SAK whose bit 3 says "UID not complete". Frames that carry a CRC_A (SELECT, HALT) are ignored
    when the CRC is wrong, as a card does.
    """

    def __init__(self, uid: str) -> None:
        self.uid = bytes.fromhex(uid)
        if len(self.uid) not in (4, 7, 10):
            raise ValueError("a UID has 4, 7 or 10 bytes")
        if len(self.uid) == 4 and self.uid[0] == CASCADE_TAG:
            raise ValueError("0x88 is the cascade tag: no single-size UID starts with it")
        self.levels = self._levels()
        self.state = "IDLE"
        self.level = 0

    def _levels(self) -> list[bytes]:
        u = self.uid
        if len(u) == 4:
            return [u]
        if len(u) == 7:
            return [bytes([CASCADE_TAG]) + u[:3], u[3:7]]
        return [bytes([CASCADE_TAG]) + u[:3], bytes([CASCADE_TAG]) + u[3:6], u[6:10]]

    def receive(self, frame: bytes, bits: int) -> tuple[bytes | None, bool]:
        """Answer a frame; returns (response or None for silence, collision flag)."""
        if bits == 7 and frame[:1] in (bytes([PICC_REQA]), bytes([PICC_WUPA])):
            wakes = ("IDLE",) if frame[0] == PICC_REQA else ("IDLE", "HALT")
            if self.state in wakes:
                self.state, self.level = "READY", 0
                return bytes([0x44 if len(self.uid) == 7 else 0x04, 0x00]), False
            if self.state != "HALT":  # not a command for READY/ACTIVE: back to IDLE, silently
                self.state = "IDLE"
            return None, False
        part = self.levels[self.level] if self.state == "READY" else b""
        sel = PICC_CASCADE[self.level] if self.state == "READY" else None
        if sel is not None and frame == bytes([sel, 0x20]):
            return part + bytes([part[0] ^ part[1] ^ part[2] ^ part[3]]), False
        if sel is not None and frame[:2] == bytes([sel, 0x70]) and len(frame) == 9:
            if frame[2:6] == part and crc_a(frame[:7]) == frame[7:9]:
                last = self.level == len(self.levels) - 1
                sak = bytes([0x08 if last else SAK_UID_INCOMPLETE])
                if last:
                    self.state = "ACTIVE"
                else:
                    self.level += 1
                return sak + crc_a(sak), False
            return None, False
        if frame[:2] == bytes([PICC_HALT, 0x00]) and self.state == "ACTIVE" and crc_a(frame[:2]) == frame[2:4]:
            self.state = "HALT"
            return None, False
        # Anything else out of sequence sends the card back to IDLE (or keeps it halted).
        if self.state != "HALT":
            self.state = "IDLE"
        return None, False


class Mfrc522Model(MockSPIDevice):
    """The chip on SPI0 CE0 (SCLK 11, MOSI 10, MISO 9, CE0 8) with the cards in its field."""

    def __init__(self, *, pin_factory: Any, clock_pin: int = 11, mosi_pin: int = 10, miso_pin: int = 9,
                 select_pin: int = 8) -> None:
        super().__init__(clock_pin, mosi_pin, miso_pin, select_pin, pin_factory=pin_factory)
        self.regs = [0] * 64
        self.regs[REG_VERSION] = 0x92
        self.fifo: list[int] = []
        self.cards: list[Card] = []
        self.powered = True
        self.corrupt_next = 0
        """Number of following frames answered with a CRC error (a flaky read)."""
        self.lock = threading.Lock()
        self.reads = 0
        self._addr: int | None = None
        self._read = False
        self._transfers = 0
        self.waiting_for_data = False
        """After a frame nobody answered, the receiver still waits: StartSend is ignored until
        CommandReg is written again (datasheet 10.3.1.8; why the reference drivers write Idle first)."""
        self.ignored_start_sends = 0

    # The table's verbs ---------------------------------------------------------------

    def present(self, *uids: str) -> None:
        """Put cards on the reader (more than one: they collide)."""
        with self.lock:
            self.cards = [Card(u) for u in uids]

    def lift(self) -> None:
        with self.lock:
            self.cards = []

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
        if not self.powered or self.rx_bit % 8:
            return
        byte = self.rx_word() & 0xFF
        self.rx_buf = []
        value = self.byte(byte)
        if value is not None:
            self.tx_word(value)

    def byte(self, byte: int) -> int | None:
        """One byte in from the host; returns what the chip shifts out during the next byte."""
        if not self.powered:
            return None
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
        if reg == REG_FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == REG_FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def _write_reg(self, reg: int, value: int) -> None:
        if reg == REG_FIFO_DATA:
            self.fifo.append(value)
        elif reg == REG_FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif reg == REG_COM_IRQ:
            if value & 0x80:
                self.regs[reg] |= value & 0x7F
            else:
                self.regs[reg] &= ~value & 0x7F
        elif reg == REG_COMMAND:
            self.waiting_for_data = False
            self.regs[reg] = value & 0x0F
            if value & 0x0F == CMD_SOFT_RESET:
                self.fifo.clear()
                self.regs[REG_COMMAND] = CMD_IDLE
        elif reg == REG_BIT_FRAMING:
            self.regs[reg] = value & 0x7F
            if value & 0x80 and self.regs[REG_COMMAND] == CMD_TRANSCEIVE:
                if self.waiting_for_data:
                    self.ignored_start_sends += 1  # no frame goes out, no interrupt comes
                else:
                    self._transceive(value & 0x07 or 8)
        else:
            self.regs[reg] = value

    def _transceive(self, last_bits: int) -> None:
        frame = bytes(self.fifo)
        self.fifo.clear()
        self.regs[REG_ERROR] = 0
        with self.lock:
            answers = [card.receive(frame, last_bits if len(frame) == 1 else 8)[0] for card in self.cards]
        answers = [a for a in answers if a is not None]
        if not answers:
            self.regs[REG_COM_IRQ] |= IRQ_TIMER
            self.waiting_for_data = True
            return
        if len(answers) > 1 and len(set(answers)) > 1:
            self.regs[REG_ERROR] = ERR_COLL
        if self.corrupt_next:
            self.corrupt_next -= 1
            self.regs[REG_ERROR] |= ERR_CRC
        self.fifo.extend(answers[0])
        self.regs[REG_CONTROL] = 0
        self.regs[REG_COM_IRQ] |= IRQ_RX | IRQ_IDLE


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
            out.append(pending or 0)
            pending = self.model.byte(byte)
        return out

    def close(self) -> None:
        pass
