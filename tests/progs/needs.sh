#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# needs.sh - a program whose needs are unmet: the whole program skips.
CASES="never"
NEEDS="# NEEDS timeout_s: 20
# NEEDS kconfig: CONFIG_FAKE_THING"
. "$(dirname "$(readlink -f "$0")")/lib.sh"

echo "TAP version 13"
echo "1..0 # SKIP no CONFIG_FAKE_THING"
exit 4
