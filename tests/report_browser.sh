#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# report_browser.sh DEVPM [RUN_DIR [WANT...]] - `devpm report` rendered by
# headless Chromium with networking off, as a lab opens it: the page
# loads, the console logs no error, its DOM holds the verdict banner, an
# anchor per case, the timelines' SVG in <details>, and for each failure
# its runtime-PM timeline or the sentence saying why there is none; no
# reference to anything outside the page.  A screenshot is written
# (build/report-check/<name>.png).  RUN_DIR: the report of that run
# (default tests/report/stream.log's); each WANT is a string some
# failure's runtime-PM timeline must hold (a planted device's name).
# Negative controls: the same page with a script error and with an
# external image must be refused.  `make check-report`; needs chromium
# (make deps).  Exit 1 on a failure, 2 when chromium is missing.
set -u
devpm=${1:?usage: sh tests/report_browser.sh PATH/TO/devpm [RUN_DIR [WANT...]]}
shift
src=${1:-}
[ $# -gt 0 ] && shift
dir=$(dirname "$devpm")/report-check
browser=$(command -v chromium || command -v chromium-browser) || {
	echo "report_browser.sh: chromium not found; apt-get install chromium (make deps)" >&2
	exit 2
}
name=fixture
[ -n "$src" ] && name=$(basename "$(cd "$src" && pwd -P)")
work=$dir/$name
rm -rf "$work" && mkdir -p "$work/run" || exit 2
if [ -n "$src" ]; then
	cp "$src/stream.log" "$work/run/" || exit 2
else
	cp tests/report/stream.log "$work/run/" || exit 2
fi
"$devpm" report "$work/run" >/dev/null || exit 1
# A proxy that does not exist: any fetch the page tried would fail.
opts="--headless --no-sandbox --disable-gpu --no-first-run
	--proxy-server=127.0.0.1:9 --enable-logging=stderr --v=0"

# page FILE TAG: 0 when the page renders clean and holds what it must;
# else says why on stdout and returns 1.
page() {
	f=$1 tag=$2 bad=0
	url=file://$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
	# shellcheck disable=SC2086 # $opts is a list of options
	timeout 120 "$browser" $opts --dump-dom "$url" >"$work/$tag.dom" \
		2>"$work/$tag.log" || { echo "    chromium --dump-dom failed"; bad=1; }
	if grep -h 'CONSOLE\|ERR_\|Uncaught' "$work/$tag.log"; then
		echo "    the browser logged the errors above"
		bad=1
	fi
	# Nothing outside the page: no src, no link but to an anchor.
	if grep -Eo '(src|href)="[^#"][^"]*"|url\(' "$work/$tag.dom" | head -3 |
		grep .; then
		echo "    the page refers to something outside it"
		bad=1
	fi
	grep -q '<div class="banner \(ok\|bad\)" id="verdict">' "$work/$tag.dom" ||
		{ echo "    no verdict banner"; bad=1; }
	grep -q '<tr id="[^"]*"><td><a class="self" href="#' "$work/$tag.dom" ||
		{ echo "    no anchor per case"; bad=1; }
	# A failure without its runtime-PM timeline or the reason why not.
	awk '/<div class="failure" id=/ { if (f && !ok) { print "    " f; n++ }
		f = $0; sub(/.*id="failure-/, "", f); sub(/".*/, "", f); ok = 0 }
		f && (/Runtime PM of its devices/ || /<p>Runtime PM: /) { ok = 1 }
		END { if (f && !ok) { print "    " f; n++ }; exit n > 0 }' \
		"$work/$tag.dom" ||
		{ echo "    the failures above have no runtime-PM section"; bad=1; }
	return $bad
}

fail=0
if page "$work/run/report.html" report >"$work/why"; then
	n=$(grep -c '<svg' "$work/report.dom")
	nd=$(grep -c '<details' "$work/report.dom")
	nf=$(grep -c '<div class="failure" id=' "$work/report.dom")
else
	cat "$work/why"
	echo "  FAIL report ($name): the rendered page above"
	fail=1
fi
for want in "$@"; do
	# The failures' part of the page: each WANT in a timeline there.
	sed -n '/<h2 id="failures">/,/<h2 id="timelines">/p' "$work/report.dom" |
		grep -q "<title>$want " ||
		{ echo "  FAIL report ($name): no failure's runtime-PM timeline has $want"; fail=1; }
done
timeout 120 "$browser" $opts --window-size=1200,2000 \
	--screenshot="$dir/$name.png" "file://$(cd "$work/run" && pwd)/report.html" \
	>/dev/null 2>"$work/shot.log" ||
	{ echo "  FAIL report ($name): chromium --screenshot failed"; fail=1; }
[ -s "$dir/$name.png" ] || { echo "  FAIL report ($name): no screenshot"; fail=1; }

# Negative controls: a script error, a fetched image.
sed 's|<body>|<body><script>devpm_undefined()</script>|' "$work/run/report.html" \
	>"$work/script.html"
sed 's|<body>|<body><img src="http://devpm.invalid/x.png">|' "$work/run/report.html" \
	>"$work/fetch.html"
for t in script fetch; do
	if page "$work/$t.html" "$t" >/dev/null; then
		echo "  FAIL report ($name): the check took the page with a $t"
		fail=1
	fi
done
[ $fail = 0 ] && echo "  ok   report ($name): rendered by $($browser --version 2>/dev/null | head -1): banner, $n SVG timelines, $nd folded, $nf failures each with its runtime PM${*:+ ($*)}, no console error, nothing fetched; a script error and an external image refused; screenshot $dir/$name.png"
exit $fail
