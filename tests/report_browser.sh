#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# report_browser.sh DEVPM [PNG] - `devpm report` of tests/report/stream.log
# rendered by headless Chromium with networking off: the page loads, its
# DOM holds the timelines' SVG, the console logs no error, and a
# screenshot is written (PNG, default build/report-check/report.png).
# `make check-report`; needs the chromium package.  Exit 1 on a failure,
# 2 when chromium is missing.
set -u
devpm=${1:?usage: sh tests/report_browser.sh PATH/TO/devpm [PNG]}
dir=$(dirname "$devpm")/report-check
png=${2:-$dir/report.png}
browser=$(command -v chromium || command -v chromium-browser) || {
	echo "report_browser.sh: chromium not found; apt-get install chromium" >&2
	exit 2
}
rm -rf "$dir" && mkdir -p "$dir/run" || exit 2
cp tests/report/stream.log "$dir/run/" || exit 2
"$devpm" report "$dir/run" >/dev/null || exit 1
page=file://$(cd "$dir/run" && pwd)/report.html
# A proxy that does not exist: any fetch the page tried would fail and log.
opts="--headless --no-sandbox --disable-gpu --no-first-run
	--proxy-server=127.0.0.1:9 --enable-logging=stderr --v=0"
fail=0
timeout 120 "$browser" $opts --dump-dom "$page" >"$dir/dom.html" \
	2>"$dir/dump.log" || { echo "  FAIL report: chromium --dump-dom failed"; fail=1; }
n=$(grep -c '<svg' "$dir/dom.html")
[ "$n" -ge 1 ] || { echo "  FAIL report: no <svg> in the rendered DOM"; fail=1; }
timeout 120 "$browser" $opts --window-size=1200,2000 --screenshot="$png" \
	"$page" >/dev/null 2>"$dir/shot.log" ||
	{ echo "  FAIL report: chromium --screenshot failed"; fail=1; }
[ -s "$png" ] || { echo "  FAIL report: no screenshot $png"; fail=1; }
if grep -h 'CONSOLE\|ERR_\|Uncaught' "$dir/dump.log" "$dir/shot.log"; then
	echo "  FAIL report: the browser logged the errors above"
	fail=1
fi
[ $fail = 0 ] && echo "  ok   report: rendered by $($browser --version 2>/dev/null | head -1), $n SVG timelines, no console errors; screenshot $png"
exit $fail
