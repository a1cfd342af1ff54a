#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# check_cases.sh WANT RESULTS_DIR PROG:CASE...: each case's outcome in that
# run's summary.json, for the make check steps that run a few cases on
# their own terms:
#   pass  it ran and passed; a skip is a failure (`make qemu-s3`: the S3
#         cases on the bzImage boot, whose kernel comes by fw_cfg)
#   lost  it FAILed with its "-" lost metric above 0 and the loss in its
#         reason (`make qemu-lost`: devpm_mock's lost_wakeup bug, an event
#         queued for user space but not reported to the PM core); a pass,
#         a skip or a loss of 0 means the case cannot see the bug
set -eu
want=$1
dir=$2
shift 2
case $want in
pass|lost) ;;
*) echo "check_cases: WANT is pass or lost, not '$want'" >&2; exit 2 ;;
esac
[ -f "$dir/summary.json" ] || {
	echo "check_cases: no $dir/summary.json: the run did not finish" >&2
	exit 1
}
python3 - "$want" "$dir/summary.json" "$@" <<'PY'
import json, sys

want = sys.argv[1]
cases = json.load(open(sys.argv[2]))["cases"]
bad = 0
for name in sys.argv[3:]:
    prog, case = name.split(":")
    got = [c for c in cases
           if c["suite"] + "/" + c["program"] == prog and c["case"] == case]
    if not got:
        print("  %s %s %s: not run" % (want, prog, case))
        bad += 1
        continue
    c = got[0]
    why = c["reason"] or ""
    if want == "pass":
        ok = c["result"] == "pass"
        print("  %s %s %s: %s%s" % (want, prog, case, c["result"],
                                    ": " + why if why else ""))
    else:
        lost = [m["value"] for m in c.get("metrics") or []
                if m["device"] == "-" and m["name"] == "lost"]
        ok = (c["result"] == "fail" and bool(lost) and lost[0] > 0 and
              "lost" in why)
        print("  %s %s %s: %s, lost %s: %s (%s)" %
              (want, prog, case, c["result"], lost[0] if lost else "-",
               "caught" if ok else "NOT caught", why or "no reason"))
    bad += not ok
sys.exit(1 if bad else 0)
PY
