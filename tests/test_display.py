"""The OLED: a screen model in, a crisp 1-bit frame out (luma's dummy device)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from luma.core.device import dummy
from PIL import Image, ImageChops

import words
from drivers.display import Display, render
from drivers.panel import HEIGHT, WIDTH
from drivers.screen import Screen
from drivers.virtual import recorded_display

GOLDEN = Path(__file__).parent / "golden"
BALANCE = Screen(title="Anna #1", big="14.5M", lines=("Haben: 500K", "Gefängnis frei: 1"), icons="≈")
IDLE = Screen(title="Bankleser", big="Bereit", lines=("192.168.1.20", "Standard"), qr="http://192.168.1.20:8080/")
JOIN = Screen(lines=("WLAN", "beitreten:", "Code", "scannen"), qr="WIFI:S:Bankleser;T:WPA;P:abcdefghjkmn;;")
"""No title, so the network's code takes the panel's height (62 px, 2 px per module)."""


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
    for name, screen in (("balance", BALANCE), ("idle", IDLE), ("join", JOIN)):
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


def test_the_frame_log_keeps_every_frame_the_display_sent() -> None:
    display, frames = recorded_display(threaded=False)
    display.show(Screen(title="A", big="1M"))
    display.show(BALANCE)
    display.show(Screen(big="x"))
    assert [f.seq for f in frames.frames] == [1, 2, 3]
    assert [f.text for f in frames.frames][:2] == ["A\n1M", BALANCE.text()]
    assert frames.last is not None and frames.last.image.tobytes() == render(Screen(big="x")).tobytes()
    assert frames.wait_for(2, timeout=0) is frames.last


class SlowPanel(dummy):
    """luma's dummy device as a panel on a slow bus: every frame takes ``frame_time`` to send,
    and every command is kept in ``calls``."""

    def __init__(self, frame_time: float = 0.0) -> None:
        super().__init__(width=WIDTH, height=HEIGHT, mode="1")
        self.frame_time = frame_time
        self.calls: list[str] = []
        self.frames: list[bytes] = []
        self.sending = threading.Event()
        self.release = threading.Event()
        self.release.set()

    def display(self, image: Image.Image) -> None:
        self.sending.set()
        self.release.wait(5)
        time.sleep(self.frame_time)
        super().display(image)
        self.frames.append(image.tobytes())
        self.calls.append("display")

    def contrast(self, level: int) -> None:
        self.calls.append(f"contrast {level}")

    def hide(self) -> None:
        self.calls.append("hide")

    def show(self) -> None:
        self.calls.append("show")

    def cleanup(self) -> None:
        self.calls.append("cleanup")


def test_sleep_dims_and_hides_wake_restores_the_configured_contrast() -> None:
    """Waking set 0xCF whatever the config said."""
    panel = SlowPanel()
    with Display(panel, contrast=0x40) as display:
        display.sleep()
        assert display.flush()
        display.sleep()
        display.wake()
        assert display.flush()
    assert panel.calls == ["contrast 16", "hide", "show", "contrast 64", "cleanup"]


def test_show_returns_at_once_and_the_newest_frame_wins() -> None:
    """A frame over I²C takes ~24 ms (400 kHz) to ~93 ms (100 kHz); the main loop must not wait."""
    panel = SlowPanel(frame_time=0.024)
    with Display(panel) as display:
        panel.release.clear()
        display.show(Screen(big="1"))
        assert panel.sending.wait(2)  # the thread is busy sending "1", and the bus stays busy until released

        def show_eight() -> None:
            for n in range(2, 10):
                display.show(Screen(big=str(n)))

        caller = threading.Thread(target=show_eight)
        caller.start()
        caller.join(2)  # eight show() calls return while the bus is busy; one that waited for it would still be here
        handed_over = not caller.is_alive()
        panel.release.set()
        caller.join(10)
        assert display.flush()
    assert handed_over  # how fast they return: bench.bench_display measures it
    assert panel.frames == [render(Screen(big=s)).tobytes() for s in ("1", "9")]  # 2…8 dropped


def test_only_rotations_that_work_are_accepted() -> None:
    from drivers.hardware import HardwareConfig
    from drivers.panel import check_rotate

    assert check_rotate(0) == 0 and check_rotate(2) == 2
    for bad in (1, 3, 4):
        with pytest.raises(ValueError, match="nur 0 oder 2"):
            check_rotate(bad)
        with pytest.raises(ValueError, match="nur 0 oder 2"):
            HardwareConfig.from_dict({"display": {"rotate": bad}})


def test_close_keeps_the_last_screen_and_is_idempotent() -> None:
    display, frames = recorded_display(threaded=False)
    display.close(Screen(big="Aus"))
    display.close()
    assert frames.last is not None and frames.last.text == "Aus"
    assert display._device.persist  # luma leaves the panel on with the last screen


def _shown_strings() -> set[str]:
    """Every text the UI can put on the panel: the string literals (f-string parts included) of the
    screens, the banker's reader, its flows and the rules' messages, verdicts and names, and the
    names of every edition and square. Docstrings are left out: nobody at the table reads them."""
    import ast

    from rules.board import GROUP_NAMES, SQUARES
    from rules.editions import EDITIONS

    root = Path(__file__).resolve().parent.parent
    files = sorted((root / "device").rglob("*.py")) + sorted((root / "rules").glob("*.py"))
    texts: set[str] = set()
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        texts |= {node.value for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs}
    texts |= {sq.name for sq in SQUARES} | {words.say(name) for name in GROUP_NAMES.values()}
    # the texts live in the catalogues now: every language's texts, of every surface, as written there
    from babel.messages.pofile import read_po
    from po_read import message_forms

    from words.compile import po_files, po_path
    for code, domain in po_files():
        with open(po_path(code, domain), "rb") as f:
            texts |= {text for m in read_po(f, locale=code) if m.id
                      for text in message_forms(m)}
    for edition in EDITIONS.values():
        texts |= {edition.title, *edition.square_names.values()}
    return texts


def test_every_text_the_ui_can_show_has_glyphs_in_the_shipped_font() -> None:
    """"⇄" rendered as an empty box. A missing glyph draws the font's .notdef box."""
    from drivers.display import font

    texts = _shown_strings()
    assert len(texts) > 300 and "Nur eine Karte!" in texts and "Schlossallee" in texts
    chars = {ch for text in texts for ch in text if ch.isprintable() and not ch.isspace()}
    missing: dict[str, set[str]] = {}
    for size, bold in [(12, False)] + [(s, True) for s in (12, 14, 16, 20, 24, 28, 32)]:
        f = font(size, bold)
        notdef = f.getmask("\ue000", mode="1")  # a private-use code point: no font has it
        box = (notdef.size, bytes(notdef))
        for ch in chars:
            mask = f.getmask(ch, mode="1")
            if (mask.size, bytes(mask)) == box:
                missing.setdefault(ch, set()).add(f"{size}{'b' if bold else ''}")
    assert missing == {}
    for line in {line for text in texts for line in text.splitlines()}:  # each renders into a frame
        render(Screen(title=line[:20], big=line[:12], lines=(line,)))
