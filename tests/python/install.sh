#!/bin/bash
# tests/python/install.sh - the Python package as a user installs it: an
# sdist of the repository, unpacked elsewhere, installed with
# `pip install .` (Debian's pip, setuptools and wheel; setup.py builds
# libetmtrace with CMake) into a fresh virtual environment that sees
# Debian's numpy; the wheel pip built must be tagged cp311-abi3, and the
# README's three lines must decode the sample's 34 instructions (counted
# by hand in examples/sample/README.txt). Run by scripts/test.sh.
set -eu
SRC=${ETM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
PY=${ETM_PYTHON:-/usr/bin/python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$PY" -m build --sdist --no-isolation --outdir "$T" "$SRC" >"$T/build.log" 2>&1 ||
	{ tail -20 "$T/build.log"; exit 1; }
tar -C "$T" -xzf "$T"/etmtrace-*.tar.gz
"$PY" -m venv --system-site-packages "$T/venv"
(cd "$T"/etmtrace-*/ && "$T/venv/bin/pip" install --no-build-isolation --no-index . \
	>"$T/pip.log" 2>&1) || { tail -30 "$T/pip.log"; exit 1; }
wheel=$(ls "$T"/venv/lib/python3*/site-packages/etmtrace-*.dist-info/WHEEL)
grep -qx "Tag: cp311-abi3-linux_$(uname -m)" "$wheel" ||
	{ echo "FAIL: wheel tag"; cat "$wheel"; exit 1; }
# the README's three lines, run from the repository root
got=$(cd "$SRC" && "$T/venv/bin/python" - <<'PYEOF'
import etmtrace, numpy as np
batches = etmtrace.open("examples/sample").batches()
print(sum(int(np.asarray(b)["ninsn"].sum()) for b in batches))
PYEOF
)
[ "$got" = 34 ] || { echo "FAIL: README lines printed '$got', want 34"; exit 1; }
where=$(cd "$T" && "$T/venv/bin/python" -c 'import etmtrace; print(etmtrace.__file__)')
case "$where" in "$T"/venv/*) ;; *) echo "FAIL: imported $where"; exit 1;; esac
echo "ok   pip install . (cp311-abi3 wheel) in a fresh venv; README lines: 34 instructions"
