"""Pictures drawn from the code's own data: the wiring from the pins the drivers open, the keypad
overlay, card labels and deed stickers at true size."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from svgmeaning import differences

from device.daemon.cli import main
from device.daemon.config import Config
from device.daemon.service import Daemon
from device.prints.labels import CARD_MM, KEYPAD_MM, STICKER_MM, deed_stickers, keypad_overlay, player_cards
from device.prints.svg import NS, parse
from device.prints.wiring import HEADER, parts, wiring_svg
from drivers.hardware import HardwareConfig
from rules import DEEDS, EDITIONS, square_name

DOCS = Path(__file__).parent.parent / "docs"
SVG = f"{{{NS}}}"

# The Raspberry Pi 40-pin header as the Raspberry Pi documentation prints it ("GPIO and the 40-pin
# header"): written out here by hand, not taken from the module under test.
PINOUT = {3: "GPIO2", 5: "GPIO3", 19: "GPIO10", 21: "GPIO9", 23: "GPIO11", 24: "GPIO8", 26: "GPIO7",
          12: "GPIO18", 29: "GPIO5", 31: "GPIO6", 33: "GPIO13", 35: "GPIO19", 32: "GPIO12", 36: "GPIO16",
          38: "GPIO20", 40: "GPIO21", 11: "GPIO17", 13: "GPIO27", 15: "GPIO22", 16: "GPIO23", 22: "GPIO25",
          1: "3V3", 17: "3V3", 2: "5V", 4: "5V", 6: "GND", 9: "GND", 14: "GND", 20: "GND", 25: "GND", 30: "GND",
          34: "GND", 39: "GND", 27: "GPIO0", 28: "GPIO1"}


def hardware(**sections: Mapping[str, object]) -> HardwareConfig:
    return HardwareConfig.from_dict(dict(sections))


def wire_titles(svg_text: str) -> list[str]:
    return [t.text or "" for t in parse(svg_text).iter(f"{SVG}title")][1:]


def test_the_header_table_is_the_pis() -> None:
    assert {pin: HEADER[pin] for pin in PINOUT} == PINOUT
    assert sorted(HEADER) == list(range(1, 41))


def test_the_committed_diagram_is_what_the_default_config_draws() -> None:
    """docs/wiring.svg is generated: `bankleser print wiring -o docs/wiring.svg` after a change. Compared by what
    it draws (every element, its words, its coordinates within half a unit), not by its bytes."""
    assert differences((DOCS / "wiring.svg").read_text(encoding="utf-8"), wiring_svg(HardwareConfig())) == []


def test_the_drawing_comparison_sees_a_moved_wire_and_not_a_rewritten_number() -> None:
    drawn = wiring_svg(HardwareConfig())
    assert differences(drawn, drawn.replace('x="216.0"', 'x="216"').replace("\n", "\n\n")) == []
    assert differences(drawn, drawn.replace('x="216.0"', 'x="226.0"'))
    assert differences(drawn, drawn.replace(">GPIO2<", ">GPIO3<"))


def test_the_shipped_config_file_draws_the_same_diagram() -> None:
    """systemd/config.toml's commented values are the defaults: the diagram in the docs is the appliance's."""
    shipped = Config.load(Path(__file__).parent.parent / "systemd" / "config.toml").hardware
    assert wiring_svg(shipped) == wiring_svg(HardwareConfig())


def test_every_configured_pin_has_its_wire() -> None:
    cfg = HardwareConfig()
    gpios = {*cfg.keypad.rows, *cfg.keypad.cols, cfg.encoder.a, cfg.encoder.b, cfg.encoder.button,
             cfg.buzzer.pin, cfg.led.pin, cfg.reader.reset_pin, 2, 3, 8, 9, 10, 11}
    wired = {w.carries for p in parts(cfg) for w in p.wires}
    assert {f"GPIO{g}" for g in gpios} <= wired
    titles = wire_titles(wiring_svg(cfg))
    assert "Summer (passiv) + → Pin 12 (GPIO18)" in titles
    assert "Tastatur 4×4 Zeile 1 → Pin 29 (GPIO5)" in titles
    assert "RFID-Leser MFRC522 (SPI) SDA/CS → Pin 24 (GPIO8)" in titles


def test_a_changed_pin_changes_the_diagram() -> None:
    moved = hardware(buzzer={"pin": 24}, keypad={"rows": [5, 6, 13, 26]})
    svg_text = wiring_svg(moved)
    assert svg_text != wiring_svg(HardwareConfig())
    titles = wire_titles(svg_text)
    assert "Summer (passiv) + → Pin 18 (GPIO24)" in titles
    assert "Tastatur 4×4 Zeile 4 → Pin 37 (GPIO26)" in titles
    assert not any("(GPIO18)" in t for t in titles)


def test_the_second_chip_select_and_a_missing_encoder() -> None:
    svg_text = wiring_svg(hardware(reader={"spi_device": 1}, encoder={"kind": "none"}))
    titles = wire_titles(svg_text)
    assert "RFID-Leser MFRC522 (SPI) SDA/CS → Pin 26 (GPIO7)" in titles
    assert not any(t.startswith("Drehknopf") for t in titles)


@pytest.mark.parametrize(("sections", "why"), [
    ({"buzzer": {"pin": 5}}, "GPIO5 ist schon belegt"),
    ({"led": {"pin": 10}}, "GPIO10 ist schon belegt"),  # SPI0's MOSI
    ({"encoder": {"a": 0}}, "ID-EEPROM"),
    ({"keypad": {"cols": [12, 16, 20, 28]}}, "GPIO28 gibt es auf der Stiftleiste nicht"),
    ({"display": {"i2c_port": 0}}, "nur I²C-Bus 1"),
    ({"reader": {"spi_device": 2}}, "SPI0.2 gibt es nicht"),
])
def test_a_config_the_pi_cannot_wire_is_refused_with_the_reason(sections: dict[str, dict[str, object]],
                                                                  why: str) -> None:
    with pytest.raises(ValueError, match=re.escape(why)):
        wiring_svg(hardware(**sections))


def test_print_wiring_reads_the_config_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[hardware.led]\npin = 24\n", encoding="utf-8")
    out = tmp_path / "wiring.svg"
    assert main(["print", "wiring", "--config", str(config), "-o", str(out)]) == 0
    assert "LED + 330 Ω Anode → Pin 18 (GPIO24)" in wire_titles(out.read_text(encoding="utf-8"))
    config.write_text("[hardware.led]\npin = 18\n", encoding="utf-8")
    assert main(["print", "wiring", "--config", str(config)]) == 1
    assert "GPIO18 ist schon belegt" in capsys.readouterr().err


def mm(element: object, attr: str) -> float:
    return float(element.get(attr))  # type: ignore[attr-defined]


def test_the_keypad_overlay_is_the_membranes_size_with_the_banks_words() -> None:
    root = parse(keypad_overlay(HardwareConfig().keypad.layout))
    assert root.get("width", "").endswith("mm")
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    assert root.get("width") == f"{width:g}mm" and root.get("height") == f"{height:g}mm"
    outline = next(root.iter(f"{SVG}rect"))
    assert (mm(outline, "width"), mm(outline, "height")) == KEYPAD_MM
    words = {t.text for t in root.iter(f"{SVG}text")}
    assert {"Haben", "Soll", "LOS", "C", "K", "0", "9"} <= words


def test_bank_cards_are_id1_cards_with_number_and_colour() -> None:
    root = parse(player_cards(6))
    assert (root.get("width"), root.get("height")) == ("210mm", "297mm")
    cards = [g for g in root.iter(f"{SVG}g") if g.get("id", "").startswith("bankkarte-")]
    assert [g.get("id") for g in cards] == [f"bankkarte-{n}" for n in range(1, 7)]
    colours = set()
    for n, card in enumerate(cards, 1):
        outline, band = list(card.iter(f"{SVG}rect"))[:2]
        assert (mm(outline, "width"), mm(outline, "height")) == CARD_MM
        assert mm(outline, "x") + CARD_MM[0] <= 210 and mm(outline, "y") + CARD_MM[1] <= 297
        assert str(n) in {t.text for t in card.iter(f"{SVG}text")}
        colours.add(band.get("fill"))
    assert len(colours) == 6


@pytest.mark.parametrize("key", sorted(EDITIONS))
def test_deed_stickers_carry_the_editions_names(key: str) -> None:
    """Seed 004 names Skylanders' stations and works its own way; every edition's sticker says its name."""
    root = parse(deed_stickers(key))
    stickers = [g for g in root.iter(f"{SVG}g") if g.get("id", "").startswith("feld-")]
    assert len(stickers) == len(DEEDS) == 28
    for sticker, square in zip(stickers, DEEDS, strict=True):
        outline = next(sticker.iter(f"{SVG}rect"))
        assert (mm(outline, "width"), mm(outline, "height")) == STICKER_MM
        assert mm(outline, "y") + STICKER_MM[1] <= 297
        assert square_name(EDITIONS[key], square) in {t.text for t in sticker.iter(f"{SVG}text")}


def test_an_unknown_edition_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print", "deeds", "--edition", "monopoly-junior"]) == 1
    assert "unbekannte Ausgabe" in capsys.readouterr().err


def test_the_admin_page_links_the_appliances_own_wiring(daemon: Daemon) -> None:
    client = daemon.app.test_client()
    assert 'href="/admin/verdrahtung.svg"' in client.get("/admin").get_data(as_text=True)
    daemon.config.hardware.led.pin = 24
    answer = client.get("/admin/verdrahtung.svg")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert "LED + 330 Ω Anode → Pin 18 (GPIO24)" in wire_titles(answer.get_data(as_text=True))
    daemon.config.hardware.led.pin = 18  # the buzzer's
    assert client.get("/admin/verdrahtung.svg").status_code == 422


def used_gpios(cfg: HardwareConfig) -> set[int]:
    return {int(w.carries[4:]) for p in parts(cfg) for w in p.wires if w.carries.startswith("GPIO")}


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(2, 27), st.sampled_from(["buzzer", "led"]))
def test_any_pin_moved_moves_its_wire_or_is_refused(gpio: int, part: str) -> None:
    """Property: a part moved to a free GPIO gets its wire at that GPIO's header pin, and the picture changes;
    moved onto a GPIO another part uses, the config is refused."""
    default = HardwareConfig()
    current = getattr(default, part).pin
    if gpio != current and gpio in used_gpios(default):
        with pytest.raises(ValueError, match="schon belegt"):  # the config itself is refused
            wiring_svg(hardware(**{part: {"pin": gpio}}))
        return
    cfg = hardware(**{part: {"pin": gpio}})
    name = "Summer (passiv) +" if part == "buzzer" else "LED + 330 Ω Anode"
    pin = next(p for p, carried in HEADER.items() if carried == f"GPIO{gpio}")
    svg_text = wiring_svg(cfg)
    assert f"{name} → Pin {pin} (GPIO{gpio})" in wire_titles(svg_text)
    assert (svg_text == wiring_svg(default)) == (gpio == current)
