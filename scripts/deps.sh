#!/usr/bin/env bash
# scripts/deps.sh - install the Debian packages the build and tests need,
# only when something is missing (run as root on a fresh Debian machine).
set -euo pipefail
pkgs=(cmake gcc make pkg-config libelf-dev libcapstone-dev python3 binutils-multiarch
	libdw-dev valgrind
	gcc-arm-none-eabi binutils-arm-none-eabi llvm-19 autofdo lcov)
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
