from collections.abc import Callable
from typing import Any

from .pins import Factory, Pin

class Device:
    pin_factory: Factory | None
    def __init__(self, *, pin_factory: Factory | None = None) -> None: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    @property
    def value(self) -> Any: ...

class GPIODevice(Device):
    def __init__(self, pin: int | str | None = None, *, pin_factory: Factory | None = None) -> None: ...
    @property
    def pin(self) -> Pin: ...

class InputDevice(GPIODevice):
    def __init__(self, pin: int | str | None = None, *, pull_up: bool | None = False,
                 active_state: bool | None = None, pin_factory: Factory | None = None) -> None: ...
    @property
    def is_active(self) -> bool: ...

class DigitalInputDevice(InputDevice):
    when_activated: Callable[[], object] | None
    when_deactivated: Callable[[], object] | None
    def __init__(self, pin: int | str | None = None, *, pull_up: bool | None = False,
                 active_state: bool | None = None, bounce_time: float | None = None,
                 pin_factory: Factory | None = None) -> None: ...

class Button(DigitalInputDevice):
    when_pressed: Callable[[], object] | None
    when_released: Callable[[], object] | None
    def __init__(self, pin: int | str | None = None, *, pull_up: bool | None = True,
                 active_state: bool | None = None, bounce_time: float | None = None, hold_time: float = 1,
                 hold_repeat: bool = False, pin_factory: Factory | None = None) -> None: ...
    @property
    def is_pressed(self) -> bool: ...

class RotaryEncoder(Device):
    when_rotated: Callable[[], object] | None
    when_rotated_clockwise: Callable[[], object] | None
    when_rotated_counter_clockwise: Callable[[], object] | None
    steps: int
    def __init__(self, a: int | str, b: int | str, *, bounce_time: float | None = None, max_steps: int = 16,
                 threshold_steps: tuple[int, int] = (0, 0), wrap: bool = False,
                 pin_factory: Factory | None = None) -> None: ...

class OutputDevice(GPIODevice):
    def __init__(self, pin: int | str | None = None, *, active_high: bool = True, initial_value: bool | None = False,
                 pin_factory: Factory | None = None) -> None: ...
    def on(self) -> None: ...
    def off(self) -> None: ...

class DigitalOutputDevice(OutputDevice):
    def blink(self, on_time: float = 1, off_time: float = 1, n: int | None = None,
              background: bool = True) -> None: ...

class LED(DigitalOutputDevice):
    def toggle(self) -> None: ...

class PWMOutputDevice(OutputDevice):
    def __init__(self, pin: int | str | None = None, *, active_high: bool = True, initial_value: float = 0,
                 frequency: float = 100, pin_factory: Factory | None = None) -> None: ...
    @property
    def value(self) -> float: ...
    @value.setter
    def value(self, value: float) -> None: ...
    @property
    def frequency(self) -> float | None: ...
    @frequency.setter
    def frequency(self, value: float | None) -> None: ...
