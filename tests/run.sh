#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh - run the unit-test programs and add up their KTAP results.
#
#   sh tests/run.sh BUILD_DIR BIN...
#
# One summary line per program; its whole output only when it failed.  The
# last line is "N passed, N failed" (", N skipped" when any were).  A
# program that crashes, times out, exits with a code its results do not
# explain, or reports fewer results than it planned counts as one more
# failure.  Exit status 1 on any failure, 2 on bad usage.

usage() {
	echo "usage: sh tests/run.sh BUILD_DIR BIN..." >&2
	exit 2
}

[ $# -ge 2 ] || usage
build=$1
shift
[ -d "$build" ] || { echo "run.sh: $build is not a directory (the build directory, e.g. build)" >&2; exit 2; }
# Runner tests find the sanitized devpm binary through DEVPM_BUILD.
DEVPM_BUILD=$(cd "$build" && pwd)
export DEVPM_BUILD

# Bound per program; the harness bounds each case at 30 s itself.
limit=${UNIT_TIMEOUT:-300}
out=$(mktemp "${TMPDIR:-/tmp}/devpm-run.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT INT TERM

total_pass=0
total_fail=0
total_skip=0

for bin in "$@"; do
	name=${bin##*/}
	if [ ! -x "$bin" ]; then
		echo "FAIL $name: $bin is not an executable (make check-unit builds it)"
		total_fail=$((total_fail + 1))
		continue
	fi
	if command -v timeout >/dev/null 2>&1; then
		timeout -k 10 "$limit" "$bin" >"$out" 2>&1 </dev/null
	else
		"$bin" >"$out" 2>&1 </dev/null
	fi
	rc=$?
	# Top-level KTAP lines only: nested results are indented.
	pass=$(grep -c -E '^ok [0-9]+' "$out" | tr -d ' ')
	skip=$(grep -c -E '^ok [0-9]+ .*# SKIP' "$out" | tr -d ' ')
	fail=$(grep -c -E '^not ok [0-9]+' "$out" | tr -d ' ')
	pass=$((pass - skip))
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$out" | head -n 1)

	why=
	case $rc in
	0) [ "$fail" -eq 0 ] || why="exit 0 with $fail failed" ;;
	1) [ "$fail" -gt 0 ] || why="exit 1 without a failed case" ;;
	4) ;;	# KSFT_SKIP: everything skipped
	124|137) why="timed out after ${limit}s" ;;
	*)
		if [ "$rc" -gt 128 ]; then
			why="killed by signal $((rc - 128))"
		else
			why="exit status $rc"
		fi
		;;
	esac
	ran=$((pass + skip + fail))
	if [ -z "$why" ] && [ -z "$plan" ]; then
		why="no KTAP plan"
	elif [ -z "$why" ] && [ "$plan" -ne "$ran" ]; then
		why="planned $plan, reported $ran"
	fi
	# A program that skipped as a whole ("1..0 # SKIP why") counts once.
	if [ "$rc" -eq 4 ] && [ "$ran" -eq 0 ]; then
		skip=1
	fi

	if [ -n "$why" ]; then
		fail=$((fail + 1))
	fi
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))

	if [ "$fail" -gt 0 ]; then
		echo "---- $name (exit $rc) ----"
		cat "$out"
		echo "----"
		echo "FAIL $name: $pass passed, $fail failed, $skip skipped${why:+ ($why)}"
	else
		echo "ok   $name: $pass passed, $skip skipped"
		grep -E '^ok [0-9]+ .*# SKIP|^1\.\.0 ' "$out" | sed 's/^/       /'
	fi
done

if [ "$total_skip" -gt 0 ]; then
	echo "$total_pass passed, $total_fail failed, $total_skip skipped"
else
	echo "$total_pass passed, $total_fail failed"
fi
[ "$total_fail" -eq 0 ]
