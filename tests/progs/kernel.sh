#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kernel.sh - cases that pass by their own account while the (fake) kernel
# logs a WARNING or sets a taint flag: both must fail.  The third case is
# an expected failure.
CASES="warns taints known"
NEEDS="# NEEDS timeout_s: 20"
. "$(dirname "$(readlink -f "$0")")/lib.sh"

fake_begin
if fake_want warns; then
	fake_run warns
	echo "4,901,5000000,-;WARNING: CPU: 0 PID: 1 at drivers/base/power/runtime.c:1234 rpm_fake" >> "$DEVPM_SYSFS_ROOT/dev/kmsg"
	fake_ok warns
fi
if fake_want taints; then
	fake_run taints
	echo 512 > "$DEVPM_SYSFS_ROOT/proc/sys/kernel/tainted"
	fake_ok taints
fi
if fake_want known; then
	fake_run known
	fake_skip known "XFAIL e1000e keeps its probe usage (fake)"
fi
exit 0
