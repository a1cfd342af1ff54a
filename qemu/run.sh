#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh [O=build] [--check | --kselftest | --image=DIR | --planted |
# --bench] - `make qemu` and `make qemu-check` (--kselftest: only its
# kselftest check; --image=DIR: no boot, DIR/bzImage and DIR/initrd for a
# LAVA job, see lava/; --planted: `make qemu-planted`; --bench: the bench
# suite of bench/, `make qemu-bench`).
#
# Builds (incrementally) the guest kernel and initramfs, boots the
# profile's machine under KVM when a short probe says it works, else TCG,
# runs `devpm run --allow-sleep --allow-disk` inside, and rebuilds
# results/<run-id>/ on the host from the guest's record stream with
# `devpm collect`.  Exit status as devpm run: 0 pass, 1 any failure (a
# guest crash or hang included), 2 setup error.
#
# --check first boots the self-test image (qemu/selftest/: the host agent's
# requests, then a program that crashes the guest) and checks that the
# crash ends the run within CRASH_BOUND seconds with that program FAIL
# naming the panic and the earlier results kept; then again with a program
# that silences the guest, which the hang watchdog must end; then the
# kselftest tree under the kernel's run_kselftest.sh (ksft_check); then the
# real run.
#
# Settings (environment or make variables), see qemu/README:
#   SUITES="usb pci"  TEST=GLOB  PROFILE=default  KERNEL_PKG=linux-image-amd64
#   KERNEL=bzImage MODULES=dir [KCONFIG=.config]  EXTRA_MODULES="a.ko"
#   QEMU_ARGS="-device edu"  BOOT=pvh|bzimage  ACCEL=kvm|tcg
#   QEMU_TIMEOUT=1800 (whole run, s)  APPEND="kernel args"
set -u
QEMU_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$QEMU_DIR")
cd "$ROOT" || exit 2

check=0
ksft_only=0
image_dir=
planted=0
bench=0
survey=0
for arg; do
	case $arg in
	O=*) O=${arg#O=} ;;
	--check) check=1 ;;
	--kselftest) check=1 ksft_only=1 ;;
	--image=*) image_dir=${arg#--image=} ;;
	--planted) planted=1 ;;
	--bench) bench=1 ;;
	--survey) survey=1 ;;
	*) echo "devpm: qemu/run.sh: unknown argument '$arg' (O=dir, --check, --kselftest, --image=DIR, --planted, --bench, --survey)" >&2
	   exit 2 ;;
	esac
done
O=${O:-build}
. "$QEMU_DIR/lib.sh"

T_START=$(date +%s.%N)

# --- setup and bad input: one line, exit 2 ---------------------------------

sh "$QEMU_DIR/deps.sh" || exit 2
command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 not found; as root run 'make deps' (or apt-get install qemu-system-x86)"
set_qemu_build

# --survey: the device survey's machine (qemu/profiles/survey).
[ $survey = 1 ] && PROFILE=${PROFILE:-survey}
PROFILE=${PROFILE:-default}
PROFILE_FILE=$QEMU_DIR/profiles/$PROFILE
[ -f "$PROFILE_FILE" ] ||
	die "unknown QEMU profile '$PROFILE' (known: $(echo $(ls "$QEMU_DIR/profiles"))); add qemu/profiles/$PROFILE or pick one"
. "$PROFILE_FILE"

case $O in
/*) B=$O ;;
*) B=$(pwd)/$O ;;
esac
DEVPM_BIN=$B/devpm
AGENT=$B/devpm-qemu-agent
ENV_HOOK=$B/devpm-env-hook
BENCH=$B/devpm-bench
SUITES_SRC=$B/suites
SELFTEST_SRC=$B/qemu/selftest
PLANTED_SRC=$B/qemu/planted
BENCH_SRC=$B/bench-suites
SURVEY_SRC=$B/qemu/survey
FIXTURES_BUILD=$B/fixtures
[ -x "$DEVPM_BIN" ] && [ -x "$AGENT" ] && [ -x "$ENV_HOOK" ] ||
	die "$O/devpm, $O/devpm-qemu-agent or $O/devpm-env-hook missing; run 'make qemu' rather than qemu/run.sh"
# The controllers the environment hook sets aside for the programs whose
# sleep cycles judge only their own devices: the profile's, or SET_ASIDE
# (SET_ASIDE=none: every device stays bound).
SET_ASIDE_DRIVERS=${SET_ASIDE:-${PROFILE_SET_ASIDE:-}}
[ "$SET_ASIDE_DRIVERS" = none ] && SET_ASIDE_DRIVERS=
case $SET_ASIDE_DRIVERS in
*[!A-Za-z0-9_\ -]*) die "SET_ASIDE='$SET_ASIDE_DRIVERS': give driver names separated by spaces" ;;
esac

suite_args=
for s in ${SUITES:-}; do
	[ -d "$SUITES_SRC/$s" ] ||
		die "unknown suite '$s' in SUITES (known: $(echo $(ls "$SUITES_SRC" 2>/dev/null)))"
	suite_args="$suite_args --suite $s"
done
# The devices' resume budget (RESUME_BUDGET_MS, else the profile's;
# none: no budget).
RESUME_BUDGET_MS=${RESUME_BUDGET_MS:-${PROFILE_RESUME_BUDGET_MS:-}}
case $RESUME_BUDGET_MS in
''|none) RESUME_BUDGET_MS= ;;
*[!0-9]*) die "RESUME_BUDGET_MS=$RESUME_BUDGET_MS: give whole milliseconds (or none)" ;;
*) suite_args="$suite_args --resume-budget-ms $RESUME_BUDGET_MS" ;;
esac

BOOT=${BOOT:-pvh}
case $BOOT in
pvh|bzimage) ;;
*) die "BOOT=$BOOT: use BOOT=pvh (the vmlinux by PVH, faster) or BOOT=bzimage" ;;
esac
case ${ACCEL:-} in
''|kvm|tcg) ;;
*) die "ACCEL=$ACCEL: use ACCEL=kvm or ACCEL=tcg (default: probe KVM, else TCG)" ;;
esac
QEMU_TIMEOUT=${QEMU_TIMEOUT:-1800}
case ${KVM_PROBE_S:-8} in
''|*[!0-9]*|0) die "KVM_PROBE_S=$KVM_PROBE_S: give whole seconds, at least 1" ;;
esac
case $QEMU_TIMEOUT in
''|*[!0-9]*) die "QEMU_TIMEOUT=$QEMU_TIMEOUT: give whole seconds" ;;
esac
need_space "$QEMU_BUILD" 300 "build the image and its scratch disks"

# --- kernel and image, one builder at a time --------------------------------

exec 9>"$QEMU_BUILD/.lock"
if ! flock -n 9; then
	note "another 'make qemu' is building the image; waiting for it"
	flock 9
fi
bash "$QEMU_DIR/kernel.sh" "$QEMU_BUILD/kernel.env" || exit 2
. "$QEMU_BUILD/kernel.env"
# Fixture modules (fixtures/build.sh) against this kernel's headers; stale
# ones of another kernel must not reach the image.
rm -f "$FIXTURES_BUILD"/*.ko
if [ -n "$KHEADERS" ]; then
	sh "$QEMU_DIR/../fixtures/build.sh" "$KHEADERS" "$FIXTURES_BUILD" \
		"$QEMU_BUILD/fixtures-build/$KVER" ||
		die "devpm_mock.ko does not build against $KHEADERS (see above)"
else
	note "no linux-headers for $KVER: no devpm_mock.ko, the suites needing it SKIP"
fi
. "$QEMU_DIR/image.sh"
build_base
build_pad
build_novga
build_devpm devpm "$SUITES_SRC"
DEVPM_PART=$PART
if [ $check = 1 ]; then
	build_devpm selftest "$SELFTEST_SRC"
	SELFTEST_PART=$PART
	[ -r "$B/kselftest/kselftest-list.txt" ] ||
		die "$O/kselftest missing; run 'make qemu-check' rather than qemu/run.sh --check"
	build_kselftest "$B/kselftest"
	KSFT_PART=$PART
fi
if [ $planted = 1 ]; then
	build_devpm planted "$PLANTED_SRC"
	PLANTED_PART=$PART
fi
if [ $bench = 1 ]; then
	[ -d "$BENCH_SRC/bench" ] ||
		die "$O/bench-suites missing; run 'make qemu-bench' rather than qemu/run.sh --bench"
	build_devpm bench "$BENCH_SRC"
	BENCH_PART=$PART
fi
if [ $survey = 1 ]; then
	[ -d "$SURVEY_SRC/survey" ] ||
		die "$O/qemu/survey missing; run 'make qemu-survey' rather than qemu/run.sh --survey"
	build_devpm survey "$SURVEY_SRC"
	SURVEY_PART=$PART
fi
if [ $BOOT = pvh ] && [ -z "$VMLINUX" ]; then
	note "no PVH-bootable vmlinux in $(basename "$BZIMAGE"); booting the bzImage"
	BOOT=bzimage
fi
[ $BOOT = pvh ] && [ -z "$image_dir" ] && build_pvh
flock -u 9

# --image=DIR: the kernel and an initramfs whose /init gives LAVA a shell.
if [ -n "$image_dir" ]; then
	mkdir -p "$image_dir" || die "cannot make $image_dir"
	RUNDIR=$QEMU_BUILD/run.$$.image
	rm -rf "$RUNDIR" && mkdir -p "$RUNDIR" || die "cannot make $RUNDIR"
	GUEST_MODE=lava GUEST_RUN_ARGS= TEST=
	GUEST_ENV="DEVPM_LAVA=1"
	build_extra "$RUNDIR"
	build_conf "$RUNDIR"
	cat "$BASE" "$DEVPM_PART" "$RUNDIR/extra.cpio" "$RUNDIR/conf.cpio" \
		>"$image_dir/initrd" || die "cannot write $image_dir/initrd"
	cp "$BZIMAGE" "$image_dir/bzImage" || die "cannot write $image_dir/bzImage"
	rm -rf "$RUNDIR"
	step "IMAGE   $image_dir/bzImage and initrd (LAVA mode, $KERNEL_DESC)"
	exit 0
fi

KIMAGE=$BZIMAGE
[ $BOOT = pvh ] && KIMAGE=$PVH_ENTRY

# --- the QEMU command line --------------------------------------------------

QARGS=()
qarg() {
	QARGS+=("$@")
}

# scratch NAME MB: a fresh sparse raw image in the run directory.
scratch() {
	local f=$RUNDIR/$1.img
	rm -f "$f"
	truncate -s "${2}M" "$f" && echo "$f"
}

# cryptomgr.notests: the crypto self-tests cost 0.3-0.5 s of TCG boot
# (crypto/testmgr.c) and test nothing devpm runs.  Two built-in
# initcalls that do the same outside testmgr: crypto_kdf108_init (the
# SP800-108 KDF's own self-test, crypto/kdf_sp800108.c, 0.2 s) and
# init_encrypted (the encrypted-keys type, 22 ms): initcall_blacklist.
# rcupdate.rcu_expedited=1: a synchronize_rcu() waits out a normal grace
# period, several jiffies on one vCPU, and the tests call it by the
# hundred through the kernel (a module's unload, a trace filter's write,
# an evdev node's close); expedited, as the kernel itself runs until
# init, it returns at once on one CPU.  A full run: 6-9 s less, with the
# same verdicts (the planted bugs and the lost events still caught).
# ipv6.disable=1: inet6_init() costs 0.1 s of boot, and no test has a
# network.  rodata=off: the kernel leaves its text and read-only data
# writable, and skips the W+X page-table walk; 0.15 s of boot under TCG.
# It guards against stray writes into kernel text, which no PM path
# makes; the code that runs is the same.
CMDLINE="console=ttyS0 panic=-1 quiet loglevel=4 cryptomgr.notests initcall_blacklist=crypto_kdf108_init,init_encrypted rcupdate.rcu_expedited=1 ipv6.disable=1 rodata=off $PROFILE_CMDLINE${APPEND:+ $APPEND}"

# qemu_cmd INITRD ACCEL: the whole command into QARGS.
qemu_cmd() {
	QARGS=(qemu-system-x86_64 -machine "$PROFILE_MACHINE" -m "$PROFILE_MEMORY"
	       -smp 1 -nodefaults -no-user-config -display none -no-reboot
	       -kernel "$KIMAGE" -initrd "$1" -append "$CMDLINE"
	       -chardev socket,id=con,path=console.sock -serial chardev:con)
	# PVH: the kernel's segments come with the RAM (image.sh: build_pvh).
	[ $BOOT = pvh ] &&
		qarg -object "memory-backend-file,id=pvhram,size=$PVH_MEM,mem-path=$PVH_RAM,share=off" \
		     -machine memory-backend=pvhram
	if [ "$2" = kvm ]; then
		qarg -accel kvm -cpu host
	else
		qarg -accel tcg
	fi
	[ "${3:-}" = probe ] && return 0
	profile_devices
	qarg -chardev socket,id=qmp,path=qmp.sock -mon chardev=qmp,mode=control
	qarg -device virtio-serial-pci,id=vser
	qarg -chardev socket,id=agentc,path=agent.sock
	qarg -device virtserialport,bus=vser.0,chardev=agentc,name=org.devpm.agent,id=agent
	qarg -chardev socket,id=resultsc,path=results.sock
	qarg -device virtserialport,bus=vser.0,chardev=resultsc,name=org.devpm.results,id=results
	# The maintainer's devices, word-split as a shell would.
	qarg ${QEMU_ARGS:-}
}

new_rundir() {
	RUNDIR=$QEMU_BUILD/run.$$.$1
	rm -rf "$RUNDIR"
	mkdir -p "$RUNDIR"
}

# Run directories of runs that are gone (this one's on any exit).
cleanup() {
	local d pid
	for d in "$QEMU_BUILD"/run.*.*; do
		[ -d "$d" ] || continue
		pid=${d##*/run.}
		pid=${pid%%.*}
		[ "$pid" = $$ ] || ! kill -0 "$pid" 2>/dev/null && rm -rf "$d"
	done
}
trap cleanup EXIT

# Keep the newest run's directory as build/qemu/run (stream, console,
# agent log), without its scratch disks.
keep_rundir() {
	rm -f "$RUNDIR"/*.img "$RUNDIR"/*.cpio "$RUNDIR"/initrd "$RUNDIR"/*.sock
	rm -rf "$RUNDIR"/stage-*
	flock 9
	rm -rf "$QEMU_BUILD/run.old"
	[ -d "$QEMU_BUILD/run" ] && mv "$QEMU_BUILD/run" "$QEMU_BUILD/run.old"
	mv "$RUNDIR" "$QEMU_BUILD/run"
	rm -rf "$QEMU_BUILD/run.old"
	flock -u 9
	RUNDIR=$QEMU_BUILD/run
}

outcome() { # key
	sed -n "s/^$1=//p" "$RUNDIR/outcome" 2>/dev/null
}

# --- accelerator: KVM if a short boot reaches /init, else TCG --------------

# Under KVM the probe image reaches /init in 1-2 s; a KVM that spins
# (nested KVM with a CPU model it cannot run) is given up after this long.
KVM_PROBE_S=${KVM_PROBE_S:-8}

probe_accel() {
	local key cache=$QEMU_BUILD/accel.cache why t0 from=
	if [ -n "${ACCEL:-}" ]; then
		ACCEL_USED=$ACCEL
		return
	fi
	if [ ! -w /dev/kvm ]; then
		ACCEL_USED=tcg
		note "no usable /dev/kvm: using TCG (slower)"
		return
	fi
	key="$(uname -r) $(qemu-system-x86_64 --version | head -1) $KVER $BOOT"
	if [ -r "$cache" ] && [ "$(head -1 "$cache")" = "$key" ]; then
		ACCEL_USED=$(sed -n 2p "$cache")
		why=$(sed -n 3p "$cache")
		from=", as probed before: build/qemu/accel.cache"
	else
		new_rundir probe
		GUEST_MODE=probe GUEST_RUN_ARGS= GUEST_ENV=
		build_conf "$RUNDIR"
		cat "$BASE" "$RUNDIR/conf.cpio" >"$RUNDIR/initrd"
		qemu_cmd "$RUNDIR/initrd" kvm probe
		t0=$(date +%s.%N)
		"$AGENT" --dir "$RUNDIR" --probe "$KVM_PROBE_S" --quiet -- \
			"${QARGS[@]}" 2>/dev/null
		if [ "$(outcome status)" = done ]; then
			ACCEL_USED=kvm
			why=
		else
			ACCEL_USED=tcg
			why=$(outcome qemu_msg)
			why=${why#qemu-system-x86_64: }
			why="${why:-$(outcome why)}; probed in $(elapsed "$t0") s"
		fi
		rm -rf "$RUNDIR"
		printf '%s\n%s\n%s\n' "$key" "$ACCEL_USED" "$why" >"$cache"
	fi
	[ $ACCEL_USED = tcg ] &&
		note "KVM does not work here ($why$from): using TCG (slower)"
}

# --- one guest run ----------------------------------------------------------

# run_guest NAME PART OUTPUT RUN_ARGS ENV AGENT_OPTS...: boots, collects.
# Sets RUN_RC (devpm's exit code), RUN_STATUS, RUN_DIR (results/<id> or
# ""), RUN_WALL, RUN_BOOT_S, RUN_RUN_S.  Works in its own run directory
# (other runs may share build/qemu) and leaves it as build/qemu/run.
run_guest() {
	local name=$1 part=$2 output=$3 t0 rc
	GUEST_RUN_ARGS=$4
	GUEST_ENV=$5
	GUEST_MODE=run
	shift 5
	new_rundir "$name"
	build_extra "$RUNDIR"
	build_conf "$RUNDIR"
	cat "$BASE" "$part" "$RUNDIR/extra.cpio" "$RUNDIR/conf.cpio" "$PAD" \
		>"$RUNDIR/initrd"
	qemu_cmd "$RUNDIR/initrd" "$ACCEL_USED"
	printf '%q ' "${QARGS[@]}" >"$RUNDIR/qemu.cmd"
	echo >>"$RUNDIR/qemu.cmd"
	step "BOOT    $KERNEL_DESC ($BOOT, $ACCEL_USED, profile $PROFILE)"
	t0=$(date +%s.%N)
	"$AGENT" --dir "$RUNDIR" --timeout "$QEMU_TIMEOUT" "$@" -- "${QARGS[@]}"
	rc=$?
	RUN_WALL=$(elapsed "$t0")
	RUN_STATUS=$(outcome status)
	RUN_WHY=$(outcome why)
	RUN_BOOT_S=$(outcome boot_s)
	RUN_RUN_S=$(outcome run_s)
	RUN_DIR=
	[ "$RUN_STATUS" = interrupted ] && INTERRUPTED=1
	collect_run "$name" "$output" "$rc"
	keep_rundir
}

# collect_run NAME OUTPUT AGENT_RC: devpm collect of the run's stream.
collect_run() {
	local name=$1 output=$2 rc=$3
	if [ "$(outcome records)" = 0 ] || [ -z "$(outcome records)" ]; then
		# Nothing to collect: the guest never started its run.
		if [ "$RUN_STATUS" = error ]; then
			note "$RUN_WHY; check QEMU_ARGS and the profile"
			RUN_RC=2
			return
		fi
		if [ "$(outcome guest_exit)" = 2 ]; then
			# Its one line came on the console above.
			note "devpm run in the guest refused to run (exit 2)"
			RUN_STATUS=error
			RUN_RC=2
			return
		fi
		note "$name run: the guest died before its run started: $RUN_WHY (console: $QEMU_BUILD/run/console.log)"
		RUN_RC=$((rc == 1 ? 1 : 2))
		return
	fi
	set -- --env "profile=$PROFILE" --env "accel=$ACCEL_USED" \
		--env "kernel_pkg=$KERNEL_DESC" --env "boot=$BOOT" \
		--env "boot_s=$RUN_BOOT_S" --env "run_s=$RUN_RUN_S" \
		--env "first_test_s=$(outcome first_test_s)" \
		--env "wall_s=$(outcome wall_s)"
	[ -n "${QEMU_ARGS:-}" ] && set -- "$@" --env "qemu_args=$QEMU_ARGS"
	[ -n "${EXTRA_MODULES:-}" ] &&
		set -- "$@" --env "extra_modules=$EXTRA_MODULES"
	if [ "$rc" = 1 ]; then
		set -- "$@" --crash "$(outcome crash)"
		note "$name run: $RUN_WHY"
	elif [ "$RUN_STATUS" = interrupted ]; then
		set -- "$@" --crash "run interrupted on the host"
	fi
	"$DEVPM_BIN" collect --output "$output" "$@" "$RUNDIR/stream.log" \
		>"$RUNDIR/collect.out" 2>"$RUNDIR/collect.err"
	RUN_RC=$?
	if [ $RUN_RC = 2 ]; then
		cat "$RUNDIR/collect.err" >&2
		note "devpm collect could not rebuild the results from $QEMU_BUILD/run/stream.log"
		return
	fi
	# Our run directory, not whatever results/latest is by now.
	RUN_DIR=$(sed -n 's/.*results in \(.*\)$/\1/p' "$RUNDIR/collect.err" |
		  tail -1)
	[ -d "$RUN_DIR" ] || RUN_DIR=$output/$(readlink "$output/latest")
	cp "$RUNDIR/console.log" "$RUNDIR/agent.log" "$RUN_DIR/"
	[ -e "$RUN_DIR/stream.log" ] || cp "$RUNDIR/stream.log" "$RUN_DIR/"
	# A crash or hang is a failure even if collect found nothing running;
	# devpm run's own setup error in the guest stays one.
	[ "$rc" = 1 ] && [ $RUN_RC = 0 ] && RUN_RC=1
	if [ "$(outcome exit)" = 2 ]; then
		note "devpm run in the guest failed to set up (exit 2; its message is in $RUN_DIR/console.log)"
		RUN_RC=2
	fi
}

summary() { # title
	[ "$RUN_STATUS" = error ] && return
	echo
	echo "== $1"
	if [ -n "$RUN_DIR" ] && [ -r "$RUN_DIR/summary.json" ]; then
		"$AGENT" --summary "$RUN_DIR/summary.json"
	fi
	printf '  wall %.1f s: boot %s s, run %s s (%s, %s boot, %s, profile %s)\n' \
		"$RUN_WALL" "${RUN_BOOT_S:--}" "${RUN_RUN_S:--}" \
		"$ACCEL_USED" "$BOOT" "$KERNEL_DESC" "$PROFILE"
	# The performance figures (bench/README), also into bench.json.
	[ -n "$RUN_DIR" ] && [ -x "$BENCH" ] && "$BENCH" "$RUN_DIR"
	[ -n "$RUN_DIR" ] && echo "  results: $RUN_DIR"
	echo "  exit $RUN_RC"
}

# ksft_check: the kselftest tree of `make install INSTALL_PATH=` run by
# the kernel's run_kselftest.sh in the guest (KSFT_TESTS, default
# devpm:i2c_controller: cheap, as -t; or KSFT_COLLECTION=devpm, all of
# them, as -c), its TAP parsed by the kernel's kunit.py (KUNIT_PY).
# Every program selected must be in the TAP and pass.  Sets KSFT_OK.
ksft_check() {
	local coll tests=${KSFT_TESTS:-devpm:i2c_controller} want t0 parsed ran passed cases t
	local list=$B/kselftest/kselftest-list.txt
	KSFT_OK=0
	if [ -n "${KSFT_COLLECTION:-}" ]; then
		coll="-c $KSFT_COLLECTION"
		want=$(grep -c "^$KSFT_COLLECTION:" "$list")
	else
		coll= want=0
		for t in $tests; do
			grep -qx "$t" "$list" ||
				die "KSFT_TESTS: $t is not in $O/kselftest/kselftest-list.txt; name a collection:test there"
			coll="$coll${coll:+ }-t $t"
			want=$((want + 1))
		done
	fi
	[ "$want" -gt 0 ] ||
		die "KSFT_COLLECTION=${KSFT_COLLECTION:-} is not in $O/kselftest/kselftest-list.txt; name a collection there"
	[ -r "${KUNIT_PY:-}" ] ||
		die "KUNIT_PY=${KUNIT_PY:-}: no kunit.py; run 'make qemu-check'"
	new_rundir kselftest
	GUEST_MODE=kselftest GUEST_RUN_ARGS= KSFT_ARGS="$coll"
	GUEST_ENV=""
	build_extra "$RUNDIR"
	build_conf "$RUNDIR"
	cat "$BASE" "$DEVPM_PART" "$KSFT_PART" "$RUNDIR/extra.cpio" \
		"$RUNDIR/conf.cpio" "$PAD" >"$RUNDIR/initrd"
	qemu_cmd "$RUNDIR/initrd" "$ACCEL_USED"
	step "BOOT    run_kselftest.sh $coll ($BOOT, $ACCEL_USED)"
	t0=$(date +%s.%N)
	# No devpm stream here: the agent's verdict on it does not apply.
	"$AGENT" --dir "$RUNDIR" --timeout 600 -- "${QARGS[@]}"
	RUN_WALL=$(elapsed "$t0")
	keep_rundir
	[ "$(outcome status)" = interrupted ] && INTERRUPTED=1
	parsed=$(python3 "$KUNIT_PY" parse "$RUNDIR/stream.log" 2>&1)
	echo
	echo "== kselftest: run_kselftest.sh $coll, parsed by kunit.py"
	echo "$parsed" | sed -n 's/^\[[0-9:]*\] //; /^\[\(PASSED\|FAILED\|SKIPPED\|CRASHED\)\]/p; /^Testing complete/p' |
		sed 's/^/  /'
	ran=$(echo "$parsed" | sed -n 's/.*Testing complete\. Ran \([0-9]*\) tests.*/\1/p')
	passed=$(echo "$parsed" | sed -n 's/.*Testing complete\..* passed: \([0-9]*\).*/\1/p')
	printf '  wall %.1f s, run_kselftest.sh exit %s; TAP in %s\n' \
		"$RUN_WALL" "$(outcome guest_exit)" "$RUNDIR/stream.log"
	cases=$(grep -c '^# ok ' "$RUNDIR/stream.log")
	if [ "${ran:-0}" != "$want" ] || [ "${passed:-0}" != "$want" ]; then
		echo "  kselftest check FAILED: kunit.py saw ${ran:-no} tests, ${passed:-0} passed; $coll has $want programs"
		return
	fi
	# The programs' own KTAP must come through runner.sh's prefixing.
	if [ "$cases" = 0 ] || grep -q '^# not ok ' "$RUNDIR/stream.log"; then
		echo "  kselftest check FAILED: $cases case results of the programs in the TAP, or a case failed"
		return
	fi
	echo "  kselftest check ok: $want of $want programs ($cases cases) of $coll passed under run_kselftest.sh"
	KSFT_OK=1
}

probe_accel

crash_ok=1
if [ $ksft_only = 1 ]; then
	ksft_check
	[ $KSFT_OK = 1 ] || exit 1
	exit 0
fi
if [ $check = 1 ]; then
	CRASH_BOUND=${CRASH_BOUND:-120}
	run_guest selftest "$SELFTEST_PART" "$QEMU_BUILD/selftest-results" "" \
		DEVPM_QEMU_CRASHTEST=1 --margin 10
	[ "$RUN_STATUS" = error ] && exit 2
	[ -n "${INTERRUPTED:-}" ] && exit 130
	summary "crash test (self-test image)"
	bad=
	[ "$RUN_STATUS" = crash ] || bad="run status '$RUN_STATUS', not crash"
	[ -z "$bad" ] && [ "${RUN_WALL%.*}" -ge "$CRASH_BOUND" ] &&
		bad="took ${RUN_WALL%.*} s, bound $CRASH_BOUND s"
	if [ -z "$bad" ]; then
		tab=$("$AGENT" --summary "$RUN_DIR/summary.json" 2>&1)
		echo "$tab" | grep -q '^  FAIL selftest/crash/.*sysrq triggered crash' ||
			bad="no FAIL of selftest/crash naming the panic"
		echo "$tab" | awk '$1 == "selftest" && $2 > 0 {ok = 1}
				   END {exit !ok}' ||
			bad="${bad:+$bad; }the earlier passing results were not kept"
		[ -s "$RUN_DIR/console.log" ] ||
			bad="${bad:+$bad; }no console.log in $RUN_DIR"
	fi
	if [ -n "$bad" ]; then
		echo "  crash test FAILED: $bad"
		crash_ok=0
	else
		echo "  crash test ok: the panic ended the run in ${RUN_WALL%.*} s (bound $CRASH_BOUND s), earlier results kept"
	fi

	# A guest that falls silent: the hang program's timeout (5 s) plus
	# the margin (10 s) bound it.
	TEST='hang/*' run_guest hangtest "$SELFTEST_PART" \
		"$QEMU_BUILD/selftest-results" "" DEVPM_QEMU_HANGTEST=1 \
		--margin 10
	[ "$RUN_STATUS" = error ] && exit 2
	[ -n "${INTERRUPTED:-}" ] && exit 130
	summary "hang test (self-test image)"
	bad=
	[ "$RUN_STATUS" = hang ] || bad="run status '$RUN_STATUS', not hang"
	[ -z "$bad" ] && [ "${RUN_WALL%.*}" -ge "$CRASH_BOUND" ] &&
		bad="took ${RUN_WALL%.*} s, bound $CRASH_BOUND s"
	if [ -z "$bad" ]; then
		"$AGENT" --summary "$RUN_DIR/summary.json" 2>&1 |
			grep -q '^  FAIL selftest/hang/.*guest hung: no output for' ||
			bad="no FAIL of selftest/hang naming the hang"
	fi
	if [ -n "$bad" ]; then
		echo "  hang test FAILED: $bad"
		crash_ok=0
	else
		echo "  hang test ok: the silence ended the run in ${RUN_WALL%.*} s (bound $CRASH_BOUND s)"
	fi

	ksft_check
	[ -n "${INTERRUPTED:-}" ] && exit 130
	[ $KSFT_OK = 1 ] || crash_ok=0
fi

# --planted: the verdict rules' negative controls (qemu/planted/rules.c,
# leaker.c) instead of the suites.  Each planted bug must fail exactly
# the case that should catch it, naming its mock device; the clean one
# passes; the leak the leaker program leaves fails the final re-check.
# PLANTED_SLEEP=0: this run only (its results are then the latest: make
# check reads them, qemu-soak); PLANTED_SLEEP=only: the system-sleep
# bugs' runs below only.
if [ $planted = 1 ] && [ "${PLANTED_SLEEP:-1}" != only ]; then
	run_guest planted "$PLANTED_PART" results "" DEVPM_QEMU_PLANTED=1
	[ "$RUN_STATUS" = error ] && exit 2
	summary "planted bugs (qemu/planted)"
	k=$RUN_DIR/results.ktap
	bad=
	want() {
		grep -Eq "$1" "$k" || bad="${bad:+$bad; }missing: $2"
	}
	# A line of case C: under the innermost "# Subtest: C" open.  awk
	# reads -v values with escapes: patterns say [.], not \.
	want_in() { # C ERE what
		awk -v c="$1" -v re="$2" '/# Subtest: /{cur=$NF}
			cur==c && $0 ~ re {f=1} END {exit !f}' "$k" ||
			bad="${bad:+$bad; }missing in $1: $3"
	}
	want_in idle_devices_suspend '^            ok 1 devpm_mock[.]0$' "idle pass of the clean mock"
	want '^        ok 1 idle_devices_suspend$' "idle_devices_suspend pass"
	want_in suspends_after_probe '^            ok 1 devpm_mock[.]0$' "the clean mock passes suspends_after_probe"
	want_in suspends_after_probe '^            # devpm_mock[.]5 [(]driver devpm_mock[)]: still active [0-9]+ ms after its probe returned, limit 145 ms [(]autosuspend_delay_ms 100 [+] 25 % [+] 20 ms[)]: usage 1 held' "devpm_mock.5's reason (device, driver, time waited, limit, hold)"
	want_in suspends_after_probe '^            not ok 5 devpm_mock[.]5$' "devpm_mock.5 (probe_ref=late) FAIL"
	want '^        not ok 2 suspends_after_probe$' "suspends_after_probe FAIL"
	# The teardown's note; results.ktap keeps no case-level "# " line
	# but the first failure and METRICs, the program's stream has it.
	grep -Eq '^OUT [0-9]+ # devpm_mock\.5 deleted by the journal restore$' \
		"$RUN_DIR/stream.log" ||
		bad="${bad:+$bad; }missing: devpm_mock.5 gone after the case (stream.log)"
	want_in usage_balanced_after_cycles '^            ok 1 devpm_mock[.]0$' "clean mock passes the cycles"
	# Its teardown's verdict names the leak (stream.log); the final
	# re-check does not name it again (docs/verdicts.md, rule 8).
	grep -Eq '^OUT [0-9]+ # verdict: devpm_mock\.1 \(driver devpm_mock\): usage count 1 ' \
		"$RUN_DIR/stream.log" ||
		bad="${bad:+$bad; }missing: devpm_mock.1's drift named (stream.log)"
	if awk '/# Subtest: /{cur=$NF} cur=="devices_at_baseline" && /not ok [0-9]+ devpm_mock[.][123]$/ {f=1} END {exit !f}' "$k"; then
		bad="${bad:+$bad; }the final re-check named again a device usage_balanced_after_cycles failed"
	fi
	want '^            not ok 2 devpm_mock\.1$' "devpm_mock.1 (leak_on_resume) FAIL"
	want 'devpm_mock\.2 \(driver devpm_mock\): runtime_status=error: runtime_resume callback failed, rpm_resume returned -5 \(EIO\)' "devpm_mock.2's callback and errno"
	want '^            not ok 3 devpm_mock\.2$' "devpm_mock.2 (runtime_resume_eio) FAIL"
	want 'devpm_mock\.3 \(driver devpm_mock\): runtime_status=error: runtime_suspend callback failed, rpm_suspend returned -5 \(EIO\)' "devpm_mock.3's callback and errno"
	want '^            not ok 4 devpm_mock\.3$' "devpm_mock.3 (runtime_suspend_eio) FAIL"
	want '^        not ok 3 usage_balanced_after_cycles$' "usage_balanced_after_cycles FAIL"
	want_in autosuspend_on_time '^            ok 1 devpm_mock[.]0$' "the clean mock's autosuspend on time"
	want_in autosuspend_on_time '^            # devpm_mock[.]6 [(]driver devpm_mock[)]: suspend began [0-9.]+ ms after it was idle, limit [0-9.]+ ms [(]due [0-9.]+ ms: last_busy [+] delay [+] 25 % slack' "devpm_mock.6's late suspend named (value, limit)"
	want_in autosuspend_on_time '^            not ok 2 devpm_mock[.]6$' "devpm_mock.6 (late_suspend) FAIL"
	want '^        not ok 4 autosuspend_on_time$' "autosuspend_on_time FAIL"
	want '^        ok 1 leak_unnoticed$' "the leaker's own case passes"
	want 'devpm_mock\.4 \(driver devpm_mock\): usage count 1 \(control=auto\) above its baseline 0' "devpm_mock.4's leak named by the re-check"
	want '^        not ok 1 devices_at_baseline$' "final re-check FAIL"
	# The WARN planted in kernel_warn_quoted: the FAIL quotes the line
	# naming file and function, in every result file.
	warn_re='WARNING: CPU: [0-9]+ PID: [0-9]+ at [^ ]*callbacks[.]c:[0-9]+ mock_runtime_suspend[+]0x[0-9a-f]+/0x[0-9a-f]+ \[devpm_mock\]'
	want "^        # kernel: $warn_re [(]during kernel_warn_quoted[)]\$" "the WARN's FAIL quotes its WARNING line"
	want '^        not ok 5 kernel_warn_quoted$' "kernel_warn_quoted FAIL"
	grep -Eq "$warn_re" "$RUN_DIR/junit.xml" &&
		grep -q '== planted/rules/kernel_warn_quoted: kernel log ==' "$RUN_DIR/junit.xml" ||
		bad="${bad:+$bad; }junit.xml: no kernel log of kernel_warn_quoted in its failure and system-err"
	python3 - "$RUN_DIR/summary.json" "$warn_re" <<'EOPY' ||
import json, re, sys
s = json.load(open(sys.argv[1]))
c = [c for c in s['cases'] if c['case'] == 'kernel_warn_quoted']
sys.exit(not c or not any(re.search(sys.argv[2], l) for l in c[0]['kernel_log']))
EOPY
		bad="${bad:+$bad; }summary.json: no WARNING line in kernel_warn_quoted's kernel_log"
	"$DEVPM_BIN" export --kcidb "$RUN_DIR" | grep -Eq "\"path\": \"devpm.planted.rules.kernel_warn_quoted\", .*\"log_excerpt\": \"[^\"]*$warn_re" ||
		bad="${bad:+$bad; }devpm export --kcidb: no WARNING line in kernel_warn_quoted's log_excerpt"
	# The runner's runtime-PM timeline of the failed cases.
	"$DEVPM_BIN" report "$RUN_DIR" >/dev/null &&
		sed -n '/id="failure-planted[/]rules[/]usage_balanced_after_cycles"/,/<[/]details>/p' \
		"$RUN_DIR/report.html" | grep -q '<title>devpm_mock[.]3 (devpm_mock) rpm_suspend: .*err -5</title>' ||
		bad="${bad:+$bad; }report.html: no runtime-PM timeline of usage_balanced_after_cycles with devpm_mock.3's failed rpm_suspend"
	# devpm_mock.5 lives in suspends_after_probe only (journaled).
	if awk '/# Subtest: /{cur=$NF} cur!="suspends_after_probe" && /devpm_mock[.]5([^0-9]|$)/ {f=1} END {exit !f}' "$k"; then
		bad="${bad:+$bad; }devpm_mock.5 named outside suspends_after_probe"
	fi
	if awk '/# Subtest: /{cur=$NF} cur!="autosuspend_on_time" && /devpm_mock[.]6([^0-9]|$)/ {f=1} END {exit !f}' "$k"; then
		bad="${bad:+$bad; }devpm_mock.6 named outside autosuspend_on_time"
	fi
	if grep -Eq '^ *not ok [0-9]+ devpm_mock\.0$' "$k"; then
		bad="${bad:+$bad; }the clean devpm_mock.0 failed"
	fi
	if [ -n "$bad" ]; then
		echo "  planted bugs FAILED: $bad"
		exit 1
	fi
	echo "  planted bugs ok: each failed its case naming its mock device; the clean mock passed; the late probe reference failed suspends_after_probe only; the late suspend failed autosuspend_on_time; the leaker's leak failed the final re-check; the planted WARN's FAIL quotes its WARNING line in results.ktap, junit.xml, summary.json and the KCIDB export; report.html has the failed cases' runtime-PM timelines"
	[ "${PLANTED_SLEEP:-1}" = 0 ] && exit 0
fi

if [ $planted = 1 ]; then
	# The system-sleep verdicts' planted bugs (docs/verdicts.md): a
	# mock device of the machine with a bug of mock/sleep_bug, made
	# before the baseline (qemu/init, DEVPM_SLEEP_BUGS), through the
	# sleeping suites; each bug must FAIL once, in the case that owns
	# it, naming its device, and nothing else may fail
	# (tests/check_planted_sleep.py).  The held source's run must end
	# within PLANTED_HELD_S (the clean run of these suites: 26-31 s;
	# 22-26 s seen with the held source).
	PLANTED_HELD_S=${PLANTED_HELD_S:-50}
	sleep_suites="--suite async --suite fixture --suite wakeup"
	budget=${RESUME_BUDGET_MS:+--resume-budget-ms $RESUME_BUDGET_MS}
	for kind in refusal resume held; do
		extra=
		case $kind in
		refusal) bugs=60:suspend_ebusy args="$sleep_suites" ;;
		held) bugs=60:wakeup_held args="$sleep_suites" ;;
		resume)
			# Over the budget by a second: the slow resume is
			# paid in each cycle, so only the async suite here.
			slow=$(( ${RESUME_BUDGET_MS:-3000} + 1000 ))
			bugs=60:resume_eio,61:resume_leak,62:resume_slow:$slow
			args="--suite async"
			# And a PCI device that refuses D3hot: a modern
			# virtio-pci whose PMCSR QEMU leaves read-only
			# (x-pcie-pm-init=off), 0000:02:00.0, beside a clean
			# one, 0000:03:00.0, that reaches it.
			extra="-device pcie-root-port,id=rpd,chassis=9,hotplug=off"
			extra="$extra -device virtio-rng-pci,bus=rpd,x-pcie-pm-init=off"
			extra="$extra -device pcie-root-port,id=rpe,chassis=10,hotplug=off"
			extra="$extra -device virtio-rng-pci,bus=rpe" ;;
		esac
		QEMU_ARGS="${QEMU_ARGS:-}${extra:+ $extra}" \
			run_guest "planted-$kind" "$DEVPM_PART" results \
			"$args $budget" "DEVPM_SLEEP_BUGS=$bugs"
		[ "$RUN_STATUS" = error ] && exit 2
		summary "planted system-sleep bug: $kind ($bugs)"
		python3 "$QEMU_DIR/../tests/check_planted_sleep.py" "$kind" \
			"$RUN_DIR" "$PLANTED_HELD_S" || exit 1
	done
	echo "  planted system-sleep bugs ok: each failed once, in the case that owns it, naming its device; no collateral failure"
	exit 0
fi

# --bench: the bench suite (bench/README) instead of the suites.
if [ $bench = 1 ]; then
	run_guest bench "$BENCH_PART" results "" ""
	[ "$RUN_STATUS" = error ] && exit 2
	summary "bench suite (bench/)"
	exit $RUN_RC
fi

# --survey: the QEMU device survey (docs/qemu-devices.md): its "# SURVEY"
# lines, one per device, are what it found.
if [ $survey = 1 ]; then
	run_guest survey "$SURVEY_PART" results "" ""
	[ "$RUN_STATUS" = error ] && exit 2
	summary "device survey (qemu/survey)"
	grep -h '# SURVEY ' "$RUN_DIR/stream.log" 2>/dev/null |
		sed 's/^OUT [0-9]* *# SURVEY /  /' | sort -u
	exit $RUN_RC
fi

# Test settings handed to the guest's run (docs/suites/wakeup.md); the
# profile's stress cycles unless DEVPM_STRESS_CYCLES says otherwise.
DEVPM_STRESS_CYCLES=${DEVPM_STRESS_CYCLES:-${PROFILE_STRESS_CYCLES:-}}
guest_pass=
for v in DEVPM_SEED DEVPM_MOCK_BUG DEVPM_WAKEUP_REAL DEVPM_STRESS_CYCLES \
	 DEVPM_SLEEP_BUGS DEVPM_SLEEP_RECORD; do
	val=${!v:-}
	[ -z "$val" ] && continue
	case $val in
	*[!A-Za-z0-9_:.,-]*)
		die "$v='$val': only letters, digits and _:.,- are allowed" ;;
	esac
	guest_pass="$guest_pass $v=$val"
done
run_guest devpm "$DEVPM_PART" results "$suite_args" "$guest_pass"
[ "$RUN_STATUS" = error ] && exit 2
summary "devpm run${SUITES:+ (SUITES=$SUITES)}"
[ -n "${INTERRUPTED:-}" ] && exit 130
printf "  total wall time %s s\n" "$(elapsed "$T_START")"
rc=$RUN_RC
[ $rc = 0 ] && [ $crash_ok = 0 ] && rc=1
# Once more, last: a CI log cut to its tail still names what failed.
if [ $rc != 0 ]; then
	echo "devpm: qemu/run.sh exits $rc:"
	fails=
	[ -n "$RUN_DIR" ] && [ -r "$RUN_DIR/summary.json" ] &&
		fails=$("$AGENT" --summary "$RUN_DIR/summary.json" 2>&1 | grep '^  FAIL ')
	[ -n "$fails" ] && echo "$fails"
	[ -z "$fails" ] && [ $RUN_RC != 0 ] &&
		echo "  no case FAILed: see the summary above (${RUN_DIR:-no results})"
	[ $crash_ok = 0 ] &&
		echo "  a check of the image failed: see 'crash test', 'hang test' and 'kselftest check' above"
fi
exit $rc
