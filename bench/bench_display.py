"""How long the loop's ``Display.show()`` takes while the panel's bus is busy (moved here from a
timed assertion in tests/test_display.py).

Run: ``.venv/bin/python -m bench.bench_display``. A frame over I²C takes ~24 ms (400 kHz) to ~93 ms
(100 kHz); the main loop hands a frame over and goes on. Target: eight hand-overs well under 10 ms
together, while the display's thread is still sending the first frame.
"""

from __future__ import annotations

import statistics
import threading
import time

from luma.core.device import dummy
from PIL import Image

from drivers.display import Display
from drivers.panel import HEIGHT, WIDTH
from drivers.screen import Screen


class BusyPanel(dummy):
    """luma's dummy device behind a bus that is busy until ``release`` is set."""

    def __init__(self) -> None:
        super().__init__(width=WIDTH, height=HEIGHT, mode="1")
        self.sending = threading.Event()
        self.release = threading.Event()

    def display(self, image: Image.Image) -> None:
        self.sending.set()
        self.release.wait(5)
        super().display(image)


def hand_over(frames: int = 8) -> float:
    """Seconds for ``frames`` show() calls while the first frame is still on the bus."""
    panel = BusyPanel()
    with Display(panel) as display:
        display.show(Screen(big="0"))
        panel.sending.wait(5)
        started = time.perf_counter()
        for n in range(1, frames + 1):
            display.show(Screen(big=str(n)))
        took = time.perf_counter() - started
        panel.release.set()
        display.flush()
    return took


def main(rounds: int = 50) -> None:
    runs = sorted(hand_over() for _ in range(rounds))
    print(f"8 × show() while the bus is busy: median {statistics.median(runs) * 1e3:.3f} ms, "
          f"worst {runs[-1] * 1e3:.3f} ms (target < 10 ms)")


if __name__ == "__main__":
    main()
