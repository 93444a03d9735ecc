from . import Factory

class LGPIOFactory(Factory):
    def __init__(self, chip: int | None = None) -> None: ...
