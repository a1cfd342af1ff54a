#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# layers_test.sh - the layering check (tests/layers.py) must fail on each
# kind of violation it exists for, and pass the tree as it is.
#
#   sh tests/layers_test.sh BUILD_DIR
set -u
O=${1:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/devpm-layers.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

expect() {	# expect RC NAME PATTERN -- layers.py ARGS
	want=$1 name=$2 pat=$3
	shift 4
	out=$(python3 tests/layers.py "$@" 2>&1)
	rc=$?
	if [ "$rc" -ne "$want" ] || ! printf '%s\n' "$out" | grep -q -- "$pat"; then
		echo "  not ok layers: $name (exit $rc, want $want and '$pat')"
		printf '%s\n' "$out" | sed 's/^/    # /'
		fail=1
	else
		echo "  ok   layers: $name"
	fi
}

expect 0 "the tree as it is" '0 violations' -- --objs "$O"

# An upward include: a core module that includes the harness.
cp -r lib "$tmp/lib"
sed -i '0,/^#include "core\/sysfs.h"/s//#include "core\/sysfs.h"\n#include "harness\/test_info.h"/' \
	"$tmp/lib/core/sysfs.c"
expect 1 "planted upward include" \
	'lib/core/sysfs.c: #include "harness/test_info.h" goes up from core to harness' \
	-- --root "$tmp" --objs "$O"

# A sideways include: one bus's module that includes another's.
rm -rf "$tmp/lib" && cp -r lib "$tmp/lib"
sed -i '0,/^#include "bus\/pci\/pci.h"/s//#include "bus\/pci\/pci.h"\n#include "bus\/usb\/usb.h"/' \
	"$tmp/lib/bus/pci/pci.c"
expect 1 "planted sideways include" 'crosses from bus/pci to bus/usb' \
	-- --root "$tmp" --objs "$O"

# Calls, from nm listings: an upward call, and a loop inside one layer.
cat >"$tmp/up.nm" <<'NM'
lib/core/sysfs:
0000000000000000 T devpm_read_str
                 U devpm_verdict_device
lib/judge/verdict:
0000000000000000 T devpm_verdict_device
                 U devpm_read_str
NM
expect 1 "planted upward call" \
	'lib/core/sysfs calls lib/judge/verdict: goes up from core to judge' \
	-- --nm "$tmp/up.nm"
cat >"$tmp/loop.nm" <<'NM'
lib/rpm/wait:
0000000000000000 T devpm_wait_status
                 U devpm_dev_open
lib/rpm/device:
0000000000000000 T devpm_dev_open
                 U devpm_wait_status
NM
expect 1 "planted loop" 'a loop of calls: lib/rpm/device -> lib/rpm/wait -> lib/rpm/device' \
	-- --nm "$tmp/loop.nm"

exit $fail
