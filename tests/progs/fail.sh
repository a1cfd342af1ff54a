#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# fail.sh - a case failing on one device (after an assertion message) and
# a case failing on an assertion only.
CASES="broken asserts"
NEEDS="# NEEDS timeout_s: 20"
. "$(dirname "$(readlink -f "$0")")/lib.sh"

fake_begin
if fake_want broken; then
	fake_run broken
	echo "    # Subtest: broken"
	echo "    ok 1 0000:00:01.0 # ok"
	echo "    not ok 2 0000:00:03.0 # still active after 1200 ms: control=on"
	echo "    1..2"
	echo "# fake.c:49:broken:1 of 2 devices failed; first: 0000:00:03.0: still active after 1200 ms: control=on" >&2
	fake_fail broken
fi
if fake_want asserts; then
	fake_run asserts
	echo "# fake.c:77:asserts:Expected usage (2) == 0 (0)" >&2
	fake_fail asserts
fi
exit 1
