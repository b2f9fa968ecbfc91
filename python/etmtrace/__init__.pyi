# Type stubs of the etmtrace package (etmtrace/__init__.py and the
# etmtrace._etmtrace C extension).
from os import PathLike
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from .elf import Functions

StrPath = str | bytes | PathLike[str] | PathLike[bytes]
Chunk = tuple[int, int, tuple[int, ...]]

VERSION: str
__version__: str
CHUNK_SIZE: int
ELEM_FORMAT: str
ELEM_DTYPE: np.dtype[np.void]
PACKET_DTYPE: np.dtype[np.void]
KINDS: tuple[str, ...]
ISAS: tuple[str, ...]
CLASSES: tuple[str, ...]
F_ATOM: int
F_EXEC: int
F_CYCLES: int
F_CANCEL: int
F_CTXID: int
F_NS: int
F_HYP: int

class Error(Exception):
    """A decode or input error: str() is the library's message."""
    code: int

class Batch:
    """Records (ELEM_DTYPE or PACKET_DTYPE) exported through the buffer
    protocol: numpy.asarray(batch) is a read-only view, no copy."""
    @property
    def packets(self) -> bool: ...
    def __len__(self) -> int: ...
    def __buffer__(self, flags: int) -> memoryview: ...

class Decoder(Iterator[Batch]):
    """An opened capture, or one chunk of a trace buffer; iterating it
    decodes (GIL released) and yields batches."""
    @property
    def next_chunk(self) -> int | None: ...
    @property
    def sources(self) -> list[dict[str, Any]]: ...
    @property
    def buffers(self) -> list[dict[str, Any]]: ...
    @property
    def notes(self) -> list[str]: ...
    @property
    def packets(self) -> bool: ...
    def batches(self, size: int = 65536) -> Decoder: ...
    def close(self) -> None: ...
    def __enter__(self) -> Decoder: ...
    def __exit__(self, *exc: object) -> None: ...
    def __iter__(self) -> Decoder: ...
    def __next__(self) -> Batch: ...

def open(path: StrPath, *, packets: bool = False, protocol: str = ...,
         input_format: str = ..., ids: int | Iterable[int] = ...,
         etmcr: int = ..., etmccer: int = ..., etmidr: int = ...,
         m_profile: bool = False, infer: bool = True,
         images: Iterable[tuple[StrPath, int]] = ...,
         elfs: Iterable[StrPath | tuple[StrPath, int]] = ...,
         pieces: bool = ..., start: str = ..., stop: str = ...,
         last: int = ..., at: str = "end") -> Decoder: ...

def plan_chunks(path: StrPath, *, chunk_size: int = 0, buffer: int = 0,
                trace_ids: bool = True, **options: Any) -> list[Chunk]: ...

def decode_chunk(path: StrPath, offset: int, length: int, *,
                 chunk_size: int = 0, buffer: int = 0,
                 **options: Any) -> Decoder: ...

def errstr(code: int) -> str: ...
def errname(code: int) -> str: ...

class Counts:
    insns: int
    kinds: list[int]
    taken: int
    ranges: dict[tuple[int, int], int]
    funcs: dict[str, int]
    def __init__(self) -> None: ...
    def add_batch(self, batch: Batch | np.ndarray,
                  functions: Functions | None = None) -> Counts: ...
    @property
    def errors(self) -> int: ...
    def __iadd__(self, other: Counts) -> Counts: ...
    def __add__(self, other: Counts) -> Counts: ...
    def __radd__(self, other: Counts | int) -> Counts: ...
    def summary(self) -> dict[str, int]: ...

def count(decoder: Iterable[Batch],
          functions: Functions | None = None) -> Counts: ...

def chunk_counts(path: StrPath, offset: int, length: int,
                 functions: Functions | None = None,
                 **options: Any) -> tuple[int, int, Counts]: ...

def stitch(plan: Sequence[Chunk],
           results: Iterable[tuple[int, int, Any]]) -> list[tuple[int, int, Any]]: ...
