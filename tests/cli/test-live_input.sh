#!/usr/bin/env bash
# tests/cli/test-live_input.sh - live input (doc/live.md): a capture
# replayed by tests/cli/live_server.py over TCP (and a FIFO, and a pipe on
# standard input) in random pieces with pauses decodes byte for byte as the
# file does, and the client writes its first lines while the server still
# holds the rest of the stream (the server waits for them: no timing);
# SIGINT ends the decode as the end of the stream would, at the bytes
# received (the file decode of that prefix).
. "$(dirname "$0")/lib.sh"
SRV="$ETM_SRCDIR/tests/cli/live_server.py"
A="$ETM_SHARED/snapshots/am243x-freertos-1"
[ -f "$A/etb.bin" ] || { echo "skip: $A missing"; exit 77; }
# live_eq NAME FILE WANT SERVER-OPTIONS -- CMD...: the stream's output equals WANT
live_eq() {
	local name=$1 file=$2 want=$3 rc
	shift 3
	$PY "$SRV" "$file" "$tmp/got" "$@" > "$tmp/srv"; rc=$?
	check "[ $rc -eq 0 ] && cmp -s '$tmp/got' '$want'" "$name: equal to the file decode, first lines before the end ($(cat "$tmp/srv"); $(tail -1 "$tmp/got.err"))"
}

# synthetic ETMv3 in CoreSight frames: text, jsonl and packets over TCP
synth_snap "$tmp/e3" --protocol etmv3 --format coresight --insns 20000 --seed 11
IM=$(images "$tmp/e3")
# the whole configuration given: what the head holds depends on timing,
# so nothing is left to detection or inference (doc/live.md)
C3="--protocol etmv3 --etmcr 0 --id 10 --input-format coresight $IM"
"$ETMTRACE" decode "$tmp/e3/trace.bin" $C3 --pieces off > "$tmp/e3.txt" 2> /dev/null
check "[ \$(wc -l < '$tmp/e3.txt') -gt 20000 ]" "synthetic ETMv3: file decode lists its 20000 instructions"
live_eq "synthetic ETMv3 text over TCP" "$tmp/e3/trace.bin" "$tmp/e3.txt" --seed 1 -- "$ETMTRACE" decode {url} $C3
"$ETMTRACE" decode "$tmp/e3/trace.bin" $C3 --pieces off --format jsonl > "$tmp/e3.jsonl" 2> /dev/null
live_eq "synthetic ETMv3 jsonl over TCP, --probe-wait 0" "$tmp/e3/trace.bin" "$tmp/e3.jsonl" --seed 2 --first 4000 -- "$ETMTRACE" decode {url} $C3 --format jsonl --probe-wait 0
"$ETMTRACE" packets "$tmp/e3/trace.bin" $C3 > "$tmp/e3.pkt" 2> /dev/null
live_eq "synthetic ETMv3 packets over TCP" "$tmp/e3/trace.bin" "$tmp/e3.pkt" --seed 3 -- "$ETMTRACE" packets {url} $C3
# the generator's ground truth: the stream's canon is the expected list
live_eq "synthetic ETMv3 canon over TCP" "$tmp/e3/trace.bin" "$tmp/e3.exp" --seed 4 -- "$ETMTRACE" decode {url} $C3 --format canon

# synthetic PTM, raw bytes of one source
synth_snap "$tmp/pt" --protocol ptm --insns 20000 --seed 12
CP="--protocol ptm --etmcr $(sed -n 's/^ETMCR[^=]*=//p' "$tmp/pt/source_0.ini") --input-format raw $(images "$tmp/pt")"
"$ETMTRACE" decode "$tmp/pt/trace.bin" $CP > "$tmp/pt.txt" 2> /dev/null
live_eq "synthetic PTM raw over TCP" "$tmp/pt/trace.bin" "$tmp/pt.txt" --seed 5 -- "$ETMTRACE" decode {url} $CP

# a real capture: the AM243x R5F's ETB (ETMv3.3) with its ELF, the
# configuration of its snapshot given by options
CA="--elf $A/freertos.out --protocol etmv3 --etmcr 0xc40 --etmidr 0x4104f230 --id 10 --input-format coresight"
"$ETMTRACE" decode "$A/etb.bin" $CA --pieces off > "$tmp/am.txt" 2> /dev/null
live_eq "am243x over TCP" "$A/etb.bin" "$tmp/am.txt" --seed 6 -- "$ETMTRACE" decode {url} $CA
live_eq "am243x over a FIFO" "$A/etb.bin" "$tmp/am.txt" --seed 7 --fifo "$tmp/fifo" -- "$ETMTRACE" decode {url} $CA
live_eq "am243x on standard input (a pipe)" "$A/etb.bin" "$tmp/am.txt" --seed 8 --stdin -- "$ETMTRACE" decode - $CA

# SIGINT after the first lines: a normal end at the bytes received
$PY "$SRV" "$A/etb.bin" "$tmp/int" --seed 9 --interrupt -- "$ETMTRACE" decode {url} $CA > "$tmp/srv"; rc=$?
n=$(sed -n 's/.*: interrupted after \([0-9]*\) bytes$/\1/p' "$tmp/int.err")
head -c "${n:-0}" "$A/etb.bin" > "$tmp/prefix.bin"
"$ETMTRACE" decode "$tmp/prefix.bin" $CA --pieces off > "$tmp/prefix.txt" 2> /dev/null; prc=$?
check "[ $rc -eq $prc ] && [ \${n:-0} -gt 0 ] && cmp -s '$tmp/int' '$tmp/prefix.txt'" "SIGINT: exit $rc as the file decode of the $n bytes received, and its listing ($(cat "$tmp/srv"))"

# what is not a stream
"$ETMTRACE" decode tcp://127.0.0.1 2> "$tmp/e"; rc=$?
check "[ $rc -eq 2 ] && grep -q 'expected tcp://HOST:PORT' '$tmp/e'" "tcp:// without a port: usage ($(cat "$tmp/e"))"
port=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$ETMTRACE" decode "tcp://127.0.0.1:$port" 2> "$tmp/e"; rc=$?
check "[ $rc -eq 2 ] && grep -q 'refused' '$tmp/e'" "no server: connection refused, exit 2 ($(cat "$tmp/e"))"
finish
