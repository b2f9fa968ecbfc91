#!/usr/bin/env bash
# tests/cli/test-cli_public_headers.sh - the CLI uses the library through
# its public headers: every quoted include of cli/ names a header of cli/
# itself (<etmtrace/*.h> are the public headers). The build enforces it too
# (only include/ and cli/ are on the CLI's include path: CMakeLists.txt);
# this says which include broke the rule.
. "$ETM_SRCDIR/tests/cli/lib.sh"

# The quoted includes of the *.c and *.h of directory $1 that name no file
# of it, as FILE:LINE: HEADER.
foreign_includes() {
	(cd "$1" && grep -n '^#include "' ./*.c ./*.h 2>/dev/null) |
		while IFS=: read -r f line inc; do
			h=${inc#*\"}
			h=${h%\"*}
			[ -f "$1/$h" ] || echo "$f:$line: $h"
		done
}

foreign_includes "$ETM_SRCDIR/cli" > "$tmp/bad"
check '[ ! -s "$tmp/bad" ]' "cli/ includes only cli/*.h and include/etmtrace/*.h $(sed 's/^/  /' "$tmp/bad" | tr '\n' ' ')"
# and the check sees a private header where there is one
mkdir "$tmp/probe"
printf '#include "probe.h"\n#include "listing/listing.h"\n' > "$tmp/probe/probe.c"
: > "$tmp/probe/probe.h"
check '[ "$(foreign_includes "$tmp/probe")" = "./probe.c:2: listing/listing.h" ]' "a private header is seen"
finish
