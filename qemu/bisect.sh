#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bisect.sh [KEY=VALUE]... - one step of `git bisect run` over a kernel
# tree: build the checked-out kernel, run the selected devpm cases on it in
# devpm's QEMU image (qemu/run.sh), and exit as git bisect run wants:
#
#   0    the selected cases passed (at least one; the rest skipped)
#   1    one failed, or was not run because the kernel crashed or hung
#   125  this commit cannot be tested: the kernel did not build, no image
#        could be made of it, it did not boot or reach the runner, or
#        every selected case skipped (git bisect skips the commit)
#   255  devpm itself cannot run (bad argument, QEMU or a tool missing,
#        devpm does not build, interrupted): git bisect run stops
#
# Settings (KEY=VALUE arguments or the environment):
#   KSRC=.            the kernel tree (git bisect run's cwd)
#   KCONFIG=file      the .config to start from (make olddefconfig);
#                     default KSRC's own .config or, out of tree, KBUILD's
#   KBUILD=dir        out-of-tree build directory (default
#                     <devpm>/build/bisect/kbuild)
#   JOBS=n            make -j for the kernel (default: nproc)
#   SUITES, TEST, PROFILE, QEMU_ARGS, ...  as for `make qemu`
#   KERNEL=bzImage MODULES=dir, or KERNEL_PKG=linux-image-...
#                     a kernel already built (nothing is built): to check
#                     the ends of a range before bisecting
# The verdict comes from the run's summary.json (results/<run-id>) and
# the agent's outcome; the kernel's build log is KBUILD/build.log.
# Run it under `flock /tmp/devpm-qemu.lock` where QEMU is shared.
# docs/bisect.md has a worked example.
#
# bisect.sh --verdict RUN_RC RUN_DIR|-: only the exit code a finished
# qemu/run.sh (its exit RUN_RC, its results RUN_DIR, "-" none) maps to.
set -u
QEMU_DIR=$(cd "$(dirname "$0")" && pwd)
DEVPM=$(dirname "$QEMU_DIR")

abort() {
	echo "devpm bisect: $*; stopping the bisection (exit 255)" >&2
	exit 255
}
untestable() {
	echo "devpm bisect: $*: this commit cannot be tested (exit 125, git bisect skips it)" >&2
	exit 125
}

# verdict RUN_RC RUN_DIR: exit with what git bisect run wants.
verdict() {
	local rc=$1 dir=$2 code
	[ "$rc" = 130 ] && abort "interrupted"
	if [ "$dir" = - ] || [ ! -r "$dir/summary.json" ]; then
		untestable "no results: the kernel did not boot or reach devpm's runner (qemu/run.sh exit $rc)"
	fi
	code=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
t = s["totals"]
print(s["exit_code"], t["pass"], t["fail"], t["not_run"], t["skip"],
      "incomplete" if s.get("incomplete") else "complete")' \
		"$dir/summary.json") ||
		untestable "$dir/summary.json cannot be read"
	set -- $code
	case $1 in
	0)	echo "devpm bisect: good: $2 passed, $5 skipped ($dir)" >&2
		exit 0 ;;
	1)	echo "devpm bisect: bad: $3 failed, $4 not run ($6 run; $dir)" >&2
		exit 1 ;;
	4)	untestable "every selected case skipped ($dir)" ;;
	*)	untestable "devpm run exited $1 ($dir)" ;;
	esac
}

if [ "${1:-}" = --verdict ]; then
	[ $# = 3 ] || abort "usage: bisect.sh --verdict RUN_RC RUN_DIR|-"
	verdict "$2" "$3"
fi

for a; do
	case $a in
	KSRC=*|KCONFIG=*|KBUILD=*|JOBS=*|SUITES=*|TEST=*|PROFILE=*|\
	QEMU_ARGS=*|EXTRA_MODULES=*|KERNEL=*|MODULES=*|KERNEL_PKG=*|BOOT=*|\
	ACCEL=*|QEMU_TIMEOUT=*|APPEND=*|SET_ASIDE=*|DEVPM_MOCK_BUG=*|O=*)
		export "${a?}" ;;
	*)	abort "unknown argument '$a' (KEY=VALUE: KSRC, KCONFIG, KBUILD, JOBS, SUITES, TEST, KERNEL, MODULES, KERNEL_PKG, ...)" ;;
	esac
done
O=${O:-build}
case $O in
/*) B=$O ;;
*) B=$DEVPM/$O ;;
esac
command -v python3 >/dev/null || abort "python3 not found (make deps)"
command -v qemu-system-x86_64 >/dev/null ||
	abort "qemu-system-x86_64 not found (make deps)"

# devpm, its agent and its hook: a failure here is devpm's, not the kernel's.
make -C "$DEVPM" -s --no-print-directory O="$O" deps all \
	"$O/devpm-qemu-agent" "$O/devpm-env-hook" >&2 ||
	abort "devpm does not build (make -C $DEVPM)"

if [ -z "${KERNEL:-}" ] && [ -z "${KERNEL_PKG:-}" ]; then
	KSRC=$(cd "${KSRC:-.}" 2>/dev/null && pwd) ||
		abort "KSRC=${KSRC:-.}: no such directory"
	[ -r "$KSRC/Makefile" ] && [ -r "$KSRC/Kconfig" ] ||
		abort "KSRC=$KSRC is not a kernel tree (no Makefile and Kconfig); run in one or pass KSRC="
	KBUILD=${KBUILD:-$B/bisect/kbuild}
	mkdir -p "$KBUILD" || abort "cannot make KBUILD=$KBUILD"
	KBUILD=$(cd "$KBUILD" && pwd)
	if [ -n "${KCONFIG:-}" ]; then
		cp "$KCONFIG" "$KBUILD/.config" || abort "KCONFIG=$KCONFIG cannot be read"
	elif [ -r "$KSRC/.config" ] && [ "$KSRC" != "$KBUILD" ]; then
		cp "$KSRC/.config" "$KBUILD/.config"
	fi
	[ -r "$KBUILD/.config" ] ||
		abort "no .config: pass KCONFIG=file (e.g. /boot/config-\$(uname -r))"
	log=$KBUILD/build.log
	mods=$KBUILD/bisect-modules
	rm -rf "$mods"
	echo "devpm bisect: building $(git -C "$KSRC" describe --always 2>/dev/null || echo "$KSRC") in $KBUILD (log: $log)" >&2
	{ make -C "$KSRC" O="$KBUILD" olddefconfig &&
	  make -C "$KSRC" O="$KBUILD" -j"${JOBS:-$(nproc)}" bzImage modules &&
	  make -C "$KSRC" O="$KBUILD" INSTALL_MOD_PATH="$mods" \
		INSTALL_MOD_STRIP=1 modules_install; } >"$log" 2>&1 ||
		untestable "the kernel did not build (tail of $log: $(tail -3 "$log" | tr '\n' ' '))"
	kver=$(make -s -C "$KSRC" O="$KBUILD" kernelrelease 2>/dev/null)
	export KERNEL=$KBUILD/arch/x86/boot/bzImage
	export MODULES=$mods/lib/modules/$kver KCONFIG=$KBUILD/.config
	[ -r "$KERNEL" ] && [ -r "$MODULES/modules.dep" ] ||
		untestable "the build left no bzImage or modules for $kver"
fi

# The run: results/<run-id>, told apart from an earlier one by latest.
before=$(readlink "$DEVPM/results/latest" 2>/dev/null)
bash "$QEMU_DIR/run.sh" O="$O" >&2
rc=$?
after=$(readlink "$DEVPM/results/latest" 2>/dev/null)
dir=-
[ -n "$after" ] && [ "$after" != "$before" ] && dir=$DEVPM/results/$after
verdict "$rc" "$dir"
