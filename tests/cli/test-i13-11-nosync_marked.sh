#!/usr/bin/env bash
# tests/cli/test-i13-11-nosync_marked.sh - issue 13 item 11 (part): a loss
# of synchronisation says what it means and where the listing resumes.
# (Coalescing of repeated diagnostics and in-place marks of image
# disagreements are not done: see the issue's closing note.)
. "$(dirname "$0")/i13-lib.sh"
am=${ETM_SHARED:-}/snapshots/am243x-freertos-1
[ -d "$am" ] || { echo "skip: $am missing"; exit 77; }
"$ETMTRACE" decode "$am" > "$tmp/a" 2>/dev/null
check "grep -q '^-- not synchronised: trace lost here, the listing resumes at the next address the trace gives' '$tmp/a'" "not synchronised: explained"
finish
