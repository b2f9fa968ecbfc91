#!/usr/bin/env bash
# scripts/deps.sh - install the Debian packages the build and tests need,
# only when something is missing (run as root on a fresh Debian machine).
set -euo pipefail
pkgs=(cmake gcc make pkg-config libelf-dev libcapstone-dev python3 binutils-multiarch
	libdw-dev valgrind
	gcc-arm-none-eabi binutils-arm-none-eabi llvm-19 autofdo lcov
	gcc-arm-linux-gnueabihf qemu-user)
# perf (built with OpenCSD): the independent reader of the perf.data files
# we write (tests/cli/test-perfdata_perf_script.sh)
pkgs+=(linux-perf)
# the formatting check of scripts/test.sh (scripts/format.sh, .clang-format)
pkgs+=(clang-format)
# Python binding (python/, tests/python, examples/dask_decode.py)
pkgs+=(python3-dev python3-venv python3-pip python3-setuptools python3-wheel
	python3-build python3-numpy python3-pytest python3-dask python3-distributed)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps: need root to install: ${missing[*]}" >&2
		exit 2
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
