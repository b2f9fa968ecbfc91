#!/usr/bin/env bash
# tests/cli/test-python_setup.sh - the README's Python commands work when
# the first python3 on PATH is another interpreter without the build tools
# (here Debian's binary copied under a prefix of its own with only the
# standard library: no numpy, no setuptools, no wheel - as pyenv's or
# conda's may be), and a missing
# module is one line naming the fix (doc/python.md):
#  - scripts/python.sh picks /usr/bin/python3 over the bare python3 first
#    on PATH;
#  - the README's venv line, run as written (~ -> a temporary directory;
#    --without-pip added: ensurepip takes seconds and is not what is
#    checked) with that PATH, makes a venv that has numpy, setuptools and
#    wheel (on main it was made by the bare python3 and had none of them);
#  - ETM_PYTHON=<the bare one>: exit 2 and one line per missing module,
#    each naming its Debian package; a missing interpreter is one line too;
#  - setup.py run by the bare interpreter says the same in one line;
#  - README and doc/python.md name scripts/python.sh for every command that
#    runs a Python, and no bare 'python3 -m'.
# Exit 77 (skip) without /usr/bin/python3 and its numpy/setuptools/wheel.
. "$(dirname "$0")/lib.sh"
R=$ETM_SRCDIR
/usr/bin/python3 -c 'import numpy, setuptools, wheel, venv' 2> /dev/null ||
	{ echo "SKIP: /usr/bin/python3 lacks numpy/setuptools/wheel (scripts/deps.sh)"; exit 77; }
# another Python installation: Debian's binary copied under its own prefix
# with the standard library only (as pyenv's: its site-packages are its
# own, Debian's dist-packages are not on its path)
v=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
L=$tmp/bare/lib/python$v
mkdir -p "$tmp/bare/bin" "$L" &&
	cp "$(readlink -f /usr/bin/python3)" "$tmp/bare/bin/python3" ||
	{ echo "FAIL: cannot make a bare Python"; exit 1; }
for f in /usr/lib/python$v/*; do
	case ${f##*/} in dist-packages | site-packages) ;; *) ln -s "$f" "$L/" ;; esac
done
bare=$tmp/bare/bin/python3
check "! '$bare' -I -c 'import numpy' 2> /dev/null && ! '$bare' -I -c 'import setuptools' 2> /dev/null" "the bare python3 has no numpy, no setuptools"
BP="$tmp/bare/bin:$PATH"

check "[ \"\$(PATH='$BP' python3 -I -c 'import sys; print(sys.prefix)')\" = '$tmp/bare' ]" "the bare python3 is first on PATH"
check "[ \"\$(PATH='$BP' '$R/scripts/python.sh' --which)\" = /usr/bin/python3 ]" "scripts/python.sh --which: /usr/bin/python3, not the first python3 on PATH"
check "PATH='$BP' '$R/scripts/python.sh' -I -c 'import numpy, setuptools, wheel'" "scripts/python.sh runs a Python with numpy, setuptools, wheel"

# the README's venv line, as written
line=$(awk '/^```sh$/ { s = 1; next } /^```$/ { s = 0 } s && /-m venv/' "$R/README.md" | sed 's/ *#.*//')
echo "  README: $line"
check "[ -n '$line' ]" "README has a venv line"
(cd "$R" && PATH="$BP" HOME="$tmp/home" bash -c "$line --without-pip") > "$tmp/venv.log" 2>&1
check "'$tmp/home/etm-venv/bin/python' -I -c 'import numpy, setuptools, wheel'" "the README's venv (bare python3 first on PATH) has numpy, setuptools, wheel"

# missing modules: one line each, naming the fix
ETM_PYTHON="$bare" "$R/scripts/python.sh" -c 'print(1)' > "$tmp/out" 2> "$tmp/err"
rc=$?
cat "$tmp/err"
check "[ $rc -eq 2 ] && [ ! -s '$tmp/out' ]" "ETM_PYTHON=bare: exit 2, nothing run"
for m in setuptools wheel numpy; do
	check "[ \$(grep -c \"has no module '$m': .*apt-get install python3-$m\" '$tmp/err') -eq 1 ]" "one line for $m naming apt-get install python3-$m"
done
check "[ \$(wc -l < '$tmp/err') -eq 3 ]" "three modules missing: three lines"
ETM_PYTHON="$tmp/nothing" "$R/scripts/python.sh" -c 1 2> "$tmp/err2"
check "[ \$? -eq 2 ] && [ \$(wc -l < '$tmp/err2') -eq 1 ] && grep -q 'not a working Python 3' '$tmp/err2'" "a missing interpreter: one line"
(cd "$R" && "$bare" setup.py bdist_wheel) > /dev/null 2> "$tmp/err3"
check "[ \$(wc -l < '$tmp/err3') -eq 1 ] && grep -q \"has no module 'setuptools': apt-get install python3-setuptools\" '$tmp/err3'" "setup.py under the bare python3: one line naming the fix"

# the documentation says the same
check "! awk '/^\`\`\`sh\$/ { s = 1; next } /^\`\`\`\$/ { s = 0 } s' '$R/README.md' | grep -q '^python3 '" "README: no command starts with a bare python3"
check "grep -q 'scripts/python.sh -m venv' '$R/README.md' && grep -q 'scripts/python.sh -m build' '$R/README.md'" "README: venv and wheel through scripts/python.sh"
check "grep -q 'scripts/python.sh' '$R/doc/python.md' && grep -q 'apt-get install python3-numpy' '$R/doc/python.md'" "doc/python.md: scripts/python.sh and the fix line"
finish
