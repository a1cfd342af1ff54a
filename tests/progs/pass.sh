#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# pass.sh - two passing cases; alpha checks two devices and reports metrics.
CASES="alpha beta"
NEEDS="# NEEDS timeout_s: 20"
. "$(dirname "$(readlink -f "$0")")/lib.sh"

fake_begin
if fake_want alpha; then
	fake_run alpha
	echo "    # Subtest: alpha"
	echo "    ok 1 0000:00:01.0 # suspend_us=2500"
	echo "    ok 2 0000:00:02.0 # SKIP no PM capability"
	echo "# METRIC 0000:00:01.0 resume_us=2500.000"
	echo "# METRIC - cycles=3.000"
	echo "    1..2"
	fake_ok alpha
fi
if fake_want beta; then
	fake_run beta
	fake_ok beta
fi
echo "# Totals: pass:$num fail:0 xfail:0 xpass:0 skip:0 error:0"
exit 0
