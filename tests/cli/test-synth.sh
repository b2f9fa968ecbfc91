#!/usr/bin/env bash
# tests/cli/test-synth.sh - `etmtrace synth` writes snapshots that
# `etmtrace decode` reads back exactly: for many option combinations the
# canonical decode equals the instruction list synth generated (--expect).
set -u
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=$((fail + 1)); else echo "ok   $2"; fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# canonical lists compare with GAP runs collapsed and leading/trailing GAPs
# dropped (shared/tools/canon.py rules)
norm() {
	awk '/^GAP$/ { if (n) gap = 1; next }
	     { if (gap) print "GAP"; gap = 0; n++; print }' "$1"
}

# roundtrip NAME ARGS...: synth, decode every source, compare
roundtrip() {
	local name=$1; shift
	local d="$tmp/$name" ok=1 rc ids id exp
	rm -rf "$d"
	if ! "$ETMTRACE" synth "$d" --expect "$d.exp" "$@" 2> "$tmp/err"; then
		echo "FAIL: synth $name: $(cat "$tmp/err")"; fail=$((fail + 1)); return
	fi
	ids=$(sed -n 's/^ETMTRACEIDR(0x080)=0x000000\(..\)$/\1/p' "$d"/source_*.ini)
	for id in $ids; do
		exp="$d.exp"
		[ -f "$d.exp.0x$id" ] && exp="$d.exp.0x$id"
		"$ETMTRACE" decode "$d" --id "0x$id" --format canon > "$d.got" 2> "$tmp/err"
		rc=$?
		if [ $rc -ne 0 ] || ! diff -q <(norm "$exp") <(norm "$d.got") > /dev/null; then
			ok=0
			echo "  $name id 0x$id: decode exit $rc; first differences:"
			diff <(norm "$exp") <(norm "$d.got") | head -5
		fi
	done
	check "[ $ok -eq 1 ] && [ -s '$exp' ]" "synth $name ($*) decodes back exactly"
}

roundtrip ptm-basic --protocol ptm --seed 1
roundtrip ptm-all --protocol ptm --seed 2 --cycle-accurate --ret-stack \
	--ctxid-bytes 4 --vmid --timestamps 64 --features all
roundtrip ptm-bcast --protocol ptm --seed 3 --branch-broadcast --full-addr \
	--atoms single --features arm,thumb,exc,b2b,gaps,long
roundtrip ptm-random --protocol ptm --seed 4 --atoms random --ctxid-bytes 1 \
	--timestamps 48 --ts-gray --isync-period 200 --async-period 700 --features all
roundtrip etm35-all --protocol etmv3 --seed 5 --cycle-accurate --ctxid-bytes 2 \
	--vmid --timestamps 64 --features all
roundtrip etm34-alt --protocol etmv3 --etm-version 3.4 --alt-branch --seed 6 \
	--atoms random --isync-period 300 --async-period 1000 --features all
roundtrip etm33-ca --protocol etmv3 --etm-version 3.3 --seed 7 --cycle-accurate \
	--timestamps 48 --ts-gray --features arm,thumb,exc,cancel,cycles,ts
roundtrip etm-single --protocol etmv3 --seed 8 --atoms single --full-addr \
	--branch-broadcast --features arm,thumb,exc,b2b,cancel,gaps
roundtrip ptm-cs3 --protocol ptm --seed 9 --format coresight --sources 3 \
	--atoms random --features all --insns 3000
roundtrip etm-cs2 --protocol etmv3 --seed 10 --format coresight --sources 2 \
	--cycle-accurate --features all
for s in 11 12 13 14 15 16; do
	roundtrip "mix$s" --protocol $([ $((s % 2)) -eq 0 ] && echo ptm || echo etmv3) \
		--seed $s --features all --atoms random --insns 1500
done

# same seed, same bytes
"$ETMTRACE" synth "$tmp/a" --seed 42 --features all > /dev/null 2>&1
"$ETMTRACE" synth "$tmp/b" --seed 42 --features all > /dev/null 2>&1
check "cmp -s '$tmp/a/trace.bin' '$tmp/b/trace.bin' && cmp -s '$tmp/a/mem_0_1.bin' '$tmp/b/mem_0_1.bin'" \
	"synth is reproducible from its seed"
"$ETMTRACE" synth "$tmp/c" --seed 43 --features all > /dev/null 2>&1
check "! cmp -s '$tmp/a/trace.bin' '$tmp/c/trace.bin'" "another seed gives other trace"

# usage errors: exit 2 with a message; --help exits 0
"$ETMTRACE" synth "$tmp/e" --protocol etmv3 --ret-stack 2> "$tmp/err"; rc=$?
check "[ $rc -eq 2 ] && grep -q ret-stack '$tmp/err'" "--ret-stack with ETMv3 -> exit 2"
"$ETMTRACE" synth "$tmp/e" --sources 2 2> "$tmp/err"; rc=$?
check "[ $rc -eq 2 ] && grep -q coresight '$tmp/err'" "--sources 2 with raw -> exit 2"
"$ETMTRACE" synth "$tmp/e" --bogus 2> "$tmp/err"; rc=$?
check "[ $rc -eq 2 ] && grep -q bogus '$tmp/err'" "unknown option -> exit 2"
"$ETMTRACE" synth "$tmp/e" --features arm,frob 2> /dev/null; rc=$?
check "[ $rc -eq 2 ]" "unknown feature -> exit 2"
"$ETMTRACE" synth 2> /dev/null; rc=$?
check "[ $rc -eq 2 ]" "no directory -> exit 2"
"$ETMTRACE" synth --help > "$tmp/h"; rc=$?
check "[ $rc -eq 0 ] && grep -q usage '$tmp/h'" "synth --help"

# Eight sources (the most): the device list holds coreK=cpu_K.ini and
# sourceK=source_K.ini for K = 0..7, in that order, and nothing else
# (snapshot format: a key and a device file per device).
"$ETMTRACE" synth "$tmp/s8" --format coresight --sources 8 --insns 50 > /dev/null 2>&1; rc=$?
for k in 0 1 2 3 4 5 6 7; do printf 'core%d=cpu_%d.ini\nsource%d=source_%d.ini\n' $k $k $k $k; done > "$tmp/s8.want"
check "[ $rc -eq 0 ] && sed -n '/^\[device_list\]/,/^\$/p' '$tmp/s8/snapshot.ini' | grep = | diff -q - '$tmp/s8.want' > /dev/null" "--sources 8: device list core0..7/source0..7"

[ $fail -eq 0 ] && echo "synth tests passed" || echo "$fail synth tests failed"
exit $((fail != 0))
