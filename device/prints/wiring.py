"""The wiring diagram, drawn from the same pin configuration the drivers open.

A pin moved in ``config.toml`` moves its wire here: the picture can never disagree with what
the appliance drives. A configuration the Pi cannot wire (a GPIO used twice, one that the header
does not have, the ID EEPROM's pins) is refused with the reason, before anything is soldered.
"""

from __future__ import annotations

from html import escape

import msgspec

from drivers.hardware import RESERVED_GPIOS, SPI_PINS, HardwareConfig
from words import text

from . import svg

HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14", 9: "GND",
    10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22", 16: "GPIO23", 17: "3V3",
    18: "GPIO24", 19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND",
    26: "GPIO7", 27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13",
    34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}
"""The 40-pin header of every Pi since the B+ (Zero 2 W, 3, 4, 5): physical pin → what it carries."""
PIN_OF_GPIO = {int(name[4:]): pin for pin, name in HEADER.items() if name.startswith("GPIO")}

I2C_PINS = {1: (2, 3)}
"""I²C bus → (SDA, SCL) GPIOs. Bus 0 is the HAT EEPROM's; other buses need overlays we do not set."""

POWER, GROUND = "#e8590c", "#222"


class Wire(msgspec.Struct, frozen=True):
    part: str
    signal: str
    pin: int
    """Physical header pin, 1–40."""
    colour: str

    @property
    def carries(self) -> str:
        return HEADER[self.pin]


class Part(msgspec.Struct, frozen=True):
    name: str
    wires: tuple[Wire, ...]


def _gpio(gpio: int, what: str) -> int:
    if gpio in RESERVED_GPIOS:
        raise ValueError(text("reports.wiring.reserved", what=what, gpio=gpio, reserved=RESERVED_GPIOS[gpio]))
    if gpio not in PIN_OF_GPIO:
        raise ValueError(text("reports.wiring.no_pin", what=what, gpio=gpio))
    return PIN_OF_GPIO[gpio]


def parts(hw: HardwareConfig) -> list[Part]:
    """Every wired part with its wires, in the order of the config file, named in the language in force (the
    drawing is made when it is asked for). Simulated parts have none."""
    out: list[tuple[str, list[tuple[str, int | str, str]]]] = []
    # (signal, a GPIO number or a power/ground pin's physical number as a string, colour)
    if hw.display.kind != "sim":
        if hw.display.i2c_port not in I2C_PINS:
            raise ValueError(text("reports.wiring.i2c", port=hw.display.i2c_port))
        sda, scl = I2C_PINS[hw.display.i2c_port]
        out.append((text("reports.wiring.display", kind=hw.display.kind.upper(), address=f"{hw.display.address:02X}"), [
            ("VCC", "1", POWER), ("GND", "9", GROUND), ("SDA", sda, "#1971c2"), ("SCL", scl, "#f08c00")]))
    r = hw.reader
    if r.kind != "sim":
        if r.spi_port not in SPI_PINS or r.spi_device >= len(SPI_PINS[r.spi_port][3]):
            raise ValueError(text("reports.wiring.spi", port=r.spi_port, device=r.spi_device))
        sclk, mosi, miso, cs = SPI_PINS[r.spi_port]
        out.append((text("reports.wiring.reader"), [
            ("3.3V", "17", POWER), ("RST", r.reset_pin, "#868e96"), ("GND", "20", GROUND),
            ("MISO", miso, "#2f9e44"), ("MOSI", mosi, "#1971c2"), ("SCK", sclk, "#f08c00"),
            ("SDA/CS", cs[r.spi_device], "#9c36b5")]))
    k = hw.keypad
    if k.kind != "sim":
        lines: list[tuple[str, int | str, str]] = [(text("reports.wiring.row", n=i + 1), g, "#c2255c")
                                                   for i, g in enumerate(k.rows)]
        lines += [(text("reports.wiring.column", n=i + 1), g, "#0c8599") for i, g in enumerate(k.cols)]
        out.append((text("reports.wiring.keypad"), lines))
    e = hw.encoder
    if e.kind not in ("sim", "none"):
        out.append((text("reports.wiring.encoder"), [
            ("GND", "14", GROUND), ("+", "1", POWER), ("SW", e.button, "#9c36b5"), ("DT", e.b, "#2f9e44"),
            ("CLK", e.a, "#1971c2")]))
    if hw.buzzer.kind != "sim":
        out.append((text("reports.wiring.buzzer"), [("+", hw.buzzer.pin, "#e03131"), ("−", "6", GROUND)]))
    if hw.led.kind != "sim":
        out.append((text("reports.wiring.led"), [(text("reports.wiring.anode"), hw.led.pin, "#e03131"),
                                                 (text("reports.wiring.cathode"), "25", GROUND)]))

    used: dict[int, str] = {}
    result = []
    for name, signals in out:
        wires = []
        for signal, where, colour in signals:
            what = f"{name.split(' ')[0]} {signal}"
            if isinstance(where, str):
                pin = int(where)
            else:
                pin = _gpio(where, what)
                if pin in used:
                    raise ValueError(text("reports.wiring.taken", what=what, gpio=where, other=used[pin]))
                used[pin] = what
            wires.append(Wire(name, signal, pin, colour))
        result.append(Part(name, tuple(wires)))
    return result


# Layout (px): the header lies as on the board seen from above, pin 1 bottom left, odd pins in the
# bottom row; the parts stand above it; every wire runs down from its part on a lane of its own.
STEP = 30
"""Distance between two header columns and between two terminals of a part."""
PART_Y, PART_H, GAP = 60, 96, 22
MARGIN = 20


def wiring_svg(hw: HardwareConfig) -> str:
    """The diagram for this configuration, as a standalone SVG document."""
    all_parts = parts(hw)
    wires = [w for p in all_parts for w in p.wires]
    width = max(MARGIN * 2 + sum(max(len(p.wires), 3) * STEP + GAP for p in all_parts), MARGIN * 2 + 20 * STEP + 60)
    lanes_top = PART_Y + PART_H + 24
    header_y = lanes_top + len(wires) * 8 + 40
    header_x = (width - 20 * STEP) / 2
    even_y, odd_y = header_y + 50, header_y + 50 + STEP
    height = odd_y + 80
    body = [f'<rect width="{width}" height="{height}" fill="#fff"/>',
            svg.text(MARGIN, 30, text("reports.wiring.heading"), 16, anchor="start", weight="bold"),
            f'<rect x="{header_x - 20}" y="{header_y}" width="{20 * STEP + 40}" height="{odd_y - header_y + 22}" '
            'rx="6" fill="#1b5e20"/>']

    def pin_xy(pin: int) -> tuple[float, float]:
        col = (pin - 1) // 2
        return header_x + col * STEP + STEP / 2, odd_y if pin % 2 else even_y

    for pin, name in HEADER.items():
        x, y = pin_xy(pin)
        fill = POWER if name in ("3V3", "5V") else GROUND if name == "GND" else "#ffd43b"
        body.append(f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" fill="{fill}" stroke="#000"/>')
        if pin % 2:  # odd pins: number and name below the header
            body.append(svg.text(x, odd_y + 34, str(pin), 10, fill="#111"))
            body.append(svg.text(x + 3, odd_y + 44, name, 9, anchor="end", rotate=True, fill="#111"))
        else:  # even pins: inside the header, left of the pin, where no wire runs
            body.append(svg.text(x + 12, y - 10, name, 9, anchor="start", rotate=True, fill="#fff"))
            body.append(svg.text(x, y + 18, str(pin), 8, fill="#fff"))

    x = MARGIN
    lane = 0
    for part in all_parts:
        w = max(len(part.wires), 3) * STEP
        body.append(f'<rect x="{x}" y="{PART_Y}" width="{w}" height="{PART_H}" rx="4" fill="#f1f3f5" stroke="#333"/>')
        body.append(svg.text(x + w / 2, PART_Y + 15, part.name, 11, weight="bold", fit=w - 6))
        for i, wire in enumerate(part.wires):
            tx = x + i * STEP + STEP / 2
            ty = PART_Y + PART_H
            px, py = pin_xy(wire.pin)
            lane_y = lanes_top + lane * 8
            lane += 1
            named = text("reports.wiring.wire", part=part.name, signal=wire.signal, pin=wire.pin, carries=wire.carries)
            # Odd pins are reached between two columns of the top row, then a short step left.
            drop_x = px if wire.pin % 2 == 0 else px + STEP / 2
            points = [(tx, ty), (tx, lane_y), (drop_x, lane_y), (drop_x, py)]
            if drop_x != px:
                points.append((px, py))
            body.append(f'<polyline fill="none" stroke="{wire.colour}" stroke-width="3" stroke-linejoin="round" '
                        f'points="{" ".join(f"{a:g},{b:g}" for a, b in points)}"><title>'
                        f'{escape(named)}</title></polyline>')
            body.append(f'<circle cx="{tx}" cy="{ty}" r="4" fill="{wire.colour}"/>')
            body.append(svg.text(tx + 4, ty - 8, f"{wire.signal} → {wire.pin}", 10, anchor="start", rotate=True))
        x += w + GAP
    return svg.document(width, height, body, title=text("reports.wiring.title"))
