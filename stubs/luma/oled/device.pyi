from typing import Any

from luma.core.device import device

class sh1106(device):
    def __init__(self, serial_interface: Any = None, width: int = 128, height: int = 64, rotate: int = 0,
                 **kwargs: Any) -> None: ...

class ssd1306(device):
    def __init__(self, serial_interface: Any = None, width: int = 128, height: int = 64, rotate: int = 0,
                 **kwargs: Any) -> None: ...
