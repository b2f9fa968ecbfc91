#!/usr/bin/env bash
# tests/fuzz/coverage.sh - line coverage of each fuzz target's source files
# when its corpus is replayed, from a gcc --coverage build:
#   cmake -S . -B build-cov -DCMAKE_C_FLAGS="--coverage -O0" \
#         -DCMAKE_EXE_LINKER_FLAGS=--coverage
#   cmake --build build-cov --target replay-dfmt ... (all replay-*)
#   tests/fuzz/coverage.sh build-cov [CORPUS_ROOT]
set -euo pipefail
build=$(cd "${1:?build dir}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${2:-$src/tests/fuzz/corpus}
# objects of layer L: CMakeFiles/etm_L.dir/src/L (one library per layer)
obj=$build/CMakeFiles

files_for() {
	case $1 in
	dfmt) echo source/dfmt.c ;;
	etm3_pkt) echo packet/etm3_pkt.c packet/pktbuf.c packet/sync.c packet/describe.c ;;
	ptm_pkt) echo packet/ptm_pkt.c packet/pktbuf.c packet/sync.c packet/describe.c ;;
	flow_etm3) echo flow/flow_etm3.c flow/flow.c decoder/decoder.c image/bcache.c ;;
	flow_ptm) echo flow/flow_ptm.c flow/retstack.c flow/flow.c decoder/decoder.c ;;
	ini) echo load/ini.c load/snapshot.c ;;
	elf) echo load/elf.c ;;
	esac
}

for t in dfmt etm3_pkt ptm_pkt flow_etm3 flow_ptm ini elf; do
	find "$build" -name '*.gcda' -delete
	"$build/tests/fuzz/replay-$t" "$corpus/$t" >/dev/null
	line="$t:"
	for f in $(files_for "$t"); do
		pct=$(cd "$obj/etm_$(dirname "$f").dir/src/$(dirname "$f")" &&
		      gcov -n "$(basename "$f").gcda" 2>/dev/null |
		      awk -v f="$(basename "$f")" '
			$0 ~ "^File .*" f "'"'"'" { hit = 1; next }
			hit && /Lines executed/ { sub("Lines executed:", "");
						  print; exit }')
		line="$line $f ${pct:-?}"
	done
	echo "$line"
done
