"""Start-up on a Pi Zero 2 W: the OLED says "Startet…" before the rest is even imported, and the
web stack loads after READY. The times themselves are measured in bench/bench_pi.py, not asserted here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from notify_socket import NotifySocket

from bench.liveserver import LiveServer

ROOT = Path(__file__).parent.parent

def test_startet_is_said_first_and_the_page_follows_ready(tmp_path: Path) -> None:
    notify = NotifySocket(tmp_path / "notify.sock")
    server = LiveServer(tmp_path / "state", env={"NOTIFY_SOCKET": str(notify.path)}).start()
    try:
        seen = notify.until("READY=1", 20)
        assert seen[0] == "STATUS=Startet…"
        assert server.get("/api/state") is not None  # the web stack, loaded beside the loop after READY
    finally:
        assert server.stop() == 0


BEFORE_READY = """
import sys
from pathlib import Path
from device.daemon.config import Config
from device.daemon.notify import Notifier
from device.daemon.service import Daemon

daemon = Daemon(Config.load(None), Path(sys.argv[1]), sim=True, host="127.0.0.1", port=0, notifier=Notifier(""))
daemon.start(web=False)
daemon.hardware.display.flush()  # drawn by the display's own thread, as on the box
print("segno" in sys.modules, daemon.hardware.display.screen.qr)
daemon.banker.tick()  # the loop's first turn, after READY
daemon.hardware.display.flush()
print("segno" in sys.modules, bool(daemon.hardware.display.screen.qr))
daemon.close()
"""


def test_the_qr_code_and_segno_come_after_ready(tmp_path: Path) -> None:
    """READY within 3 s at a Pi core's pace. segno imports urllib and ssl: the first idle frame is
    drawn without the QR code, which the loop's first tick adds."""
    out = subprocess.run([sys.executable, "-c", BEFORE_READY, str(tmp_path / "state")], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=60).stdout.splitlines()
    assert out == ["False None", "True True"]


def test_the_garbage_collector_is_off_for_the_start_and_on_once_ready(tmp_path: Path) -> None:
    """The start makes objects, not garbage: the cyclic collector would only walk them again and again.
    `bankleser run` turns it off; the loop turns it on at READY (a daemon that never collects would grow)."""
    import gc
    import threading

    from device.daemon.config import Config
    from device.daemon.notify import Notifier
    from device.daemon.service import Daemon

    gc.disable()  # as `bankleser run` leaves it
    try:
        daemon = Daemon(Config(), tmp_path, sim=True, host="127.0.0.1", port=0, notifier=Notifier(""))
        daemon.start(web=False)
        loop = threading.Thread(target=daemon.run, daemon=True)
        loop.start()
        for _ in range(100):
            if gc.isenabled():
                break
            threading.Event().wait(0.05)
        assert gc.isenabled()
        daemon.stop()
        loop.join(5)
        daemon.close()
    finally:
        gc.enable()


DATACLASSES_BEFORE_READY = """
import dataclasses, sys
from pathlib import Path

made = []
process = dataclasses._process_class
def spy(cls, *args):
    made.append(cls.__module__)
    return process(cls, *args)
dataclasses._process_class = spy

from device.daemon.config import Config
from device.daemon.notify import Notifier
from device.daemon.service import Daemon

daemon = Daemon(Config.load(None), Path(sys.argv[1]), sim=True, host="127.0.0.1", port=0, notifier=Notifier(""))
daemon.start(web=False)
daemon.close()
print(" ".join(sorted(set(made))))
"""


def test_the_devices_records_are_not_compiled_at_start(tmp_path: Path) -> None:
    """A dataclass compiles its methods from source at every start (~3.5 M instructions each, ~7 ms on a
    Pi core); a msgspec Struct is built in C. Before READY only rules/ (standard library only) defines dataclasses."""
    out = subprocess.run([sys.executable, "-c", DATACLASSES_BEFORE_READY, str(tmp_path / "state")], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=60).stdout.split()
    assert out, "the spy saw no dataclass at all: dataclasses._process_class is no longer the hook"
    assert [m for m in out if not m.startswith("rules.")] == []


READ_BEFORE_READY = """
import pkgutil, sys
from pathlib import Path

read = []
get_data = pkgutil.get_data
def spy(package, resource):
    read.append(resource)
    return get_data(package, resource)
pkgutil.get_data = spy

from device.daemon.config import Config
from device.daemon.notify import Notifier
from device.daemon.service import Daemon

daemon = Daemon(Config.load(None), Path(sys.argv[1]), sim=True, host="127.0.0.1", port=0, notifier=Notifier(""))
daemon.start(web=False)
print(" ".join(r for r in read if r.endswith(".toml")) or "-", "importlib.metadata" in sys.modules,
      "rules.editions.fileformat" in sys.modules)
from rules import EDITIONS
EDITIONS["classic"]
print(" ".join(r for r in read if r.endswith(".toml")))
daemon.close()
"""


def test_no_shipped_edition_and_no_importlib_metadata_before_ready(tmp_path: Path) -> None:
    """Reading and checking the seven shipped editions cost about 46 M instructions (≈ 0.17 s at a Pi core's pace),
    and gpiozero's import of ``importlib.metadata`` (with email and zipfile) about 27 M, the file format's modules
    (schema, checks, writer) about 4 M; a start needs none of them.
    The editions are read on first use (``rules.EDITIONS``), the classic board's with nothing else."""
    out = subprocess.run([sys.executable, "-c", READ_BEFORE_READY, str(tmp_path / "state")], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=60).stdout.splitlines()
    assert out == ["- False False", "classic.toml"]


OPENSSL_BEFORE_READY = """
import sys
from pathlib import Path
from device.daemon.config import Config
from device.daemon.notify import Notifier
from device.daemon.service import Daemon

daemon = Daemon(Config.load(None), Path(sys.argv[1]), sim=True, host="127.0.0.1", port=0, notifier=Notifier(""))
daemon.start(web=False)
print(" ".join(m for m in ("_hashlib", "hashlib", "hmac", "secrets") if m in sys.modules) or "-")
print(len(daemon.begin_code or ""))
daemon.close()
"""


def test_no_openssl_before_ready(tmp_path: Path) -> None:
    """hashlib, hmac and secrets load OpenSSL's library (about 15 M instructions, ≈ 0.05 s at a Pi core's pace);
    nothing hashes before READY of an empty journal, and the one-time login code shown then is drawn without them."""
    out = subprocess.run([sys.executable, "-c", OPENSSL_BEFORE_READY, str(tmp_path / "state")], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=60).stdout.splitlines()
    assert out == ["-", "6"]


GPIOZERO_RESOURCES = """
import sys
import drivers.gpio
print("importlib.resources" in sys.modules, "importlib_resources" in sys.modules, "importlib_metadata" in sys.modules)
from gpiozero.fonts import load_font_7seg
import gpiozero.boards
with gpiozero.boards.resources.files("gpiozero.fonts").joinpath("7seg.txt").open() as f:
    print(len(load_font_7seg(f)))
"""


def test_gpiozero_reads_its_fonts_without_importlib_resources_at_start() -> None:
    """gpiozero's boards import ``importlib.resources`` (with tempfile, shutil, bz2, lzma: about 12 M instructions)
    only to read a seven-segment display's font: the drivers import gpiozero without it, and the font still reads."""
    out = subprocess.run([sys.executable, "-c", GPIOZERO_RESOURCES], cwd=ROOT, capture_output=True, text=True,
                         check=True, timeout=60).stdout.splitlines()
    assert out[0] == "False False False"
    assert int(out[1]) > 10


SCENES_BEFORE_READY = """
import sys
from pathlib import Path
from device.daemon.config import Config
from device.daemon.notify import Notifier
from device.daemon.service import Daemon

LATER = ("device.scenes.menus", "device.scenes.card", "device.scenes.flows", "device.scenes.wizard")
daemon = Daemon(Config.load(None), Path(sys.argv[1]), sim=True, host="127.0.0.1", port=0, notifier=Notifier(""))
daemon.start(web=False)
print(" ".join(m for m in LATER if m in sys.modules) or "-")
daemon._import_web()  # what the loop starts beside itself at READY
print(" ".join(m for m in LATER if m in sys.modules) or "-")
daemon.close()
"""


def test_the_scenes_a_key_opens_load_beside_the_loop_after_ready(tmp_path: Path) -> None:
    """The idle screen needs none of the menus, the card, the flows or the wizard (about 18 M instructions): they
    are imported in the thread that loads the web stack after READY, before it, so the first key finds them."""
    out = subprocess.run([sys.executable, "-c", SCENES_BEFORE_READY, str(tmp_path / "state")], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=60).stdout.splitlines()
    assert out == ["-", "device.scenes.menus device.scenes.card device.scenes.flows device.scenes.wizard"]
