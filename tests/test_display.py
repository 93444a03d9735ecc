"""The OLED: a screen model in, a crisp 1-bit frame out (luma's dummy device)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from drivers.display import HEIGHT, WIDTH, Display, SimDisplay, render
from drivers.screen import Screen

GOLDEN = Path(__file__).parent / "golden"
BALANCE = Screen(title="Anna #1", big="14.5M", lines=("Haben: 500K", "Gefängnis frei: 1"), icons="≈")
IDLE = Screen(title="Bankleser", big="Bereit", lines=("192.168.1.20", "Standard"), qr="http://192.168.1.20:8080/")


def test_frames_are_128x64_and_strictly_one_bit() -> None:
    img = render(BALANCE)
    assert (img.size, img.mode) == ((WIDTH, HEIGHT), "1")
    assert set(img.convert("L").tobytes()) == {0, 255}


def test_title_bar_is_drawn_inverted() -> None:
    img = render(Screen(title="Anna"))
    assert img.getpixel((0, 0)) and img.getpixel((WIDTH - 1, 12))  # lit bar
    assert not img.getpixel((0, 20))


def test_frames_match_the_golden_images() -> None:
    """Golden frames were checked by eye; a change in drawing must be looked at again."""
    for name, screen in (("balance", BALANCE), ("idle", IDLE)):
        golden = Image.open(GOLDEN / f"{name}.png").convert("1")
        assert ImageChops.difference(render(screen).convert("L"), golden.convert("L")).getbbox() is None, name


def test_a_long_verdict_shrinks_to_fit_instead_of_being_cut() -> None:
    img = render(Screen(big="NICHT GLEICHMÄSSIG"))
    bbox = img.getbbox()
    assert bbox is not None and bbox[2] <= WIDTH


def test_qr_code_is_drawn_at_the_right_edge() -> None:
    img = render(IDLE)
    right = img.crop((WIDTH - 54, HEIGHT - 54, WIDTH, HEIGHT))
    dark = right.convert("L").tobytes().count(0)
    assert 0.2 < dark / (54 * 54) < 0.8  # a real pattern of modules, neither blank nor solid


def test_sim_display_keeps_every_frame_and_tells_subscribers() -> None:
    display = SimDisplay()
    seen: list[str] = []
    unsubscribe = display.subscribe(lambda frame: seen.append(frame.text))
    display.show(Screen(title="A", big="1M"))
    display.show(BALANCE)
    unsubscribe()
    display.show(Screen(big="x"))
    assert [f.seq for f in display.frames] == [1, 2, 3]
    assert seen == ["A\n1M", BALANCE.text()]
    assert display.image is not None and display.image.tobytes() == render(Screen(big="x")).tobytes()
    assert display.wait_for(2, timeout=0) is display.last


def test_sleep_dims_and_hides_wake_restores() -> None:
    calls: list[str] = []

    class Panel:
        persist = False

        def display(self, image: object) -> None: calls.append("display")
        def contrast(self, level: int) -> None: calls.append(f"contrast {level}")
        def hide(self) -> None: calls.append("hide")
        def show(self) -> None: calls.append("show")
        def cleanup(self) -> None: calls.append("cleanup")

    panel = Panel()
    with Display(panel) as display:
        display.sleep()
        display.sleep()
        display.wake()
    assert calls == ["contrast 16", "hide", "show", "contrast 207", "cleanup"]


def test_close_keeps_the_last_screen_and_is_idempotent() -> None:
    display = SimDisplay()
    display.close(Screen(big="Aus"))
    display.close()
    assert display.last is not None and display.last.text == "Aus"
    assert display._device.persist  # luma leaves the panel on with the last screen
