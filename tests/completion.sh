#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# completion.sh DEVPM - lib/runner/completion.bash against a built devpm:
# commands, options, suites and cases from `devpm list`, "--opt=value"
# forms, /sys paths for `why`.  Exit 1 on any wrong completion.
set -u
devpm=${1:?usage: bash tests/completion.sh PATH/TO/devpm}
. "$(dirname "$0")/../lib/runner/completion.bash"
fail=0

# comp WORDS...: COMPREPLY for the last word, sorted, one line.  The
# line as bash gives it: COMP_LINE and COMP_POINT, COMP_WORDS split at
# its COMP_WORDBREAKS ('=' and ':' too).
comp() {
	local w
	COMP_LINE=$devpm
	for w; do COMP_LINE+=" $w"; done
	COMP_POINT=${#COMP_LINE}
	COMP_WORDS=("$devpm" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	_devpm
	[ ${#COMPREPLY[@]} = 0 ] && return
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}

expect() { # what got want
	if [ "$2" != "$3" ]; then
		echo "  FAIL completion $1: got '$2', want '$3'"
		fail=1
	else
		echo "  ok   completion $1"
	fi
}

suites=$(cd "$(dirname "$devpm")/suites" && ls | sort | tr '\n' ' ')
expect "commands" "$(comp '')" \
	"audit collect compare export help list report restore run why "
expect "co" "$(comp co)" "collect compare "
expect "global options" "$(comp --s)" "--sysfs-root "
expect "run options" "$(comp run --allow)" "--allow-disk --allow-sleep "
expect "--suite: the built suites" "$(comp run --suite '')" "$suites"
prog=$(cd "$(dirname "$devpm")/suites" && ls -d */* | head -1)
case1=$("$devpm" list --suite "${prog%/*}" | awk -v p="$prog" '
	$1 == p { in_p = 1; next } /^[^ ]/ { in_p = 0 }
	in_p && !/^    (needs|cannot)/ { print $1; exit }')
expect "--test full name" "$(comp run --test "$prog/${case1:0:3}" |
	tr ' ' '\n' | grep -c "^$prog/")" \
	"$("$devpm" list --suite "${prog%/*}" | awk -v p="$prog" '
	$1 == p { in_p = 1; next } /^[^ ]/ { in_p = 0 }
	in_p && !/^    (needs|cannot)/ { print $1 }' |
	grep -c "^${case1:0:3}")"
expect "--test case name" \
	"$(comp list --test "$case1" | tr ' ' '\n' | grep -cx "$case1")" 1
expect "after --sysfs-root DIR" "$(comp --sysfs-root /tmp li)" "list "
# --opt=value: the value completed (bash replaces what follows '=').
first=${suites%% *}
expect "--suite=${first:0:2}" "$(comp run --suite="${first:0:2}" | tr ' ' '\n' |
	grep -cx -- "$first")" 1
n=$(comp run --test "$prog/${case1:0:3}" | tr ' ' '\n' | grep -c "^$prog/")
[ "$n" -gt 0 ] || echo "  FAIL completion: no case of $prog to try --test= with"
expect "--test=$prog/${case1:0:3}" "$(comp run --test="$prog/${case1:0:3}" |
	tr ' ' '\n' | grep -c -- "^$prog/")" "$n"
d=$(mktemp -d "${TMPDIR:-/tmp}/devpm-comp.XXXXXX")
mkdir "$d/results-a"
expect "--output=DIR" "$(comp run --output="$d/res")" "$d/results-a "
expect "--sysfs-root=DIR before the command" "$(comp --sysfs-root="$d/r")" \
	"$d/results-a "
expect "the command after --sysfs-root=DIR" "$(comp --sysfs-root="$d" li)" "list "
rm -rf "$d"
expect "an unknown --opt=value: nothing" "$(comp run --bogus=x)" ""
# A device name with ':' (bash replaces what follows the last ':').
dev=$(ls /sys/bus/pci/devices 2>/dev/null | head -1)
if [ -n "$dev" ]; then
	expect "why ${dev:0:9}" "$(comp why "${dev:0:9}" | tr ' ' '\n' |
		grep -cx -- "${dev##*:}")" 1
fi
# why: a /sys path, directory by directory.
expect "why /sys/devi" "$(comp why /sys/devi)" "/sys/devices/ "
expect "why /sys/devices/sys" "$(comp why /sys/devices/sys)" "/sys/devices/system/ "
expect "help ru" "$(comp help ru)" "run "
expect "audit --a" "$(comp audit --a)" "--all "
expect "list --j" "$(comp list --j)" "--json "
expect "export options" "$(comp export --k)" "--kcidb "
# Negative control: a devpm that lists nothing completes no suite.
devpm=/bin/false
expect "no devpm, no suites" "$(comp run --suite '')" ""
exit $fail
