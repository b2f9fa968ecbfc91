#!/usr/bin/env bash
# tests/cli/test-nosync_marked.sh - a loss
# of synchronisation says what it means and where the listing resumes.
# (Resync markers, coalescing of repeated diagnostics and in-place marks of
# image disagreements: test-resync_coalesce_marks.sh.)
. "$(dirname "$0")/lib.sh"
am=${ETM_SHARED:-}/snapshots/am243x-freertos-1
[ -d "$am" ] || { echo "skip: $am missing"; exit 77; }
"$ETMTRACE" decode "$am" --pieces off > "$tmp/a" 2>/dev/null
# am243x's one loss of sync is the debug halt at offset 7166 whose restart
# I-sync was not captured (issue 11), read as one input (--pieces off: by
# default the halt ends a piece of the circular buffer, doc/circular.md,
# and nothing follows it there): the line names that reason; a loss with
# no reason of its own says where the listing resumes (src/listing/listing.c)
check "grep -q '^-- not synchronised: no restart sync after a debug halt' '$tmp/a'" "not synchronised: explained"
check "! grep '^-- not synchronised' '$tmp/a' | grep -qv '^-- not synchronised: .'" "every loss of sync explained"
finish
