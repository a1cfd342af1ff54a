#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# check_lost.sh RESULTS_DIR CASE...: the wakeup suite's negative control.
# `make qemu-lost` plants devpm_mock's lost_wakeup bug (a wakeup event
# queued for user space but not reported to the PM core,
# docs/suites/wakeup.md); each case must then FAIL with the lost events
# counted (its "-" lost metric above 0) and the first loss named in its
# reason.  A pass, a skip or a loss of 0 means the case cannot see it.
set -eu
dir=$1
shift
[ -f "$dir/summary.json" ] || {
	echo "check_lost: no $dir/summary.json: the run did not finish" >&2
	exit 1
}
python3 - "$dir/summary.json" "$@" <<'PY'
import json, sys

cases = json.load(open(sys.argv[1]))["cases"]
bad = 0
for want in sys.argv[2:]:
    prog, case = want.split(":")
    got = [c for c in cases
           if c["suite"] + "/" + c["program"] == prog and c["case"] == case]
    if not got:
        print("  lost_wakeup %s %s: not run" % (prog, case))
        bad += 1
        continue
    c = got[0]
    lost = [m["value"] for m in c.get("metrics") or []
            if m["device"] == "-" and m["name"] == "lost"]
    ok = (c["result"] == "fail" and lost and lost[0] > 0 and
          "lost" in (c["reason"] or ""))
    print("  lost_wakeup %s %s: %s, lost %s: %s (%s)" %
          (prog, case, c["result"], lost[0] if lost else "-",
           "caught" if ok else "NOT caught", c["reason"] or "no reason"))
    bad += not ok
sys.exit(1 if bad else 0)
PY
