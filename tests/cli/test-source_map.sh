#!/bin/bash
# tests/cli/test-source_map.sh - --source-map OLD=NEW and --source-dir DIR
# find the sources of an image built elsewhere: the AM243x FreeRTOS ELF
# names FreeRTOS-Kernel/tasks.c (relative to a Windows build directory) and
# C:/ti/mcu_plus_sdk_am243x_10_00_00_20/source\drivers/hw_include/hw_types.h,
# neither of which exists here. Stand-in files written here (line N reads
# "/* stand-in NAME line N */", so the text each listed line must show is
# known without the decoder) are placed under a local directory; then
# `decode --source` prints their lines, and `coverage --format lcov` names
# them in SF: so that genhtml (lcov package) renders the file.
# Exit 77 (skip) when data or genhtml are missing.
. "$(dirname "$0")/lib.sh"
A="$ETM_SHARED/snapshots/am243x-freertos-1"
[ -f "$A/freertos.out" ] || { echo "am243x-freertos-1 missing: skip"; exit 77; }
command -v genhtml > /dev/null || { echo "genhtml (lcov) missing: skip"; exit 77; }
E="--elf $A/freertos.out"

standin() { # FILE NAME LINES
	mkdir -p "$(dirname "$1")"
	awk -v n="$2" -v k="$3" 'BEGIN { for (i = 1; i <= k; i++) printf "/* stand-in %s line %d */\n", n, i }' > "$1"
}
standin "$tmp/rtos/FreeRTOS-Kernel/tasks.c" tasks.c 6000
standin "$tmp/sdk/drivers/hw_include/hw_types.h" hw_types.h 1000
standin "$tmp/flat/tasks.c" tasks.c 6000

# shown: "  FILE:N  TEXT" lines of NAME; good: those whose TEXT is line N
shown() { grep -c "^  [^ ]*$1:[0-9]*  " "$2"; }
good() { sed -n "s|^  [^ ]*$1:\([0-9]*\)  /\* stand-in $1 line \([0-9]*\) \*/\$|\1 \2|p" "$2" | awk '$1 == $2' | wc -l; }

"$ETMTRACE" decode "$A" $E --source > "$tmp/plain" 2> /dev/null
check "[ \$(grep -c '^  FreeRTOS-Kernel/tasks.c:[0-9]*\$' \"\$tmp/plain\") -gt 0 ] && [ \$(shown tasks.c \"\$tmp/plain\") -eq 0 ]" \
	"without a map: tasks.c lines listed, no text (the file is not here)"

"$ETMTRACE" decode "$A" $E --source --source-map "FreeRTOS-Kernel=$tmp/rtos/FreeRTOS-Kernel" > "$tmp/map" 2> /dev/null
# line 0 (compiler-generated code) has no text
n=$(grep -c '^  FreeRTOS-Kernel/tasks.c:[1-9][0-9]*' "$tmp/map")
check "[ $n -gt 0 ] && [ \$(shown tasks.c \"\$tmp/map\") -eq $n ] && [ \$(good tasks.c \"\$tmp/map\") -eq $n ]" \
	"--source-map: all $n tasks.c source lines show that line of the stand-in"
check "grep -q '^  FreeRTOS-Kernel/tasks.c:4129  /\* stand-in tasks.c line 4129 \*/\$' \"\$tmp/map\"" \
	"vTaskEnterCritical+0x10 shows tasks.c line 4129"
check "cmp -s <(grep -v '^  FreeRTOS' \"\$tmp/plain\") <(grep -v '^  FreeRTOS' \"\$tmp/map\")" \
	"the rest of the listing unchanged"

# a Windows path: drive letter in another case, '\' for '/'
"$ETMTRACE" decode "$A" $E --source --source-map 'c:\TI\mcu_plus_sdk_am243x_10_00_00_20\source='"$tmp/sdk" > "$tmp/win" 2> /dev/null
n=$(grep -c '^  C:/ti/mcu_plus_sdk_am243x_10_00_00_20/source.drivers/hw_include/hw_types.h:[1-9][0-9]*' "$tmp/win")
check "[ $n -gt 0 ] && [ \$(good hw_types.h \"\$tmp/win\") -eq $n ]" \
	"--source-map of a Windows path: all $n hw_types.h lines show their text"

# --source-dir: by relative path, then by basename
"$ETMTRACE" decode "$A" $E --source --source-dir "$tmp/rtos" > "$tmp/dir" 2> /dev/null
check "cmp -s \"\$tmp/map\" \"\$tmp/dir\"" "--source-dir DIR finds DIR/FreeRTOS-Kernel/tasks.c"
"$ETMTRACE" decode "$A" $E --source --source-dir "$tmp/flat" > "$tmp/base" 2> /dev/null
check "cmp -s \"\$tmp/map\" \"\$tmp/base\"" "--source-dir DIR finds DIR/tasks.c by its name"

# lcov SF: and genhtml
"$ETMTRACE" coverage "$A" $E --format lcov --source-map "FreeRTOS-Kernel=$tmp/rtos/FreeRTOS-Kernel" > "$tmp/all.info" 2> /dev/null
check "grep -qx \"SF:\$tmp/rtos/FreeRTOS-Kernel/tasks.c\" \"\$tmp/all.info\"" "lcov SF: names the local tasks.c"
"$ETMTRACE" coverage "$A" $E --format lcov > "$tmp/plain.info" 2> /dev/null
check "cmp -s <(grep -v ^SF: \"\$tmp/plain.info\") <(grep -v ^SF: \"\$tmp/all.info\")" "only SF: records change"
awk '/^TN:/ { b = "" } { b = b $0 "\n" } /^end_of_record/ && b ~ /\nSF:[^\n]*\/FreeRTOS-Kernel\/tasks.c\n/ { printf "%s", b }' \
	"$tmp/all.info" > "$tmp/tasks.info"
(cd "$tmp" && genhtml -q -o html tasks.info > genhtml.log 2>&1)
check "[ \$? -eq 0 ]" "genhtml renders the record (exit 0)"
page=$(find "$tmp/html" -name tasks.c.gcov.html | head -1)
check "[ -n \"$page\" ] && grep -q 'stand-in tasks.c line 4129' \"$page\"" "genhtml's page for tasks.c shows its text"

"$ETMTRACE" decode "$A" $E --source --source-map nothing > /dev/null 2> "$tmp/e1"
check "[ \$? -eq 2 ] && grep -q 'expected OLD=NEW' \"\$tmp/e1\"" "--source-map without '=' refused"
"$ETMTRACE" coverage "$A" $E --format lcov --source-dir "$tmp/none" > /dev/null 2> "$tmp/e2"
check "[ \$? -eq 2 ] && grep -q 'not a directory' \"\$tmp/e2\"" "--source-dir of no directory refused"
finish
