# SPDX-License-Identifier: GPL-2.0-only
#
# lib.sh - helpers shared by the qemu/*.sh scripts (sourced, not run).

# set_qemu_build: QEMU_BUILD, the absolute build directory of the image
# (O= as in the Makefile), made if missing.
set_qemu_build() {
	mkdir -p "${O:-build}/qemu" 2>/dev/null && [ -w "${O:-build}/qemu" ] ||
		die "cannot write ${O:-build}/qemu; run as root or pass O=<a directory you can write>"
	QEMU_BUILD=$(cd "${O:-build}/qemu" && pwd)
}

# Bad input or setup: one line naming the problem and the fix, exit 2.
die() {
	echo "devpm: $*" >&2
	exit 2
}

note() {
	echo "devpm: $*" >&2
}

step() {
	echo "  $*" >&2
}

# need_space DIR MB WHAT: exit 2 unless DIR's filesystem has MB free.
need_space() {
	local free
	free=$(df -Pm "$1" 2>/dev/null | awk 'NR == 2 {print $4}')
	[ -n "$free" ] || return 0
	[ "$free" -ge "$2" ] ||
		die "only $free MB free under $1, $2 MB needed to $3; free some space (or build elsewhere with O=dir)"
}

# Hash of a list of files' names, sizes and times plus extra words: the
# key that says whether an image part must be rebuilt.
inputs_key() {
	local f files=()

	{
		for f in "$@"; do
			if [ -e "$f" ]; then
				files+=("$f")
			else
				printf '%s\n' "$f"
			fi
		done
		# One stat for all: one per file cost 0.17 s a run.
		[ ${#files[@]} -eq 0 ] || stat -L -c '%n %s %Y' -- "${files[@]}"
	} | md5sum | cut -c1-16
}

# Seconds since a `date +%s.%N` stamp, one decimal.
elapsed() {
	awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'
}

# A PVH-bootable vmlinux carries the Xen PHYS32_ENTRY note (type 0x12).
has_pvh_note() {
	readelf -n "$1" 2>/dev/null | grep -q 'Xen.*0x00000012'
}
