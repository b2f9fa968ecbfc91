#!/bin/bash
# tests/snapshot/test-chunks.sh - feeding TC2's formatted buffer to the
# decoder in chunks of 1, 7 and 4096 bytes gives identical packets and
# identical decoded instructions (all trace IDs at once).
set -u
: "${ETMTRACE:?set ETMTRACE to the etmtrace CLI}"
S=${ETM_SHARED:-build/testdata}/snapshots/TC2
[ -e "$S/snapshot.ini" ] || { echo "skip: $S missing"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
"$ETMTRACE" packets "$S" --format jsonl > "$T/ref.pk"
"$ETMTRACE" decode "$S" --format jsonl > "$T/ref.el"
[ -s "$T/ref.pk" ] && [ -s "$T/ref.el" ] || { echo "FAIL: no output"; exit 1; }
for c in 1 7 4096; do
	"$ETMTRACE" packets "$S" --format jsonl --chunk $c > "$T/$c.pk"
	"$ETMTRACE" decode "$S" --format jsonl --chunk $c > "$T/$c.el"
	if cmp -s "$T/ref.pk" "$T/$c.pk" && cmp -s "$T/ref.el" "$T/$c.el"; then
		echo "ok   chunk $c: $(wc -l < "$T/$c.pk") packets, $(wc -l < "$T/$c.el") elements identical"
	else
		echo "FAIL chunk $c differs"
		fail=1
	fi
done
exit $fail
