#!/usr/bin/env bash
# tests/api/test-exports.sh - the public API is what the shared library
# exports, and nothing else:
# 1. exports/libetmtrace.txt and exports/libetmtrace_symbols.txt are sorted
#    (LC_ALL=C) lists of unique names, one a line;
# 2. `nm -D --defined-only` of libetmtrace.so names exactly the functions of
#    exports/libetmtrace.txt (the linker version script made from it hides
#    the rest);
# 3. every name of exports/libetmtrace_symbols.txt is defined in
#    libetmtrace_symbols (a static archive: its internals cannot be hidden);
# 4. the functions declared in include/etmtrace/*.h - read by the compiler
#    (-aux-info lists every prototype with the file that declares it) - are
#    exactly the names of the two lists.
# Argument: "library" (1-3) or "headers" (1 and 4); none: all.
set -u
part=${1:-all}
: "${ETM_LIB:?}" "${ETM_SYMLIB:?}" "${ETM_SRCDIR:?}" "${CC:?}"
command -v nm > /dev/null || { echo "SKIP: no nm"; exit 77; }
export LC_ALL=C
X=$ETM_SRCDIR/exports
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $1"; sed 's/^/    /' "$2"; fail=$((fail + 1)); }
for l in libetmtrace libetmtrace_symbols; do
	if ! sort -c -u "$X/$l.txt" 2> "$tmp/sort" || grep -qv '^[A-Za-z_][A-Za-z0-9_]*$' "$X/$l.txt"; then
		bad "exports/$l.txt is not a sorted list of unique names, one a line (LC_ALL=C sort -u)" "$tmp/sort"
	else
		echo "ok   exports/$l.txt: $(wc -l < "$X/$l.txt") names, sorted"
	fi
done

if [ "$part" != headers ]; then
	nm -D --defined-only "$ETM_LIB" | awk '{print $NF}' | sort -u > "$tmp/so"
	comm -23 "$tmp/so" "$X/libetmtrace.txt" > "$tmp/extra"
	comm -13 "$tmp/so" "$X/libetmtrace.txt" > "$tmp/missing"
	if [ -s "$tmp/extra" ]; then
		bad "$(basename "$ETM_LIB") exports symbols not in exports/libetmtrace.txt (internal symbols leak: check the version script in CMakeLists.txt)" "$tmp/extra"
	elif [ -s "$tmp/missing" ]; then
		bad "exports/libetmtrace.txt names functions $(basename "$ETM_LIB") does not define (a function removed or renamed: update the list)" "$tmp/missing"
	else
		echo "ok   $(basename "$ETM_LIB") exports exactly exports/libetmtrace.txt ($(wc -l < "$tmp/so") symbols)"
	fi

	nm -g --defined-only "$ETM_SYMLIB" 2> /dev/null | awk 'NF == 3 {print $3}' | sort -u > "$tmp/syma"
	# built without capstone (ETM_DISASM=0): etmtrace/disasm.h's functions
	# are not in the archive
	if [ "${ETM_DISASM:-1}" = 0 ]; then
		sed -n 's/.*\<\(etm_disasm_[a-z_]*\) *(.*/\1/p' "$ETM_SRCDIR/include/etmtrace/disasm.h" |
			sort -u > "$tmp/nodis"
		comm -23 "$X/libetmtrace_symbols.txt" "$tmp/nodis" > "$tmp/symlist"
	else
		cp "$X/libetmtrace_symbols.txt" "$tmp/symlist"
	fi
	comm -13 "$tmp/syma" "$tmp/symlist" > "$tmp/missing"
	if [ -s "$tmp/missing" ]; then
		bad "exports/libetmtrace_symbols.txt names functions $(basename "$ETM_SYMLIB") does not define" "$tmp/missing"
	else
		echo "ok   $(basename "$ETM_SYMLIB") defines every name of exports/libetmtrace_symbols.txt"
	fi

fi

if [ "$part" != library ]; then
	for h in "$ETM_SRCDIR"/include/etmtrace/*.h; do
		echo "#include <etmtrace/$(basename "$h")>"
	done > "$tmp/all.c"
	# -aux-info is GCC's: the build's compiler, else gcc (clang builds)
	ok=0
	for cc in "$CC" gcc; do
		command -v "$cc" > /dev/null || continue
		"$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -fsyntax-only -aux-info "$tmp/aux" \
			-I"$ETM_SRCDIR/include" "$tmp/all.c" 2> "$tmp/cc" && ok=1 && break
	done
	if [ $ok = 0 ]; then
		bad "the public headers do not compile on their own (or no GCC for -aux-info)" "$tmp/cc"
		exit 1
	fi
	# "/* .../include/etmtrace/x.h:12:NC */ extern int etm_f (...);": the name
	# before the first parenthesis
	grep '/include/etmtrace/[^/]*\.h:' "$tmp/aux" | sed 's|^/\*[^*]*\*/ *||' |
		sed -n 's/^[^(]*[^A-Za-z0-9_]\([A-Za-z_][A-Za-z0-9_]*\) *(.*/\1/p' | sort -u > "$tmp/decl"
	sort -u "$X/libetmtrace.txt" "$X/libetmtrace_symbols.txt" > "$tmp/listed"
	comm -23 "$tmp/decl" "$tmp/listed" > "$tmp/unlisted"
	comm -13 "$tmp/decl" "$tmp/listed" > "$tmp/undeclared"
	if [ -s "$tmp/unlisted" ]; then
		bad "functions declared in include/etmtrace/*.h but in no allow-list: a new public function? add its name to exports/libetmtrace.txt (or exports/libetmtrace_symbols.txt for libetmtrace_symbols), keeping the list sorted (LC_ALL=C sort); an internal one? declare it in its layer's src/*/..._int.h instead" "$tmp/unlisted"
	elif [ -s "$tmp/undeclared" ]; then
		bad "allow-listed names no public header declares: declare and document them in include/etmtrace/, or take them off the list" "$tmp/undeclared"
	else
		echo "ok   the $(wc -l < "$tmp/decl") functions declared in include/etmtrace/*.h are the allow-lists' names"
	fi
fi
[ $fail -eq 0 ] && echo "all passed" || echo "$fail failed"
exit $((fail != 0))
