"""Run by the arm64 root's own Python under emulation (tests/test_arm64.py).

What only the Pi's architecture can answer, after the install: every module of Bankleser and of the locked
runtime imports (Pillow's, msgspec's, MarkupSafe's, cbor2's and lgpio's compiled parts are aarch64 code),
the daemon says READY with the simulated parts, and a page answers. Standard library only: it runs in the
installed virtual environment, which holds nothing else. Prints ``key=value`` lines; exits 1 on a failure.

    python arm64_inside.py imports
    python arm64_inside.py daemon BANKLESER_EXECUTABLE
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

PACKAGES = ("rules", "drivers", "device", "webui", "shapes", "words")
LIBRARIES = ("a2wsgi", "blinker", "cbor2", "click", "colorzero", "flask", "gpiozero", "gpiozero.pins.lgpio", "h11",
             "itsdangerous", "jinja2", "lgpio", "luma.core", "luma.oled.device", "markupsafe", "msgspec",
             "PIL.Image", "PIL.ImageDraw", "PIL.ImageFont", "segno", "smbus2", "uvicorn", "werkzeug")
"""The locked runtime by its import names (systemd/requirements.lock and lgpio.lock), the compiled ones first
among what could fail here."""


def imports() -> int:
    began = time.monotonic()
    names = list(LIBRARIES)
    for package in PACKAGES:
        names.append(package)
        module = importlib.import_module(package)
        names += [info.name for info in pkgutil.walk_packages(module.__path__, package + ".")]
    failed = []
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as error:  # every failure is reported, not only the first
            failed.append(f"{name}: {type(error).__name__}: {error}")
    print(f"modules={len(names)}")
    print(f"import_seconds={time.monotonic() - began:.1f}")
    for line in failed:
        print(f"import_failed={line}")
    return 1 if failed else 0


def daemon(executable: str) -> int:
    """``bankleser run --sim`` as systemd would start it: READY by the notify protocol, then the page."""
    work = tempfile.mkdtemp(prefix="bankleser-arm64-")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(os.path.join(work, "notify"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "NOTIFY_SOCKET": os.path.join(work, "notify"), "BANKLESER_BANKER_PIN": "4711"}
    began = time.monotonic()
    proc = subprocess.Popen([executable, "run", "--sim", "--state-dir", os.path.join(work, "state"),
                             "--host", "127.0.0.1", "--port", str(port)], env=env, cwd=work,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    ready = page = None
    try:
        notify.settimeout(1)
        while ready is None and time.monotonic() - began < 600 and proc.poll() is None:
            try:
                if b"READY=1" in notify.recv(4096).split(b"\n"):
                    ready = time.monotonic() - began
            except TimeoutError:
                pass
        while ready is not None and page is None and time.monotonic() - began < 900 and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
                    print(f"page_status={answer.status}")
                    print(f"page_bytes={len(answer.read())}")
                page = time.monotonic() - began
            except OSError:
                time.sleep(0.2)
    finally:
        stop = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        try:
            out = proc.communicate(timeout=120)[0]
        except subprocess.TimeoutExpired:
            proc.kill()
            out = proc.communicate()[0]
    print(f"ready_seconds={'none' if ready is None else f'{ready:.1f}'}")
    print(f"page_seconds={'none' if page is None else f'{page:.1f}'}")
    print(f"stop_seconds={time.monotonic() - stop:.1f}")
    print(f"exit_code={proc.returncode}")
    if ready is None or page is None or proc.returncode != 0:
        sys.stdout.write(out.decode(errors="replace")[-3000:])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(imports() if sys.argv[1] == "imports" else daemon(sys.argv[2]))
