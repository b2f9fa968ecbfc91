"""etmtrace.elf - function symbols of an ELF file (32 or 64-bit, either
byte order) for per-function counts: ``functions(path, bias=0)`` reads
the symbol table (STT_FUNC symbols with a size; the Thumb bit cleared)
into a :class:`Functions` table sorted by address."""
import struct

import numpy as np

_SHDR = {1: ("IIIIIIIIII", 40), 2: ("IIQQQQIIQQ", 64)}
_SYM = {1: ("IIIBBH", 16), 2: ("IBBHQQ", 24)}
SHT_SYMTAB, STT_FUNC = 2, 2


class Functions:
    """Functions [start, end) with names, sorted, without overlaps at the
    same start (the first name is kept). Small and picklable: it is sent
    to workers with the tasks that count by function."""

    def __init__(self, entries):
        entries = sorted(set(entries))
        starts, ends, names, last = [], [], [], None
        for s, e, n in entries:
            if s == last:
                continue
            starts.append(s)
            ends.append(e)
            names.append(n)
            last = s
        self.starts = np.array(starts, dtype=np.uint64)
        self.ends = np.array(ends, dtype=np.uint64)
        self.names = names

    def __len__(self):
        return len(self.names)


def _symbols(data, cls, bo):
    shfmt, shsize = _SHDR[cls]
    if cls == 1:
        shoff, = struct.unpack_from(bo + "I", data, 0x20)
        shentsize, shnum = struct.unpack_from(bo + "HH", data, 0x2E)
    else:
        shoff, = struct.unpack_from(bo + "Q", data, 0x28)
        shentsize, shnum = struct.unpack_from(bo + "HH", data, 0x3A)
    secs = [struct.unpack_from(bo + shfmt, data, shoff + i * shentsize)
            for i in range(shnum)]
    symfmt, symsize = _SYM[cls]
    for sh in secs:
        if sh[1] != SHT_SYMTAB:
            continue
        strtab = secs[sh[6]]
        for off in range(sh[4], sh[4] + sh[5], symsize):
            v = struct.unpack_from(bo + symfmt, data, off)
            if cls == 1:
                name, value, size, info, _, shndx = v
            else:
                name, info, _, shndx, value, size = v
            if info & 0xF != STT_FUNC or not size or not shndx:
                continue
            so = strtab[4] + name
            yield value, size, data[so:data.index(b"\0", so)].decode(
                "utf-8", "replace")


def functions(path, bias=0):
    """The function symbols of ELF file @path, moved by @bias."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
        raise ValueError("%s: not an ELF file" % path)
    bo = "<" if data[5] == 1 else ">"
    return Functions(((v & ~1) + bias, (v & ~1) + bias + size, n)
                     for v, size, n in _symbols(data, data[4], bo))
