#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check.sh [O=build] [SUITES=i2c] - `make check-lava`: devpm's LAVA files
# proved with Debian's lava-dispatcher on this machine, no LAVA server:
# the QEMU image in LAVA mode (qemu/run.sh --image), qemu-job.yaml filled
# in, validated (lava-run --validate), then run by lava-run against
# qemu-device.yaml: LAVA boots the image, clones the test definition from
# a bare clone of this repository's HEAD (commit first), runs it, and
# every case of the suites must come back as a LAVA test case that
# passed, each metric with its measurement and units, and the names LAVA
# recorded must be exactly those of the run's summary.json (the job asks
# devpm-lava.sh for it in the log; tests/lava_names.py).  build/lava/
# names.txt puts each of summary.json's cases and metrics next to its
# LAVA name.  Exit 1 on a failure, 2 on a setup problem.  Hold
# /tmp/devpm-qemu.lock.
set -u
cd "$(dirname "$0")/.." || exit 2
O=build
SUITES=${SUITES:-i2c}
for a; do
	case $a in
	O=*) O=${a#O=} ;;
	*) echo "devpm: lava/check.sh: unknown argument '$a' (O=dir)" >&2
	   exit 2 ;;
	esac
done
die() {
	echo "devpm: $*" >&2
	exit 2
}
command -v lava-run >/dev/null ||
	die "lava-run not found; as root: sh qemu/deps.sh lava (apt-get install lava-dispatcher)"
B=$(cd "$O" 2>/dev/null && pwd) || die "no build directory $O; run 'make' first"
W=$B/lava
rm -rf "$W" && mkdir -p "$W" || die "cannot make $W"
t0=$(date +%s)

# The image: LAVA mode, Debian's kernel as bzImage.
PROFILE=lava bash qemu/run.sh O="$O" --image="$W/img" || exit 2
. "$B/qemu/kernel.env"

# The test definition as LAVA gets it: git, this repository's HEAD.
git clone -q --bare . "$W/devpm.git" || die "git clone of this repository failed"
sed -e "s|@KERNEL@|file://$W/img/bzImage|" \
    -e "s|@INITRD@|file://$W/img/initrd|" \
    -e "s|@REPO@|$W/devpm.git|" -e "s|@SUITES@|$SUITES|g" \
    -e "s|@SUMMARY@|1|" lava/qemu-job.yaml >"$W/job.yaml"

# LAVA's schemas: both job templates (hw-job.yaml with stand-in values:
# it cannot run here) and the device configuration.
schema=/usr/share/lava-common/lava-schema.py
sed -e 's|@KERNEL@|file:///bzImage|' -e 's|@INITRD@|file:///initrd.gz|' \
    -e 's|@NFSROOT@|file:///rootfs.tar.xz|' -e "s|@REPO@|$W/devpm.git|" \
    -e "s|@SUITES@|$SUITES|g" -e 's|@DEVICE_TYPE@|x86|g' \
	lava/hw-job.yaml >"$W/hw-job.yaml"
for f in "$W/job.yaml" "$W/hw-job.yaml"; do
	out=$(/usr/bin/python3 "$schema" job "$f" 2>&1)
	echo "$out" | grep -q -- '->' &&
		{ echo "$out"; echo "  FAIL lava: $f does not fit LAVA's job schema"; exit 1; }
done
out=$(/usr/bin/python3 "$schema" device lava/qemu-device.yaml 2>&1)
echo "$out" | grep -q -- '->' &&
	{ echo "$out"; echo "  FAIL lava: qemu-device.yaml does not fit LAVA's device schema"; exit 1; }
echo "  ok   lava: qemu-job.yaml, hw-job.yaml and qemu-device.yaml fit LAVA's schemas"

# guestfs writes LAVA's overlay disk with a helper VM: Debian's kernel of
# the image (this machine may have none in /boot), TCG.
export SUPERMIN_KERNEL=$BZIMAGE SUPERMIN_MODULES=$MODDIR
export LIBGUESTFS_BACKEND=direct LIBGUESTFS_BACKEND_SETTINGS=force_tcg

lava-run --validate --job-id devpm-validate --output-dir "$W/validate" \
	--device lava/qemu-device.yaml "$W/job.yaml" >"$W/validate.log" 2>&1 ||
	{ tail -20 "$W/validate.log"; echo "  FAIL lava: lava-run --validate rejected $W/job.yaml (log: $W/validate.log)"; exit 1; }
echo "  ok   lava: lava-run --validate accepts qemu-job.yaml"

echo "  LAVA    lava-run of $W/job.yaml (SUITES=$SUITES)"
lava-run --job-id devpm-check --output-dir "$W/out" \
	--device lava/qemu-device.yaml "$W/job.yaml" >"$W/lava.log" 2>&1
rc=$?
t=$(($(date +%s) - t0))

# lava-run logs YAML: results are the lines of level "results".
grep '"lvl": "results"' "$W/lava.log" >"$W/results.log"
fail=0
# Each case devpm lists, by its LAVA name (output_lava.c): every part's
# characters but [A-Za-z0-9_-] made '_'.
want=$(for p in "$B"/suites/*/*; do
	s=$(basename "$(dirname "$p")")
	case " $SUITES " in *" $s "*) ;; *) [ -n "$SUITES" ] && continue ;; esac
	for c in $("$p" --list); do
		echo "devpm.$s.$(basename "$p").$(echo "$c" | sed 's/[^A-Za-z0-9_-]/_/g')"
	done
done)
for c in $want; do
	grep "\"case\": \"$c\", \"definition\": \"0_devpm\"" "$W/results.log" |
		grep -q '"result": "pass"' ||
		{ echo "  FAIL lava: no passed test case $c"; fail=1; }
done
meas=$(grep -c '"definition": "0_devpm".*"measurement"' "$W/results.log")
[ "$meas" -gt 0 ] || { echo "  FAIL lava: no test case with a measurement"; fail=1; }
grep -q '"definition": "0_devpm".*"units": "\(us\|ms\)"' "$W/results.log" ||
	{ echo "  FAIL lava: no measurement with units us or ms"; fail=1; }
grep -q '"case": "job", "definition": "lava", "result": "pass"' \
	"$W/results.log" || { echo "  FAIL lava: the LAVA job did not pass (lava-run exit $rc; log: $W/lava.log)"; fail=1; }
# The names LAVA recorded and the run's summary.json from the log.
python3 - "$W/lava.log" "$W/summary.json" "$W/names" <<'EOP'
import base64
import sys
import yaml
summary, names = [], []
for line in open(sys.argv[1], encoding='utf-8', errors='replace'):
    line = line[2:] if line.startswith('- ') else line
    try:
        rec = yaml.safe_load(line)
    except yaml.YAMLError:
        continue
    if not isinstance(rec, dict):
        continue
    msg = rec.get('msg')
    if rec.get('lvl') == 'target' and isinstance(msg, str) and \
            msg.startswith('devpm-summary: '):
        summary.append(msg[len('devpm-summary: '):].strip())
    if rec.get('lvl') == 'results' and isinstance(msg, dict) and \
            msg.get('definition') == '0_devpm':
        names.append(str(msg.get('case')))
open(sys.argv[2], 'wb').write(base64.b64decode(''.join(summary)))
open(sys.argv[3], 'w').write('\n'.join(names) + '\n')
EOP
if out=$(python3 tests/lava_names.py "$W/summary.json" "$W/names" 2>&1); then
	echo "  ok   lava: the names LAVA recorded are summary.json's cases and metrics ($(grep -c . "$W/names") names)"
else
	echo "$out" | sed 's/^/  /'
	echo "  FAIL lava: the names LAVA recorded are not summary.json's (log: $W/lava.log)"
	fail=1
fi
python3 tests/lava_names.py --table "$W/summary.json" >"$W/names.txt" || true
n=$(grep -c '"definition": "0_devpm"' "$W/results.log")
[ $fail = 0 ] &&
	echo "  ok   lava: lava-run booted the image, $n devpm test cases ($meas with measurements), all of $SUITES passed; $t s"
exit $fail
