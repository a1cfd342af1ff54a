#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh - run each libFuzzer harness for a bounded time from its seed
# corpus (tests/fuzz/corpus/<name>/, which is only read: new inputs go to
# a temporary directory).  A crash, leak, timeout or out-of-memory fails,
# and saves the input under BUILD_DIR/fuzz/.
#
#   sh tests/fuzz/run.sh BUILD_DIR SECONDS_EACH BIN...
#
# Exit 0 when no harness found anything, 1 otherwise, 2 on bad usage.

[ $# -ge 3 ] || { echo "usage: sh tests/fuzz/run.sh BUILD_DIR SECONDS_EACH BIN..." >&2; exit 2; }
build=$1
secs=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/devpm-fuzz.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
for bin in "$@"; do
	name=${bin##*/fuzz_}
	seeds=tests/fuzz/corpus/$name
	[ -d "$seeds" ] || { echo "FAIL fuzz_$name: no seed corpus $seeds"; fails=$((fails + 1)); continue; }
	mkdir -p "$tmp/$name"
	# The journal harness runs as nobody: let it write its new inputs.
	chmod 0777 "$tmp" "$tmp/$name"
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=8192 -print_final_stats=1 -close_fd_mask=2 \
		-artifact_prefix="$tmp/$name-crash-" \
		"$tmp/$name" "$seeds" >"$tmp/log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/log")
	if [ $rc -ne 0 ]; then
		tail -n 60 "$tmp/log"
		mkdir -p "$build/fuzz"
		cp "$tmp/$name"-crash-* "$build/fuzz/" 2>/dev/null
		echo "FAIL fuzz_$name (exit $rc): input saved in $build/fuzz/$name-crash-*; replay: $bin FILE"
		fails=$((fails + 1))
	else
		echo "ok   fuzz_$name: ${runs:-?} inputs in ${secs} s, no finding"
	fi
done
[ $fails -eq 0 ]
