#!/usr/bin/env bash
# tests/cli/test-example.sh - the library example examples/profile.c on the
# built-in sample, and `etmtrace profile --format folded` likewise, against
# the call tree derived by hand from the program and execution written in
# examples/mksample.c:
#   main runs 0x8000, 0x8004, three times blx/subs/bne (0x8008, 0x800c,
#   0x8010), svc 0x8014, then b . twice at 0x8018: 2 + 9 + 1 + 2 = 14;
#   count() runs 5 instructions per call (adds, cmp, beq, movs, bx lr): 15;
#   the SVC enters the vector at 0x8 (b 0x100): 1 instruction in
#   "vectors", whose branch goes on to the handler (push, add, pop,
#   movs pc, lr): 4 in "svc_handler", nested under it; movs pc, lr returns
#   to 0x8018 in main (the exception's return address).
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sample=${ETM_SRCDIR}/examples/sample
cat > "$tmp/syms" <<'SYMS'
00000000 00000010 T vectors
00000100 00000010 T svc_handler
00008000 0000001c T main
00008101 0000000e T count
SYMS
cat > "$tmp/want" <<'WANT'
main 14
main;count 15
main;[exception SVC];vectors 1
main;[exception SVC];vectors;svc_handler 4
WANT
fail=0
"$ETM_BUILD/profile_example" "$sample" "$tmp/syms" > "$tmp/ex" || fail=1
diff "$tmp/want" "$tmp/ex" && echo "ok   examples/profile.c: the hand-derived call tree" || fail=1
"$ETMTRACE" profile "$sample" --symbols "$tmp/syms" --format folded > "$tmp/cli" || fail=1
diff "$tmp/want" "$tmp/cli" && echo "ok   etmtrace profile --format folded: the same" || fail=1
"$ETMTRACE" profile "$sample" --symbols "$tmp/syms" > "$tmp/flat" || fail=1
# columns: self%, children%, self, inclusive, calls, (cycles,) name
[ "$(awk '$NF == "main" { print $3, $4, $5 }' "$tmp/flat")" = "14 34 0" ] &&
[ "$(awk '$NF == "count" { print $3, $4, $5 }' "$tmp/flat")" = "15 15 3" ] &&
grep -q 'calls 3, returns 4, exceptions 1' "$tmp/flat" &&
	echo "ok   flat: main 14 self / 34 inclusive, count 3 calls, 4 returns" || { cat "$tmp/flat"; fail=1; }
exit $fail
