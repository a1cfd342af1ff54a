#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# loop.sh - a case that journals a knob of the fake sysfs tree, then writes
# it in a loop forever from a process of its own, as a harness case does:
# what `devpm restore` must end before it puts the knob back when the
# runner is SIGKILLed.  DEVPM_FAKE_TAG marks the writer.
CASES="writes"
NEEDS="# NEEDS timeout_s: 60"
. "$(dirname "$(readlink -f "$0")")/lib.sh"

knob="$DEVPM_SYSFS_ROOT/sys/devices/fake0/power/autosuspend_delay_ms"
fake_begin
fake_run writes
printf 'W %s\t%s\n' "$knob" "$(cat "$knob")" >> "$DEVPM_JOURNAL"
sh -c 'i=0; while :; do echo $((20 + i % 50)) > "$1"; i=$((i + 1)); done
: '"${DEVPM_FAKE_TAG:-tag}" loop "$knob" &
wait
fake_ok writes
