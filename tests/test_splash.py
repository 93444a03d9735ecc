"""The first frame ("Start-up on a Pi Zero 2 W"): "Startet…" on the OLED within a second of the
service starting, at a Pi core's pace. It is luma.oled's own recorded bytes, replayed with smbus2 before
Pillow or luma is imported; what it shows is checked on a model of the SSD1306 and SH1106 written from their
datasheets, which luma's own drivers must drive to the same picture.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import smbus2
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from notify_socket import NotifySocket
from parts_helpers import Calls, only
from profiles import examples

from bench.liveserver import free_port
from device.daemon import cli
from device.daemon.parts import start_screen
from drivers import splash
from drivers.display import render
from drivers.hardware import open_hardware
from drivers.oled_model import Bus, OledError, Panel
from drivers.screen import Screen
from drivers.splash import Splash

ROOT = Path(__file__).parent.parent
LUMA = {"ssd1306": ssd1306, "sh1106": sh1106}
PANELS = [(kind, rotate) for kind in ("ssd1306", "sh1106") for rotate in (0, 2)]
FIRST = splash.screen("de")


class Said:
    """A notifier that keeps what it would tell systemd."""

    def __init__(self) -> None:
        self.told: list[str] = []

    def status(self, status: str) -> None:
        self.told.append(status)


def panel_on_bus(kind: str, rotate: int = 0, **bus: Any) -> tuple[Panel, Bus]:
    """A module as mounted for ``rotate``: turned over for 2, so the viewer sees the picture upright."""
    panel = Panel(kind, upside_down=rotate == 2)
    return panel, Bus(panel, **bus)


# What the first frame shows ------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "rotate"), PANELS)
def test_each_recording_shows_on_the_panel_exactly_what_render_draws(kind: str, rotate: int) -> None:
    panel, bus = panel_on_bus(kind, rotate)
    Splash(kind, rotate=rotate, contrast=0x42, bus=bus).send()
    assert panel.lit and panel.contrast == 0x42  # on, its supply on, at the configured contrast
    assert panel.visible() == render(FIRST).tobytes()


@pytest.mark.parametrize(("kind", "rotate"), PANELS)
def test_luma_driving_the_model_shows_what_render_draws(kind: str, rotate: int,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The model against the reference driver: luma's own set-up and frames, through its I²C interface both
    ways it talks (SMBus block writes with a bus handed in, ``i2c_rdwr`` with smbus2's own)."""
    busy = Screen(title="Anna #1", big="1.500.000", lines=("Haben", "Gefängnis"), qr="http://192.168.1.20:8080/")
    for managed in (False, True):
        panel, bus = panel_on_bus(kind, rotate)
        if managed:
            monkeypatch.setattr(smbus2, "SMBus", lambda port, bus=bus: bus)
            serial = i2c(port=1, address=0x3C)
        else:
            serial = i2c(bus=bus, address=0x3C)
        device = LUMA[kind](serial, width=128, height=64, rotate=rotate)
        device.persist = True
        assert panel.visible() == bytes(1024)  # luma's set-up clears the RAM's power-on noise
        for screen in (FIRST, busy):
            device.display(render(screen))
            assert panel.visible() == render(screen).tobytes()


TEXT = st.text(st.sampled_from("AaÄäÖöÜüß0123456789 .,:-+#€…"), max_size=24)
SCREENS = st.builds(Screen, title=TEXT, big=TEXT, lines=st.lists(TEXT, max_size=3).map(tuple),
                    icons=st.sampled_from(["", "≈", "x"]), qr=st.none() | st.just("http://192.168.178.20:8080/"))


@settings(max_examples=examples(40), deadline=None)
@given(panel=st.sampled_from(PANELS), frames=st.lists(st.tuples(SCREENS, st.booleans()), min_size=1, max_size=4))
def test_whatever_luma_draws_and_however_it_sleeps_the_model_shows_what_render_draws(
        panel: tuple[str, int], frames: list[tuple[Screen, bool]]) -> None:
    """The model against luma on any screens, with the panel put to sleep and woken between them (hide, show)."""
    kind, rotate = panel
    glass, bus = panel_on_bus(kind, rotate)
    device = LUMA[kind](i2c(bus=bus, address=0x3C), width=128, height=64, rotate=rotate)
    device.persist = True
    for screen, nap in frames:
        device.display(render(screen))
        if nap:
            device.hide()
            assert not glass.lit and glass.visible() == bytes(1024)
            device.show()
        assert glass.visible() == render(screen).tobytes()


@pytest.mark.parametrize("language", sorted(splash.load()["status"]))
@pytest.mark.parametrize(("kind", "rotate"), PANELS)
def test_the_recording_shows_what_luma_shows_today(kind: str, rotate: int, language: str) -> None:
    """The recording, replayed on the panel's model, lights the same pixels as luma drawing today's start screen
    (today's words, font and layout) on the same model, and says the same words to systemd. Compared by what the
    panel shows, not by the recording's bytes: a luma release that sends the same picture in other commands is no
    change; a new font, layout or text is, and ``python -m drivers.splash`` records it again."""
    shown = splash.screen(language)
    recorded, bus = panel_on_bus(kind, rotate)
    Splash(kind, rotate=rotate, contrast=0x42, bus=bus, language=language).send()
    today, bus = panel_on_bus(kind, rotate)
    device = LUMA[kind](i2c(bus=bus, address=0x3C), width=128, height=64, rotate=rotate)
    device.persist = True
    device.contrast(0x42)
    device.display(render(shown))
    assert recorded.visible() == today.visible(), f"{kind}/{rotate} in {language}: python -m drivers.splash"
    assert (recorded.lit, recorded.contrast) == (today.lit, today.contrast)
    assert Splash(kind, rotate=rotate, language=language).words() == shown.big


def test_a_plain_install_ships_the_recording() -> None:
    """The Pi's installer runs a plain ``pip install``: only package data listed in pyproject.toml goes along."""
    import fnmatch

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["drivers"]
    assert any(fnmatch.fnmatch("splash.txt", p) for p in patterns)


def test_the_luma_set_up_of_an_sh1106_has_two_ssd1306_bytes_the_chip_ignores() -> None:
    panel, bus = panel_on_bus("sh1106")
    Splash("sh1106", bus=bus).send()
    assert panel.foreign == 2  # 0x20 and 0x8D: counted, not silently taken as commands


# The model: stricter than the chips ----------------------------------------------------------------

def test_the_model_refuses_a_command_its_chip_does_not_have() -> None:
    """SSD1306 table 9-1 has no 0x23; the SH1106 has no column window (0x21), only page addressing."""
    for kind, cmd in (("ssd1306", 0x23), ("sh1106", 0x21), ("sh1106", 0xA3)):
        _, bus = panel_on_bus(kind)
        with pytest.raises(OledError, match="no command"):
            bus.write_i2c_block_data(0x3C, 0x00, [0xAE, cmd, 0x00, 0x7F])


def test_the_model_refuses_a_command_without_all_its_argument_bytes() -> None:
    for kind, cmd in (("ssd1306", [0x81]), ("ssd1306", [0x21, 0x00]), ("sh1106", [0xA8])):
        _, bus = panel_on_bus(kind)
        with pytest.raises(OledError, match="argument bytes"):
            bus.write_i2c_block_data(0x3C, 0x00, cmd)


def test_data_past_the_ram_raises_where_the_chip_would_wrap() -> None:
    _, bus = panel_on_bus("ssd1306")
    Splash(bus=bus).send()  # the window 0-127 × 0-7 is full now
    with pytest.raises(OledError, match="past the end"):
        bus.i2c_rdwr(smbus2.i2c_msg.write(0x3C, [0x40, 0xFF]))
    _, bus = panel_on_bus("sh1106")
    bus.write_i2c_block_data(0x3C, 0x00, [0xB0, 0x00, 0x18])  # column 128 of 132
    bus.write_i2c_block_data(0x3C, 0x40, [0] * 4)
    with pytest.raises(OledError, match="past column 131"):
        bus.write_i2c_block_data(0x3C, 0x40, [0])


def test_a_panel_shows_noise_until_written_and_nothing_without_its_charge_pump() -> None:
    frame = splash.load()["ssd1306/0"]
    panel, bus = panel_on_bus("ssd1306")
    steps = [s for s in frame["setup"] if s != ("c", b"\x81\xcf")] + frame["show"]
    Splash(bus=bus)._replay(steps)  # set up and on, no frame written yet
    assert panel.lit and panel.visible().count(0) < 900  # power-on noise, not a blank screen
    without_pump = [("c", s[1].replace(b"\x8d\x14", b"\xe3\xe3")) for s in frame["setup"]]
    panel, bus = panel_on_bus("ssd1306")
    Splash(bus=bus)._replay(without_pump + frame["frame.de"] + frame["show"])
    assert panel.on and not panel.lit and panel.visible() == bytes(1024)


def test_the_first_frame_stays_while_the_other_parts_open_and_the_start_screen_follows_luma_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """luma's set-up switches the panel off and clears it: the display opens last of the parts, so that the
    greeting is on the panel while gpiozero and the rest load, and the start screen comes right after luma."""
    panel = Panel("ssd1306")
    bus = Bus(panel)
    monkeypatch.setattr(smbus2, "SMBus", lambda port: bus)
    Splash(bus=bus).send()
    seen: list[bytes] = []

    def factory() -> MockFactory:  # the GPIO parts open: what does the panel show meanwhile?
        seen.append(panel.visible())
        return MockFactory()

    hw = open_hardware(only(display={"kind": "ssd1306"}, keypad={"kind": "matrix"}), Calls().callbacks(),
                       make_pin_factory=factory)
    try:
        assert seen == [render(FIRST).tobytes()]
        assert panel.lit and panel.visible() == bytes(1024)  # luma's set-up: cleared, on
        screen = start_screen(hw)
        hw.display.show(screen)
        assert hw.display.flush() and panel.visible() == render(screen).tobytes()
    finally:
        hw.close()


# No bus, no panel: no first frame, no exception, and the daemon still comes up -----------------------

def config_file(tmp_path: Path, display: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f"[hardware.display]\n{display}\n"
                    + "".join(f'[hardware.{part}]\nkind = "sim"\n' for part in ("keypad", "encoder", "buzzer", "led",
                                                                                "reader"))
                    + "[hotspot]\nenabled = false\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("nack", [errno.EREMOTEIO, errno.ENXIO])
def test_no_panel_at_the_address_means_no_first_frame_and_no_exception(tmp_path: Path, nack: int,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Pi's I²C driver answers a missing panel with EREMOTEIO, others with ENXIO."""
    panel = Panel("ssd1306", address=0x3D)  # wired to the other address
    monkeypatch.setattr(smbus2, "SMBus", lambda port: Bus(panel, nack=nack))
    said = Said()
    missed = cli._first_screen(config_file(tmp_path, 'kind = "ssd1306"'), sim=False, notifier=said)
    assert isinstance(missed, OSError) and missed.errno == nack
    assert said.told == [] and not panel.on


def test_no_bus_means_no_first_frame_and_no_exception(tmp_path: Path) -> None:
    """/dev/i2c-97 exists nowhere here: smbus2's own open fails, as on a Pi with I²C off."""
    said = Said()
    missed = cli._first_screen(config_file(tmp_path, 'kind = "sh1106"\ni2c_port = 97'), sim=False, notifier=said)
    assert isinstance(missed, FileNotFoundError) and said.told == []


def test_a_display_section_the_config_check_refuses_gets_no_first_frame(tmp_path: Path) -> None:
    for display in ('kind = "ssd1309"', "rotate = 1", 'address = "0x3C"'):
        missed = cli._first_screen(config_file(tmp_path, display), sim=False, notifier=Said())
        assert isinstance(missed, ValueError)


def test_a_config_error_after_the_greeting_switches_the_panel_off(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The display section is good, so "Startet…" is said; then the config's check refuses the rest and the
    service stops for good (EX_CONFIG): the panel must not say "Startet…" until someone looks."""
    panel = Panel("ssd1306")
    monkeypatch.setattr(smbus2, "SMBus", lambda port: Bus(panel))
    bad = config_file(tmp_path, 'kind = "ssd1306"')
    bad.write_text(bad.read_text() + "[wlan]\nssid = 1\n")
    assert cli.main(["run", "--config", str(bad), "--state-dir", str(tmp_path / "state")]) == cli.EX_CONFIG
    assert panel.commands[-1] == b"\xae" and not panel.lit  # luma's hide(): display off


STOP_BOUND = 60
"""Seconds a stop may take before the test calls it a hang: a clean stop takes about a second
(docs/measurements.md). This test once saw a real hang, the signal handler waiting for a lock the interrupted loop
held (tests/test_stop_signal.py); the bound is for a hang, not for a slow machine."""


def test_without_a_panel_the_daemon_comes_up_and_names_the_display_once(tmp_path: Path) -> None:
    """A missing part with the first frame in front: the greeting fails quietly, opening the parts names the cause and
    fix once, and READY comes."""
    notify = NotifySocket(tmp_path / "notify.sock")
    log = tmp_path / "out.log"
    cfg = config_file(tmp_path, 'kind = "ssd1306"\ni2c_port = 97')
    argv = [sys.executable, "-m", "device.daemon.cli", "run", "--config", str(cfg), "--state-dir",
            str(tmp_path / "state"), "--port", str(free_port())]
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "NOTIFY_SOCKET": str(notify.path),
                                     "BANKLESER_BANKER_PIN": "4711"})
        try:
            seen = notify.until("READY=1", 30)
        finally:
            proc.terminate()
            assert proc.wait(STOP_BOUND) == 0
    assert "STATUS=Startet…" not in seen  # no greeting claimed that was not on a panel
    said = [line for line in log.read_text().splitlines() if "/dev/i2c-97" in line]
    assert len(said) == 1 and "Display" in said[0], log.read_text()


# What keeps it fast: nothing heavy before the first frame -------------------------------------------

HEAVY = ("PIL", "luma", "logging", "dataclasses", "rules", "gpiozero", "flask", "uvicorn", "werkzeug", "asyncio",
         "segno", "webui", "device.scenes", "device.store", "device.daemon.service", "device.daemon.config",
         "drivers.display", "drivers.hardware", "tempfile")

FIRST_FRAME = """
import sys
from pathlib import Path
from device.daemon import cli
from device.daemon.notify import Notifier

config = Path(sys.argv[1]) if sys.argv[1] != "-" else None
if config is not None:  # the Pi's path: smbus2's bus, here with the model of a panel behind it
    import smbus2
    from drivers.oled_model import Bus, Panel
    panel = Panel("sh1106", upside_down=True)
    smbus2.SMBus = lambda port: Bus(panel)
greeted = cli._first_screen(config, sim=config is None, notifier=Notifier(""))
shown = (panel if config is not None else greeted.bus.panels[0x3C]).visible()
print(shown.hex())
print(" ".join(sorted(m for m in sys.modules if m.startswith(HEAVY))))
"""


@pytest.mark.parametrize("real", [False, True])
def test_the_first_frame_is_sent_before_pillow_luma_logging_or_the_config_classes_load(tmp_path: Path,
                                                                                       real: bool) -> None:
    """On a Pi core, Pillow alone takes 0.7 s and luma's device 0.9 s; logging and dataclasses 0.17 s each.
    Which modules are loaded when "Startet…" is on the panel is what keeps it under a second."""
    config = config_file(tmp_path, 'kind = "sh1106"\nrotate = 2') if real else "-"
    out = subprocess.run([sys.executable, "-c", f"HEAVY = {HEAVY!r}\n" + FIRST_FRAME, str(config)], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=60).stdout.splitlines()
    assert out[0] == render(FIRST).tobytes().hex()
    assert out[1:] == [""], out[1:]


def test_the_status_says_startet_as_the_frame_is_on_the_panel(tmp_path: Path) -> None:
    said = Said()
    greeted = cli._first_screen(None, sim=True, notifier=said)
    assert said.told == ["Startet…"] and greeted.bus.panels[0x3C].visible() == render(FIRST).tobytes()
