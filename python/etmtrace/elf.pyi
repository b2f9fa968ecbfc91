# Type stubs of etmtrace.elf (function symbols of an ELF file).
from os import PathLike

import numpy as np

class Functions:
    starts: np.ndarray
    ends: np.ndarray
    names: list[str]
    def __init__(self, entries: object) -> None: ...
    def __len__(self) -> int: ...

def functions(path: str | PathLike[str], bias: int = 0) -> Functions: ...
