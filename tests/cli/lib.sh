# tests/cli/lib.sh - helpers the CLI tests source: check(),
# a temporary directory, and synthetic snapshots with the generator's own
# expected instruction list (etmtrace synth --expect: ground truth from the
# random execution, not from the decoder).
set -u
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=$((fail + 1)); else echo "ok   $2"; fi; }
finish() { [ $fail -eq 0 ] && echo "all passed" || echo "$fail failed"; exit $((fail != 0)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
S="$ETM_SRCDIR/examples/sample"
PY=/usr/bin/python3
# synth_snap DIR ARGS...: a snapshot in DIR, expected canon in DIR.exp
synth_snap() { local d=$1; shift; "$ETMTRACE" synth "$d" --expect "$d.exp" "$@" > /dev/null 2>&1; }
# canon_eq FILE EXPECTED: same instructions (GAP lines aside)
canon_eq() { diff -q <(grep -v '^GAP' "$1") <(grep -v '^GAP' "$2") > /dev/null; }
# images DIR: the --image options of a synth snapshot's core 0 dumps
images() {
	awk -F= -v d="$1" '/^file=/{f=$2} /^address=/{printf " --image %s/%s@%s", d, f, $2}' "$1/cpu_0.ini"
}
