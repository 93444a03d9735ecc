"""A command-level model of the SSD1306 and SH1106 OLED controllers on an I²C bus, as smbus2 sees it.

An instrument for the simulation, the tests and the benchmarks: the first frame
(:mod:`drivers.splash`) and luma.oled's own drivers talk to it through the two calls of smbus2's
``SMBus`` they use (``write_i2c_block_data`` and ``i2c_rdwr``), exactly as they talk to the chip on
a Pi. It is written from the datasheets (Solomon Systech SSD1306 rev 1.1, sections 8.1.5 and 10,
table 9-1, and its charge pump application note; Sino Wealth SH1106 V2.3, "Commands") and imports
nothing from our drivers or from luma. Where it has to choose, it is stricter than the chip:

* every I²C transfer starts with a control byte (Co, D/C#); a command byte the controller does not
  know, or a command whose argument bytes are not all in the same transfer, raises
  :class:`OledError` (the chip would take a stray byte as something else);
* data written past the end of the window (SSD1306's column and page window, or the end of a page
  in page addressing mode, where the chip wraps) or past the SH1106's 132 columns raises;
* the display RAM holds noise after power-on (the datasheets leave it undefined), so a frame that
  writes only part of it shows the rest as noise;
* an SSD1306 lights nothing until its charge pump is on (``8D 14``) before ``AF``; the module has no
  external VCC;
* a mux ratio or COM pin configuration a 128×64 module is not wired for (``DA 12``) raises when the
  image is read, rather than showing the interleaved rows the glass would.

No Pillow here: :meth:`Panel.visible` gives the image as 1-bit rows (``PIL.Image.frombytes("1", …)``
reads them), so the simulated first frame costs no Pillow import.

The modules' glass is mounted as on the common 0.96" and 1.3" boards, whose makers' sample code sets
``A1`` and ``C8``: the highest segment in use at the viewer's left (SEG127, or SEG129 on the SH1106,
whose 128 visible columns are RAM columns 2 to 129), COM63 at the top.
"""

from __future__ import annotations

import errno

TYPE_CHECKING = False  # typing's own costs an import on the simulated first frame's path
if TYPE_CHECKING:
    from typing import Any

WIDTH, HEIGHT, PAGES = 128, 64, 8
I2C_M_RD = 0x0001
"""``i2c_msg.flags`` of a read (linux/i2c.h)."""
BLOCK_MAX = 32
"""SMBus block writes carry at most 32 bytes (I2C_SMBUS_BLOCK_MAX): smbus2 refuses more, so do we."""

SSD1306_ARGS: dict[int, int] = {
    0x81: 1,  # contrast
    0x8D: 1,  # charge pump (application note)
    0x20: 1, 0x21: 2, 0x22: 2,  # addressing mode, column window, page window
    0xA8: 1, 0xD3: 1, 0xDA: 1, 0xD5: 1, 0xD9: 1, 0xDB: 1,  # mux, offset, COM pins, clock, precharge, VCOMH
    0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2,  # scrolling set-up
    0xA4: 0, 0xA5: 0, 0xA6: 0, 0xA7: 0, 0xAE: 0, 0xAF: 0, 0xA0: 0, 0xA1: 0, 0xC0: 0, 0xC8: 0,
    0x2E: 0, 0x2F: 0, 0xE3: 0,  # scroll off, scroll on, NOP
    **{c: 0 for c in range(0x00, 0x20)},  # column start nibbles (page addressing mode)
    **{c: 0 for c in range(0x40, 0x80)},  # display start line
    **{c: 0 for c in range(0xB0, 0xB8)},  # page start (page addressing mode)
}
"""Table 9-1: each command byte the SSD1306 knows, with the number of argument bytes that follow it."""

SH1106_ARGS: dict[int, int] = {
    0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
    0xA0: 0, 0xA1: 0, 0xA4: 0, 0xA5: 0, 0xA6: 0, 0xA7: 0, 0xAE: 0, 0xAF: 0, 0xC0: 0, 0xC8: 0,
    0xE0: 0, 0xEE: 0, 0xE3: 0,  # read-modify-write, end, NOP
    **{c: 0 for c in range(0x00, 0x20)},  # column address nibbles
    **{c: 0 for c in range(0x30, 0x34)},  # pump voltage
    **{c: 0 for c in range(0x40, 0x80)},  # display start line
    **{c: 0 for c in range(0xB0, 0xB8)},  # page address
}
"""The SH1106's commands 1-21 with their argument bytes. It has page addressing only."""

SH1106_FOREIGN = {0x20: "SSD1306: addressing mode", 0x8D: "SSD1306: charge pump"}
"""Two SSD1306 command bytes that luma.oled's ``sh1106`` sends in its set-up, which SH1106 panels ignore
(the SH1106 has neither; its DC-DC converter is on after reset). Taken as no-ops and counted in
:attr:`Panel.foreign`; any other unknown byte raises. ``8D``'s argument ``14`` is then the SH1106's own
"column high nibble 4", as on the chip; every frame sets the column again."""


def _noise(seed: int, page: int, n: int) -> bytes:
    """Power-on RAM: the datasheets leave it undefined; a fixed pseudo-random pattern per seed."""
    state = (seed * 8 + page) * 2654435761 + 1
    out = bytearray(n)
    for i in range(n):
        state = (state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        out[i] = state >> 56
    return bytes(out)


class OledError(ValueError):
    """Bytes the controller would misread: the driver (or the recording) is wrong."""


class Panel:
    """One 128×64 OLED module at an I²C address: its controller's registers and display RAM."""

    def __init__(self, kind: str = "ssd1306", address: int = 0x3C, *, upside_down: bool = False,
                 seed: int = 0) -> None:
        if kind not in ("ssd1306", "sh1106"):
            raise ValueError(f"no model of {kind!r}")
        self.kind, self.address, self.upside_down = kind, address, upside_down
        self.columns = 132 if kind == "sh1106" else WIDTH
        """Display RAM columns: the SH1106 has 132, of which 2 to 129 are on the glass."""
        self.ram = [bytearray(_noise(seed, page, self.columns)) for page in range(PAGES)]
        self.commands: list[bytes] = []
        """Every command with its arguments, in order (tests read the set-up from here)."""
        self.foreign = 0
        self.on = False
        self.pump = kind == "sh1106"  # SSD1306: charge pump off after reset; SH1106: DC-DC on
        self.contrast = 0x80 if kind == "sh1106" else 0x7F
        self.entire_on = self.inverse = self.seg_remap = self.com_remap = False
        self.start_line = self.offset = 0
        self.mux = 63
        self.com_pins = 0x12
        self.mode = 2  # SSD1306: page addressing after reset
        self.col, self.page = 0, 0
        self.col_window, self.page_window = (0, WIDTH - 1), (0, PAGES - 1)

    # The I²C side (datasheet 8.1.5.2): a control byte, then commands or data ------------------------

    def receive(self, transfer: bytes) -> None:
        """One I²C write transfer addressed to this panel (START, address, bytes, STOP)."""
        i = 0
        while i < len(transfer):
            control = transfer[i]
            if control & 0x3F:
                raise OledError(f"control byte 0x{control:02X}: only Co (0x80) and D/C# (0x40) may be set")
            last = not control & 0x80  # Co = 0: the rest of the transfer is data bytes of this kind
            body = transfer[i + 1:] if last else transfer[i + 1:i + 2]
            if not body:
                raise OledError("a control byte with nothing after it")
            if control & 0x40:
                self._data(body)
            else:
                self._commands(body)
            i += 1 + len(body)

    def _commands(self, stream: bytes) -> None:
        table = SH1106_ARGS if self.kind == "sh1106" else SSD1306_ARGS
        i = 0
        while i < len(stream):
            cmd = stream[i]
            if self.kind == "sh1106" and cmd in SH1106_FOREIGN:
                self.foreign += 1
                i += 1
                continue
            if cmd not in table:
                raise OledError(f"{self.kind}: no command 0x{cmd:02X}")
            n = table[cmd]
            args = stream[i + 1:i + 1 + n]
            if len(args) < n:
                raise OledError(f"{self.kind}: command 0x{cmd:02X} takes {n} argument bytes, got {len(args)}")
            self.commands.append(bytes([cmd, *args]))
            self._command(cmd, args)
            i += 1 + n

    def _command(self, cmd: int, args: bytes) -> None:
        sh1106 = self.kind == "sh1106"
        if cmd in (0xAE, 0xAF):
            self.on = cmd == 0xAF
        elif cmd == 0x81:
            self.contrast = args[0]
        elif cmd == 0x8D:
            if args[0] & ~0x04 != 0x10:
                raise OledError(f"charge pump setting 0x{args[0]:02X}: 0x10 (off) or 0x14 (on)")
            self.pump = bool(args[0] & 0x04)
        elif cmd == 0xAD:
            if args[0] not in (0x8A, 0x8B):
                raise OledError(f"DC-DC setting 0x{args[0]:02X}: 0x8A (off) or 0x8B (on)")
            self.pump = args[0] == 0x8B
        elif cmd in (0xA4, 0xA5):
            self.entire_on = cmd == 0xA5
        elif cmd in (0xA6, 0xA7):
            self.inverse = cmd == 0xA7
        elif cmd in (0xA0, 0xA1):
            self.seg_remap = cmd == 0xA1
        elif cmd in (0xC0, 0xC8):
            self.com_remap = cmd == 0xC8
        elif 0x40 <= cmd <= 0x7F:
            self.start_line = cmd & 0x3F
        elif cmd == 0xD3:
            self.offset = args[0] & 0x3F
        elif cmd == 0xA8:
            if args[0] > 0x3F or (args[0] < 0x0F and not sh1106):
                raise OledError(f"mux ratio 0x{args[0]:02X}: 0x0F to 0x3F")
            self.mux = args[0] & 0x3F
        elif cmd == 0xDA:
            self.com_pins = args[0]
        elif cmd <= 0x0F:
            self.col = (self.col & 0xF0) | cmd
        elif cmd <= 0x1F:
            self.col = (self.col & 0x0F) | (cmd & 0x0F) << 4
            if self.col >= self.columns and not sh1106:  # 0x18-0x1F would point past column 127
                raise OledError(f"column {self.col}: past the RAM's {self.columns} columns")
        elif 0xB0 <= cmd <= 0xB7:
            self.page = cmd & 0x07
        elif cmd == 0x20:
            if args[0] > 2:
                raise OledError(f"addressing mode 0x{args[0]:02X}: 0, 1 or 2")
            self.mode = args[0]
        elif cmd in (0x21, 0x22):
            start, end = args[0], args[1]
            top = WIDTH - 1 if cmd == 0x21 else PAGES - 1
            if not start <= end <= top:
                raise OledError(f"window {start}-{end}: at most 0-{top}, start first")
            if cmd == 0x21:
                self.col_window, self.col = (start, end), start
            else:
                self.page_window, self.page = (start, end), start
        elif cmd in (0x26, 0x27, 0x29, 0x2A, 0x2F):
            raise OledError("scrolling is not modelled (the appliance never scrolls)")

    def _data(self, data: bytes) -> None:
        for byte in data:
            if self.kind == "sh1106":
                if self.col >= self.columns:
                    raise OledError(f"data past column {self.columns - 1} of page {self.page}")
                self.ram[self.page][self.col] = byte
                self.col += 1
                continue
            if self.mode == 2 and self.col >= WIDTH:
                raise OledError(f"data past column 127 of page {self.page} (page addressing wraps here)")
            if self.mode != 2 and (self.page > self.page_window[1] or self.col > self.col_window[1]):
                raise OledError("data past the end of the column and page window (the chip wraps to its start)")
            self.ram[self.page][self.col] = byte
            self._advance()

    def _advance(self) -> None:
        """The SSD1306's address pointer after one data byte (section 10.1.3): a pointer run past the
        window's end would wrap to its start on the chip; here it is left past the end, so the next byte raises."""
        (c0, c1), (p0, p1) = self.col_window, self.page_window
        if self.mode == 2:
            self.col += 1
        elif self.mode == 0:
            self.col += 1
            if self.col > c1:
                self.col, self.page = c0, self.page + 1
                if self.page > p1:
                    self.col = c1 + 1  # the window is full
        else:
            self.page += 1
            if self.page > p1:
                self.page, self.col = p0, self.col + 1
                if self.col > c1:
                    self.page = p1 + 1

    # The glass -------------------------------------------------------------------------------------

    @property
    def lit(self) -> bool:
        """Whether the glass shows anything: display on, and its supply (charge pump / DC-DC) on."""
        return self.on and self.pump

    def pixel(self, x: int, y: int) -> bool:
        """Whether the viewer sees pixel (x, y) lit (0, 0 top left as the module is mounted)."""
        if self.upside_down:
            x, y = WIDTH - 1 - x, HEIGHT - 1 - y
        if not self.lit:
            return False
        if self.entire_on:
            return True
        seg = WIDTH - 1 - x + (2 if self.kind == "sh1106" else 0)  # the highest segment in use at the left
        com = HEIGHT - 1 - y  # COM63 at the top
        column = (self.columns - 1 - seg) if self.seg_remap else seg
        scan = (self.mux - com) if self.com_remap else com  # which row of the scan drives this COM
        if scan < 0 or scan > self.mux:
            return False  # a COM the mux ratio leaves undriven
        row = (scan + self.offset + self.start_line) % HEIGHT
        on = bool(self.ram[row // 8][column] >> (row % 8) & 1)
        return on != self.inverse

    def visible(self) -> bytes:
        """What the viewer sees: 64 rows of 16 bytes, the leftmost pixel in each byte's top bit, 1 = lit
        (Pillow's mode "1" packing)."""
        if self.mux != 63 or self.com_pins != 0x12:
            raise OledError(f"mux 0x{self.mux:02X}, COM pins 0x{self.com_pins:02X}: a 128×64 module is wired for "
                            "mux 0x3F and alternative COM pins (0x12)")
        out = bytearray(WIDTH // 8 * HEIGHT)
        for y in range(HEIGHT):
            for x in range(WIDTH):
                if self.pixel(x, y):
                    out[y * WIDTH // 8 + x // 8] |= 0x80 >> (x % 8)
        return bytes(out)

    def image(self) -> Any:
        """The visible image as a Pillow image (tests, on demand)."""
        from PIL import Image

        return Image.frombytes("1", (WIDTH, HEIGHT), self.visible())


class Bus:
    """An I²C bus with panels on it, answering the calls of smbus2's ``SMBus`` that luma and the first
    frame use. A transfer to an address where no panel answers fails as the Pi's I²C driver
    (i2c-bcm2835) fails it: ``OSError(EREMOTEIO)`` (``nack`` chooses another errno, e.g. ENXIO)."""

    def __init__(self, *panels: Panel, nack: int = errno.EREMOTEIO) -> None:
        self.panels = {p.address: p for p in panels}
        self.nack = nack
        self.closed = False
        self.transfers = 0

    def _panel(self, address: int) -> Panel:
        if self.closed:
            raise OSError(errno.EBADF, "Bad file descriptor")
        panel = self.panels.get(address)
        if panel is None:
            raise OSError(self.nack, f"{errno.errorcode.get(self.nack, self.nack)}: no answer at 0x{address:02X}")
        self.transfers += 1
        return panel

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: list[int], force: bool | None = None) -> None:
        """SMBus "block write": the register byte (for these chips, the control byte) and up to 32 bytes."""
        if len(data) > BLOCK_MAX:
            raise ValueError(f"Data length cannot exceed {BLOCK_MAX} bytes")
        self._panel(i2c_addr).receive(bytes([register, *data]))

    def i2c_rdwr(self, *messages: Any) -> None:
        """Combined transfers (``smbus2.i2c_msg``): each write goes to its address; reads are not modelled."""
        for msg in messages:
            if msg.flags & I2C_M_RD:
                raise OledError("these panels are written only (their I²C interface cannot be read)")
            self._panel(msg.addr).receive(bytes(msg))

    def close(self) -> None:
        self.closed = True
