#!/usr/bin/env bash
# tests/cli/test-perfdata_sideband.sh - a perf.data recorded CPU-wide
# without Context IDs (convert --cpu-wide: every source's trace is CPU 0's,
# one AUX buffer each, of process 1000 + k mapping that source's program
# alone; SWITCH_CPU_WIDE records between the buffers name the process;
# the AUX records name the idle task, pid 0): each source decoded from the
# perf.data equals the generator's list (synth --expect: ground truth), so
# each buffer was read with the memory of the process the switch records
# name (the programs differ per source at the same addresses). And
# --vmlinux FILE (perf's name for the kernel's ELF, = --elf): a perf.data
# whose program is mapped in another process only (convert --map-pids 5)
# decodes to gaps alone, with --vmlinux the program's ELF to the list.
. "$ETM_SRCDIR/tests/cli/lib.sh"

# wide NAME "SYNTH ARGS" "CONVERT ARGS": every source equal to its list
wide() {
	local name=$1 sargs=$2 cargs=$3 d="$tmp/$1" ok=1 id exp n=0
	# shellcheck disable=SC2086
	"$ETMTRACE" synth "$d" --expect "$d.exp" --insns 500 --format coresight $sargs > /dev/null 2>&1 ||
		{ echo "FAIL: synth $name"; fail=$((fail + 1)); return; }
	# shellcheck disable=SC2086
	"$ETMTRACE" convert "$d" --perf-data "$d/perf.data" --cpu-wide $cargs 2> "$tmp/err" ||
		{ echo "FAIL: convert $name: $(cat "$tmp/err")"; fail=$((fail + 1)); return; }
	for exp in "$d.exp".0x*; do
		id=${exp##*.}
		"$ETMTRACE" decode "$d/perf.data" --id "$id" --format canon > "$d.got" 2> /dev/null
		if [ -s "$d.got" ] && canon_eq "$d.got" "$exp"; then
			n=$((n + 1))
		else
			ok=0
			echo "     $name: trace ID $id differs from the generator's list"
		fi
	done
	check '[ $ok = 1 ] && [ $n -ge 2 ]' "$name: $n sources of one CPU's buffers, each read with its switched-to process's memory"
}

wide ptm-2 "--protocol ptm --sources 2 --seed 3" ""
wide etmv3-3 "--protocol etmv3 --sources 3 --seed 5" ""
wide ptm-3-v0-be "--protocol ptm --sources 3 --seed 7" "--perf-version 0 --big-endian"

# --cpu-wide is refused where it cannot be written
"$ETMTRACE" convert "$tmp/ptm-2" --perf-data "$tmp/x.data" --cpu-wide --raw 2> "$tmp/err"
check '[ $? = 2 ] && grep -q "cpu-wide" "$tmp/err"' "convert --cpu-wide --raw: refused with a message"

# --vmlinux FILE
d="$tmp/vm"
synth_snap "$d" --insns 400 --seed 4
"$ETMTRACE" convert "$d" --perf-data "$d/perf.data" --map-pids 5 2> /dev/null
"$ETMTRACE" decode "$d/perf.data" --format canon > "$d.no" 2> /dev/null
check '! grep -qv "^GAP" "$d.no"' "--map-pids 5: pid 1000's trace has no memory: no instruction listed"
"$ETMTRACE" decode "$d/perf.data" --vmlinux "$d/cpu0.elf" --format canon > "$d.got" 2> /dev/null
check '[ -s "$d.got" ] && canon_eq "$d.got" "$d.exp"' "--vmlinux the program's ELF: the generator's list"
finish
