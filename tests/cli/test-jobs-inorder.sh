#!/usr/bin/env bash
# tests/cli/test-jobs-inorder.sh - the commands that consume the items of a
# parallel decode in input order (etm_decoder_run() through the CLI's
# session_run(): `profile --jobs N`, and `decode --jobs N` when the listing
# carries state from line to line, here times from --clock) give output
# identical to --jobs 1. The input (a synthetic PTM trace, 170 KiB) is over
# the runner's one-thread threshold, so N > 1 cuts it into chunks.
set -u
fail=0
check() { if eval "$1"; then echo "ok   $2"; else echo "FAIL: $2"; fail=$((fail + 1)); fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if ! "$ETMTRACE" synth "$tmp/s" --protocol ptm --insns 300000 \
	--async-period 4096 --isync-period 1024 --timestamps 64 \
	--cycle-accurate > /dev/null; then
	echo "FAIL: synth"
	exit 1
fi
size=$(stat -c %s "$tmp/s/trace.bin")
check "[ $size -gt 131072 ]" "the trace ($size bytes) is over 128 KiB"

# same ARGS...: stdout, stderr and exit status of --jobs 1, 2 and 3 equal
out() {
	local rc
	"$ETMTRACE" "$@" > "$tmp/o" 2> "$tmp/e"
	rc=$?
	md5sum < "$tmp/o"
	md5sum < "$tmp/e"
	echo "rc=$rc"
}
same() {
	local ref got j
	ref=$(out "$@" --jobs 1)
	for j in 2 3; do
		got=$(out "$@" --jobs $j)
		check "[ '$ref' = '$got' ]" "$* --jobs $j = --jobs 1"
	done
}
same profile "$tmp/s"
same profile "$tmp/s" --format callgrind
same decode "$tmp/s" --clock 100000000
same decode "$tmp/s" --clock 100000000 --format jsonl
# the profile counts every instruction the encoder wrote
check "'$ETMTRACE' profile '$tmp/s' --jobs 3 | grep -q '^# etmtrace profile: 300000 instructions'" \
      "profile --jobs 3 counts the 300000 instructions"
exit $((fail > 0))
