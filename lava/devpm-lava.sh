#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# devpm-lava.sh DEVPM "SUITES" "ALLOW" - run devpm under a LAVA test shell
# and report its results with lava-test-case: one test case per devpm case
# (suite.program.case), one per metric (...device.name, --measurement,
# --units us|ms).  Read from results.ktap: devpm's KTAP nests suites,
# programs, cases and devices by four spaces, a case's "# METRIC device
# name=value" lines come before its result.  POSIX sh and awk only
# (busybox in devpm's image).  Without lava-test-case (run by hand) the
# calls are printed.
set -u
devpm=${1:-devpm}
suites=${2:-}
allow=${3:-}
out=${DEVPM_LAVA_OUTPUT:-/tmp/devpm-lava}

args=
for s in $suites; do
	args="$args --suite $s"
done
# shellcheck disable=SC2086
"$devpm" run $allow $args --output "$out" >/dev/null
rc=$?
run=$out/latest
if [ ! -r "$run/results.ktap" ]; then
	echo "devpm-lava: devpm run exited $rc without results in $out"
	command -v lava-test-case >/dev/null &&
		lava-test-case devpm-run --result fail
	exit 0
fi

ltc=lava-test-case
command -v lava-test-case >/dev/null || ltc="echo lava-test-case"

# Lines of: name result [measurement units]
awk '
function id(s) { gsub(/[^A-Za-z0-9_.-]/, "_", s); return s }
function result(ok, rest) {
	if (rest ~ /# *SKIP/) return "skip"
	return ok ? "pass" : "fail"
}
{
	match($0, /^ */); d = RLENGTH / 4; s = substr($0, RLENGTH + 1)
}
s ~ /^# Subtest: / { name[d] = substr(s, 12); next }
s ~ /^# METRIC / {
	split(s, f, " "); eq = index(f[4], "=")
	nm[d] = nm[d] + 1
	mdev[d, nm[d]] = f[3]; mname[d, nm[d]] = substr(f[4], 1, eq - 1)
	mval[d, nm[d]] = substr(f[4], eq + 1)
	next
}
s ~ /^(not )?ok [0-9]+/ {
	ok = s ~ /^ok/
	t = s; sub(/^(not )?ok [0-9]+ +/, "", t)
	rest = ""; h = index(t, " #")
	if (h) { rest = substr(t, h + 1); t = substr(t, 1, h - 1) }
	if (d == 2) {
		c = id(name[1] "." name[2] "." t)
		print c, result(ok, rest)
		for (i = 1; i <= nm[d]; i++) {
			u = mname[d, i] ~ /_us$/ ? "us" : \
			    mname[d, i] ~ /_ms$/ ? "ms" : "none"
			print id(c "." mdev[d, i] "." mname[d, i]), "pass", \
			      mval[d, i], u
		}
	}
	# Each program too; the pass below keeps it only when it ran no
	# case (skipped whole, or crashed).
	if (d == 1)
		print id(name[1] "." t), result(ok, rest)
	nm[d] = 0
	next
}
' "$run/results.ktap" >"$out/lava-cases" 2>/dev/null

# A program's own line only when it had no case line.
awk '
NF >= 2 { n = split($1, p, "."); key = p[1] "." p[2]; all[NR] = $0
	  if (n >= 3) has[key] = 1; else prog[NR] = key }
END { for (i = 1; i <= NR; i++)
	  if (!(i in prog) || !has[prog[i]]) print all[i] }
' "$out/lava-cases" | while read -r name res meas units; do
	if [ -n "$meas" ] && [ "$units" != none ]; then
		$ltc "$name" --result "$res" --measurement "$meas" --units "$units"
	elif [ -n "$meas" ]; then
		$ltc "$name" --result "$res" --measurement "$meas"
	else
		$ltc "$name" --result "$res"
	fi
done
echo "devpm-lava: devpm run exited $rc; results in $run"
exit 0
