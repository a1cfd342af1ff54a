# SPDX-License-Identifier: GPL-2.0-only
#
# lib.sh - output of a kselftest-harness test program, for the fake
# programs the runner's unit tests run.  Each program sets CASES (its case
# names) and NEEDS (its "# NEEDS" lines), then sources this file, which
# answers --list and --needs and honours DEVPM_TEST_GLOB like lib/harness/test.h.

case "${1:-}" in
--list)
	for c in $CASES; do echo "$c"; done
	exit 0 ;;
--needs)
	printf '%s\n' "$NEEDS"
	exit 0 ;;
esac

# fake_want CASE: true if the case is to run.
fake_want() {
	[ -z "${DEVPM_TEST_GLOB:-}" ] && return 0
	case "$1" in
	$DEVPM_TEST_GLOB) return 0 ;;
	esac
	return 1
}

fake_begin() {
	n=0
	for c in $CASES; do
		fake_want "$c" && n=$((n + 1))
	done
	echo "TAP version 13"
	echo "1..$n"
	echo "# Starting $n tests from 1 test cases."
	num=0
}

fake_run() {
	num=$((num + 1))
	echo "#  RUN           fake.$1 ..."
}

fake_ok() {
	echo "#            OK  fake.$1"
	echo "ok $num fake.$1"
}

fake_fail() {
	echo "# $1: Test failed at step #1" >&2
	echo "#          FAIL  fake.$1"
	echo "not ok $num fake.$1"
}

fake_skip() {
	echo "#      SKIP      $2" >&2
	echo "#            OK  fake.$1"
	echo "ok $num # SKIP $2"
}
