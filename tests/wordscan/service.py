"""The service's surface: the daemon's start and log, the command line, the store and the drivers.

Left out: ``drivers/oled_model.py`` and ``drivers/mfrc522_model.py``, the simulation's models of the two chips.
Their refusals are a developer's (a driver sent what the chip has no command for: a failing test says so) and
their ``OSError`` texts are the kernel's own, which the code that meets them matches as the real ones; a person
at the table never reads either. ``drivers/screen.py``, ``layout.py``, ``board.py`` and ``encoder.py`` hold no
text at all, only key names and a board's name the code looks for, and are scanned to keep it so.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

MODULES = (
    "device/daemon/cli.py", "device/daemon/service.py", "device/daemon/hotspot.py", "device/daemon/notify.py",
    "device/daemon/pin.py", "device/daemon/simulation.py", "device/daemon/language.py",
    "device/store/journal.py", "device/store/cards.py", "device/store/ledger.py", "device/store/salvage.py",
    "device/store/clocks.py", "device/store/head.py", "device/store/replay.py",
    "drivers/part.py", "drivers/hardware.py", "drivers/splash.py", "drivers/display.py", "drivers/keypad.py",
    "drivers/rfid.py", "drivers/encoder.py", "drivers/signals.py", "drivers/layout.py", "drivers/panel.py",
    "drivers/board.py", "drivers/screen.py",
)

SQL = re.compile(r"\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|PRAGMA|BEGIN|COMMIT|ROLLBACK)\b")
"""A statement for SQLite (read by SQLite, never shown)."""


def _sql() -> set[str]:
    root = Path(__file__).resolve().parent.parent.parent
    return {node.value for module in MODULES for node in ast.walk(ast.parse((root / module).read_text()))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value)}


ALLOWED = {
    # the parts' identifiers (faults' keys, the pages' JSON, the watchdog's log): their names come from the catalogue
    "display", "keypad", "encoder", "buzzer", "led", "reader", "gpio", "web",
    # the config file's words and values, and the buses' and pins' own names on the Pi (the same in every language)
    "matrix", "mfrc522", "ssd1306", "sh1106", "none", "off", "low", "button", "hardware.", "[hardware.",
    "[hardware.reader] reset_pin", "[hardware.keypad] rows[", "[hardware.keypad] cols[", "[hardware.encoder] ",
    "[hardware.buzzer] pin", "[hardware.led] pin", "I²C-1 (SDA)", "I²C-1 (SCL)", " (SCLK)", " (MOSI)", " (MISO)",
    " (CE", "ID-EEPROM (ID_SD)", "ID-EEPROM (ID_SC)", "classic",
    # the device's key names and the knob's events (what the virtual device's API reads), tunes and reader states
    "HABEN", "SOLL", "LOS", "OK", "MENU", "M", "K", "C", "UP", "DOWN", "PUSH", "key", "tap", "parts",
    "hold:", "done", "refused", "card", "new_game", "end", "two_cards", "always",
    # the event queue's, the loop's and the threads' names; JSON fields; settings; file names and prefixes
    "call", "freeze", "wake", "refresh", "open", "waiting", "failed", "network", "activated", "teile-oeffnen",
    "web-laden", "verlauf-pruefen", "wlan-warten", "rfid", "version", "state", "log", "remaining", "problem",
    "code", "message", "game", "skipped", "current", "views", "seq", "text", "undo", "player", "deed", "players",
    "deeds", "names", "tones", "tone", "unknown_card", "in_game", "name_taken", "not_a_property",
    "bad_command", "storage_error", "pin_set", "bad_pin", "name:", "Daemon", "WebBackend", "run_daemon", "history-cache.json",
    "journal.sqlite3", "hotspot-password", ".tmp", ".head", "-wal", "-shm", "-journal", ".beiseite-", "file:",
    "psow", "link", "splash.txt", "fonts", "terminus-", ".otb", "bold", "normal", "bankleser-lgpio",
    "bankleser-lgpio-", "bankleser-salvage-", "bankleser-doctor-", "*.py", "wall_clocks", "/run/systemd/timesync",
    "synchronized", "pi_unsynced", "pi_unchecked", "phone", "unknown", "no such table", "full", "unable to open",
    "readonly", "I/O", "locked", "%Y%m%d-%H%M%S", "__main__", "sha256", "pbkdf2$", "ascii", "utf-8", "PNG", "L",
    "title", "big", "kind", "i2c_port", "address", "rotate", "contrast", "setup", "frame.", "show", "hide",
    "frame", "status", "raspberry pi", "output", "input", "LG_WD", "RUNTIME_DIRECTORY", "XDG_RUNTIME_DIR",
    "BANKLESER_OPEN_BROWSER", "http://", "http://127.0.0.1:", "/device", "Bankleser", "0123456789abcdef",
    "0a000001", "0a000002", "0a000003", "0a000004", "0a000005", "0a000006", "0d0000", "<4sQ32sI", "<4sQ32s",
    "<I",
    # systemd's notify protocol
    "READY=1\nSTATUS=", "STATUS=", "WATCHDOG=1", "STOPPING=1",
    # NetworkManager's command line, its fields and the Wi-Fi QR code's format (read by nmcli and phones)
    "nmcli", "nmcli ", " … exit ", "--terse", "--fields", "NAME,TYPE,DEVICE,STATE", "connection", "--active",
    "--get-values", "IP4.ADDRESS", "device", "--wait", "wifi", "ifname", "con-name", "band", "password",
    "802-11-wireless", "802-3-ethernet", "WIFI:S:", ";T:WPA;P:", "LC_ALL", "abcdefghjkmnpqrstuvwxyz23456789",
    "Bankleser-Hotspot",
    # the command line: sub-commands, flags, choices, argparse's own message ids and its format, defaults, the
    # program's name before its refusals
    "command", "replay", "file", "--journal", "--editions", "salvage", "source", "target", "doctor", "--config",
    "--state-dir", "--language", "flows", "--readme", "--mermaid", "print", "what", "--edition", "--players", "-o",
    "--output", "--one-language", "run", "--sim", "--host", "--port", "store_true", "wiring", "cards", "edition", "-h",
    "--help",
    "--language=", "LANGUAGE", "LC_MESSAGES", "LANG", "/etc/bankleser/config.toml", "/var/lib/bankleser",
    "bankleser", "bankleser replay: ", "bankleser salvage: ", "bankleser print ", "bankleser run: ",
    "%(levelname)s %(name)s: %(message)s", "usage: ", "positional arguments", "options",
    "show this help message and exit", "%(prog)s: error: %(message)s\n", "argument %(argument_name)s: %(message)s",
    "the following arguments are required: %s", "unrecognized arguments: %s",
    "invalid choice: %(value)r (choose from %(choices)s)", "invalid %(type)s value: %(value)r",
    "expected one argument", "ambiguous option: %(option)s could match %(matches)s",
    # a caller's bug, never met at the table (the journal's own guard)
    "checkpoint at ", ", journal at ",
    # splash.txt's own comment lines and the recorder's messages (python -m drivers.splash, a developer's tool)
    "# luma.oled's own bytes for the first frame (drivers/splash.py), one command block (c) or data",
    "# write (d) a line, and the frame's words per language (t). Generated: python -m drivers.splash",
    "# screen: ", "wrote ", "luma's ", "[hardware.display] names no panel this frame was recorded for: ",
    " set-up no longer ends with clear() and show(), or its contrast is no longer one command and the level: the "
    "splash needs a new look",
    # the environment systemd hands the service (sd_notify)
    "WATCHDOG_USEC", "NOTIFY_SOCKET",
    # the log lines' own formats (the words come from the catalogue)
    "%s: %s", "formatter_class",
    # the simulated bank cards' first names: names, the same in every language
    "Anna", "Ben", "Cem", "Dana", "Emil", "Fine",
    # polkit's action ids the hotspot needs, and NetworkManager's words for a refusal (matched, never shown)
    "org.freedesktop.NetworkManager.network-control", "org.freedesktop.NetworkManager.settings.modify.system",
    "org.freedesktop.NetworkManager.wifi.share.protected", "Not authorized", "Insufficient privileges",
} | _sql()
"""Constants with letters in these modules that no person reads as a sentence of ours."""
