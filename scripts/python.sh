#!/usr/bin/env bash
# scripts/python.sh - run the Python that can build and use the etmtrace
# package: the first interpreter that has setuptools, wheel and numpy (and
# the module run with -m: build, pytest, venv), trying $ETM_PYTHON if set,
# else /usr/bin/python3 (Debian's, where scripts/deps.sh installs them),
# then every python3 on PATH. Another python3 first on PATH (pyenv, conda)
# is thus passed over instead of failing later with "invalid command
# 'bdist_wheel'" or "No module named 'numpy'".
#
#   scripts/python.sh -m venv --system-site-packages ~/etm-venv
#   scripts/python.sh -m build --no-isolation --wheel
#   scripts/python.sh --which     # print the interpreter chosen
#
# When none has them, one line per missing module names the Debian package
# that provides it (scripts/deps.sh installs them all), and the exit status
# is 2. doc/python.md.
set -u

# module -> Debian package
pkg_of() {
	case $1 in
	ensurepip) echo python3-venv ;;
	Python.h) echo python3-dev ;;
	*) echo "python3-$1" ;;
	esac
}

# the modules needed: the package's, and the one run with -m
need=(setuptools wheel numpy)
if [ "${1:-}" = -m ]; then
	case ${2:-} in
	venv) need+=(ensurepip Python.h) ;; # the venv's pip builds the extension
	build) need+=(build Python.h) ;;
	pytest | dask) need+=("$2") ;;
	esac
fi

# the modules of @need that interpreter $1 lacks, one per line
lacks() {
	# -I: not the current directory (the repository's build/ is no module)
	"$1" -I - "${need[@]}" 2> /dev/null << 'PY' || echo "(not a working Python 3)"
import importlib.util, os, sys, sysconfig
for m in sys.argv[1:]:
    if m == 'Python.h':
        if not os.path.exists(os.path.join(sysconfig.get_path('include'), m)):
            print(m)
    else:  # a directory of that name is no module (namespace: no origin)
        spec = importlib.util.find_spec(m)
        if spec is None or spec.origin is None:
            print(m)
PY
}

cands=()
if [ -n "${ETM_PYTHON:-}" ]; then
	cands=("$ETM_PYTHON") # asked for: that one or an error
else
	[ -x /usr/bin/python3 ] && cands+=(/usr/bin/python3)
	while IFS= read -r p; do cands+=("$p"); done < <(type -ap python3)
fi
if [ ${#cands[@]} -eq 0 ]; then
	echo "scripts/python.sh: no python3 found: apt-get install python3 (or scripts/deps.sh as root)" >&2
	exit 2
fi
for p in "${cands[@]}"; do
	if [ -z "$(lacks "$p")" ]; then
		if [ "${1:-}" = --which ]; then
			command -v "$p"
			exit 0
		fi
		exec "$p" "$@"
	fi
done
# none has everything: say what the first one lacks and how to get it
p=${cands[0]}
lacks "$p" | while IFS= read -r m; do
	if [ "$m" = "(not a working Python 3)" ]; then
		echo "scripts/python.sh: $p is not a working Python 3" >&2
	else
		what="module '$m'" fix="apt-get install $(pkg_of "$m") (or scripts/deps.sh as root)"
		[ "$m" = Python.h ] && what="C headers (Python.h)"
		# another interpreter than Debian's: its own pip, or Debian's
		[ "$p" != /usr/bin/python3 ] && [ "$m" != Python.h ] &&
			fix="$p -m pip install $m, or use /usr/bin/python3 after $fix"
		echo "scripts/python.sh: $p has no $what: $fix" >&2
	fi
done
exit 2
