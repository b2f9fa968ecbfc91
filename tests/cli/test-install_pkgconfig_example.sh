#!/usr/bin/env bash
# tests/cli/test-install_pkgconfig_example.sh - the
# library installed into a temporary prefix (cmake --install --prefix P) is
# found with pkg-config alone (the .pc file has no baked-in prefix), and the
# README's library example, examples/count.c, builds against it and counts
# the instructions of the built-in sample: 34 (the hand derivation in
# examples/sample/README.txt, as tests/cli/test-sample.sh lists them).
set -u
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=$((fail + 1)); else echo "ok   $2"; fi; }
command -v pkg-config >/dev/null && command -v cc >/dev/null || exit 77
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
P="$tmp/prefix with space"
cmake --install "$ETM_BUILD" --prefix "$P" > "$tmp/install.log" 2>&1
check "[ $? -eq 0 ]" "cmake --install --prefix into a temporary prefix"
pc=$(dirname "$(find "$P" -name etmtrace.pc | head -1)")
check "! grep -q '/usr/local' '$pc/etmtrace.pc'" "installed etmtrace.pc names no configure-time prefix"
export PKG_CONFIG_PATH="$pc"
flags=$(pkg-config --cflags --libs etmtrace); rc=$?
check "[ $rc -eq 0 ]" "pkg-config --cflags --libs etmtrace"
# The example from the source tree, built with nothing but pkg-config's flags
# (the prefix has a space: pkg-config escapes it, so eval the flags).
libdir=$(eval "echo $(pkg-config --variable=libdir etmtrace)")
# a sanitizer build installs an instrumented library: the program must be
# built with the same runtime
san=""
ldd "$libdir/libetmtrace.so" 2>/dev/null | grep -q libasan && san="-fsanitize=address,undefined"
eval "cc -std=c11 -Wall -Wextra -Werror $san '$ETM_SRCDIR/examples/count.c' $flags -o '$tmp/count'" 2> "$tmp/cc.log"
check "[ $? -eq 0 ]" "examples/count.c builds against the installed library"

LD_LIBRARY_PATH="$libdir" "$tmp/count" "$ETM_SRCDIR/examples/sample" > "$tmp/out" 2>"$tmp/err"; rc=$?
check "[ $rc -eq 0 ] && grep -qx '0x13 34' '$tmp/out' && grep -qx 'errors 0' '$tmp/out'" "example counts 34 instructions of the sample (hand derivation)"
# The same program on the bare trace file plus the code image: format and
# configuration found from the bytes, the same 34 instructions.
cp "$ETM_SRCDIR/examples/sample/vectors.bin" "$tmp/img.bin"
dd if="$ETM_SRCDIR/examples/sample/code.bin" of="$tmp/img.bin" bs=1 seek=$((0x8000)) conv=notrunc 2>/dev/null
LD_LIBRARY_PATH="$libdir" "$tmp/count" "$ETM_SRCDIR/examples/sample/trace.bin" "$tmp/img.bin@0" > "$tmp/out2" 2>"$tmp/err2"; rc=$?
check "[ $rc -eq 0 ] && grep -qx '0x13 34' '$tmp/out2'" "example on the trace file + image alone: 34 instructions"
[ $fail -eq 0 ] && echo "install tests passed" || { cat "$tmp/install.log" "$tmp/cc.log" "$tmp/err" "$tmp/err2"; echo "$fail install tests failed"; }
exit $((fail != 0))
