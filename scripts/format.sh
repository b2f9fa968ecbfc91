#!/usr/bin/env bash
# scripts/format.sh - format every C file of the tree as .clang-format says
# (Debian's clang-format, scripts/deps.sh); `scripts/format.sh --check`
# changes nothing and fails, naming the files, if one is not formatted
# (scripts/test.sh runs it). A branch begun before the tree was formatted
# merges cleanly after running this script on it first.
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	mapfile -t files < <(git ls-files '*.c' '*.h')
else
	mapfile -t files < <(find src cli include tests bench python examples \
		-name '*.[ch]' 2> /dev/null | sort)
fi
if [ "${1:-}" = --check ]; then
	if ! clang-format --dry-run -Werror "${files[@]}" 2> /dev/null; then
		clang-format --dry-run "${files[@]}" 2>&1 |
			sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' |
			sort -u | sed 's/^/not formatted: /' >&2
		echo "format.sh: run scripts/format.sh (clang-format $(clang-format --version | grep -o '[0-9][0-9.]*' | head -1))" >&2
		exit 1
	fi
	exit 0
fi
clang-format -i "${files[@]}"
