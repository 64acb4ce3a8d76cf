#!/bin/sh
# Print the kernel versions ssdtune builds and tests against: the newest
# installed 6.1 and 6.12 kernels that have both an image and headers.
# Exits non-zero (one line on stderr) when either is missing.
# SSDT_SYSROOT: a tree to look in instead of / (the host tests' fake hosts).
set -eu
root=${SSDT_SYSROOT:-}
rc=0
for series in 6.1 6.12; do
	v=$(ls -1 "$root"/boot/vmlinuz-"$series".* 2>/dev/null | sed 's|.*/vmlinuz-||' |
		while read -r k; do [ -e "$root/lib/modules/$k/build/Makefile" ] && echo "$k"; done |
		sort -V | tail -n 1)
	if [ -z "$v" ]; then
		echo "kvers: no $series kernel with headers installed (run: make setup)" >&2
		rc=1
	else
		echo "$v"
	fi
done
exit $rc
