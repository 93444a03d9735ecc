"""Benchmarks of the drivers on this machine, with gpiozero mock pins and the MFRC522 model.

Run: ``.venv/bin/python -m bench.bench_drivers``.
- CPU used by the keypad scan and the reader poll together while idle (target < 2 % of a core).
- Time from a card presented at the chip model to the tap event (target < 50 ms at the default
  poll rate).

Each is measured twice, with the same driver and the same chip model: over gpiozero's mock SPI,
which bit-bangs every bit through mock pins in Python (what the tests use; an upper bound), and
over a transfer-level SPI double (one call per register access, as the Pi's hardware SPI does),
which measures the driver's own work.
"""

from __future__ import annotations

import statistics
import threading
import time

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from drivers.hardware import ReaderConfig
from drivers.keypad import MatrixKeypad, MockKeyMatrix
from drivers.mfrc522_model import Mfrc522Model, RegisterSPI
from drivers.rfid import RfidReader

ROWS, COLS = (5, 6, 13, 19), (12, 16, 20, 21)


def main(idle_seconds: float = 10.0, taps: int = 100) -> None:
    for label, transfer_level in (("gpiozero mock SPI (bit-banged)", False), ("transfer-level SPI", True)):
        print(f"-- {label}")
        run(idle_seconds, taps, transfer_level)


def run(idle_seconds: float, taps: int, transfer_level: bool) -> None:
    factory = MockFactory()
    Device.pin_factory = factory
    chip = Mfrc522Model(pin_factory=factory)
    MockKeyMatrix(factory, ROWS, COLS)
    tapped = threading.Event()
    stamps: list[float] = []

    def on_tap(uid: str) -> None:
        stamps.append(time.perf_counter())
        tapped.set()

    poll = ReaderConfig().poll_interval
    keypad = MatrixKeypad(ROWS, COLS, pin_factory=factory).start()
    spi = RegisterSPI(chip) if transfer_level else None
    reader = RfidReader(pin_factory=factory, poll_interval=poll, on_tap=on_tap, spi=spi).start()
    time.sleep(0.5)  # let the reader initialise

    cpu0, wall0 = time.process_time(), time.perf_counter()
    time.sleep(idle_seconds)
    cpu = (time.process_time() - cpu0) / (time.perf_counter() - wall0) * 100
    print(f"idle CPU, keypad scan + reader poll ({poll * 1000:.0f} ms): {cpu:.2f} % of one core; target < 2 %")

    latencies = []
    for i in range(taps):
        tapped.clear()
        time.sleep(poll * (i % 7) / 7)  # present at every phase of the poll cycle
        t0 = time.perf_counter()
        chip.present(f"04{i:06x}")
        if not tapped.wait(2):
            raise SystemExit("no tap event")
        latencies.append((stamps[-1] - t0) * 1000)
        chip.lift()
        time.sleep(poll * 4)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"card presented → tap event over {taps} taps: median {statistics.median(latencies):.1f} ms, "
          f"p99 {p99:.1f} ms, max {latencies[-1]:.1f} ms; target < 50 ms")
    reader.close()
    keypad.close()
    chip.close()
    factory.reset()


if __name__ == "__main__":
    main()
