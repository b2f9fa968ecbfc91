#!/usr/bin/env bash
# tests/cli/test-cli_public_headers.sh - the CLI uses the library through
# its public headers: every quoted include of cli/ names a header of cli/
# itself. The build enforces most of it (only include/ and cli/ are on the
# CLI's include path); the one exception left, the decode listing's
# formatter (listing/*.h in cli/par_run.h: CMakeLists.txt), is checked
# here so that it does not spread.
. "$ETM_SRCDIR/tests/cli/lib.sh"
cd "$ETM_SRCDIR/cli" || exit 2
grep -n '^#include "' ./*.c ./*.h | while IFS=: read -r f line inc; do
	h=${inc#*\"}
	h=${h%\"*}
	[ -f "$h" ] && continue
	case "$f:$h" in
	./par_run.h:listing/listing_par.h | ./par_run.h:listing/run_totals.h) continue ;;
	esac
	echo "$f:$line: $h"
done > "$tmp/bad"
check '[ ! -s "$tmp/bad" ]' "cli/ includes only cli/*.h and include/etmtrace/*.h $(sed 's/^/  /' "$tmp/bad" | tr '\n' ' ')"
# and the check sees a private header where there is one
check '[ "$(grep -c "listing/" par_run.h)" -ge 1 ]' "the exception it allows is still there (else drop it here and in CMakeLists.txt)"
finish
