#!/usr/bin/env bash
# tests/cli/test-packets_partial_addr.sh - a
# compressed branch address before the source's first full address (an
# I-sync) is shown as partial, not as if its high bits were known.
# Hand-made ETMv3 trace: A-sync, a one-byte branch address packet 0x21
# (bit 0 = 1: branch; address bits [6:1] = 0x10 -> 0x40, nothing above),
# then an I-sync to 0x01000080 and the same kind of packet 0x43 (-> 0x84,
# high bits from the I-sync: 0x01000084).
. "$(dirname "$0")/lib.sh"
printf '\x00\x00\x00\x00\x00\x80\x21\x08\x00\x80\x00\x00\x01\x43' > "$tmp/t.bin"
"$ETMTRACE" packets "$tmp/t.bin" --protocol etmv3 --etmcr 0 > "$tmp/p" 2>/dev/null
check "grep -q 'BRANCH_ADDRESS *Addr=0x00000040 (low .* address bits only: no full address yet)' '$tmp/p'" "branch before the first I-sync: partial"
check "grep -q 'BRANCH_ADDRESS *Addr=0x01000084\$' '$tmp/p'" "branch after it: full address, no remark"
"$ETMTRACE" packets "$tmp/t.bin" --protocol etmv3 --etmcr 0 --format jsonl > "$tmp/j" 2>/dev/null
check "[ \$(grep -c '\"addr_known\":false' '$tmp/j') -eq 1 ]" "jsonl: addr_known false on the first one only"
finish
