#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# completion.sh DEVPM - lib/runner/completion.bash against a built devpm:
# commands, options, suites and cases from `devpm list`.  Exit 1 on any
# wrong completion.
set -u
devpm=${1:?usage: bash tests/completion.sh PATH/TO/devpm}
. "$(dirname "$0")/../lib/runner/completion.bash"
fail=0

# comp WORDS...: COMPREPLY for the last word, sorted, one line.
comp() {
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
	"audit collect compare help list report restore run why "
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
# Negative control: a devpm that lists nothing completes no suite.
devpm=/bin/false
expect "no devpm, no suites" "$(comp run --suite '')" ""
exit $fail
