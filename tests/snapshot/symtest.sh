# tests/snapshot/symtest.sh - sourced by the symbol and profile tests: the
# check helper, a temporary directory, the am243x snapshot and its ELF, and
# tc2_x48 DIR: TC2's buffer replicated 48 times (1.5 MiB, several --jobs
# chunks) in DIR with a generated symbol file DIR/syms.txt.
set -u
fail=0
check() { if eval "$1"; then echo "ok   $2"; else echo "FAIL: $2"; fail=$((fail + 1)); fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
here=$(dirname "$0")
snap=${ETM_SHARED:-build/testdata}/snapshots/am243x-freertos-1
elf=$snap/freertos.out
tc2=${ETM_SHARED:-build/testdata}/snapshots/TC2
tc2_x48() {
	mkdir "$1"
	# copies: links leading out of a snapshot directory are refused
	cp "$tc2"/*.ini "$tc2"/kernel_dump.bin "$1/"
	for i in $(seq 48); do cat "$tc2/cstrace.bin"; done > "$1/cstrace.bin"
	$py "$here/gensyms.py" "$tc2/kernel_dump.bin" 0xC0008000 > "$1/syms.txt"
}
