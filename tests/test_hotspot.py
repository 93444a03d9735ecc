"""A table without a router: no known network within a short time, and the appliance opens its
own Wi-Fi through NetworkManager, with a password made once and kept. Tested against a strict fake
``nmcli`` on PATH that keeps the network's state (its active connections, the hotspot it runs): the tests
assert the network the appliance leaves behind, not the words it used to get there."""

from __future__ import annotations

import json
import logging
import stat
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from fake_nmcli import PERMISSIONS
from polkit_model import answers

import device.daemon.hotspot as hotspot_module
import words
from device.daemon.config import Config, HotspotConfig
from device.daemon.hotspot import CONNECTION, Hotspot, start_hotspot, stored_password, wifi_qr_payload

FAKE = Path(__file__).parent / "fake_nmcli.py"
RULE = Path(__file__).parent.parent / "systemd" / "polkit.rules"


def installed_permissions() -> dict[str, str]:
    """What polkit answers the service's user once install.sh has written its rule."""
    return answers([RULE], "bankleser", PERMISSIONS)


class Network:
    """The fake nmcli on PATH, its network state and its log of calls."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        self.nmcli = bin_dir / "nmcli"
        self.nmcli.write_text(f"#!{sys.executable}\n" + FAKE.read_text(encoding="utf-8"), encoding="utf-8")
        self.nmcli.chmod(0o755)
        self.state = tmp_path / "nm.json"
        self.log = tmp_path / "nmcli.log"
        self.log.write_text("")
        self.write({"devices": {"wlan0": {"type": "wifi"}, "eth0": {"type": "ethernet"}},
                    "active": [["lo", "loopback", "lo", "activated"]], "polkit": installed_permissions()})
        monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
        monkeypatch.setenv("FAKE_NMCLI_STATE", str(self.state))
        monkeypatch.setenv("FAKE_NMCLI_LOG", str(self.log))
        monkeypatch.setattr(hotspot_module, "POLL", 0.01)

    def write(self, data: dict[str, Any]) -> None:
        self.state.write_text(json.dumps(data), encoding="utf-8")

    def read(self) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(self.state.read_text(encoding="utf-8"))
        return result

    def hotspot(self) -> dict[str, str] | None:
        """The hotspot NetworkManager runs (its settings), or None."""
        found: dict[str, str] | None = self.read().get("hotspot")
        return found

    def up(self, name: str) -> bool:
        """A connection of that name is active."""
        return any(a[0] == name and a[3] == "activated" for a in self.read()["active"])


@pytest.fixture
def net(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Network:
    return Network(tmp_path, monkeypatch)


def watch(net: Network, state_dir: Path, wait: float = 0.2, **cfg: Any) -> tuple[Hotspot, list[str]]:
    changes: list[str] = []
    spot = Hotspot(HotspotConfig(wait=wait, **cfg), state_dir, str(net.nmcli))
    spot.watch(threading.Event(), on_change=lambda: changes.append(spot.state))
    return spot, changes


def test_no_known_network_opens_our_own_wifi_with_a_kept_password(net: Network, tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    spot, changes = watch(net, state_dir)
    assert spot.state == "open" and changes == ["open"]
    password = (state_dir / "hotspot-password").read_text().strip()
    assert net.hotspot() == {"ifname": "wlan0", "con-name": CONNECTION, "ssid": "Bankleser", "band": "bg",
                             "password": password}
    assert net.up(CONNECTION) and net.read()["devices"]["wlan0"]["ip4"] == ["10.42.0.1/24"]
    assert stat.S_IMODE((state_dir / "hotspot-password").stat().st_mode) == 0o600
    assert len(password) == 12 and password.isalnum()
    assert spot.address == "10.42.0.1"
    info = spot.join_info()
    assert info is not None and info.ssid == "Bankleser" and info.password == password
    assert info.wifi_qr == f"WIFI:S:Bankleser;T:WPA;P:{password};;"


def test_the_password_is_made_once(tmp_path: Path) -> None:
    first = stored_password(tmp_path)
    assert stored_password(tmp_path) == first
    (tmp_path / "hotspot-password").chmod(0o644)  # a restored backup with loose permissions
    assert stored_password(tmp_path) == first
    assert stat.S_IMODE((tmp_path / "hotspot-password").stat().st_mode) == 0o600
    assert stored_password(tmp_path / "elsewhere") != first


def test_a_known_wifi_already_up_means_no_hotspot(net: Network, tmp_path: Path) -> None:
    net.write({**net.read(), "active": [["Zuhause", "802-11-wireless", "wlan0", "activated"]]})
    spot, changes = watch(net, tmp_path)
    assert spot.state == "network" and changes == [] and net.hotspot() is None and net.up("Zuhause")
    assert spot.join_info() is None and not (tmp_path / "hotspot-password").exists()


def test_a_known_wifi_coming_up_in_time_means_no_hotspot(net: Network, tmp_path: Path) -> None:
    net.write({**net.read(), "known_after": 3})
    spot, _ = watch(net, tmp_path, wait=30)
    assert spot.state == "network" and net.hotspot() is None
    assert net.read()["known_after"] is None and net.up("Zuhause")  # it looked until the house's Wi-Fi came up


def test_networkmanager_starting_after_the_appliance_is_waited_for(net: Network, tmp_path: Path) -> None:
    """The unit is ordered after no network service: at power-on the appliance may ask before NetworkManager
    runs. That is no failure: it keeps looking until the wait is over, then opens its own Wi-Fi."""
    net.write({**net.read(), "starts_after": 3})
    spot, changes = watch(net, tmp_path, wait=30)
    assert spot.state == "open" and changes == ["open"] and net.hotspot() is not None


def test_networkmanager_never_running_is_said_once_the_wait_is_over(net: Network, tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    net.write({**net.read(), "starts_after": 10**6})
    spot, changes = watch(net, tmp_path)
    assert spot.state == "failed" and changes == ["failed"]
    assert "NetworkManager is not running" in caplog.text


def test_a_cable_to_the_router_counts_and_names_with_colons_are_read_whole(net: Network, tmp_path: Path) -> None:
    net.write({**net.read(), "active": [["Oma: Kabel\\1", "802-3-ethernet", "eth0", "activated"]]})
    spot, _ = watch(net, tmp_path)
    assert spot.state == "network"


def test_a_wifi_still_connecting_is_not_up_yet(net: Network, tmp_path: Path) -> None:
    net.write({**net.read(), "active": [["Zuhause", "802-11-wireless", "wlan0", "activating"]]})
    spot, _ = watch(net, tmp_path)
    assert spot.state == "open"


def test_after_a_restart_our_open_wifi_is_found_again(net: Network, tmp_path: Path) -> None:
    watch(net, tmp_path)
    running = net.read()
    del running["hotspot"]  # what the restart must not do again: activate a hotspot
    net.write(running)
    spot, _ = watch(net, tmp_path)
    assert spot.state == "open" and spot.address == "10.42.0.1" and net.hotspot() is None and net.up(CONNECTION)


def test_a_failing_nmcli_is_said_and_the_appliance_plays_on(net: Network, tmp_path: Path,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    net.write({**net.read(), "fail": True})
    spot, changes = watch(net, tmp_path)
    assert spot.state == "failed" and changes == ["failed"] and spot.join_info() is None
    assert "No suitable device" in caplog.text


def test_without_the_polkit_rule_networkmanager_refuses_and_the_log_says_the_fix(
        net: Network, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On plain Debian the service's user (no login session) may not add or activate a connection: NetworkManager
    refused the hotspot, the log said only nmcli's words, and nobody knew the cure."""
    said: list[tuple[str, dict[str, object]]] = []

    def text(key: str, **values: object) -> str:
        said.append((key, values))
        return key

    monkeypatch.setattr(hotspot_module, "text", text)
    for granted in ({}, {a: "yes" for a in hotspot_module.POLKIT_ACTIONS[:2]}, {a: "auth" for a in PERMISSIONS}):
        net.write({**net.read(), "polkit": granted})
        said.clear()
        spot, changes = watch(net, tmp_path)
        assert spot.state == "failed" and changes == ["failed"] and net.hotspot() is None
        [(key, values)] = said
        assert key == "service.hotspot.not_authorized", said
        assert "Not authorized" in str(values["error"]) or "Insufficient privileges" in str(values["error"])


def test_the_polkit_rule_grants_the_service_exactly_what_the_hotspot_needs() -> None:
    """Nothing more: no other NetworkManager action, and nothing for anybody else (a user in netdev, root's rule)."""
    granted = installed_permissions()
    assert sorted(a for a, v in granted.items() if v == "yes") == sorted(hotspot_module.POLKIT_ACTIONS)
    assert set(hotspot_module.POLKIT_ACTIONS) <= set(PERMISSIONS)
    for user, groups in (("pi", ["netdev", "sudo"]), ("bankleser2", []), ("root", [])):
        assert set(answers([RULE], user, PERMISSIONS, groups).values()) == {"no"}


def test_odd_names_go_to_nmcli_as_one_argument_never_through_a_shell(net: Network, tmp_path: Path) -> None:
    ssid = 'Bank"; touch pwned; $(id) ;leser'
    spot, _ = watch(net, tmp_path, ssid=ssid)
    assert spot.state == "open"
    assert net.read()["hotspot"]["ssid"] == ssid
    assert not Path("pwned").exists() and not (tmp_path / "pwned").exists()
    info = spot.join_info()
    assert info is not None and info.wifi_qr.startswith('WIFI:S:Bank\\"\\; touch pwned\\; $(id) \\;leser;T:WPA;')


def test_the_qr_payload_escapes_what_the_format_reserves() -> None:
    """The WIFI: format (ZXing's, read by Android and iOS): backslash before \\ ; , : and "."""
    assert wifi_qr_payload('a;b,c:d"e\\f', "pass;word") == 'WIFI:S:a\\;b\\,c\\:d\\"e\\\\f;T:WPA;P:pass\\;word;;'


def test_the_hook_watches_only_on_the_appliance_with_networkmanager(net: Network, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    stop = threading.Event()
    assert start_hotspot(HotspotConfig(wait=0), tmp_path, sim=True, stop=stop, on_change=lambda: None) is None
    assert start_hotspot(HotspotConfig(enabled=False), tmp_path, sim=False, stop=stop, on_change=lambda: None) is None
    opened = threading.Event()
    spot = start_hotspot(HotspotConfig(wait=0.1), tmp_path, sim=False, stop=stop, on_change=opened.set)
    assert spot is not None and opened.wait(10) and spot.state == "open"
    monkeypatch.setenv("PATH", "/nonexistent")
    assert start_hotspot(HotspotConfig(wait=0), tmp_path, sim=False, stop=stop, on_change=lambda: None) is None
    assert net.hotspot() is not None and net.up(CONNECTION)


def test_a_name_too_long_for_a_large_join_code_is_warned_about_at_start(net: Network, tmp_path: Path,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    """The join code is 2 px per module only while its payload fits a version-3 code (23 bytes of name
    with the 12-character password); the config allows 32 (IEEE 802.11), so a longer name is said at start, where
    the one who set it reads the log, not at the holiday flat."""
    stop = threading.Event()
    try:
        with caplog.at_level(logging.WARNING, logger=hotspot_module.__name__):
            assert start_hotspot(HotspotConfig(wait=60), tmp_path, sim=False, stop=stop, on_change=lambda: None)
            assert caplog.records == []
            long = "Ferienwohnung-Sonnenhang-Haus-12"
            assert start_hotspot(HotspotConfig(wait=60, ssid=long), tmp_path, sim=False, stop=stop,
                                 on_change=lambda: None)
        assert [r.getMessage() for r in caplog.records] == [
            f"hotspot.ssid {long!r} hat 32 Bytes: der QR-Code zum Beitreten auf dem OLED wird mit 1 Pixel je Modul "
            "gezeichnet, so lesen ihn viele Handykameras nicht; ein Name mit bis zu 23 Bytes hält ihn bei 2"]
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger=hotspot_module.__name__), words.speaking("en"):
            assert start_hotspot(HotspotConfig(wait=60, ssid=long), tmp_path, sim=False, stop=stop,
                                 on_change=lambda: None)
        assert [r.getMessage() for r in caplog.records] == [
            f"hotspot.ssid {long!r} is 32 bytes: the OLED's QR code to join is drawn at 1 pixel per module, which "
            "many phone cameras cannot read; a name of up to 23 bytes keeps it at 2"]
    finally:
        stop.set()


def test_the_config_file_sets_the_wait_and_refuses_what_cannot_work(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[hotspot]\nwait = 20\nssid = "Monopoly"\n', encoding="utf-8")
    cfg = Config.load(path).hotspot
    assert (cfg.wait, cfg.ssid, cfg.enabled, cfg.interface) == (20.0, "Monopoly", True, "wlan0")
    for bad in ('ssid = ""', f'ssid = "{"x" * 33}"', 'interface = "-x"', "passwort = 1", 'enabled = "ja"'):
        path.write_text(f"[hotspot]\n{bad}\n", encoding="utf-8")
        with pytest.raises(SystemExit):
            Config.load(path)


def test_the_page_address_is_ours_while_our_own_wifi_is_open(tmp_path: Path) -> None:
    """Without a router there is no default route to find our address by: in our own network it is NetworkManager's."""
    from device.daemon.notify import Notifier
    from device.daemon.service import Daemon

    daemon = Daemon(Config(), tmp_path, sim=False, host="0.0.0.0", port=80, notifier=Notifier(""))
    spot = Hotspot(HotspotConfig(), tmp_path, "nmcli")
    daemon.hotspot = spot
    spot.state, spot.address = "open", "10.42.0.1"
    assert daemon.url == "http://10.42.0.1/"
    spot.state = "failed"
    assert daemon.url != "http://10.42.0.1/"


def test_the_running_appliance_watches_for_a_known_network(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The watch starts once the loop runs (after READY: it waits seconds for a router anyway)."""
    from device.daemon.notify import Notifier
    from device.daemon.service import Daemon

    asked: list[tuple[HotspotConfig, Path, bool]] = []
    monkeypatch.setattr(hotspot_module, "start_hotspot",
                        lambda cfg, state_dir, *, sim, stop, on_change: asked.append((cfg, state_dir, sim)))
    config = Config()
    daemon = Daemon(config, tmp_path, sim=True, host="127.0.0.1", port=0, notifier=Notifier(""))
    daemon.start(web=False)
    loop = threading.Thread(target=daemon.run, daemon=True)
    loop.start()
    try:
        for _ in range(100):
            if asked:
                break
            threading.Event().wait(0.05)
        assert asked == [(config.hotspot, tmp_path, True)]
    finally:
        daemon.stop()
        loop.join(5)
        daemon.close()
