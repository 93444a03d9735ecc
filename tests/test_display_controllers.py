"""The display controllers are listed once (drivers.panel.CONTROLLERS); every other place follows that list.

A controller added to one list and not the others would pass the config's check and then fail to open, or open
and be refused by the config. Here: what the config allows, what the drivers and the first frame's recording
open, what the panel model answers as, and what the example config tells a family.
"""

from __future__ import annotations

import typing
from pathlib import Path

import luma.oled.device
import msgspec
import pytest

from drivers.hardware import DisplayConfig
from drivers.oled_model import Panel
from drivers.panel import CONTROLLERS, KINDS

ROOT = Path(__file__).resolve().parent.parent


def test_the_config_allows_each_controller_and_sim() -> None:
    allowed = typing.get_args(typing.get_type_hints(DisplayConfig)["kind"])
    assert allowed == (*KINDS, "sim") and tuple(CONTROLLERS) == KINDS
    for kind in allowed:
        assert msgspec.convert({"kind": kind}, DisplayConfig).kind == kind
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"kind": "ssd1360"}, DisplayConfig)


@pytest.mark.parametrize("kind", KINDS)
def test_luma_speaks_each_controller_and_the_model_answers_as_it(kind: str) -> None:
    assert isinstance(getattr(luma.oled.device, CONTROLLERS[kind]), type)
    assert Panel(kind).kind == kind


def test_the_example_config_names_each_controller() -> None:
    line = next(line for line in (ROOT / "systemd" / "config.toml").read_text(encoding="utf-8").splitlines()
                if line.lstrip("# ").startswith("kind =") and KINDS[0] in line)
    assert all(kind in line for kind in KINDS), line
