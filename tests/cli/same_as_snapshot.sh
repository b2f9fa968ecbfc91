# tests/cli/same_as_snapshot.sh - (sourced after lib.sh) decode every
# source of a snapshot three ways and check they agree for each trace ID:
# the snapshot (`--id X`), its trace file with `--id X` and the registers of
# the snapshot's .ini files given as options, and its trace file with
# `--id X` and only the core's memory dumps as images (configuration
# inferred). With the registers, equal means the same JSON lines (every
# element with its offset, errors included) and exit status of `decode`, and
# the same `packets` listing; with only the image, the same instructions
# (canon) and exit status (an inferred configuration may leave out what
# does not change the instructions: cycle counts, timestamps). The registers and images come from the .ini files
# (snap_sources.py), not from etmtrace.
#
# same_as_snapshot DIR LABEL [FILEOPTS [NOINFER]]: FILEOPTS go to the
# trace-file ways (e.g. --input-format); the IDs in NOINFER (e.g. "10 12")
# skip the image-only way (the caller says why); sets $sources to the IDs
# compared.
same_as_snapshot() {
	local d=$1 label=$2 fo=${3:-} noinfer=" ${4:-} " id p cr ccer idr buf img
	sources=
	while read -r id p cr ccer idr buf img; do
		sources="$sources $id"
		"$ETMTRACE" decode "$d" --id "$id" --format jsonl > "$tmp/s.j" 2> /dev/null
		echo "rc $?" >> "$tmp/s.j"
		"$ETMTRACE" decode "$d" --id "$id" --format canon > "$tmp/s.c" 2> /dev/null
		echo "rc $?" >> "$tmp/s.c"
		"$ETMTRACE" packets "$d" --id "$id" > "$tmp/s.p" 2> /dev/null
		# shellcheck disable=SC2086 # options are words
		"$ETMTRACE" decode "$buf" --id "$id" $fo --protocol "$p" --etmcr "$cr" \
			--etmccer "$ccer" --etmidr "$idr" $img --format jsonl > "$tmp/r.j" 2> /dev/null
		echo "rc $?" >> "$tmp/r.j"
		# shellcheck disable=SC2086
		"$ETMTRACE" packets "$buf" --id "$id" $fo --protocol "$p" --etmcr "$cr" \
			--etmccer "$ccer" --etmidr "$idr" > "$tmp/r.p" 2> /dev/null
		check "cmp -s '$tmp/s.j' '$tmp/r.j' && cmp -s '$tmp/s.p' '$tmp/r.p'" \
			"$label ID 0x$id: trace file with --id and the registers = snapshot: elements, exit status, packets ($(grep -c '"range"' "$tmp/s.j") ranges, $(wc -l < "$tmp/s.p") packet lines)"
		[ "${noinfer/ $id /}" != "$noinfer" ] && continue
		# shellcheck disable=SC2086
		"$ETMTRACE" decode "$buf" --id "$id" $fo $img --format canon > "$tmp/i.c" 2> /dev/null
		echo "rc $?" >> "$tmp/i.c"
		check "cmp -s '$tmp/s.c' '$tmp/i.c'" \
			"$label ID 0x$id: trace file with --id and only the image = snapshot: instructions, exit status ($(grep -vc '^GAP' "$tmp/s.c") lines)"
	done < <($PY "$ETM_SRCDIR/tests/cli/snap_sources.py" "$d")
}
