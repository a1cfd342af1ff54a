#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# knob.sh - writes a PM knob of the fake sysfs tree the way
# devpm_knob_write() does (journal record first: the path really written
# and the old value), then is SIGKILLed before it can put it back.
CASES="writer"
NEEDS="# NEEDS timeout_s: 20"
. "$(dirname "$(readlink -f "$0")")/lib.sh"

knob="$DEVPM_SYSFS_ROOT/sys/devices/fake0/power/control"
fake_begin
fake_run writer
printf 'W %s\t%s\n' "$knob" "$(cat "$knob")" >> "$DEVPM_JOURNAL"
echo on > "$knob"
echo "# wrote on to $knob"
kill -KILL $$
