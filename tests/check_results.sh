#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# check_results.sh - the result files of a run, as their consumers read
# them: junit.xml against three JUnit schemas at once (the Jenkins xunit
# plugin's junit-10.xsd, the Jenkins JUnit 4 schema and Ant's, with
# xmllint; tests/junit/README), results.ktap with the kernel's
# kunit_parser (tests/kunit_check.py), summary.json's format (python3)
# and `devpm export --kcidb` against KCIDB's schema (tests/kcidb_check.py).
# The run is tests/results/crash.stream collected by devpm: a failure, a
# skip, an expected failure, a program killed before its first case, a
# timeout and a guest crash, each with cases left unrun.  Each check has a
# negative control: a broken file must be rejected.  lava.sh is run with a
# stand-in lava-test-case that checks each call's arguments.
#
# With RUN_DIR (a real run, e.g. results/latest after `make qemu`), its
# files are checked the same way, without the fixture's counts.
#
#   sh tests/check_results.sh BUILD_DIR KUNIT_DIR [RUN_DIR]
#
# Exit 0 when all holds, 1 on a failed check, 2 when a tool is missing.

usage() {
	echo "usage: sh tests/check_results.sh BUILD_DIR KUNIT_DIR [RUN_DIR]" >&2
	exit 2
}

[ $# -eq 2 ] || [ $# -eq 3 ] || usage
build=$1
kunit=$2
run=${3:-}
for t in xmllint python3; do
	command -v $t >/dev/null 2>&1 || { echo "check_results: $t not found: run 'make deps' (qemu/deps.sh installs libxml2-utils and python3)" >&2; exit 2; }
done
[ -x "$build/devpm" ] || { echo "check_results: $build/devpm missing: run make" >&2; exit 2; }
[ -r "$kunit/kunit_parser.py" ] || { echo "check_results: $kunit/kunit_parser.py missing: run 'make headers' (it unpacks tools/testing/kunit)" >&2; exit 2; }

# The python3 that has jsonschema (make deps: python3-jsonschema).
pyjs=
for py in python3 /usr/bin/python3; do
	if "$py" -c 'import jsonschema' 2>/dev/null; then
		pyjs=$py
		break
	fi
done
[ -n "$pyjs" ] || { echo "check_results: no python3 with jsonschema: run 'make deps' (qemu/deps.sh installs python3-jsonschema)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/devpm-results.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
xsd=tests/junit/junit-10.xsd
jenkins=tests/junit/jenkins-junit-4.xsd
# Ant's schema with what Ant writes for a skipped test (README).
ant=$tmp/ant-junit.xsd
sed -f tests/junit/ant-skipped.sed tests/junit/ant-junit.xsd >"$ant" || exit 2
fails=0
checks=0

# ok NAME CMD...: the command must succeed.  bad NAME CMD...: must fail.
ok() {
	name=$1
	shift
	checks=$((checks + 1))
	if "$@" >"$tmp/out" 2>&1; then
		echo "ok   $name"
	else
		cat "$tmp/out"
		echo "FAIL $name"
		fails=$((fails + 1))
	fi
}
bad() {
	name=$1
	shift
	checks=$((checks + 1))
	if "$@" >"$tmp/out" 2>&1; then
		cat "$tmp/out"
		echo "FAIL $name (a broken file was accepted)"
		fails=$((fails + 1))
	else
		echo "ok   $name (rejected: $(tail -n 1 "$tmp/out" | cut -c1-100))"
	fi
}

# A stand-in for LAVA's lava-test-case: the arguments devpm's lava.sh may
# pass, each checked; every call is logged.
cat >"$tmp/lava-test-case" <<'EOS'
#!/bin/sh
name=$1
shift
case $name in
''|*[!A-Za-z0-9._-]*) echo "lava-test-case: bad name '$name'" >&2; exit 1 ;;
esac
[ "$1" = --result ] || { echo "lava-test-case: $name: no --result" >&2; exit 1; }
case $2 in
pass|fail|skip|unknown) ;;
*) echo "lava-test-case: $name: result '$2'" >&2; exit 1 ;;
esac
shift 2
if [ $# -gt 0 ]; then
	[ "$1" = --measurement ] && [ -n "$2" ] || { echo "lava-test-case: $name: '$*'" >&2; exit 1; }
	awk -v v="$2" 'BEGIN { exit !(v ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) }' ||
		{ echo "lava-test-case: $name: measurement '$2'" >&2; exit 1; }
	shift 2
	if [ $# -gt 0 ]; then
		[ "$1" = --units ] && [ $# -eq 2 ] &&
			case $2 in ns|us|ms|s|count|ratio|code) true ;; *) false ;; esac ||
			{ echo "lava-test-case: $name: units '$*'" >&2; exit 1; }
	fi
fi
echo "$name" >>"${LAVA_LOG:-/dev/null}"
EOS
chmod +x "$tmp/lava-test-case"
lava() { # lava.sh LOG
	PATH="$tmp:$PATH" LAVA_LOG=$2 sh "$1"
}

if [ -n "$run" ]; then
	[ -r "$run/results.ktap" ] || { echo "check_results: $run/results.ktap missing: give a run directory" >&2; exit 2; }
	ok "$run/junit.xml valid against $xsd" xmllint --noout --schema $xsd "$run/junit.xml"
	ok "$run/junit.xml valid against $jenkins" xmllint --noout --schema $jenkins "$run/junit.xml"
	ok "$run/junit.xml valid against Ant's schema" xmllint --noout --schema "$ant" "$run/junit.xml"
	ok "$run/results.ktap read whole by kunit_parser" python3 tests/kunit_check.py \
		"$kunit" "$run/results.ktap"
	ok "$run/summary.json format" python3 tests/summary_check.py "$run/summary.json"
	ok "$run/lava.sh calls lava-test-case right" lava "$run/lava.sh" "$tmp/run-lava.log"
	ok "$run/lava.sh names are summary.json's cases and metrics" python3 \
		tests/lava_names.py "$run/summary.json" "$tmp/run-lava.log"
	ok "devpm export --kcidb $run" "$build/devpm" export --kcidb "$run" -o "$tmp/run-kcidb.json"
	ok "its KCIDB v4 JSON valid, a test per case" "$pyjs" tests/kcidb_check.py \
		"$tmp/run-kcidb.json" --summary "$run/summary.json"
	echo "check_results: $run: $((checks - fails)) of $checks checks passed"
	[ $fails -eq 0 ]
	exit
fi

"$build/devpm" collect tests/results/crash.stream --output "$tmp/res" \
	--crash "Kernel panic - not syncing: Fatal exception" >"$tmp/collect" 2>&1
rc=$?
if [ $rc -ne 1 ]; then
	cat "$tmp/collect"
	echo "FAIL devpm collect tests/results/crash.stream: exit $rc, expected 1"
	exit 1
fi
res=$tmp/res/latest

# junit.xml
ok "junit.xml valid against $xsd" xmllint --noout --schema $xsd "$res/junit.xml"
ok "junit.xml valid against $jenkins" xmllint --noout --schema $jenkins "$res/junit.xml"
ok "junit.xml valid against Ant's schema" xmllint --noout --schema "$ant" "$res/junit.xml"
# The totals of the testsuites (the root has none: Ant's schema).
total() { xmllint --xpath "sum(//testsuite/@$1)" "$res/junit.xml"; }
ok "junit.xml: the crash and the unrun cases are errors" sh -c \
	'[ "$0 $1 $2" = "13 3 5" ]' "$(total tests)" "$(total failures)" "$(total errors)"
ok "junit.xml: timestamp, hostname and the run's properties" sh -c \
	'grep -q "<testsuite name=\"pci/rt\" package=\"devpm.pci\" id=\"0\" timestamp=\"2025-01-02T03:04:05\" hostname=\"" "$0" &&
	 grep -q "<property name=\"kernel_release\" value=\"6.1.0-57-amd64\"/>" "$0" &&
	 grep -q "<property name=\"config_sha256\" value=\"" "$0"' "$res/junit.xml"
# Negative controls, one a schema: each broken the way a writer could.
sed 's/<testsuites>/<testsuites skipped="3">/' "$res/junit.xml" >"$tmp/skipped.xml"
bad "junit-10 rejects <testsuites skipped>" xmllint --noout --schema $xsd "$tmp/skipped.xml"
sed 's/<\/testcase>/<bogus\/><\/testcase>/' "$res/junit.xml" >"$tmp/bogus.xml"
bad "junit-10 rejects an unknown element" xmllint --noout --schema $xsd "$tmp/bogus.xml"
sed 's/<skipped>\([^<]*\)<\/skipped>/<skipped message="\1"\/>/' "$res/junit.xml" >"$tmp/skipmsg.xml"
bad "Jenkins 4 rejects <skipped message=...>" xmllint --noout --schema $jenkins "$tmp/skipmsg.xml"
sed 's/ timestamp="[^"]*"//' "$res/junit.xml" >"$tmp/nots.xml"
bad "Ant rejects a testsuite without timestamp" xmllint --noout --schema "$ant" "$tmp/nots.xml"
sed 's/ hostname="[^"]*"//' "$res/junit.xml" >"$tmp/nohost.xml"
bad "Ant rejects a testsuite without hostname" xmllint --noout --schema "$ant" "$tmp/nohost.xml"
sed 's/<testcase \([^>]*\)\/>/<testcase \1><system-out>x<\/system-out><\/testcase>/' \
	"$res/junit.xml" >"$tmp/caseout.xml"
bad "Ant rejects a testcase's own <system-out>" xmllint --noout --schema "$ant" "$tmp/caseout.xml"
bad "the published Ant schema has no <skipped>" xmllint --noout --schema \
	tests/junit/ant-junit.xsd "$res/junit.xml"

# results.ktap: 13 leaves; the 4 not run count as failed, nothing crashed.
ok "kunit_parser reads results.ktap whole" python3 tests/kunit_check.py \
	"$kunit" "$res/results.ktap" passed=3 failed=7 skipped=3 crashed=0
# kunit.py parse itself (it exits 1 when any test failed): its count line.
ok "kunit.py parse counts all 13 planned results" sh -c \
	'python3 "$0/kunit.py" parse "$1" | grep -q "Ran 13 tests: passed: 3, failed: 7, skipped: 3\$"' \
	"$kunit" "$res/results.ktap"
# The header comment between version and plan: the plan is lost.
awk 'NR == 2 { plan = $0; next } NR == 3 { print; print plan; next } { print }' \
	"$res/results.ktap" >"$tmp/header.ktap"
bad "kunit_check rejects the header before the plan" python3 tests/kunit_check.py \
	"$kunit" "$tmp/header.ktap"
# The last suite cut off (a writer that stopped early).
sed '/^    # Subtest: i2c/,$d' "$res/results.ktap" | sed '$d' >"$tmp/cut.ktap"
bad "kunit_check rejects a missing planned result" python3 tests/kunit_check.py \
	"$kunit" "$tmp/cut.ktap"
bad "kunit_check rejects wrong counts" python3 tests/kunit_check.py \
	"$kunit" "$res/results.ktap" passed=3 failed=3 skipped=3

# summary.json
ok "summary.json: format version, units, not_run" python3 tests/summary_check.py \
	"$res/summary.json" not_run=4
sed 's/"units": "us", //' "$res/summary.json" >"$tmp/nounits.json"
bad "summary_check rejects a metric without units" python3 tests/summary_check.py \
	"$tmp/nounits.json" not_run=4
sed 's/"format_version": 3,//' "$res/summary.json" >"$tmp/nover.json"
bad "summary_check rejects no format version" python3 tests/summary_check.py \
	"$tmp/nover.json" not_run=4
sed 's/"units": "us", /"units": "none", /' "$res/summary.json" >"$tmp/none.json"
bad "summary_check rejects units \"none\"" python3 tests/summary_check.py \
	"$tmp/none.json" not_run=4
sed 's/"started": "[^"]*", //' "$res/summary.json" >"$tmp/nostart.json"
bad "summary_check rejects a case without its start" python3 tests/summary_check.py \
	"$tmp/nostart.json" not_run=4

# devpm export --kcidb: KCIDB v4 (tests/kcidb/README).
ok "devpm export --kcidb" "$build/devpm" export --kcidb "$res" -o "$tmp/kcidb.json"
ok "KCIDB JSON valid, a test per case with its status" "$pyjs" tests/kcidb_check.py \
	"$tmp/kcidb.json" --summary "$res/summary.json"
ok "KCIDB: the crash an ERROR, the unrun MISS, the XFAIL waived" sh -c \
	'grep -q "\"path\": \"devpm.i2c.two.c\", .*\"status\": \"ERROR\"" "$0" &&
	 grep -q "\"path\": \"devpm.usb.hang.later\", .*\"status\": \"MISS\"" "$0" &&
	 grep -q "\"path\": \"devpm.pci.rt.known\", .*\"status\": \"FAIL\", \"waived\": true" "$0"' \
	"$tmp/kcidb.json"
sed 's/"path": "devpm.pci.rt.idle.0000_00_01_0/"path": "devpm.pci.rt.idle.0000:00:01.0/' \
	"$tmp/kcidb.json" >"$tmp/kcidb-path.json"
bad "kcidb_check rejects a path with ':'" "$pyjs" tests/kcidb_check.py "$tmp/kcidb-path.json"
sed 's/"status": "PASS"/"status": "OK"/' "$tmp/kcidb.json" >"$tmp/kcidb-status.json"
bad "kcidb_check rejects an unknown status" "$pyjs" tests/kcidb_check.py "$tmp/kcidb-status.json"
sed 's/"waived": /"xfail": /' "$tmp/kcidb.json" >"$tmp/kcidb-prop.json"
bad "kcidb_check rejects a property KCIDB lacks" "$pyjs" tests/kcidb_check.py "$tmp/kcidb-prop.json"
grep -v '"path": "devpm.pci.rt.busy",' "$tmp/kcidb.json" >"$tmp/kcidb-lost.json"
bad "kcidb_check misses no case of summary.json" "$pyjs" tests/kcidb_check.py \
	"$tmp/kcidb-lost.json" --summary "$res/summary.json"

# lava.sh: 13 results (as in junit.xml) and 2 measurements.
ok "lava.sh calls lava-test-case right" lava "$res/lava.sh" "$tmp/lava.log"
ok "lava.sh records every case and metric" sh -c \
	'[ "$(wc -l <"$0")" -eq 15 ] && grep -qx devpm.pci.rt.idle.0000_00_01_0.suspend_us "$0"' \
	"$tmp/lava.log"
ok "lava.sh names are summary.json's cases and metrics" python3 \
	tests/lava_names.py "$res/summary.json" "$tmp/lava.log"
sed '$d' "$tmp/lava.log" >"$tmp/lava-short.log"
bad "lava_names rejects a name missing" python3 tests/lava_names.py \
	"$res/summary.json" "$tmp/lava-short.log"
sed 's/0000_00_01_0/0000_00_01.0/' "$tmp/lava.log" >"$tmp/lava-dot.log"
bad "lava_names rejects a device's dot kept" python3 tests/lava_names.py \
	"$res/summary.json" "$tmp/lava-dot.log"
sed 's/devpm.pci.rt.idle /devpm.pci.rt.idle:x /' "$res/lava.sh" >"$tmp/bad-lava.sh"
bad "lava-test-case stand-in rejects a bad name" lava "$tmp/bad-lava.sh" /dev/null
sed 's/--units us/--units seconds/' "$res/lava.sh" >"$tmp/bad-units.sh"
bad "lava-test-case stand-in rejects unknown units" lava "$tmp/bad-units.sh" /dev/null

# The same run with its plan (tests/results/plan.stream: PLAN records
# first, and a program, scsi/after, and the final re-check the crash left
# unstarted): every planned case is in every file, the 3 more not run.
"$build/devpm" collect tests/results/plan.stream --output "$tmp/plan" \
	--crash "Kernel panic - not syncing: Fatal exception" >"$tmp/collect" 2>&1
pl=$tmp/plan/latest
ok "plan: junit.xml valid, 16 testcases of which 8 errors" sh -c \
	'xmllint --noout --schema "$0" "$1" &&
	 [ "$(xmllint --xpath "count(//testcase)" "$1")" = 16 ] &&
	 [ "$(xmllint --xpath "count(//testcase/error)" "$1")" = 8 ]' \
	"$xsd" "$pl/junit.xml"
ok "plan: kunit_parser counts the 16 planned results" python3 tests/kunit_check.py \
	"$kunit" "$pl/results.ktap" passed=3 failed=10 skipped=3
ok "plan: summary.json has the 7 not run" python3 tests/summary_check.py \
	"$pl/summary.json" not_run=7
bad "plan: kunit_check rejects the counts without the plan" python3 tests/kunit_check.py \
	"$kunit" "$pl/results.ktap" passed=3 failed=7 skipped=3

echo "check_results: $((checks - fails)) of $checks checks passed"
[ $fails -eq 0 ]
