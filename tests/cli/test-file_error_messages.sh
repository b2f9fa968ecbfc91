#!/usr/bin/env bash
# tests/cli/test-file_error_messages.sh - every file argument that cannot be
# used gives one message naming the file (or the argument) and the real
# reason: an empty file, a directory, a missing file, not a regular file,
# unreadable, a directory that is no snapshot, and bad @ADDR / @BIAS syntax
# with the accepted forms. Exit status 2 each time.
. "$(dirname "$0")/lib.sh"
: > "$tmp/empty.bin"
mkdir "$tmp/adir"
mkfifo "$tmp/fifo"
cp "$S/code.bin" "$tmp/code.bin"
# msg WHAT PATTERN ARGS...: etmtrace ARGS exits 2 and stderr has PATTERN
msg() {
	local what=$1 pat=$2 rc
	shift 2
	"$ETMTRACE" "$@" > /dev/null 2> "$tmp/e" < /dev/null; rc=$?
	check "[ $rc -eq 2 ] && grep -qF -- \"$pat\" '$tmp/e'" "$what ($(head -c 200 "$tmp/e"))"
}
msg "--image of an empty file" "--image $tmp/empty.bin: an empty file (0 bytes)" \
	decode "$S" --image "$tmp/empty.bin@0x70000000"
msg "--image of a directory" "--image $tmp/adir: a directory, not a file" \
	decode "$S" --image "$tmp/adir@0"
msg "--image of a missing file" "--image $tmp/missing.bin: no such file" \
	decode "$S" --image "$tmp/missing.bin@0"
msg "--image of a FIFO" "--image $tmp/fifo: not a regular file" \
	decode "$S" --image "$tmp/fifo@0"
msg "--image without @ADDR" "--image $tmp/code.bin: no '@ADDRESS' (expected FILE@ADDRESS)" \
	decode "$S" --image "$tmp/code.bin"
msg "--image with a bad address" "--image $tmp/code.bin@zz: bad address 'zz' (expected 0x0-0xffffffff, decimal or 0x hex, in FILE@ADDRESS)" \
	decode "$S" --image "$tmp/code.bin@zz"
msg "--elf of a directory" "--elf $tmp/adir: a directory, not a file" \
	decode "$S" --elf "$tmp/adir"
msg "--elf of an empty file" "--elf $tmp/empty.bin: an empty file (0 bytes)" \
	decode "$S" --elf "$tmp/empty.bin"
msg "--elf with a bad bias" "--elf $tmp/code.bin@zz: bad bias 'zz' (expected 0x0-0xffffffff, decimal or 0x hex, in FILE@BIAS; or FILE alone)" \
	decode "$S" --elf "$tmp/code.bin@zz"
msg "--symbols of a directory" "--symbols $tmp/adir: a directory, not a file" \
	decode "$S" --symbols "$tmp/adir"
msg "--symbols of an empty file" "--symbols $tmp/empty.bin: an empty file (0 bytes)" \
	decode "$S" --symbols "$tmp/empty.bin"
msg "--symbols of a missing file" "--symbols $tmp/missing.sym: no such file" \
	decode "$S" --symbols "$tmp/missing.sym"
msg "a directory that is no snapshot" "$tmp/adir: a directory without snapshot.ini: not a snapshot" \
	info "$tmp/adir"
msg "an empty trace file" "$tmp/empty.bin: an empty file (0 bytes)" \
	decode "$tmp/empty.bin"
msg "a missing trace file" "$tmp/missing.bin: no such file" \
	info "$tmp/missing.bin"
# a file name holding an '@' that exists is a file, not FILE@BIAS
cp "$S/code.bin" "$tmp/code@1.bin"
msg "--elf of a file whose name holds '@'" "$tmp/code@1.bin: not an ELF file" \
	decode "$S" --elf "$tmp/code@1.bin"
if [ "$(id -u)" -ne 0 ]; then
	cp "$S/code.bin" "$tmp/locked.bin" && chmod 000 "$tmp/locked.bin"
	msg "--image of an unreadable file" "--image $tmp/locked.bin: cannot be read: Permission denied" \
		decode "$S" --image "$tmp/locked.bin@0"
else
	echo "note: run as root: the unreadable-file message is not checked (root reads every file)"
fi
finish
