#!/usr/bin/env bash
# tests/cli/test-pft10_gray_ts.sh - PFT 1.0
# timestamps are Gray-decoded (ETMCCER[28] is reserved in PFT 1.0; doc/
# design.md), and info says so. The synthetic trace's timestamps are
# Gray-coded by our encoder and ascend: decoded as PFT 1.0 they ascend and
# equal the PFT 1.1 decode that states Gray in ETMCCER[28] = 0.
. "$(dirname "$0")/lib.sh"
"$ETMTRACE" synth "$tmp/s" --protocol ptm --timestamps 48 --ts-gray --features arm,thumb,ts --insns 5000 > /dev/null 2>&1
"$ETMTRACE" decode "$tmp/s" --format jsonl | grep '"kind":"timestamp"' > "$tmp/t11"
sed -i 's/^ETMIDR(0x079)=.*/ETMIDR(0x079)=0x411cf302/' "$tmp/s/source_0.ini"   # PFT 1.0
"$ETMTRACE" decode "$tmp/s" --format jsonl | grep '"kind":"timestamp"' > "$tmp/t10"
n=$(wc -l < "$tmp/t10")
asc=$($PY -c 'import json,sys; v=[json.loads(l)["timestamp"] for l in open(sys.argv[1])]; print(int(all(a<b for a,b in zip(v,v[1:]))))' "$tmp/t10")
check "[ $n -gt 10 ] && [ $asc -eq 1 ]" "PFT 1.0: $n timestamps, ascending"
check "cmp -s '$tmp/t10' '$tmp/t11'" "PFT 1.0 timestamps equal the PFT 1.1 Gray decode"
"$ETMTRACE" info "$tmp/s" > "$tmp/i"
check "grep -q 'Gray: PFT 1.0, ETMCCER\[28\] reserved' '$tmp/i'" "info says the PFT 1.0 timestamps are read as Gray"
finish
