# tests/cli/lib.sh - helpers the CLI tests source: check(),
# a temporary directory, and synthetic snapshots with the generator's own
# expected instruction list (etmtrace synth --expect: ground truth from the
# random execution, not from the decoder).
set -u
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=$((fail + 1)); else echo "ok   $2"; fi; }
finish() { [ $fail -eq 0 ] && echo "all passed" || echo "$fail failed"; exit $((fail != 0)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# need_disasm: SKIP (exit 77) in a build without capstone (ETM_DISASM=0,
# CMakeLists.txt), whose listings show the instruction class for its text
need_disasm() { [ "${ETM_DISASM:-1}" != 0 ] || { echo "SKIP: built without capstone"; exit 77; }; }
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

# perf_ctx_snap DIR SYNTH-ARGS CONVERT-ARGS: a synthetic capture in DIR whose
# Context ID changes at random (8-bit values; ground truth in DIR.exp and
# DIR.ctx), converted to DIR/perf.data with the program mapped in the two
# processes that ran the most instructions, whose Context IDs (hex,
# comma-separated) are left in $ctx_keep, their pids (decimal, each
# followed by a comma) in $ctx_pids. Returns 1 with the reason in
# $ctx_err when synth or convert fails.
perf_ctx_snap() {
	local d=$1 sargs=$2 cargs=$3
	ctx_err=
	# shellcheck disable=SC2086
	"$ETMTRACE" synth "$d" --expect "$d.exp" --expect-ctx "$d.ctx" --insns 3000 \
		--features arm,thumb,ctx --ctxid-bytes 1 $sargs > /dev/null 2>&1 ||
		{ ctx_err=synth; return 1; }
	ctx_keep=$(awk '/^CTX/ { c = $2; next } !/^GAP/ { n[c]++ } END { for (c in n) print n[c], c }' "$d.ctx" |
		sort -rn | head -2 | awk '{ print $2 }' | paste -sd,)
	ctx_pids=$(for x in ${ctx_keep//,/ }; do printf '%d,' "0x$x"; done)
	# shellcheck disable=SC2086
	"$ETMTRACE" convert "$d" --perf-data "$d/perf.data" --map-pids "${ctx_pids%,}" $cargs 2> "$d.converr" ||
		{ ctx_err="convert: $(cat "$d.converr")"; return 1; }
}
