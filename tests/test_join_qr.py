"""A table without a router: a phone joins the appliance's own Wi-Fi by pointing its camera at the OLED.

The OLED's pixel pitch is about 0.17 mm (0.96", 128×64): a QR code drawn at 1 pixel per module is a
5 mm code that many phone cameras cannot focus on or resolve; at 2 pixels per module it is about 1 cm.
These tests draw the screens with the display driver's own ``render``, look at the frame as a camera
does (each pixel a lit square with a dark gap, scaled up and slightly blurred) and read it with a real
QR decoder (zxing-cpp), and measure the module size in the drawn pixels.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageFilter
from profiles import examples
from ui_table import Table

from device.daemon.hotspot import ALPHABET, PASSWORD_LENGTH, JoinInfo, qr_ssid_fits, wifi_qr_payload
from device.scenes.idle import JOIN_SHOWN, PASSWORD_SHOWN, join_screen
from device.scenes.layout import problems, with_icons
from drivers.display import QR_BOX, qr_image, render

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "oled"
PASSWORD = "abcdefghjkmn"
"""A password as the hotspot makes it: 12 characters of its alphabet (existing installs keep theirs)."""
LONGEST = "Ferienwohnung-Sonnenhang-Haus-12"
"""32 bytes: the longest SSID IEEE 802.11 and the config allow."""


def join(ssid: str, password: str = PASSWORD) -> JoinInfo:
    return JoinInfo(ssid, password, wifi_qr_payload(ssid, password))


def camera(frame: Image.Image, scale: int = 7) -> Image.Image:
    """The frame as a phone's camera sees the panel: every lit pixel a square with a dark gap around it
    (an OLED's pixels do not touch), scaled up, slightly out of focus."""
    big = frame.convert("L").resize((frame.width * scale, frame.height * scale), Image.Resampling.NEAREST)
    grid = Image.new("L", big.size, 0)
    for y in range(frame.height):
        for x in range(frame.width):
            if frame.getpixel((x, y)):
                grid.paste(255, (x * scale, y * scale, (x + 1) * scale - 1, (y + 1) * scale - 1))
    return grid.filter(ImageFilter.GaussianBlur(scale / 4))


def read(frame: Image.Image, scale: int = 7) -> list[zxingcpp.Barcode]:
    return [c for c in zxingcpp.read_barcodes(camera(frame, scale), formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode))]


def module_px(frame: Image.Image, scale: int = 7) -> float:
    """The size of one module in OLED pixels, measured in the frame: the decoder finds the code's corner,
    and from there the top edge of the top-left finder pattern (7 dark modules) is counted."""
    (code,) = read(frame, scale)
    corner = code.position.top_left
    cx, cy = round(corner.x / scale), round(corner.y / scale)
    runs = []
    for y in range(cy - 1, cy + 2):  # the decoder's corner, to a pixel: the finder's top edge starts near it
        for x in range(cx - 1, cx + 2):
            if frame.getpixel((x, y)) == 0 and frame.getpixel((x - 1, y)) == 1:
                run = 0
                while x + run < frame.width and frame.getpixel((x + run, y)) == 0:
                    run += 1
                runs.append(run)
    assert runs, "no finder pattern's edge at the decoder's corner"
    return max(runs) / 7


def drawn_whole(frame: Image.Image, data: str, box: int) -> bool:
    """The code's pixels in the frame are the code's own: no title bar, mark or line drawn over any of them."""
    code = qr_image(data, box)
    corner = (frame.width - code.width, frame.height - code.height)
    return frame.crop((*corner, frame.width, frame.height)).tobytes() == code.tobytes()


def save(name: str, frame: Image.Image) -> None:
    """The OLED as the family sees it, for the docs and the reviewer (screenshots)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    camera(frame, 4).save(ARTIFACTS / f"{name}.png")


def test_the_wifi_code_is_read_by_a_qr_decoder_as_a_camera_sees_the_oled() -> None:
    """"the OLED shows a QR code to join it (WIFI:S:…;T:WPA;P:…;;)" — and a phone reads it."""
    info = join("Bankleser")
    frame = render(join_screen(info, qr=True))
    save("wlan-code", frame)
    assert [c.text for c in read(frame)] == [info.wifi_qr] == ["WIFI:S:Bankleser;T:WPA;P:abcdefghjkmn;;"]


def test_the_wifi_code_is_drawn_at_two_pixels_per_module_at_least() -> None:
    """At 1 px per module (0.17 mm) the version-3 code is 5 mm wide: too small for many phone cameras."""
    frame = render(join_screen(join("Bankleser"), qr=True))
    assert module_px(frame) >= 2


def test_the_page_code_on_the_idle_screen_is_read_too(table: Table) -> None:
    """After the network's code, the page's: its address read by the decoder, at 2 px per module."""
    frame = render(table.bank.screen())
    save("idle-seite", frame)
    assert [c.text for c in read(frame)] == ["http://192.168.1.20:8080/"]
    assert module_px(frame) >= 2 and drawn_whole(frame, "http://192.168.1.20:8080/", QR_BOX)


@settings(max_examples=examples(40), deadline=None)
@given(ssid=st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=23)
       .filter(qr_ssid_fits),
       password=st.text(ALPHABET, min_size=PASSWORD_LENGTH, max_size=PASSWORD_LENGTH))
def test_every_ssid_whose_code_fits_version_3_is_drawn_at_two_pixels_and_read(ssid: str, password: str) -> None:
    """Any name the config allows whose ``WIFI:`` payload fits a version-3 code (29 modules: 62 px with
    its light border, the panel is 64 px tall) keeps 2 px per module, and the decoder reads it exactly."""
    info = join(ssid, password)
    frame = render(join_screen(info, qr=True))
    assert [c.text for c in read(frame)] == [info.wifi_qr]
    assert module_px(frame) >= 2


def test_the_longest_ssid_whose_code_keeps_two_pixels_is_23_bytes() -> None:
    """With the 12-character password, ``WIFI:S:…;T:WPA;P:…;;`` holds 23 bytes of name in a version-3 code;
    a 24-byte name needs version 4 (33 modules: 66 px at 2 px, more than the panel's 64)."""
    assert qr_ssid_fits("x" * 23) and not qr_ssid_fits("x" * 24)
    assert module_px(render(join_screen(join("Ferienwohnung-Sonnenha"), qr=True))) >= 2


def test_a_32_byte_ssid_still_fits_whole_and_its_code_is_still_read() -> None:
    """The config allows 32 bytes (IEEE 802.11). Its code cannot have 2 px modules on a 64 px panel (see
    above), so the start-up log warns; the code is still drawn whole and read, the name and password whole."""
    info = join(LONGEST)
    code, text = join_screen(info, qr=True), join_screen(info, qr=False)
    save("wlan-code-32-bytes", render(code))
    save("wlan-passwort-32-bytes", render(text))
    assert problems(code) == [] and problems(text) == []
    assert [c.text for c in read(render(code), 8)] == [info.wifi_qr]
    assert "".join(text.lines[:-2]) == LONGEST and text.lines[-2:] == ("Passwort:", PASSWORD)


def test_the_name_and_password_are_on_the_screen_in_turn_with_the_code() -> None:
    """Where a camera cannot read the code, the family types the password from the screen: whole, on one line,
    under the network's name; the screen after the code (``PASSWORD_SHOWN`` s, long enough to type it)."""
    text = join_screen(join("Bankleser"), qr=False)
    save("wlan-passwort", render(text))
    assert (text.title, text.lines, text.qr) == ("WLAN beitreten", ("Bankleser", "Passwort:", PASSWORD), None)
    assert PASSWORD_SHOWN >= 2 * JOIN_SHOWN


@pytest.mark.parametrize("icons", ["", "!", "x", "!x"])
def test_the_reader_marks_on_the_wifi_code_neither_cut_a_line_nor_cover_the_code(icons: str) -> None:
    """A reader fault or the sound off adds its mark to the title bar: on the code screen the bar ends
    before the code, which stays whole and readable."""
    info = join("Bankleser")
    screen = with_icons(join_screen(info, qr=True), icons)
    frame = render(screen)
    assert problems(screen) == [] and drawn_whole(frame, info.wifi_qr, 64)
    assert [c.text for c in read(frame)] == [info.wifi_qr] and module_px(frame) >= 2


@settings(max_examples=examples(60), deadline=None)
@given(ssid=st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=32)
       .filter(lambda s: len(s.encode()) <= 32),
       icons=st.sampled_from(["", "!", "x", "!x"]))
def test_the_join_screens_fit_for_every_ssid_the_config_allows(ssid: str, icons: str) -> None:
    """Every line measured with the shipped font (house layout); the name's every character kept, the password
    whole on its own line, never split."""
    info = join(ssid)
    for qr in (True, False):
        screen = with_icons(join_screen(info, qr=qr), icons)
        assert problems(screen) == [], screen
    text = join_screen(info, qr=False)
    assert text.lines[-2:] == ("Passwort:", PASSWORD)
    assert "".join(text.lines[:-2]) == ssid
