#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lint.sh - the kernel's checkpatch.pl over devpm's C sources.
#
#   sh tests/lint.sh PATH/TO/checkpatch.pl
#
# Fails (exit 1) on any ERROR; warnings are listed and counted.  Exit 2 when
# checkpatch.pl cannot be run.
#
# Rules ignored, each because it asks for a kernel-only facility that a
# userspace program does not have:
#   PREFER_DEFINED_ATTRIBUTE_MACRO  __printf()/__noreturn come from the
#                                   kernel's compiler_attributes.h
#   ARRAY_SIZE                      the kernel's ARRAY_SIZE() macro
#   SSCANF_TO_KSTRTO                kstrto*() are kernel functions
#   ENOSYS                          in userspace ENOSYS is POSIX "function
#                                   not implemented" (and what
#                                   delete_module(2) says without modules)
#   VOLATILE                        C11 7.14.1.1: a flag a signal handler
#                                   sets must be volatile sig_atomic_t

usage() {
	echo "usage: sh tests/lint.sh PATH/TO/checkpatch.pl" >&2
	exit 2
}

[ $# -eq 1 ] || usage
checkpatch=$1
[ -r "$checkpatch" ] || { echo "lint.sh: $checkpatch not found: run 'make headers' or pass KSRC=/path/to/linux" >&2; exit 2; }
command -v perl >/dev/null 2>&1 || { echo "lint.sh: perl not found: apt-get install perl" >&2; exit 2; }

ignore=PREFER_DEFINED_ATTRIBUTE_MACRO,ARRAY_SIZE,SSCANF_TO_KSTRTO,ENOSYS,VOLATILE

files=$( {
	find lib -name '*.[ch]'
	[ -d suites ] && find suites -mindepth 2 -maxdepth 2 -name '*.c'
	[ -d fixtures ] && find fixtures -name '*.[ch]'
	[ -d bench ] && find bench -name '*.[ch]'
	[ -d qemu ] && find qemu -name '*.[ch]'
} | sort)
[ -n "$files" ] || { echo "lint.sh: no C sources found (run from the top of the tree)" >&2; exit 2; }

out=$(mktemp "${TMPDIR:-/tmp}/devpm-lint.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT INT TERM

# shellcheck disable=SC2086 # one file per word: paths have no spaces
perl "$checkpatch" --no-tree --terse --file --show-types --no-summary \
	--ignore "$ignore" $files >"$out" 2>&1
rc=$?

grep -E ': (ERROR|WARNING|CHECK):' "$out"
errors=$(grep -c ': ERROR:' "$out")
warnings=$(grep -c ': WARNING:' "$out")
nfiles=$(echo "$files" | wc -l | tr -d ' ')
# checkpatch itself failing (not a finding) is an error too.
if [ "$rc" -ne 0 ] && [ "$errors" -eq 0 ] && [ "$warnings" -eq 0 ]; then
	cat "$out"
	echo "lint: checkpatch.pl failed (exit $rc)"
	exit 1
fi
echo "lint: $nfiles files, $errors errors, $warnings warnings"
[ "$errors" -eq 0 ]
