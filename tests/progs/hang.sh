#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# hang.sh - a case that never ends, with a grandchild in a session and
# process group of its own (as the harness forks each case) that keeps the
# output pipe open.  DEVPM_FAKE_TAG marks both for the test to look for.
CASES="stuck later"
NEEDS="# NEEDS timeout_s: 2"
. "$(dirname "$(readlink -f "$0")")/lib.sh"

fake_begin
fake_run stuck
setsid sh -c "sleep 1000; : ${DEVPM_FAKE_TAG:-tag}" &
sh -c "sleep 1000; : ${DEVPM_FAKE_TAG:-tag}"
fake_ok stuck
