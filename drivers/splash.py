"""The first frame: "Startet…" on the OLED within a second of the service starting, on a Pi Zero 2 W's core.

Importing Pillow alone takes about 0.7 s there, luma's device module about 0.9 s: the first frame
cannot go through them. It is a recording of luma.oled's own bytes instead: its ``ssd1306`` or
``sh1106`` set-up and the frame it sends for :data:`SCREEN`, drawn by :func:`drivers.display.render`,
kept per driver and rotation in ``splash.txt`` (package data) and replayed over the bus with luma's
own I²C framing (commands as SMBus block writes behind control byte 0x00, data as one ``i2c_rdwr``
write behind 0x40, in 4096-byte pieces), with only smbus2 imported. Only luma's blank frame is left
out: the frame itself covers the whole RAM before the display is switched on.

Regenerate after a change of the font, the layout or luma: ``python -m drivers.splash`` (a test
fails until then). In sim mode the same bytes go to :mod:`drivers.oled_model`'s simulated panel,
so the simulation and the benchmarks take the Pi's path.

The frame is recorded in every language with a catalogue (its big line is ``start.starting``, as the start
screen's), and the words it says beside it (systemd's STATUS): the first frame speaks the ``--language`` flag's
language, else the config file's ``[ui] language`` (on the Pi: the simulation does not read the file before its
frame), else German, without loading the catalogues (:mod:`words`
needs the rules, which cost more than the whole first frame). A language chosen on /admin only is spoken from the
start screen on.

The daemon opens the display with luma later, as before; luma's set-up blanks the panel, and the
start screen follows it at once (:func:`drivers.hardware.open_hardware` opens the display last).
"""

from __future__ import annotations

import os

from .panel import ADDRESS, CONTRAST, CONTROLLERS, HEIGHT, I2C_PORT, KIND, KINDS, ROTATE, ROTATIONS, WIDTH

TYPE_CHECKING = False  # typing's own costs an import before the first frame
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from .screen import Screen

RECORDING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "splash.txt")
SCREEN = {"title": "Bankleser", "big": "start.starting"}
"""What the first frame says (a :class:`drivers.screen.Screen`'s fields): the title as it is, the big line by its
key in the catalogue (:func:`screen`)."""
LANGUAGE = "de"
"""The language of a first frame when none is asked for, or one without a recording (:data:`words.DEFAULT`; a test
checks the two agree)."""
COMMAND, DATA, CHUNK = 0x00, 0x40, 4096
"""luma's I²C framing: the control byte of a command block, of a data write, and its largest data write."""

Steps = list[tuple[str, bytes]]
"""A recording: ("c", command bytes) for luma's ``command(*cmd)``, ("d", data bytes) for ``data(data)``."""


class Splash:
    """The first frame for one panel: where it is, and the bus to it (smbus2's, or a simulated one)."""

    def __init__(self, kind: str = KIND, i2c_port: int = I2C_PORT, address: int = ADDRESS, rotate: int = ROTATE,
                 contrast: int = CONTRAST, *, bus: Any = None, language: str = LANGUAGE) -> None:
        self.kind, self.i2c_port, self.address, self.rotate, self.contrast = kind, i2c_port, address, rotate, contrast
        self.bus = bus
        """None: ``/dev/i2c-<i2c_port>``, opened for each send and closed again."""
        self.language = language if language in load()["status"] else LANGUAGE
        """The language of the frame (one with a recording)."""

    @classmethod
    def from_config(cls, config: str | Path | None, *, sim: bool, language: str | None = None) -> Splash:
        """The panel of the config file's ``[hardware.display]`` (its defaults without one); in sim mode,
        or for ``kind = "sim"``, a simulated one. Raises ValueError for a section that names no panel:
        the config's own check says what is wrong, after. ``language``: the flag's, else the file's ``[ui]`` (not
        read in sim mode: the simulation's first frame speaks the flag's language, else German)."""
        display: dict[str, Any] = {}
        if config is not None and not sim:  # in sim mode the file is not read before the frame (tomllib's cost)
            import tomllib

            with open(config, "rb") as f:
                data = tomllib.load(f)
            display = data.get("hardware", {}).get("display", {})
            ui = data.get("ui", {})
            language = language or (ui.get("language") if isinstance(ui, dict) else None)
        language = language if isinstance(language, str) else LANGUAGE
        values = {"kind": KIND, "i2c_port": I2C_PORT, "address": ADDRESS, "rotate": ROTATE, "contrast": CONTRAST,
                  **display}
        kind = values.pop("kind")
        if sim or kind == "sim":
            return cls.simulated(language)
        if kind not in KINDS or any(type(v) is not int for v in values.values()) or values["rotate"] not in ROTATIONS:
            raise ValueError(f"[hardware.display] names no panel this frame was recorded for: {display}")
        return cls(kind, **values, language=language)

    @classmethod
    def simulated(cls, language: str = LANGUAGE) -> Splash:
        """The default panel, simulated on a simulated bus (``--sim``)."""
        from .oled_model import Bus, Panel

        return cls(bus=Bus(Panel(KIND, ADDRESS)), language=language)

    def steps(self) -> Steps:
        """What goes over the bus: luma's set-up, its contrast command, the frame, and display on."""
        rec = load()[f"{self.kind}/{self.rotate}"]
        return [*rec["setup"], ("c", rec["contrast"][0][1] + bytes([self.contrast])), *rec[f"frame.{self.language}"],
                *rec["show"]]

    def words(self) -> str:
        """What the frame's big line says, for systemd's STATUS (recorded from the catalogue with the frame)."""
        return load()["status"][self.language][0][1].decode("utf-8")

    def send(self) -> None:
        """Put "Startet…" (in its language) on the panel. Raises what the bus raises (no ``/dev/i2c-N``, no answer at
        the address)."""
        self._replay(self.steps())

    def off(self) -> None:
        """Switch the panel off again (luma's ``hide()``): a config error stops the start after the greeting,
        and the panel must not say "Startet…" for ever."""
        self._replay(load()[f"{self.kind}/{self.rotate}"]["hide"])

    def _replay(self, steps: Steps) -> None:
        from smbus2 import SMBus, i2c_msg

        bus = self.bus if self.bus is not None else SMBus(self.i2c_port)
        try:
            for kind, payload in steps:
                if kind == "c":
                    bus.write_i2c_block_data(self.address, COMMAND, list(payload))
                else:
                    for i in range(0, len(payload), CHUNK):
                        bus.i2c_rdwr(i2c_msg.write(self.address, bytes([DATA]) + payload[i:i + CHUNK]))
        finally:
            if self.bus is None:
                bus.close()


_loaded: dict[str, dict[str, Steps]] = {}


def load() -> dict[str, dict[str, Steps]]:
    """The recordings in ``splash.txt``: "<kind>/<rotate>" → part → steps (read once; no json import)."""
    if not _loaded:
        with open(RECORDING, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                key, part, kind, payload = line.split()
                _loaded.setdefault(key, {}).setdefault(part, []).append((kind, bytes.fromhex(payload)))
    return _loaded


class _Tape:
    """A luma serial interface that keeps what the driver sends (as luma's own tests capture it)."""

    def __init__(self) -> None:
        self.steps: Steps = []

    def command(self, *cmd: int) -> None:
        self.steps.append(("c", bytes(cmd)))

    def data(self, data: Any) -> None:
        self.steps.append(("d", bytes(data)))

    def cleanup(self) -> None:
        pass

    def take(self) -> Steps:
        out, self.steps = self.steps, []
        return out


def screen(language: str) -> Screen:
    """The first frame's :class:`drivers.screen.Screen` in ``language`` (from the catalogue: recording time only)."""
    import words

    from .screen import Screen

    with words.speaking(language):
        return Screen(title=SCREEN["title"], big=words.text(SCREEN["big"]))


def record() -> dict[str, dict[str, Steps]]:
    """luma.oled's bytes for each driver and rotation: set-up, contrast, the frame of :data:`SCREEN` in each
    language, show, hide; and each language's words of the frame ("status")."""
    import luma.oled.device

    import words

    from .display import render

    screens = {code: screen(code) for code in words.LANGUAGES}
    out: dict[str, dict[str, Steps]] = {"status": {code: [("t", s.big.encode("utf-8"))] for code, s in screens.items()}}
    for kind, name in CONTROLLERS.items():
        driver = getattr(luma.oled.device, name)
        for rotate in ROTATIONS:
            tape = _Tape()
            device = driver(tape, width=WIDTH, height=HEIGHT, rotate=rotate)
            device.persist = True  # no hide() and clear() at exit
            init = tape.take()
            device.clear()
            clear = tape.take()
            device.show()
            show = tape.take()
            device.contrast(CONTRAST)
            contrast = tape.take()
            frames = {}
            for code, shown in screens.items():
                device.display(render(shown))
                frames[f"frame.{code}"] = tape.take()
            device.hide()
            hide = tape.take()
            tail = clear + show
            if init[-len(tail):] != tail or contrast != [("c", bytes([contrast[0][1][0], CONTRAST]))]:
                raise RuntimeError(f"luma's {kind} set-up no longer ends with clear() and show(), or its contrast "
                                   "is no longer one command and the level: the splash needs a new look")
            out[f"{kind}/{rotate}"] = {"setup": init[:-len(tail)], "contrast": [("c", contrast[0][1][:1])],
                                       **frames, "show": show, "hide": hide}
    return out


def dumps(recordings: dict[str, dict[str, Steps]]) -> str:
    """``splash.txt``'s text: one step a line ("<kind>/<rotate> <part> c|d <hex>"), and the frame's words in each
    language ("status <language> t <hex of UTF-8>")."""
    lines = ["# luma.oled's own bytes for the first frame (drivers/splash.py), one command block (c) or data",
             "# write (d) a line, and the frame's words per language (t). Generated: python -m drivers.splash",
             f"# screen: {SCREEN['title']} / {SCREEN['big']}"]
    lines += [f"{key} {part} {kind} {payload.hex()}" for key, parts in recordings.items()
              for part, steps in parts.items() for kind, payload in steps]
    return "\n".join(lines) + "\n"


def main() -> None:
    """``python -m drivers.splash``: record luma's bytes again and write ``splash.txt``."""
    with open(RECORDING, "w", encoding="utf-8") as f:
        f.write(dumps(record()))
    print(f"wrote {RECORDING}")


if __name__ == "__main__":
    main()
