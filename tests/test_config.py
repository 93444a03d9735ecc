"""config.toml: a wrong value is a configuration error, named with its key and what is allowed.

`bankleser run --config FILE` exits 78 (EX_CONFIG, the unit's RestartPreventExitStatus: no restart loop)
and says every wrong key at once; it never starts with a wrong value and reports it as a wiring problem.
Also the display's sleep (`[ui] sleep_after`) and the page's address with its reason.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from device.daemon.config import BankerConfig, Config, HotspotConfig, UiConfig, WebConfig, listen_address
from drivers.hardware import BuzzerConfig, DisplayConfig, EncoderConfig, KeypadConfig, LedConfig, ReaderConfig
from drivers.tables import ConfigError

ROOT = Path(__file__).resolve().parent.parent
EX_CONFIG = 78


def run(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    """`bankleser run --config FILE` as the unit starts it (off a Pi: the parts as the file says)."""
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "device.daemon.cli", "run", "--config", str(config),
                           "--state-dir", str(tmp_path / "state"), "--port", "0"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


MISTAKES = {
    "a word the key does not know": ('[hardware.display]\nkind = "ssd1360"\n',
                                     '[hardware.display] kind = "ssd1360": erlaubt "ssd1306", "sh1106" oder "sim"'),
    "a pin the header does not have": ("[hardware.led]\npin = 40\n",
                                       "[hardware.led] pin = 40: GPIO40 gibt es auf der Stiftleiste nicht – "
                                       "erlaubt ist eine BCM-Nummer von 2 bis 27"),
    "a pin in a list": ("[hardware.keypad]\nrows = [5, 6, 13, 28]\n",
                        "[hardware.keypad] rows[3] = 28: GPIO28 gibt es auf der Stiftleiste nicht"),
    "the ID EEPROM's pin": ("[hardware.encoder]\nbutton = 1\n",
                            "[hardware.encoder] button = 1: GPIO1 ist für das ID-EEPROM (ID_SC) reserviert"),
    "a rotation the layout cannot do": ("[hardware.display]\nrotate = 1\n",
                                        "[hardware.display] rotate = 1: nur 0 oder 2"),
    "a wrong type": ('[hardware.buzzer]\npin = "18"\n',
                     '[hardware.buzzer] pin = "18": eine BCM-Nummer von 2 bis 27'),
    "an unknown key": ("[hardware.display]\nadress = 0x3D\n",
                       "[hardware.display] adress: unbekannter Schlüssel – bekannt sind kind, i2c_port, address, "
                       "rotate, contrast"),
    "an unknown table": ('[hardware.displai]\nkind = "sim"\n', "[hardware.displai]: unbekannter Abschnitt"),
    "a pin used twice": ("[hardware.led]\npin = 18\n",
                         "[hardware.led] pin = 18: GPIO18 ist schon belegt ([hardware.buzzer] pin)"),
    "a pin on the reader's bus": ("[hardware.led]\npin = 10\n",
                                  "[hardware.led] pin = 10: GPIO10 ist schon belegt (SPI0 (MOSI))"),
    "a value out of range": ("[ui]\nsleep_after = 5\n",
                             "[ui] sleep_after = 5: Sekunden ohne Eingabe, bis das Display ausgeht: 10 bis 3600"),
    "an address that is none": ('[web]\nhost = "alle"\n', '[web] host = "alle": eine IP-Adresse'),
    "a PIN the keypad cannot type": ('[banker]\npin = "12"\n', '[banker] pin = "12": die Banker-PIN: 4 bis 8'),
    "a receiver gain the chip has not": ("[hardware.reader]\nrx_gain_db = 40\n",
                                         "[hardware.reader] rx_gain_db = 40: erlaubt 18, 23, 33, 38, 43 oder 48"),
}


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_a_wrong_value_stops_the_start_with_exit_78_naming_the_key(tmp_path: Path, mistake: str) -> None:
    """`kind = "ssd1360"`, a pin that does not exist … started the service, reported as wiring."""
    text, said = MISTAKES[mistake]
    done = run(tmp_path, text)
    assert done.returncode == EX_CONFIG, done.stdout + done.stderr
    assert said in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert not (tmp_path / "state").exists()  # nothing started


def test_every_mistake_in_the_file_is_named_at_once(tmp_path: Path) -> None:
    done = run(tmp_path, '[hardware.display]\nkind = "ssd1360"\nrotate = 3\n[hardware.led]\npin = 40\n'
                         '[web]\nport = "x"\n[ui]\nsleep_after = 0\n')
    assert done.returncode == EX_CONFIG
    for key in ("[hardware.display] kind", "[hardware.display] rotate", "[hardware.led] pin", "[web] port",
                "[ui] sleep_after"):
        assert key in done.stderr


def test_the_shipped_file_is_valid_and_its_values_are_the_defaults() -> None:
    shipped = Config.load(ROOT / "systemd" / "config.toml")
    assert shipped.ui == UiConfig() and shipped.hotspot == HotspotConfig() and shipped.host is None


TABLES: dict[str, type[msgspec.Struct]] = {
    "hardware.display": DisplayConfig, "hardware.keypad": KeypadConfig, "hardware.encoder": EncoderConfig,
    "hardware.buzzer": BuzzerConfig, "hardware.led": LedConfig, "hardware.reader": ReaderConfig,
    "web": WebConfig, "banker": BankerConfig, "hotspot": HotspotConfig, "ui": UiConfig}
VALUES = st.one_of(
    st.integers(-2**63, 2**63 - 1), st.integers(-3, 70), st.floats(), st.booleans(), st.text(max_size=40),
    st.lists(st.integers(-3, 40), max_size=9), st.lists(st.lists(st.sampled_from(["1", "C", "X", ""]), max_size=5),
                                                         max_size=5), st.dictionaries(st.text(max_size=3), st.integers()))


@st.composite
def one_value(draw: st.DrawFn) -> tuple[str, str, Any]:
    table = draw(st.sampled_from(sorted(TABLES)))
    key = draw(st.sampled_from(TABLES[table].__struct_fields__))
    return table, key, draw(VALUES)


def nested(table: str, key: str, value: Any) -> dict[str, Any]:
    data: dict[str, Any] = {key: value}
    for part in reversed(table.split(".")):
        data = {part: data}
    return data


@settings(max_examples=examples(300), deadline=None)
@given(one_value())
def test_any_single_value_is_taken_or_named_never_a_traceback(case: tuple[str, str, Any]) -> None:
    """Property: one key set to anything TOML can hold either loads, or is a configuration error whose lines
    name that key in its table (a GPIO it takes from another part names both keys)."""
    table, key, value = case
    try:
        Config.from_dict(nested(table, key, value))
    except ConfigError as err:
        assert err.problems and all(f"[{table}]" in line for line in err.problems), err.problems
        assert any(key in line for line in err.problems), err.problems


def test_the_displays_sleep_is_the_configured_time(tmp_path: Path) -> None:
    """`[ui] sleep_after` was never read; the display always slept after a minute."""
    from device.daemon.notify import Notifier
    from device.daemon.service import Daemon

    config = tmp_path / "config.toml"
    config.write_text("[ui]\nsleep_after = 300\n", encoding="utf-8")
    daemon = Daemon(Config.load(config), tmp_path / "state", sim=True, host="127.0.0.1", port=0,
                    notifier=Notifier(""))
    daemon.start(web=False)
    try:
        ui, display = daemon.banker, daemon.hardware.display if daemon.hardware else None
        assert ui is not None and display is not None
        now = [0.0]
        ui.clock = lambda: now[0]
        ui.wake()
        now[0] = 299.0
        ui.tick()  # a minute is long gone: the default would sleep here
        assert not ui.asleep and not display.asleep
        now[0] = 300.0
        ui.tick()
        assert ui.asleep and display.asleep
    finally:
        daemon.close()


@pytest.mark.parametrize(("flag", "configured", "sim", "on_pi", "host", "why"), [
    (None, None, False, False, "127.0.0.1", 'kein Raspberry Pi: nur lokal; host = "0.0.0.0" in [web] öffnet sie'),
    (None, None, False, True, "0.0.0.0", "Raspberry Pi: alle Schnittstellen"),
    (None, "0.0.0.0", False, False, "0.0.0.0", 'host = "0.0.0.0" in [web]'),
    (None, "0.0.0.0", True, True, "127.0.0.1", 'Simulation: das virtuelle Gerät bedient jeder ohne PIN, darum nur '
                                               'lokal; host = "0.0.0.0" in [web] gilt nicht in der Simulation'),
    ("192.0.2.7", "0.0.0.0", True, False, "192.0.2.7", "--host"),
])
def test_the_page_address_comes_with_its_reason(flag: str | None, configured: str | None, sim: bool, on_pi: bool,
                                                host: str, why: str) -> None:
    """Config.toml spoke of all interfaces while the page was on 127.0.0.1 off a Pi, unexplained."""
    got, reason = listen_address(flag=flag, configured=configured, sim=sim, on_pi=on_pi)
    assert got == host and reason.startswith(why)


def test_the_start_logs_the_address_in_force_and_why(tmp_path: Path) -> None:
    """Off a Pi, the service's way (a config file, no --sim): the log says 127.0.0.1 and why."""
    import signal
    import socket

    with socket.socket() as probe:  # a free port (--port 0 is the config's port, as no port was given)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "config.toml"
    config.write_text("".join(f'[hardware.{part}]\nkind = "sim"\n' for part in
                              ("display", "keypad", "encoder", "buzzer", "led", "reader")), encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "device.daemon.cli", "run", "--config", str(config),
                             "--state-dir", str(tmp_path / "state"), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        line = next(line for line in proc.stdout if "Statusseite auf" in line or "Traceback" in line)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    assert line.strip().endswith(f'Statusseite auf 127.0.0.1:{port} (kein Raspberry Pi: nur lokal; host = "0.0.0.0" in '
                                 "[web] öffnet sie für alle)")
