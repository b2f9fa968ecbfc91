#!/usr/bin/env bash
# tests/cli/test-hostile.sh - the CLI against hostile snapshots and options
# (issue 12): every case gives a clear one-line error (exit 2) or a correct
# result, never a crash, a hang or a silently misread value.
#   sources: > 128 trace sources, duplicate trace IDs
#   files: references stay in the snapshot directory, regular files only
#   addresses: images and dumps must lie below 2^32
#   numbers: -1, overflow, octal-looking values are refused with the range
set -u
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0 pass=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# run EXPECTED-EXIT PATTERN ARGS...: exit status and a stderr line matching
# PATTERN ("" = anything); a signal (status > 128) always fails.
run() {
	local want=$1 pat=$2 err rc
	shift 2
	err=$(timeout 20 "$ETMTRACE" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		bad "$* -> exit $rc (want $want): $err"
	elif [ -n "$pat" ] && ! grep -q -- "$pat" <<<"$err"; then
		bad "$* -> '$err' lacks '$pat'"
	else
		ok
	fi
}

# snapshot DIR N ID-EXPR: N ETMv3 sources on one buffer, source k with
# trace ID $((ID-EXPR)) (k in scope), one core, a 16-byte dump.
snapshot() {
	local dir=$1 n=$2 expr=$3 k
	mkdir -p "$dir"
	{
		echo "[snapshot]"; echo "version=1.0"
		echo "[device_list]"; echo "device0=cpu.ini"
		for ((k = 1; k <= n; k++)); do echo "device$k=etm$k.ini"; done
		echo "[trace]"; echo "metadata=trace.ini"
	} >"$dir/snapshot.ini"
	printf '[device]\nname=cpu_0\nclass=core\ntype=Cortex-A9\n[dump1]\nfile=mem.bin\naddress=0x8000\nlength=16\n' >"$dir/cpu.ini"
	for ((k = 1; k <= n; k++)); do
		printf '[device]\nname=ETM_%d\nclass=trace_source\ntype=ETM3.5\n[regs]\nETMCR=0x0\nETMIDR=0x410CF250\nETMTRACEIDR=0x%x\n' \
			"$k" "$((expr))" >"$dir/etm$k.ini"
	done
	{
		echo "[trace_buffers]"; echo "buffers=buffer0"
		echo "[buffer0]"; echo "name=ETB_0"; echo "file=trace.bin"; echo "format=coresight"
		echo "[source_buffers]"
		for ((k = 1; k <= n; k++)); do echo "ETM_$k=ETB_0"; done
		echo "[core_trace_sources]"
		for ((k = 1; k <= n; k++)); do echo "cpu_0=ETM_$k"; done
	} >"$dir/trace.ini"
	head -c 16 /dev/zero >"$dir/mem.bin"
	head -c 64 /dev/zero >"$dir/trace.bin"
}

# 1. sources: 200 (> 128) with repeated IDs; 111 distinct IDs decode
snapshot "$t/s200" 200 'k % 111 + 1'
for cmd in decode packets; do
	run 2 "both use trace ID 0x02" $cmd "$t/s200"
done
run 2 "both use trace ID 0x05" decode "$t/s200" --id 5
snapshot "$t/s111" 111 'k'
run 1 "no instructions decoded" decode "$t/s111"   # (no code in the dump)
run 1 "no packets (no synchronisation) in 64 bytes" packets "$t/s111" --id 0x6f
snapshot "$t/dup" 2 '0x10'
run 2 "ETM_1 and ETM_2 both use trace ID 0x10" decode "$t/dup"

# 3. addresses past 32 bits: an image or dump must end by 2^32
img=(decode "$t/s111/trace.bin" --protocol etmv3)
run 2 "does not fit in the 32-bit address space" "${img[@]}" --image "$t/s111/mem.bin@0xFFFFFFF8"
run 1 "no instructions decoded" "${img[@]}" --image "$t/s111/mem.bin@0xFFFFFFF0"
snapshot "$t/hi" 1 '0x10'
sed -i 's/^address=0x8000/address=0xFFFFFFF8/' "$t/hi/cpu.ini"
run 2 "lies beyond the 32-bit address space" decode "$t/hi"
sed -i '/^length=/d' "$t/hi/cpu.ini"
run 2 "does not fit in the 32-bit address space" decode "$t/hi"
run 1 "no packets (no synchronisation) in 64 bytes" packets "$t/hi"

# 4. file references: inside the snapshot directory unless --allow-outside,
# regular files only (a FIFO blocked for ever, /dev/zero never ended)
mkdir -p "$t/secret"
head -c 16 /dev/urandom >"$t/secret/key.bin"
snapshot "$t/out" 1 '0x10'
sed -i 's|^file=mem.bin|file=../secret/key.bin|' "$t/out/cpu.ini"
run 2 "'../secret/key.bin' lies outside the snapshot directory" decode "$t/out"
run 2 "lies outside the snapshot directory" info "$t/out"
run 1 "no instructions decoded" decode "$t/out" --allow-outside
run 0 "" info "$t/out" --allow-outside
sed -i "s|^file=../secret/key.bin|file=$t/secret/key.bin|" "$t/out/cpu.ini"
run 2 "lies outside the snapshot directory" decode "$t/out"
sed -i "s|^file=$t/secret/key.bin|file=mem.bin|" "$t/out/cpu.ini"
ln -sf "$t/secret/key.bin" "$t/out/mem.bin"
run 2 "'mem.bin' lies outside the snapshot directory" decode "$t/out"
run 1 "no instructions decoded" decode "$t/out" --allow-outside
sed -i 's|^device1=etm1.ini|device1=../s111/etm1.ini|' "$t/out/snapshot.ini"
run 2 "'../s111/etm1.ini' lies outside" packets "$t/out"
snapshot "$t/fifo" 1 '0x10'
rm "$t/fifo/etm1.ini" && mkfifo "$t/fifo/etm1.ini"
run 2 "'etm1.ini' is not a regular file" info "$t/fifo"
snapshot "$t/zero" 1 '0x10'
ln -sf /dev/zero "$t/zero/trace.bin"
run 2 "lies outside" packets "$t/zero"
run 2 "is not a regular file" decode "$t/zero" --allow-outside
snapshot "$t/dir" 1 '0x10'
rm "$t/dir/mem.bin" && mkdir "$t/dir/mem.bin"
run 2 "'mem.bin' is not a regular file" decode "$t/dir"

# 5. numbers: strict, with the range in the message
raw=(decode "$t/s111/trace.bin" --protocol etmv3)
# --id is hex, as the listings print it (issue 13): 10 is 0x10
run 2 "'-1' (expected 0x1-0x6f, hex)" "${raw[@]}" --id -1
run 2 "'1g' (expected 0x1-0x6f, hex)" "${raw[@]}" --id 1g
run 2 "'0x70' (expected 0x1-0x6f, hex)" "${raw[@]}" --id 0x70
run 2 "'70' (expected 0x1-0x6f, hex)" "${raw[@]}" --id 70
run 2 "given twice" "${raw[@]}" --input-format coresight --id 10 --id 0x10
run 2 "(expected 0x0-0xffffffff" "${raw[@]}" --etmcr 0x100000000
run 2 "(expected 0x0-0xffffffff" "${raw[@]}" --etmcr 18446744073709551616
run 2 "(expected 0x0-0xffffffff" "${raw[@]}" --etmcr ' 1'
run 2 "'+1' (expected 1-256" "${raw[@]}" --jobs +1
run 2 "(expected 0x0-0xffffffff" "${raw[@]}" --image "$t/s111/mem.bin@-8"
run 2 "(expected FILE@ADDRESS)" "${raw[@]}" --image "$t/s111/mem.bin"
run 2 "'-1' (expected 1-10000000" synth "$t/syn" --insns -1
run 2 "expected 0, 1, 2 or 4" synth "$t/syn" --ctxid-bytes 3
run 2 "unknown option '--'" "${raw[@]}" --   # looped for ever (fuzz-session)
run 1 "no program image" "${raw[@]}" --input-format coresight --id 0x10 --id 17 --jobs 2 --etmcr 0
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
