#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# check_s3.sh RESULTS_DIR CASE...: each case ran and passed in that run's
# summary.json.  `make qemu-s3` boots the bzImage for the S3 cases (the
# default run boots by PVH, whose S3 resume takes another path:
# qemu/image.sh, build_pvh), so that `make check` runs them on both
# boots; a skip there is a failure.
set -eu
dir=$1
shift
[ -f "$dir/summary.json" ] || {
	echo "check_s3: no $dir/summary.json: the S3 run did not finish" >&2
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
    res = got[0]["result"] if got else "not run"
    why = (": " + got[0]["reason"]) if got and got[0]["reason"] else ""
    print("  S3 %s %s: %s%s" % (prog, case, res, why))
    bad += res != "pass"
sys.exit(1 if bad else 0)
PY
