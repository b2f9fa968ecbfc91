#!/usr/bin/env bash
# tests/fuzz/test-cli-warn.sh - `etmtrace decode` prints one warning line
# naming the likely misconfiguration (wrong protocol, cycle-accurate,
# Context ID size) or a mismatching image, and none for a good setup.
# Traces: fuzz seeds enc-00 (ETMv3.5) and enc-06 (PFT1.1) over fuzz-image.s.
set -u
d=$(cd "$(dirname "$0")/cli" && pwd)
img="--image $d/img-vec.bin@0 --image $d/img-arm.bin@0x8000 --image $d/img-thumb.bin@0x9000"
fail=0 pass=0

# expect TRACE "PATTERN" ARGS...: stderr has exactly the warning lines the
# pattern allows ("" = no warning at all)
expect() {
	local trace=$1 pat=$2 err n
	shift 2
	err=$("$ETMTRACE" decode "$d/$trace" "$@" $img --stats 2>&1 >/dev/null)
	n=$(grep -c "warning" <<<"$err")
	if [ -z "$pat" ] && [ "$n" -eq 0 ]; then
		pass=$((pass + 1))
	elif [ -n "$pat" ] && [ "$n" -eq 1 ] && grep -q -- "$pat" <<<"$err"; then
		pass=$((pass + 1))
	else
		echo "FAIL: $trace $* -> expected '$pat', got: $err"
		fail=$((fail + 1))
	fi
}

e3="--protocol etmv3 --etmidr 0x410CF250"
ptm="--protocol ptm --etmidr 0x411CF312"
expect trace-etm3.bin "" $e3
expect trace-ptm.bin "" $ptm
expect trace-etm3.bin "fits the trace with: protocol etmv3" $ptm
expect trace-ptm.bin "fits the trace with: protocol ptm" $e3
expect trace-ptm.bin "cycle-accurate off" $ptm --etmcr 0x1000
expect trace-ptm.bin "0-byte Context ID" $ptm --etmcr 0xc000
expect trace-etm3.bin "0-byte Context ID" $e3 --etmcr 0xc000
# ARM and Thumb code swapped: an image problem, not a configuration one
err=$("$ETMTRACE" decode "$d/trace-ptm.bin" $ptm --image "$d/img-vec.bin@0" \
	--image "$d/img-thumb.bin@0x8000" --image "$d/img-arm.bin@0x9000" \
	--stats 2>&1 >/dev/null)
if grep -q "disagrees with the image" <<<"$err"; then
	pass=$((pass + 1))
else
	echo "FAIL: swapped image -> $err"
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
