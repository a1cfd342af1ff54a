#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# devpm-lava.sh DEVPM "SUITES" "ALLOW" - run devpm under a LAVA test shell
# and report its results with lava-test-case, by running the run's own
# lava.sh: devpm has one LAVA naming, made by one piece of code
# (lib/runner/output_lava.c: devpm.<suite>.<program>.<case>, each metric
# ...<case>.<device>.<metric> with --measurement and --units).  devpm's
# own output (progress, KTAP) goes to the job's log.  With
# DEVPM_LAVA_SUMMARY=1 the run's summary.json follows in base64, each line
# prefixed "devpm-summary: ", for lava/check.sh to compare the names LAVA
# recorded with.  POSIX sh (busybox in devpm's image).  Without lava-test-case (run
# by hand) the calls are printed.
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
"$devpm" run $allow $args --output "$out"
rc=$?
run=$out/latest
if [ ! -r "$run/lava.sh" ]; then
	echo "devpm-lava: devpm run exited $rc without results in $out"
	command -v lava-test-case >/dev/null &&
		lava-test-case devpm-run --result fail
	exit 0
fi

if ! command -v lava-test-case >/dev/null; then
	mkdir -p "$out/.bin" &&
		printf '#!/bin/sh\necho lava-test-case "$@"\n' >"$out/.bin/lava-test-case" &&
		chmod +x "$out/.bin/lava-test-case" && PATH=$out/.bin:$PATH
fi
sh "$run/lava.sh"
# base64: LAVA's log escapes what a line holds.
if [ "${DEVPM_LAVA_SUMMARY:-}" = 1 ]; then
	{ base64 <"$run/summary.json" 2>/dev/null ||
	  busybox base64 <"$run/summary.json"; } | sed 's/^/devpm-summary: /'
fi
echo "devpm-lava: devpm run exited $rc; results in $run"
exit 0
