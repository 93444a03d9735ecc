"""systemd/install.sh: installs that are reproducible and atomic, and that repeat nothing.

Against a scratch root (``--root``), as tests/test_service.py does; the real run is tests/test_boot.py.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from fake_nmcli import PERMISSIONS
from install_helpers import BOOKWORM, TRIXIE, install, run_install
from polkit_model import answers

from device.daemon.hotspot import POLKIT_ACTIONS

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "systemd" / "requirements.lock"


def dpkg_status(root: Path, *packages: str) -> None:
    """The root's dpkg database, with these packages installed."""
    status = root / "var/lib/dpkg/status"
    status.parent.mkdir(parents=True, exist_ok=True)
    status.write_text("".join(f"Package: {p}\nStatus: install ok installed\nArchitecture: all\nVersion: 1\n\n"
                              for p in packages))


def test_apt_is_updated_only_when_something_is_missing(tmp_path: Path) -> None:
    """Every run repeated `apt-get update` (5.5 min per image build under emulation)."""
    dpkg_status(tmp_path, "python3-venv", "python3-lgpio", "sqlite3")
    out = install(tmp_path, system=TRIXIE)
    assert "apt-get" not in out and "= Debian packages installed already: python3-venv python3-lgpio sqlite3" in out
    dpkg_status(tmp_path, "python3-venv", "python3-lgpio")
    out = install(tmp_path, system=TRIXIE)
    assert "+ apt-get update" in out and "+ apt-get install -y --no-install-recommends sqlite3" in out


def test_the_runtime_is_installed_from_the_lock_with_hashes(tmp_path: Path) -> None:
    out = install(tmp_path)
    assert "+ /opt/bankleser/releases/1/venv/bin/pip install --require-hashes -r " \
           "/opt/bankleser/releases/1/src/systemd/requirements.lock" in out
    assert "--upgrade" not in out
    assert "+ /opt/bankleser/releases/1/venv/bin/pip install --no-deps /opt/bankleser/releases/1/src" in out


def test_the_lock_pins_every_dependency_of_pyproject_with_hashes() -> None:
    """A dependency added to pyproject.toml without refreshing the lock (systemd/lock.sh) fails here."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins = {canonicalize_name(m[0]): m[1] for m in re.findall(r"^([A-Za-z0-9._-]+)==(\S+) \\$", LOCK.read_text(),
                                                              re.M)}
    hashes = re.split(r"^[A-Za-z0-9._-]+==", LOCK.read_text(), flags=re.M)[1:]
    assert pins and all("--hash=sha256:" in block for block in hashes)
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for dep in map(Requirement, deps):
        name = canonicalize_name(dep.name)
        assert name in pins, f"{dep} is not in {LOCK.name}: run systemd/lock.sh"
        assert dep.specifier.contains(pins[name], prereleases=True), f"{dep}: the lock has {pins[name]}"
    lgpio = (ROOT / "systemd" / "lgpio.lock").read_text()
    assert re.search(r"^lgpio==\S+ \\$", lgpio, re.M) and "--hash=sha256:" in lgpio


def test_a_failed_update_leaves_the_installed_version_as_it_was(tmp_path: Path) -> None:
    """Build the new release beside the old one, switch only when it is complete: here the copy fails
    half-way (a full SD card), and the old release stays current, whole, the incomplete one removed."""
    root = tmp_path / "root"
    install(root)
    opt = root / "opt/bankleser"
    assert os.readlink(opt / "current") == "releases/1" and (opt / "venv").resolve() == opt / "releases/1/venv"
    before = {p: p.read_bytes() for p in (opt / "releases/1").rglob("*") if p.is_file()}
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "tar").write_text('#!/bin/sh\ncase "$*" in *-xf*) echo "tar: write error: No space left on device" >&2;'
                              ' exit 2 ;; esac\nexec /usr/bin/tar "$@"\n')
    (fake / "tar").chmod(0o755)
    result = run_install(root, check=False, extra_env={"PATH": f"{fake}:{os.environ['PATH']}"})
    assert result.returncode != 0
    assert "the installed version is unchanged" in result.stderr
    assert os.readlink(opt / "current") == "releases/1" and not (opt / "releases/2").exists()
    assert {p: p.read_bytes() for p in (opt / "releases/1").rglob("*") if p.is_file()} == before
    out = install(root)  # the next update goes through, and keeps the release it replaced
    assert os.readlink(opt / "current") == "releases/2" and os.readlink(opt / "previous") == "releases/1"
    assert "+ systemctl restart bankleser.service" in out
    install(root)
    assert sorted(p.name for p in (opt / "releases").iterdir()) == ["2", "3"]


def test_an_installation_from_before_releases_is_taken_over(tmp_path: Path) -> None:
    old = tmp_path / "opt/bankleser"
    (old / "venv/bin").mkdir(parents=True)
    (old / "src").mkdir()
    install(tmp_path)
    assert (old / "venv").is_symlink() and os.readlink(old / "venv") == "current/venv"
    assert (old / "src/pyproject.toml").exists() and not (old / "venv.old").exists()


def test_a_second_uninstall_prints_no_removal_it_does_not_make(tmp_path: Path) -> None:
    root = tmp_path / "root"
    install(root, system={**BOOKWORM, "lgpio": "0"})  # plain Debian: with the udev rule
    first = install(root, "--uninstall", "--purge")
    assert "+ rm -f " in first and "60-bankleser.rules" in first and "+ udevadm control --reload-rules" in first
    second = install(root, "--uninstall", "--purge")
    assert [line for line in second.splitlines() if line.startswith("+ ")] == []
    assert "= bankleser.service is not installed" in second


def test_the_service_may_open_its_own_wifi_and_nothing_more_and_uninstall_takes_that_back(tmp_path: Path) -> None:
    """On plain Debian NetworkManager refused the hotspot to the service's user ("Not authorized to control
    networking"): no rule allowed it, and there was no polkitd to ask. The rule written is run as polkitd
    runs it: the service's user gets exactly the hotspot's actions; polkitd comes where NetworkManager is."""
    root = tmp_path / "root"
    dpkg_status(root, "python3-venv", "python3-lgpio", "sqlite3", "network-manager")
    out = install(root, system=TRIXIE)
    assert "+ apt-get install -y --no-install-recommends polkitd" in out
    rule = root / "etc/polkit-1/rules.d/60-bankleser.rules"
    granted = answers([rule], "bankleser", PERMISSIONS)
    assert sorted(a for a, v in granted.items() if v == "yes") == sorted(POLKIT_ACTIONS)
    assert oct(rule.stat().st_mode & 0o777) == "0o644"
    dpkg_status(root, "python3-venv", "python3-lgpio", "sqlite3", "network-manager", "polkitd")
    assert "apt-get" not in install(root, system=TRIXIE)
    install(root, "--uninstall")
    assert not rule.exists()
    second = install(root, "--uninstall")
    assert [line for line in second.splitlines() if line.startswith("+ ")] == []
    bare = tmp_path / "no-networkmanager"  # nothing to ask polkit: no polkitd pulled in for nothing
    dpkg_status(bare, "python3-venv", "python3-lgpio", "sqlite3")
    assert "polkitd" not in install(bare, system=TRIXIE)


def test_uninstall_gives_the_devices_back_at_once(tmp_path: Path) -> None:
    """Reloading udev's rules changes no device: /dev/gpiochip0 stayed in group gpio until the next boot."""
    root = tmp_path / "root"
    install(root, system={**BOOKWORM, "lgpio": "0"})  # plain Debian: with the udev rule
    out = install(root, "--uninstall").splitlines()
    reload = out.index("+ udevadm control --reload-rules")
    assert out[reload + 1].startswith("+ udevadm trigger") and "--subsystem-match=gpio" in out[reload + 1]


def test_purge_removes_the_groups_it_made_and_only_those(tmp_path: Path) -> None:
    """Plain Debian has no gpio, spi, i2c groups: install.sh made them and --purge left them behind. A group the
    system had (Raspberry Pi OS's gpio) is not the installer's to remove."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/group").write_text("root:x:0:\ngpio:x:997:pi\n")
    out = install(root)
    assert "+ groupadd --system spi" in out and "+ groupadd --system i2c" in out and "groupadd --system gpio" not in out
    install(root)  # an update: the same groups noted, none twice
    purged = install(root, "--uninstall", "--purge")
    assert sorted(line for line in purged.splitlines() if "groupdel" in line) == ["+ groupdel i2c", "+ groupdel spi"]
    kept = tmp_path / "kept"
    install(kept)
    assert "groupdel" not in install(kept, "--uninstall")  # the journal and config kept: the groups too


def test_the_build_tools_go_with_all_they_brought_and_apts_downloads_too(tmp_path: Path) -> None:
    """`apt-get purge --auto-remove` kept eleven packages other packages recommend (binutils, libjs-*: 33 MB), and
    the 45 downloaded .deb files (59 MB) stayed in the image. Purged by name, then `apt-get clean`."""
    out = install(tmp_path / "plain", "--dry-run", system={**TRIXIE, "lgpio": "0"}).splitlines()
    purge = next(line for line in out if line.startswith("+ apt-get purge"))
    assert "--auto-remove" not in purge and {"gcc", "swig", "python3-dev"} <= set(purge.split())
    assert out.index(purge) < out.index("+ apt-get clean")
    root = tmp_path / "nothing-missing"
    dpkg_status(root, "python3-venv", "python3-lgpio", "sqlite3")
    assert "apt-get clean" not in install(root, system=TRIXIE)  # nothing fetched, nothing to clean
