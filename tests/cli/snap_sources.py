"""tests/cli/snap_sources.py - what a snapshot directory says about each
trace source connected to a buffer, read from its .ini files alone (not
through etmtrace), one line a source:

    ID PROTOCOL ETMCR ETMCCER ETMIDR BUFFER_FILE [--image FILE@ADDR]...

ID is the trace ID in hex (ETMTRACEIDR[6:0]); PROTOCOL etmv3 (type ETM3.x)
or ptm (PTM / PFT); the --image options are the memory dumps of the source's
core (trace.ini [core_trace_sources]). Key spellings of both kinds, e.g.
ETMCR(0x000) and ETMCR(id:0x0), are read.

usage: snap_sources.py SNAPDIR
"""
import configparser
import os
import re
import sys



def ini(d, name):
    c = configparser.ConfigParser(strict=False, interpolation=None,
                                  comment_prefixes=(';', '#'),
                                  delimiters=('=',))
    c.optionxform = str
    c.read(os.path.join(d, name))
    return c


def reg(dev, name):
    for k, v in dev['regs'].items():
        if re.match(name + r'\(', k):
            return int(v, 0)
    raise SystemExit('%s: no register %s' % (dev['device']['name'], name))


def images(d, core):
    out = ''
    for s in core.sections() if core else []:
        if s.startswith('dump'):
            if core[s].get('offset', '0') not in ('0', '0x0'):
                raise SystemExit('dump %s: an offset into its file' % s)
            out += ' --image %s/%s@%s' % (d, core[s]['file'],
                                          core[s]['address'])
    return out


def main(d):
    snap = ini(d, 'snapshot.ini')
    devs = {}
    for f in snap['device_list'].values():
        c = ini(d, f)
        devs[c['device']['name']] = c
    tr = ini(d, snap['trace']['metadata'])
    core_of = {}
    if tr.has_section('core_trace_sources'):
        core_of = {v: k for k, v in tr['core_trace_sources'].items()}
    files = {tr[b].get('name'): tr[b].get('file') for b in tr.sections()}
    for name, dev in devs.items():
        t = dev['device'].get('type', '')
        proto = ('ptm' if t.startswith(('PTM', 'PFT')) else
                 'etmv3' if t.startswith('ETM3') else None)
        if not proto or name not in tr['source_buffers']:
            continue
        print('%02x %s 0x%08x 0x%08x 0x%08x %s/%s%s' % (
            reg(dev, 'ETMTRACEIDR') & 0x7f, proto, reg(dev, 'ETMCR'),
            reg(dev, 'ETMCCER'), reg(dev, 'ETMIDR'), d,
            files[tr['source_buffers'][name]],
            images(d, devs.get(core_of.get(name)))))


main(sys.argv[1])
