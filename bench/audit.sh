#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# audit.sh [O=build] [COUNTS...] - how `devpm audit` scales: for each count
# (default 100 1000 10000) a fake sysfs tree of that many devices
# (bench/fake_sysfs.c) in a temporary directory, then the best of 3 runs
# of `devpm --sysfs-root TREE audit --all` (every device, not only those
# with runtime PM): wall and CPU (user + system) time.
# Fails (exit 1) when 1,000 devices take more than 1 s of wall time, or
# when the CPU time per device at a count is more than 1.5 x that at the
# count before it (not linear; CPU time, as the wall time of a loaded
# machine says more about its load).  Writes the figures to
# $O/bench/audit.json.  Exit 2 on bad input.
set -u
O=build
counts=()
for arg; do
	case $arg in
	O=*) O=${arg#O=} ;;
	*[!0-9]*|'') echo "devpm: bench/audit.sh: '$arg': give device counts or O=dir" >&2
		exit 2 ;;
	*) counts+=("$arg") ;;
	esac
done
[ ${#counts[@]} -gt 0 ] || counts=(100 1000 10000)
devpm=$O/devpm
gen=$O/bench/fake-sysfs
[ -x "$devpm" ] && [ -x "$gen" ] || {
	echo "devpm: $devpm or $gen missing; run 'make bench-audit'" >&2
	exit 2
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/devpm-audit.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# measure TREE: the fastest of 3 audits: "wall_us cpu_us" (cpu: user +
# system time of the audit, what a loaded machine disturbs least).
measure() {
	local best='' bcpu='' t wall cpu
	local TIMEFORMAT='%3R %3U %3S'
	for _ in 1 2 3; do
		t=$( { time "$devpm" --sysfs-root "$1" audit --all >"$tmp/out" \
			2>"$tmp/err"; } 2>&1) || {
			echo "devpm: audit of $1 failed: $(head -1 "$tmp/err")" >&2
			exit 1
		}
		wall=$(echo "$t" | awk '{ printf "%d", $1 * 1e6 }')
		cpu=$(echo "$t" | awk '{ printf "%d", ($2 + $3) * 1e6 }')
		[ -z "$best" ] || [ "$wall" -lt "$best" ] && best=$wall
		[ -z "$bcpu" ] || [ "$cpu" -lt "$bcpu" ] && bcpu=$cpu
	done
	echo "$best $bcpu"
}

rc=0
json="{\"format\": \"devpm-bench-audit\", \"format_version\": 1, \"audits\": ["
prev_per=
printf '  %8s %8s %8s %12s\n' devices wall_ms cpu_ms cpu_us/device
for n in "${counts[@]}"; do
	tree=$tmp/tree-$n
	"$gen" "$tree" "$n" || exit 2
	read -r us cpu <<<"$(measure "$tree")"
	# A row per device after the summary and the column heads.
	lines=$(($(wc -l <"$tmp/out") - 2))
	[ "$lines" = "$n" ] || {
		echo "  FAIL: audit of $n devices printed $lines lines"
		rc=1
	}
	per=$(awk -v u="$cpu" -v n="$n" 'BEGIN { printf "%.1f", u / n }')
	wms=$(awk -v u="$us" 'BEGIN { printf "%.1f", u / 1000 }')
	cms=$(awk -v u="$cpu" 'BEGIN { printf "%.1f", u / 1000 }')
	printf '  %8d %8s %8s %12s\n' "$n" "$wms" "$cms" "$per"
	json="$json${prev_per:+, }{\"devices\": $n, \"wall_ms\": $wms, \"cpu_ms\": $cms, \"cpu_us_per_device\": $per}"
	if [ "$n" = 1000 ] && [ "$us" -gt 1000000 ]; then
		echo "  FAIL: 1,000 devices took $wms ms, limit 1000 ms"
		rc=1
	fi
	if [ -n "$prev_per" ] && awk -v a="$per" -v b="$prev_per" \
		'BEGIN { exit !(a > 1.5 * b) }'; then
		echo "  FAIL: not linear: $per us of CPU per device at $n, $prev_per at the count before (limit 1.5 x)"
		rc=1
	fi
	prev_per=$per
	rm -rf "$tree"
done
json="$json], \"linear\": $([ $rc = 0 ] && echo true || echo false)}"
mkdir -p "$O/bench" && echo "$json" >"$O/bench/audit.json"
[ $rc = 0 ] && echo "  audit scales linearly; 1,000 devices within 1 s"
echo "  figures in $O/bench/audit.json"
exit $rc
