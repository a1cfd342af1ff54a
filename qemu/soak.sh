#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# soak.sh - the default run N times with a CPU hog on the host, and the
# planted late suspend once after each (make qemu-soak).
#
#   bash qemu/soak.sh [O=build]
#
# A verdict that host load can turn into a FAIL is a verdict on the host,
# not on the kernel: every timing limit of devpm is the kernel's promise
# plus an allowance (docs/verdicts.md), and this is its proof.  Each
# round: HOG busy loops start on the host (nice 0, as QEMU), the default
# run (qemu/run.sh), then `qemu/run.sh --planted`'s first run only
# (PLANTED_SLEEP=0; qemu/planted/rules.c:
# devpm_mock.6's late_suspend must FAIL autosuspend_on_time, the clean
# devpm_mock.0 pass it, with every other planted bug caught), then the
# loops stop.  A table of every round's verdicts; exit 1 when a default
# run had a FAIL or the planted run did not catch its bugs.
#
# Settings (environment or make variables)
#   SOAK_RUNS=10      rounds
#   SOAK_HOG=1        busy loops on the host during each round (0: none)
#   SOAK_LOCK=FILE    each round holds flock FILE (the QEMU runs of other
#                     users of the host wait between rounds, not for all)
# and those of qemu/run.sh (PROFILE, BOOT, ...).
set -u

O=build
for a in "$@"; do
	case $a in
	O=*) O=${a#O=} ;;
	*) echo "devpm: qemu/soak.sh: unknown argument '$a' (O=dir)" >&2; exit 2 ;;
	esac
done
QEMU_DIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$QEMU_DIR/.." && pwd)
RUNS=${SOAK_RUNS:-10}
HOG=${SOAK_HOG:-1}
LOCK=${SOAK_LOCK:-}
case $RUNS$HOG in
*[!0-9]*) echo "devpm: SOAK_RUNS and SOAK_HOG are numbers" >&2; exit 2 ;;
esac

REPORT=$TOP/results/soak-$(date +%Y%m%d-%H%M%S).txt
HOGS=()

hog_start() {
	local i

	HOGS=()
	for ((i = 0; i < HOG; i++)); do
		bash -c 'while :; do :; done' &
		HOGS+=($!)
	done
}

hog_stop() {
	local p

	for p in "${HOGS[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	HOGS=()
}
trap 'hog_stop; exit 130' INT TERM

# The results directory the last run made.
latest() {
	readlink -f "$TOP/results/latest"
}

# "pass fail skip xfail" of a run's summary.json; its failing cases.
totals() {
	python3 - "$1/summary.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
t, d = s['totals'], s.get('device_totals', {})
bad = [f"{c['suite']}/{c['program']}/{c['case']}" for c in s['cases']
       if c['result'] in ('fail', 'not_run')]
print(f"{t['pass']:4} {t['fail']:4} {t['skip']:4} {t['xfail']:5}   "
      f"{d.get('pass', 0):4} {d.get('fail', 0):4}", ' '.join(bad))
EOF
}

# One round: the default run, then the planted bugs.  Prints its row.
round() {
	local k=$1 t0 rc prc dir pdir wall line late

	hog_start
	t0=$(date +%s.%N)
	bash "$QEMU_DIR/run.sh" "O=$O" >"$TOP/results/soak-round.log" 2>&1
	rc=$?
	dir=$(latest)
	wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
	PLANTED_SLEEP=0 bash "$QEMU_DIR/run.sh" "O=$O" --planted \
		>"$TOP/results/soak-planted.log" 2>&1
	prc=$?
	pdir=$(latest)
	hog_stop
	line=$(totals "$dir" 2>/dev/null || echo "no summary.json in $dir")
	late=$(grep -m1 -E '^ +# devpm_mock[.]6 [(]driver devpm_mock[)]: suspend began' \
		"$pdir/results.ktap" 2>/dev/null | sed 's/^ *# //')
	printf '%3d  %-15s %5.1f  %s\n' "$k" "$(basename "$dir")" "$wall" "$line"
	printf '     planted (%s): %s\n' "$(basename "$pdir")" \
		"$([ $prc = 0 ] && echo "every bug caught" || echo "NOT CAUGHT: see $pdir")"
	printf '     %s\n' "${late:-no late-suspend FAIL line}"
	[ "$rc" = 0 ] && [ "$prc" = 0 ] && [ -n "$late" ]
}

{
	echo "devpm qemu-soak: $RUNS rounds, $HOG busy loop(s) on the host ($(nproc) cores) during each"
	echo "round dir             wall_s  pass fail skip xfail  dev_pass dev_fail  failing cases"
} | tee "$REPORT"
bad=0
for ((k = 1; k <= RUNS; k++)); do
	if [ -n "$LOCK" ]; then
		exec 9>"$LOCK"
		flock 9
	fi
	round "$k" | tee -a "$REPORT"
	[ "${PIPESTATUS[0]}" = 0 ] || bad=$((bad + 1))
	[ -n "$LOCK" ] && exec 9>&-
done
echo "$((RUNS - bad)) of $RUNS rounds clean (no FAIL in the default run, the planted late suspend caught); report: $REPORT" |
	tee -a "$REPORT"
[ $bad = 0 ]
