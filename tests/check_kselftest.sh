#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# check_kselftest.sh BUILD KUNIT_DIR - `make check-kselftest`: the tree of
# `make install INSTALL_PATH=DIR` as kselftest users meet it.
#
#  - run_kselftest.sh -l lists devpm:<suite>_<program> for every program
#    of suites/, and -c devpm runs them all;
#  - the scripts and programs are 0755: a user who is not root runs
#    `run_kselftest.sh -c devpm` (a scratch system user, made here when
#    missing and removed after), every program SKIPs saying it needs root,
#    and the kernel's kunit.py parses the TAP: 22 tests, 22 skipped;
#  - each program answers -l (the harness's table on stderr, its cases
#    those of --list) and -h (usage), both exit 4, as the kselftest
#    harness does.
# Negative controls: the same checks on a copy with one program 0744 and
# on one whose kselftest-list.txt lost a line must fail.  Exit 1 on a
# failure, 2 on a setup problem.  Needs root (useradd, runuser).
set -u
B=${1:?usage: sh tests/check_kselftest.sh BUILD KUNIT_DIR}
KUNIT=${2:?usage: sh tests/check_kselftest.sh BUILD KUNIT_DIR}
USER_NAME=devpm-ksft
fail=0

[ "$(id -u)" = 0 ] || { echo "devpm: check_kselftest.sh needs root (useradd, runuser)" >&2; exit 2; }
command -v runuser >/dev/null || { echo "devpm: runuser not found (util-linux)" >&2; exit 2; }

W=$(mktemp -d "${TMPDIR:-/tmp}/devpm-ksft.XXXXXX") || exit 2
made_user=
cleanup() {
	rm -rf "$W"
	[ -n "$made_user" ] && userdel "$USER_NAME" 2>/dev/null
}
trap cleanup EXIT INT TERM
chmod 755 "$W"
make -s --no-print-directory install O="$B" INSTALL_PATH="$W/tree" >"$W/install.log" 2>&1 ||
	{ cat "$W/install.log"; echo "devpm: make install INSTALL_PATH= failed" >&2; exit 2; }

if ! id "$USER_NAME" >/dev/null 2>&1; then
	useradd --system --no-create-home --shell /usr/sbin/nologin "$USER_NAME" ||
		{ echo "devpm: useradd $USER_NAME failed" >&2; exit 2; }
	made_user=1
fi

want=$(for s in suites/*/*.c; do
	p=${s#suites/}
	echo "devpm:$(dirname "$p")_$(basename "$p" .c)"
done | sort)
nwant=$(echo "$want" | wc -l)

# tree_check DIR: prints one line per problem; none when the tree is good.
tree_check() {
	local t=$1 f m out parsed
	for f in "$t/run_kselftest.sh" "$t"/kselftest/* "$t"/devpm/*; do
		[ "$(basename "$f")" = settings ] && continue
		m=$(stat -L -c %a "$f")
		[ "$m" = 755 ] || echo "$f is mode $m, not 755"
	done
	[ "$(cd "$t" && ./run_kselftest.sh -l | sort)" = "$want" ] ||
		echo "run_kselftest.sh -l does not list the $nwant programs as devpm:<suite>_<program>"
	# As a user: its own pipe (runner.sh reopens /dev/stdout).
	out=$(runuser -u "$USER_NAME" -- sh -c \
		"cd /; '$t/run_kselftest.sh' -c devpm 2>&1 | cat")
	echo "$out" >"$W/last.tap"
	parsed=$(echo "$out" | python3 "$KUNIT/kunit.py" parse 2>&1 |
		sed -n 's/.*Testing complete\. \(.*\)/\1/p')
	[ "$parsed" = "Ran $nwant tests: skipped: $nwant" ] ||
		echo "run_kselftest.sh -c devpm as $USER_NAME: kunit.py says '$parsed', not $nwant skipped (TAP: $W/last.tap)"
	[ "$(echo "$out" | grep -c '^# 1\.\.0 # SKIP needs root: ')" = "$nwant" ] ||
		echo "run_kselftest.sh -c devpm as $USER_NAME: not every program said it needs root"
}

bad=$(tree_check "$W/tree")
if [ -n "$bad" ]; then
	echo "$bad" | sed 's/^/  FAIL kselftest: /'
	fail=1
else
	echo "  ok   kselftest: run_kselftest.sh -c devpm ran $nwant programs as $USER_NAME (not root): $nwant SKIP needs root, parsed by kunit.py; scripts and programs 0755"
fi

# -l and -h of every program, as the harness's.
n=0
for p in "$W"/tree/devpm/*; do
	[ "$(basename "$p")" = settings ] && continue
	"$p" -l 2>"$W/l.err" >/dev/null
	rc=$?
	# Each case of --list is a TEST of the table (its last column).
	sed -n '2,$p' "$W/l.err" | awk '{print $NF}' | sort -u >"$W/l.table"
	"$p" --list | sort -u >"$W/l.list"
	if [ $rc != 4 ] || ! head -1 "$W/l.err" | grep -q '^# FIXTURE *VARIANT *TEST$' ||
	   [ ! -s "$W/l.list" ] || [ -n "$(comm -23 "$W/l.list" "$W/l.table")" ]; then
		echo "  FAIL kselftest: $(basename "$p") -l: exit $rc, or its table is not its --list"
		fail=1
	fi
	"$p" -h 2>"$W/h.err" >/dev/null
	rc=$?
	if [ $rc != 4 ] || ! grep -q '^Usage: .* \[-h | -l' "$W/h.err"; then
		echo "  FAIL kselftest: $(basename "$p") -h: exit $rc, or no usage"
		fail=1
	fi
	n=$((n + 1))
done
[ $fail = 0 ] && echo "  ok   kselftest: $n programs answer -l (the harness's table, their cases) and -h, exit 4"

# Negative controls: a program 0744; a list that lost a line.
cp -a "$W/tree" "$W/bad1"
chmod 744 "$(ls "$W"/bad1/devpm/*_* | head -1)"
cp -a "$W/tree" "$W/bad2"
sed -i '1d' "$W/bad2/kselftest-list.txt"
caught=
for t in bad1 bad2; do
	bad=$(tree_check "$W/$t" | head -1)
	if [ -z "$bad" ]; then
		echo "  FAIL kselftest: negative control $t passed the checks"
		fail=1
	fi
	caught="$caught${caught:+; }${bad#"$W/"}"
done
[ $fail = 0 ] && echo "  ok   kselftest: negative controls caught: $caught"
exit $fail
