#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# root_safety.sh - issue #35: what a local user tried against root's devpm,
# each attack refused with its victim untouched, next to the clean case
# that still works (the negative control).
#
#   sh tests/root_safety.sh DEVPM
#
# The user is a uid no account has (setpriv needs none, nothing is added
# to /etc/passwd): it plants links, FIFOs and trees in a directory of its
# own; devpm runs as root.  The checks whose refusal makes devpm fall back
# to /run/devpm run in a mount namespace of their own with a tmpfs there.
# Needs root (else skipped).  Exit 0 all passed, 1 any failed, 2 usage.

[ $# -eq 1 ] || { echo "usage: sh tests/root_safety.sh DEVPM" >&2; exit 2; }
devpm=$(readlink -f "$1")
[ -x "$devpm" ] || { echo "root_safety.sh: $1 is not an executable (make builds it)" >&2; exit 2; }
if [ "$(id -u)" != 0 ]; then
	echo "skip root_safety: needs root (it plays a local user against root's devpm)"
	exit 0
fi
for c in setpriv unshare mkfifo timeout awk; do
	command -v $c >/dev/null 2>&1 ||
		{ echo "FAIL root_safety: $c missing (util-linux, coreutils: make deps)"; exit 1; }
done
progs=$(cd "$(dirname "$0")/progs" && pwd) || exit 2

U=64123
top=$(mktemp -d "${TMPDIR:-/tmp}/devpm-rs.XXXXXX") || exit 2
trap 'rm -rf "$top"' EXIT INT TERM
chmod 755 "$top"
home=$top/home
mkdir "$home" && chown $U:$U "$home"
export DEVPM_JOURNAL_DIR=$top/j DEVPM_SUITES_DIR=$top/suites
unset DEVPM_SYSFS_ROOT DEVPM_JOURNAL DEVPM_BASELINE
# The restores run on a tree of their own (cur): the real /sys is not
# theirs to lock, another run on this machine may hold it.

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; [ -s "$top/err" ] && sed 's/^/     | /' "$top/err" | head -5; }
# check DESC CONDITION...: ok when the shell condition holds.
check() { desc=$1; shift; if eval "$@"; then ok "$desc"; else bad "$desc"; fi; }
as_user() { setpriv --reuid=$U --regid=$U --clear-groups -- sh -c "$1"; }
# dp ARGS...: devpm as root, stdout in $top/out, stderr in $top/err, $rc.
dp() { "$devpm" "$@" >"$top/out" 2>"$top/err"; rc=$?; }
one_line() { [ "$(wc -l <"$top/err")" -eq 1 ]; }
says() { grep -q -e "$1" "$top/err"; }
content() { cat "$1" 2>/dev/null; }

# A fake tree (dir): one device whose knobs the programs write.
tree() {
	mkdir -p "$1/sys/devices/fake0/power" "$1/dev" "$1/proc/sys/kernel"
	echo auto >"$1/sys/devices/fake0/power/control"
	echo 1000 >"$1/sys/devices/fake0/power/autosuspend_delay_ms"
	: >"$1/dev/kmsg"
	echo 0 >"$1/proc/sys/kernel/tainted"
}
# ids DIR: "<dev>:<ino>" as a journal's R line records a tree.
ids() { stat -c '%d:%i' "$1"; }

# Root's suites: the fake programs of the runner's tests, and one slow.
mkdir -p "$top/suites/fake" "$top/j"
chmod 700 "$top/j"
ln -s "$progs/pass.sh" "$top/suites/fake/pass"
cat >"$top/suites/fake/slow" <<'EOF'
#!/bin/sh
case "$1" in
--list) echo slow; exit 0 ;;
--needs) echo "# NEEDS timeout_s: 30"; exit 0 ;;
esac
echo "TAP version 13"
echo "1..1"
echo "#  RUN           fake.slow ..."
sleep 4
echo "#            OK  fake.slow"
echo "ok 1 fake.slow"
EOF
chmod 755 "$top/suites/fake/slow"
printf 'secret\n' >"$top/victim"
chmod 600 "$top/victim"
tree "$top/cur"

# 1. A tree of the user's, a knob linked to a root-only file.
as_user "mkdir -p $home/tree/sys/devices/fake0/power $home/tree/dev $home/tree/proc/sys/kernel &&
	echo auto >$home/tree/sys/devices/fake0/power/control && : >$home/tree/dev/kmsg &&
	echo 0 >$home/tree/proc/sys/kernel/tainted &&
	ln -s $top/victim $home/tree/sys/devices/fake0/power/autosuspend_delay_ms"
dp --sysfs-root "$home/tree" run --output "$top/res1" --test 'pass/*'
check "1 --sysfs-root of another user refused" '[ $rc -eq 2 ] && one_line && says "belongs to uid $U"'
check "1 its linked root-only file untouched, no results" '[ "$(content $top/victim)" = secret ] && [ ! -e "$top/res1" ]'
tree "$top/tree1"
dp --sysfs-root "$top/tree1" run --output "$top/res1" --test 'pass/*'
check "1 clean: root's tree runs" '[ $rc -eq 0 ] && [ -e "$top/res1/latest/junit.xml" ] && ! grep -q secret "$top/res1/latest/junit.xml"'

# 2. After a kill -9 on the user's tree, the tree replaced by links.
tree "$top/victree"
echo keep >"$top/victree/sys/devices/fake0/power/control"
as_user "mkdir -p $home/t2/sys/devices/fake0/power && echo on >$home/t2/sys/devices/fake0/power/control"
mkdir -m 700 "$top/j2"
printf 'R %s\t%s\nW %s/sys/devices/fake0/power/control\tauto\n' "$home/t2" \
	"$(ids "$home/t2")" "$home/t2" >"$top/j2/journal"
for target in "$top/victree" /; do
	as_user "rm -rf $home/t2.old; mv $home/t2 $home/t2.old && ln -s $target $home/t2"
	DEVPM_JOURNAL_DIR=$top/j2 dp --sysfs-root "$top/cur" restore
	check "2 restore into a replaced tree (-> $target) refused" '[ $rc -eq 2 ] && one_line && says "$home/t2"'
	as_user "rm $home/t2 && mv $home/t2.old $home/t2"
done
check "2 nothing written, the journal kept" '[ "$(content $top/victree/sys/devices/fake0/power/control)" = keep ] && grep -q "	auto" "$top/j2/journal"'
tree "$top/t2r"
echo on >"$top/t2r/sys/devices/fake0/power/control"
mkdir -m 700 "$top/j2r"
printf 'R %s\t%s\nW %s/sys/devices/fake0/power/control\tauto\n' "$top/t2r" \
	"$(ids "$top/t2r")" "$top/t2r" >"$top/j2r/journal"
DEVPM_JOURNAL_DIR=$top/j2r dp --sysfs-root "$top/cur" restore
check "2 clean: root's tree restored" '[ $rc -eq 0 ] && [ "$(content $top/t2r/sys/devices/fake0/power/control)" = auto ]'

# 3. --output (or the default results/) through the user's link or dir.
mkdir "$top/rootres"
echo keep >"$top/rootres/latest"
as_user "ln -s $top/rootres $home/out"
dp --sysfs-root "$top/tree1" run --output "$home/out" --test 'pass/*'
check "3 --output via the user's link refused" '[ $rc -eq 2 ] && one_line && says "uid $U"'
mkdir -m 1777 "$top/sticky"
as_user "ln -s $top/rootres $top/sticky/out"
dp --sysfs-root "$top/tree1" run --output "$top/sticky/out" --test 'pass/*'
check "3 --output via the user's link in a sticky /tmp refused" '[ $rc -eq 2 ] && one_line && says "out is a symlink of uid $U"'
check "3 root's directory untouched" '[ "$(ls $top/rootres)" = latest ] && [ "$(content $top/rootres/latest)" = keep ]'
(cd "$home" && "$devpm" --sysfs-root "$top/tree1" run --test 'pass/*' >"$top/out" 2>"$top/err"); rc=$?
check "3 default results/ in the user's directory refused" '[ $rc -eq 2 ] && one_line && says "$home belongs to uid $U" && [ ! -e $home/results ]'
dp --sysfs-root "$top/tree1" run --output "$top/res3" --test 'pass/*'
check "3 clean: root's --output" '[ $rc -eq 0 ] && [ -L "$top/res3/latest" ]'

# 4. baseline.tsv of another run behind the user's output link.
mkdir -p "$top/other/run"
echo victim >"$top/other/run/baseline.tsv"
as_user "ln -s $top/other $home/out4"
dp --sysfs-root "$top/tree1" run --output "$home/out4" --test 'pass/*'
check "4 output link refused before any baseline" '[ $rc -eq 2 ] && [ "$(content $top/other/run/baseline.tsv)" = victim ] && [ "$(ls $top/other)" = run ]'
check "4 clean: baseline.tsv in devpm's run directory" '[ -s "$(echo $top/res3/latest/baseline.tsv)" ]'

# 5. --stream through a link (the user's, or any: a file's own name).
printf 'secret\n' >"$top/victim5"
chmod 600 "$top/victim5"
as_user "ln -s $top/victim5 $home/stream"
dp --sysfs-root "$top/tree1" run --output "$top/res5" --stream "$home/stream" --test 'pass/*'
check "5 --stream via the user's link refused" '[ $rc -eq 2 ] && one_line && says "uid $U"'
as_user "ln -s $top/victim5 $top/sticky/stream"
dp --sysfs-root "$top/tree1" run --output "$top/res5" --stream "$top/sticky/stream" --test 'pass/*'
check "5 --stream via the user's link in a sticky /tmp refused" '[ $rc -eq 2 ] && one_line && says "stream is a symlink"'
ln -s "$top/victim5" "$top/slink"
dp --sysfs-root "$top/tree1" run --output "$top/res5" --stream "$top/slink" --test 'pass/*'
check "5 --stream via root's own link refused too" '[ $rc -eq 2 ] && one_line && says "is a symlink"'
check "5 the root-only file untouched, no run" '[ "$(content $top/victim5)" = secret ] && [ ! -e "$top/res5" ]'
dp --sysfs-root "$top/tree1" run --output "$top/res5" --stream "$top/s5" --test 'pass/*'
check "5 clean: a new stream file" '[ $rc -eq 0 ] && head -1 "$top/s5" | grep -q "^DEVPM-STREAM"'

# 6. DEVPM_SUITES_DIR of the user's; a program of theirs in root's dir.
as_user "mkdir -p $home/suites/fake && printf '#!/bin/sh\ntouch $home/pwned\necho x\n' >$home/suites/fake/evil && chmod 755 $home/suites/fake/evil"
DEVPM_SUITES_DIR=$home/suites dp list --suite fake
check "6 DEVPM_SUITES_DIR of another user ignored, said" 'says "ignoring DEVPM_SUITES_DIR=$home/suites" && [ ! -e $home/pwned ]'
cp -a "$top/suites" "$top/suites6"
cp "$home/suites/fake/evil" "$top/suites6/fake/evil"
chown $U "$top/suites6/fake/evil"
DEVPM_SUITES_DIR=$top/suites6 dp list
check "6 a program of another user's skipped" 'says "ignoring $top/suites6/fake/evil" && [ ! -e $home/pwned ] && [ $rc -eq 0 ]'
chmod 777 "$top/suites6"
DEVPM_SUITES_DIR=$top/suites6 dp list --suite fake
check "6 a suites directory others can write ignored" 'says "ignoring DEVPM_SUITES_DIR=" && [ ! -e $home/pwned ]'
dp list --suite fake
check "6 clean: root's suites listed" '[ $rc -eq 0 ] && grep -q "fake/pass" "$top/out" && grep -q "fake/slow" "$top/out"'
# A directory of root's holding files named lock and journal.
mkdir "$top/etc6"
echo important >"$top/etc6/lock"
echo "not a journal" >"$top/etc6/journal"
DEVPM_JOURNAL_DIR=$top/etc6 dp --sysfs-root "$top/cur" restore
check "6 a foreign lock file not overwritten" '[ $rc -eq 2 ] && one_line && [ "$(content $top/etc6/lock)" = important ]'
echo 1 >"$top/etc6/lock"
DEVPM_JOURNAL_DIR=$top/etc6 dp --sysfs-root "$top/cur" restore
check "6 a foreign journal not emptied" '[ $rc -eq 2 ] && one_line && says "not a devpm journal" && [ "$(content $top/etc6/journal)" = "not a journal" ]'
: >"$top/etc6/journal"
DEVPM_JOURNAL_DIR=$top/etc6 dp --sysfs-root "$top/cur" restore
check "6 clean: an empty journal and a pid's lock taken" '[ $rc -eq 0 ]'
# A link of the user's earlier in the journal's path: ignored, said;
# the default then is /run/devpm, a tmpfs of this check's own.
mkdir -m 700 "$top/jroot"
as_user "ln -s $top/jroot $home/jl"
DEVPM_JOURNAL_DIR=$home/jl/j unshare --mount --propagation private sh -c \
	'mount -t tmpfs tmpfs /run && exec "$0" --sysfs-root "$1" restore' \
	"$devpm" "$top/cur" >"$top/out" 2>"$top/err"
rc=$?
check "6 DEVPM_JOURNAL_DIR through the user's link ignored, said" '[ $rc -eq 0 ] && says "ignoring DEVPM_JOURNAL_DIR=$home/jl/j" && [ ! -e $top/jroot/j ]'

# 7. A restore from another tree while a run holds the journal's tree.
tree "$top/l1"
tree "$top/l2"
mkdir -m 700 "$top/j7" "$top/j7run"
printf 'R %s\t%s\nW %s/sys/devices/fake0/power/control\tstale\n' "$top/l1" \
	"$(ids "$top/l1")" "$top/l1" >"$top/j7/journal"
DEVPM_JOURNAL_DIR=$top/j7run "$devpm" --sysfs-root "$top/l1" run --output "$top/res7" \
	--test 'slow/*' >/dev/null 2>&1 &
run=$!
i=0
while [ $i -lt 50 ] && ! grep -q "$(stat -c '%i' "$top/l1")" /proc/locks; do
	sleep 0.1
	i=$((i + 1))
done
DEVPM_JOURNAL_DIR=$top/j7 dp --sysfs-root "$top/l2" restore
check "7 restore waits for the run on the journal's tree" '[ $rc -eq 2 ] && one_line && says "holds the lock on $top/l1"'
check "7 the run's tree untouched" '[ "$(content $top/l1/sys/devices/fake0/power/control)" = auto ]'
wait $run
DEVPM_JOURNAL_DIR=$top/j7 dp --sysfs-root "$top/l2" restore
check "7 clean: that run over, restored" '[ $rc -eq 0 ] && [ "$(content $top/l1/sys/devices/fake0/power/control)" = stale ]'

# 8. stream.log a FIFO or /dev/zero: report and collect refuse at once.
as_user "mkdir $home/r8 $home/r8z && mkfifo $home/r8/stream.log && ln -s /dev/zero $home/r8z/stream.log"
for d in r8 r8z; do
	timeout 20 "$devpm" report "$home/$d" >"$top/out" 2>"$top/err"
	rc=$?
	check "8 report of $d/stream.log refused, not hung" '[ $rc -eq 2 ] && one_line && says "not a regular file"'
	timeout 20 "$devpm" collect --output "$top/res8" "$home/$d/stream.log" >"$top/out" 2>"$top/err"
	rc=$?
	check "8 collect of $d/stream.log refused, not hung" '[ $rc -eq 2 ] && one_line && says "not a regular file"'
done
dp report "$top/res3/latest"
check "8 clean: report of a run" '[ $rc -eq 0 ] && [ -s "$top/res3/latest/report.html" ]'

# 9. KTAP metric values strtod takes and JSON does not.
printf 'KTAP version 1\n1..1\n# METRIC - a_us=1\nok 1 c\n' >"$top/good.ktap"
printf 'KTAP version 1\n1..1\n# METRIC - a_us=92.\n# METRIC - b_us=inf\n# METRIC - c_us=nan\n# METRIC - d_us=0x10\n# METRIC - e_us=+5\n# METRIC - f_us=.5\nok 1 c\n' >"$top/bad.ktap"
dp compare "$top/good.ktap" "$top/bad.ktap"
check "9 compare of odd metric values reads both" '[ $rc -le 1 ] && ! says "not valid JSON"'
dp compare "$top/good.ktap" "$top/good.ktap"
check "9 clean: compare of the same KTAP" '[ $rc -eq 0 ]'

# 10. 20k failures reported, 20k unrun cases listed, each within 1 s.
mkdir "$top/f10" "$top/u10"
awk 'BEGIN { print "DEVPM-STREAM 1"; print "RUN r1 2026-01-01T00:00:00Z 1000";
	for (i = 0; i < 20000; i++) { t = 2000 + i;
		printf "PROG %d s%d/p%d 60\nCASE c\nOUT %d TAP version 13\nOUT %d 1..1\n", t, i % 7, i, t, t;
		printf "KMSG %d 6,1,%d,-;line %d\nOUT %d not ok 1 f.c\nEND %d s%d/p%d 1 exit:1\n", t, t, i, t, t + 1, i % 7, i }
	print "DONE 99999999 1" }' >"$top/f10/stream.log"
awk 'BEGIN { print "DEVPM-STREAM 1"; print "RUN r1 2026-01-01T00:00:00Z 1000"; print "PROG 2000 s/p 60";
	for (i = 0; i < 20000; i++) printf "CASE case%d\n", i;
	print "OUT 2001 TAP version 13"; print "END 2005 s/p 1 timeout"; print "DONE 99999999 1" }' >"$top/u10/stream.log"
ms() { s=$(date +%s%N); "$devpm" "$@" >/dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000000 )); }
t=$(ms report "$top/f10")
check "10 report of 20000 failing programs: $t ms" '[ $t -le 1000 ] && grep -c "<h3 class=\"fail\">" "$top/f10/report.html" | grep -qx 20000'
t=$(ms collect --output "$top/res10" "$top/u10/stream.log")
check "10 20000 unrun cases listed: $t ms" '[ $t -le 1000 ] && [ "$(grep -o "\"not_run\"" "$top/res10/latest/summary.json" | wc -l)" -ge 20000 ]'

# 11. Bad input: one line, the problem and the fix, before the run.
dp run --output /etc/passwd/x
check "11 --output /etc/passwd/x" '[ $rc -eq 2 ] && one_line && says "/etc/passwd is not a directory; pass --output DIR"'
dp run --output "$(head -c 100000 /dev/zero | tr '\0' o)"
check "11 a 100k-character --output" '[ $rc -eq 2 ] && one_line && says "longer than 4095 bytes; give a shorter --output"'
dp --sysfs-root "$top/tree1" run --output "$top/res11" --stream /tmp --test 'pass/*'
check "11 --stream /tmp" '[ $rc -eq 2 ] && one_line && says "/tmp is a directory; give a regular file" && [ ! -e "$top/res11" ]'
tree "$top/t11"
echo on >"$top/t11/sys/devices/fake0/power/control"
mkdir -m 700 "$top/j11"
printf 'R %s\t%s\nW %s/sys/devices/fake0/power/control\tau\000to\n' "$top/t11" \
	"$(ids "$top/t11")" "$top/t11" >"$top/j11/journal"
DEVPM_JOURNAL_DIR=$top/j11 dp --sysfs-root "$top/cur" restore
check "11 a NUL inside a journal value: invalid, not cut short" '[ $rc -eq 2 ] && says "invalid, not restored" && [ "$(content $top/t11/sys/devices/fake0/power/control)" = on ]'
printf 'R %s\t%s\nW %s/sys/devices/fake0/power/control\tauto\n' "$top/t11" \
	"$(ids "$top/t11")" "$top/t11" >"$top/j11/journal"
DEVPM_JOURNAL_DIR=$top/j11 dp --sysfs-root "$top/cur" restore
check "11 clean: the same value without the NUL restored" '[ $rc -eq 0 ] && [ "$(content $top/t11/sys/devices/fake0/power/control)" = auto ]'

echo "root_safety: $pass passed, $fail failed"
[ $fail -eq 0 ]
