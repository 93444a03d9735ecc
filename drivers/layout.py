"""The keypad's logical layout: plain data, so the config can be read without loading gpiozero."""

from __future__ import annotations

DEFAULT_LAYOUT: tuple[tuple[str, ...], ...] = (
    ("1", "2", "3", "HABEN"),
    ("4", "5", "6", "SOLL"),
    ("7", "8", "9", "C"),
    (".", "0", "K", "LOS"),
)
"""Logical keys on a standard ``123A/456B/789C/*0#D`` membrane: A Haben, B Soll, C C, D LOS,
``*`` the decimal point, ``#`` K (pressed twice: M). The encoder's push button is OK."""
