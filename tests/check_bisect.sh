#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check_bisect.sh BUILD [--qemu] - qemu/bisect.sh's exit codes, as
# `git bisect run` reads them (docs/bisect.md).
#
# Without QEMU: the verdict of finished runs (results `devpm collect`
# makes of recorded streams): all passed 0, a failure 1, a guest crash 1,
# every case skipped 125, no results 125, interrupted 255; a KSRC that is
# no kernel tree 255; a kernel tree whose build fails 125.
# --qemu (make qemu-bisect): a kernel tree whose "build" hands over the
# Debian kernel of `make qemu` (a stand-in Makefile: no hour of
# compiling) must be good (0) for the i2c controller's autosuspend case,
# and one whose bzImage is cut short must be skipped (125): it does not
# boot.  Hold /tmp/devpm-qemu.lock for --qemu.
set -u
B=${1:?usage: bash tests/check_bisect.sh BUILD [--qemu]}
B=$(cd "$B" && pwd)
qemu=${2:-}
fail=0
W=$(mktemp -d "${TMPDIR:-/tmp}/devpm-bisect.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT INT TERM

expect() { # WANT WHAT CMD...
	local want=$1 what=$2 rc
	shift 2
	"$@" >"$W/out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ]; then
		echo "  ok   bisect: $what: exit $rc ($(grep 'devpm bisect:' "$W/out" | tail -1 | sed 's/^devpm bisect: //' | cut -c1-90))"
	else
		tail -15 "$W/out" | sed 's/^/    /'
		echo "  FAIL bisect: $what: exit $rc, want $want"
		fail=1
	fi
}

# collect NAME STREAM-TEXT: a results directory of that stream.
collect() {
	printf '%s' "$2" >"$W/$1.stream"
	"$B/devpm" collect --output "$W/res-$1" "$W/$1.stream" >/dev/null 2>&1
	echo "$W/res-$1/$(readlink "$W/res-$1/latest")"
}
head='DEVPM-STREAM 1
RUN x 2025-01-02T03:04:05Z 1000
PLAN i2c/controller 60 a
PLAN baseline/final_recheck 0 devices_at_baseline
PROG 2000 i2c/controller 60
CASE a
OUT 2100 TAP version 13
'
tail='END 2300 i2c/controller 0 exit:0
PROG 3000 baseline/final_recheck 0
CASE devices_at_baseline
OUT 3100 #  RUN           final_recheck.devices_at_baseline ...
OUT 3200 ok 1 final_recheck.devices_at_baseline
END 3300 baseline/final_recheck 0 exit:0
DONE 3400 0
'
good=$(collect good "$head"'OUT 2150 #  RUN           f.a ...
OUT 2200 ok 1 f.a
'"$tail")
bad=$(collect bad "$head"'OUT 2150 #  RUN           f.a ...
OUT 2200 not ok 1 f.a
'"$tail")
skip=$(collect skip "$head"'OUT 2200 1..0 # SKIP no i2c_i801
'"$tail")
crash=$(collect crash "$head"'OUT 2150 #  RUN           f.a ...
')
expect 0 "every case passed" bash qemu/bisect.sh --verdict 0 "$good"
expect 1 "a case failed" bash qemu/bisect.sh --verdict 1 "$bad"
expect 1 "the guest crashed in a case" bash qemu/bisect.sh --verdict 1 "$crash"
expect 125 "every case skipped" bash qemu/bisect.sh --verdict 4 "$skip"
expect 125 "no results (no boot)" bash qemu/bisect.sh --verdict 2 -
expect 255 "interrupted" bash qemu/bisect.sh --verdict 130 "$good"
expect 255 "a KSRC that is no kernel tree" bash qemu/bisect.sh O="$B" KSRC="$W"

# A kernel tree: its build fails, or it hands over Debian's kernel.
mkdir -p "$W/linux"
touch "$W/linux/Kconfig"
echo 'CONFIG_PM=y' >"$W/linux/.config"
cat >"$W/linux/Makefile" <<'EOF'
# A stand-in kernel tree for check_bisect.sh (no compiling).
olddefconfig modules:
	@true
bzImage:
	@if [ -z "$(BISECT_BZIMAGE)" ]; then echo "error: the build broke" >&2; exit 2; fi
	@mkdir -p $(O)/arch/x86/boot && cp $(BISECT_BZIMAGE) $(O)/arch/x86/boot/bzImage
	@if [ -n "$(BISECT_CUT)" ]; then truncate -s 300000 $(O)/arch/x86/boot/bzImage; fi
modules_install:
	@mkdir -p $(INSTALL_MOD_PATH)/lib/modules && ln -s $(BISECT_MODDIR) $(INSTALL_MOD_PATH)/lib/modules/$(BISECT_KVER)
kernelrelease:
	@echo $(BISECT_KVER)
EOF
expect 125 "the kernel does not build" env BISECT_BZIMAGE= \
	bash qemu/bisect.sh O="$B" KSRC="$W/linux" KBUILD="$W/kbuild"

if [ "$qemu" = --qemu ]; then
	. "$B/qemu/kernel.env" || { echo "  FAIL bisect: no $B/qemu/kernel.env: run make qemu first"; exit 2; }
	expect 0 "Debian's $KVER as the tree's build, i2c autosuspend" env \
		BISECT_BZIMAGE="$BZIMAGE" BISECT_MODDIR="$MODDIR" BISECT_KVER="$KVER" \
		bash qemu/bisect.sh O="$B" KSRC="$W/linux" KBUILD="$W/kbuild" \
		KCONFIG="$KCONFIG" SUITES=i2c TEST='controller/controller_autosuspends'
	expect 125 "its bzImage cut short (no boot)" env \
		BISECT_BZIMAGE="$BZIMAGE" BISECT_MODDIR="$MODDIR" BISECT_KVER="$KVER" \
		BISECT_CUT=1 bash qemu/bisect.sh O="$B" KSRC="$W/linux" \
		KBUILD="$W/kbuild" KCONFIG="$KCONFIG" SUITES=i2c \
		TEST='controller/controller_autosuspends'
fi
exit $fail
