# SPDX-License-Identifier: GPL-2.0-only
#
# image.sh - the guest's initramfs, built in parts that are concatenated
# per run (the kernel unpacks concatenated cpio archives in order), each
# rebuilt only when its inputs change:
#   base     busybox, /init, the pruned depmod'd module tree (with the
#            fixture modules of build/fixtures), kernel config
#   devpm    the runner, one suites directory, their shared libraries,
#            the programs' recorded --list/--needs answers
#   kselftest  the tree of `make install INSTALL_PATH=` as /kselftest
#   extra    EXTRA_MODULES (per run)
#   conf     /etc/devpm/run.conf (per run)
# Sourced by run.sh after lib.sh, the kernel env and the profile.

IMG=$QEMU_BUILD/img
mkdir -p "$IMG"

# use_part FILE: mark an image part as in use; parts of the same kind
# unused for an hour go (a run that is booting still has its own).
use_part() {
	local b=${1##*/}
	touch "$1"
	find "$IMG" -maxdepth 1 -name "$b" -prune -o \
		-name "${b%-*}-*.${b##*.}" -mmin +60 -exec rm -f {} +
}

cpio_of() { # dir out
	(cd "$1" && find . | LC_ALL=C sort |
	 cpio -o -H newc -R 0:0 --quiet) >"$2.tmp" && mv "$2.tmp" "$2"
}

# Normalised module name: basename without .ko*, '-' as '_'.
modname() {
	local n=${1##*/}
	n=${n%%.ko*}
	echo "${n//-/_}"
}

# Modules the test programs declare ("# NEEDS modules: a b, c x=1"): the
# first word of each comma-separated spec.
suite_modules() { # suites dir
	local p
	# One filter for all programs: one per program cost 0.6 s a run.
	for p in "$1"/*/*; do
		[ -x "$p" ] && [ -f "$p" ] || continue
		"$p" --needs 2>/dev/null
	done | sed -n 's/^# NEEDS modules\{0,1\}: *//p' | tr ',' '\n' |
		awk 'NF {print $1}' | sort -u
}

# unsign KO: drop a module's appended signature (the PKCS#7 blob, then
# struct module_signature, its length big-endian in the last 4 bytes,
# then the magic; include/linux/module_signature.h).  Unsigned, a module
# loads without the SHA-256 and RSA check of its every byte, which under
# TCG was a fifth of the boot's driver loading (1.25 s -> 1.0 s); the
# code is Debian's, unchanged.  The kernel (not sig_enforce) taints E
# once, as devpm_mock.ko did anyway.
unsign() {
	local f=$1 sl n
	[ "$(tail -c 28 "$f")" = "~Module signature appended~" ] || return 0
	sl=$(tail -c 32 "$f" | head -c 4 | od -An -tu1 |
	     awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
	n=$(( $(stat -c %s "$f") - 40 - sl ))
	[ "$sl" -gt 0 ] && [ "$n" -gt 0 ] ||
		die "$f: a module signature of $sl bytes does not fit"
	truncate -s "$n" "$f"
}

# build_base: sets BASE to the cpio of busybox, /init and the modules.
build_base() {
	local want key st f m dep line fko
	want=$(printf '%s\n' "${PROFILE_LOAD[@]}" "${PROFILE_MODULES[@]}" \
	       $(suite_modules "$SUITES_SRC") | tr - _ | sort -u)
	# Fixture modules built against this kernel's headers (fixtures/).
	fko=$(find "$FIXTURES_BUILD" -name '*.ko' 2>/dev/null | sort)
	key=$(inputs_key "$MODDIR/modules.dep" "$KCONFIG" "$QEMU_DIR/init" \
	      "$QEMU_DIR/image.sh" /bin/busybox $fko "$(echo $want)" \
	      "$(echo "${PROFILE_LOAD[@]}")")
	BASE=$IMG/base-$KVER-$key.cpio
	if [ -e "$BASE" ]; then
		use_part "$BASE"
		return 0
	fi
	step "IMAGE   base: busybox, /init, modules of $KVER"
	st=$IMG/stage-base
	rm -rf "$st"
	mkdir -p "$st"/{bin,sbin,etc/devpm,proc,sys,dev,run,tmp,boot,mnt,root}
	mkdir -p "$st/lib/modules/$KVER" "$st/lib/modules/extra"
	cp /bin/busybox "$st/bin/busybox"
	for f in $(/bin/busybox --list); do
		[ "$f" = busybox ] || ln -s busybox "$st/bin/$f"
	done
	ln -s ../bin/busybox "$st/sbin/modprobe"
	ln -s /proc/self/mounts "$st/etc/mtab"
	install -m 755 "$QEMU_DIR/init" "$st/init"
	# The lib reads /boot/config-$(uname -r): Debian's kernel has no
	# IKCONFIG.
	[ -n "$KCONFIG" ] && cp "$KCONFIG" "$st/boot/config-$KVER"

	# Each wanted module with everything modules.dep says it needs.
	# Compressed modules are stored plain: busybox modprobe reads
	# those for sure.  Unsigned: see unsign().
	for m in $want; do
		line=$(awk -v w="$m" '{
			n = $1; sub(/:$/, "", n); sub(/.*\//, "", n)
			sub(/\.ko.*/, "", n); gsub(/-/, "_", n)
			if (n == w) { sub(/:/, ""); print; exit }
		}' "$MODDIR/modules.dep")
		if [ -z "$line" ]; then
			grep -q "/${m}.ko\$\|/${m//_/-}.ko\$" \
				"$MODDIR/modules.builtin" 2>/dev/null ||
				note "module $m not in kernel $KVER: left out"
			continue
		fi
		for dep in $line; do
			f=$st/lib/modules/$KVER/${dep%.ko*}.ko
			[ -e "$f" ] && continue
			mkdir -p "${f%/*}"
			case $dep in
			*.ko.xz) xz -dc "$MODDIR/$dep" >"$f" ;;
			*.ko.zst) zstd -qdc "$MODDIR/$dep" >"$f" ;;
			*.ko.gz) gzip -dc "$MODDIR/$dep" >"$f" ;;
			*) cp "$MODDIR/$dep" "$f" ;;
			esac
			unsign "$f"
		done
	done
	# modprobe finds them by name: devpm_module_load("devpm_mock").
	if [ -n "$fko" ]; then
		mkdir -p "$st/lib/modules/$KVER/extra"
		cp $fko "$st/lib/modules/$KVER/extra/"
	fi
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[ -e "$MODDIR/$f" ] && cp "$MODDIR/$f" "$st/lib/modules/$KVER/"
	done
	depmod -b "$st" "$KVER" || die "depmod failed for $KVER"
	# Built-in drivers (e.g. virtio_console in 6.12) need no loading.
	: >"$st/etc/devpm/modules.load"
	for m in "${PROFILE_LOAD[@]}"; do
		grep -q "/${m}.ko:\|/${m//_/-}.ko:" \
			"$st/lib/modules/$KVER/modules.dep" &&
			echo "$m" >>"$st/etc/devpm/modules.load"
	done
	cpio_of "$st" "$BASE"
	rm -rf "$st"
	use_part "$BASE"
}

# build_devpm NAME SUITES_DIR: sets PART to the cpio with /devpm/devpm,
# /devpm/env-hook (qemu/guest/env_hook.c: the runner's --env-hook),
# /devpm/suites/ and the libraries they link.
build_devpm() {
	local name=$1 src=$2 key st b l bins
	bins=$(find "$DEVPM_BIN" "$ENV_HOOK" "$src" -type f -perm -u+x \
		2>/dev/null | sort)
	key=$(inputs_key "$QEMU_DIR/image.sh" $bins)
	PART=$IMG/$name-$key.cpio
	if [ -e "$PART" ]; then
		use_part "$PART"
		return 0
	fi
	step "IMAGE   $name: devpm and $(echo $bins | wc -w) programs"
	st=$IMG/stage-$name
	rm -rf "$st"
	mkdir -p "$st/devpm/suites"
	cp "$DEVPM_BIN" "$st/devpm/devpm"
	cp "$ENV_HOOK" "$st/devpm/env-hook"
	[ -d "$src" ] && cp -a "$src/." "$st/devpm/suites/"
	# Without their debug information the programs are a third of the
	# size: the kernel unpacks megabytes less before /init (TCG).
	find "$st/devpm" -type f -perm -u+x -exec strip --strip-debug {} + \
		2>/dev/null
	# The programs' --list/--needs answers, keyed by their hashes
	# (lib/runner/probe_cache.h): the guest's run starts its first test
	# without starting every program twice first.
	rm -f "$st/devpm/suites/.probe-cache"
	DEVPM_SUITES_DIR=$st/devpm/suites "$DEVPM_BIN" list --write-cache \
		>/dev/null ||
		die "devpm list --write-cache failed for $src (see above)"
	for b in $bins; do
		ldd "$b" 2>/dev/null |
			awk '/=> \// {print $3} /^\t\// {print $1}'
	done | sort -u | while read -r l; do
		mkdir -p "$st${l%/*}"
		cp -L "$l" "$st$l"
	done
	# libpci names devices from pci.ids.
	for f in /usr/share/misc/pci.ids /usr/share/misc/usb.ids; do
		[ -r "$f" ] && { mkdir -p "$st${f%/*}"; cp -L "$f" "$st$f"; }
	done
	cpio_of "$st" "$PART"
	rm -rf "$st"
	use_part "$PART"
}

# build_kselftest DIR: sets PART to the cpio of DIR (a kselftest install
# tree) as /kselftest; its programs' libraries come with the devpm part.
build_kselftest() {
	local st key files
	files=$(find "$1" -type f | sort)
	key=$(inputs_key "$QEMU_DIR/image.sh" $files)
	PART=$IMG/kselftest-$key.cpio
	if [ -e "$PART" ]; then
		use_part "$PART"
		return 0
	fi
	step "IMAGE   kselftest: $(grep -c . "$1/kselftest-list.txt") programs"
	st=$IMG/stage-kselftest
	rm -rf "$st"
	mkdir -p "$st"
	cp -a "$1" "$st/kselftest"
	cpio_of "$st" "$PART"
	rm -rf "$st"
	use_part "$PART"
}

# build_extra RUNDIR: EXTRA_MODULES into RUNDIR/extra.cpio, loaded by
# /init in the order given.
build_extra() {
	local st=$1/stage-extra m
	rm -rf "$st"
	mkdir -p "$st/lib/modules/extra" "$st/etc/devpm"
	: >"$st/etc/devpm/extra.load"
	for m in ${EXTRA_MODULES:-}; do
		[ -r "$m" ] || die "EXTRA_MODULES: $m: no such file; give paths of .ko files"
		case $m in
		*.ko) ;;
		*) die "EXTRA_MODULES: $m is not a .ko file" ;;
		esac
		cp "$m" "$st/lib/modules/extra/"
		echo "${m##*/}" >>"$st/etc/devpm/extra.load"
	done
	cpio_of "$st" "$1/extra.cpio"
	rm -rf "$st"
}

# build_pad: sets PAD to a part of one file, /.initrd-pad, 256 KiB of
# zeros, that goes last in the initrd.  With PVH, QEMU puts the initrd at
# the top of low RAM, ending at 0x3ffd8000 (1 GiB guest), and so over the
# bottom of what SeaBIOS keeps for its tables (from 0x3ffd2000; its e820
# marks it reserved, and the kernel moves the RAMDISK out, too late):
# whatever SeaBIOS writes there lands in the pad, which /init deletes.
# (With the ramfb's VGA BIOS, which the default profile does without,
# SeaBIOS kept 4 MiB from 0x3fc00000 and drew into it: 5 bytes of
# /usr/share/misc/pci.ids came out zeroed in 12 of 29 runs.)
build_pad() {
	local st
	PAD=$IMG/pad-256k.cpio
	if [ ! -s "$PAD" ]; then
		st=$IMG/stage-pad.$$
		rm -rf "$st" && mkdir -p "$st" || die "cannot make $st"
		head -c 262144 /dev/zero >"$st/.initrd-pad" &&
			cpio_of "$st" "$PAD" || die "cannot write $PAD"
		rm -rf "$st"
	fi
	use_part "$PAD"
}

# build_novga: sets NOVGA to a directory for QEMU's -L that holds an
# empty vgabios-ramfb.bin.  QEMU searches -L before its own firmware
# directories, SeaBIOS finds no option ROM signature in it and runs no
# VGA BIOS: the ramfb keeps its display console (all the default profile
# wants of it), and SeaBIOS neither draws its text into it (0.1 s under
# TCG) nor keeps 4 MiB of RAM for its framebuffer.
build_novga() {
	NOVGA=$IMG/novga
	if [ ! -d "$NOVGA" ] || [ -s "$NOVGA/vgabios-ramfb.bin" ]; then
		mkdir -p "$NOVGA" && : >"$NOVGA/vgabios-ramfb.bin" ||
			die "cannot make $NOVGA"
	fi
}

# build_pvh: sets PVH_ENTRY and PVH_RAM, the PVH boot of VMLINUX in a
# form that survives an S3 wake.  QEMU loads a -kernel ELF as ROM blobs
# and writes them again at every system reset, and the wake from S3 is
# one (hw/i386/pc.c: pc_machine_wakeup() resets the machine,
# hw/core/loader.c: rom_reset()): the whole image, .bss and .brk
# included, went back to the file's contents under the resuming kernel,
# and the trampoline's page tables (in .brk) with it - a page fault at
# the first fetch after paging is on, a triple fault, QEMU exits.
# So the kernel's segments go into the guest's RAM by a file it is
# backed by (PVH_RAM: memory-backend-file, share=off, a private copy),
# placed at their physical addresses; -kernel gets only PVH_ENTRY, the
# vmlinux with nothing but .notes: its PVH entry note, and one segment
# that rewrites .notes with the same bytes (read-only after boot).
build_pvh() {
	local key mem=$PROFILE_MEMORY off pa fs ms
	case $mem in
	*[!0-9]*) ;;
	*) mem=${mem}M ;;
	esac
	key=$(inputs_key "$VMLINUX" "memory=$mem")
	PVH_ENTRY=$IMG/pvh-entry-$key.elf
	PVH_RAM=$IMG/pvh-ram-$key.img
	PVH_MEM=$mem
	if [ ! -s "$PVH_ENTRY" ] || [ ! -s "$PVH_RAM" ]; then
		objcopy --only-section=.notes "$VMLINUX" "$PVH_ENTRY.tmp" \
			2>/dev/null && has_pvh_note "$PVH_ENTRY.tmp" ||
			die "cannot make the PVH entry ELF of $VMLINUX with objcopy (binutils; make deps)"
		rm -f "$PVH_RAM.tmp"
		truncate -s "$mem" "$PVH_RAM.tmp" ||
			die "cannot make $PVH_RAM.tmp of $mem"
		readelf -lW "$VMLINUX" | awk '$1 == "LOAD" {print $2, $4, $5, $6}' |
		while read -r off pa fs ms; do
			[ $((pa + ms)) -le "$(stat -c %s "$PVH_RAM.tmp")" ] ||
				die "$VMLINUX: a segment ends at $((pa + ms)), beyond the guest's $mem of RAM; give the profile more PROFILE_MEMORY"
			dd if="$VMLINUX" of="$PVH_RAM.tmp" bs=1M status=none \
				iflag=skip_bytes,count_bytes oflag=seek_bytes \
				skip=$((off)) seek=$((pa)) count=$((fs)) \
				conv=notrunc,sparse ||
				die "cannot copy $VMLINUX's segments into $PVH_RAM.tmp"
		done || exit 2
		mv "$PVH_ENTRY.tmp" "$PVH_ENTRY" && mv "$PVH_RAM.tmp" "$PVH_RAM" ||
			die "cannot write $PVH_RAM"
	fi
	use_part "$PVH_ENTRY"
	use_part "$PVH_RAM"
}

# build_conf RUNDIR: the per-run settings /init sources.  SETTLE keeps
# its globs for the guest: they are joined on one line, never expanded
# against the host's /sys.
build_conf() {
	local st=$1/stage-conf
	rm -rf "$st"
	mkdir -p "$st/etc/devpm"
	{
		printf 'MODE=%q\n' "$GUEST_MODE"
		printf 'RUN_ARGS=%q\n' "$GUEST_RUN_ARGS"
		printf 'TEST_GLOB=%q\n' "${TEST:-}"
		printf 'GUEST_ENV=%q\n' "$GUEST_ENV"
		printf 'KSFT_ARGS=%q\n' "${KSFT_ARGS:-}"
		printf 'SETTLE=%q\n' "$(printf '%s' "${PROFILE_SETTLE:-}" |
			tr -s ' \t\n' '   ')"
	} >"$st/etc/devpm/run.conf"
	# The environment hook's drivers (qemu/guest/env_hook.c).
	printf '%s\n' $SET_ASIDE_DRIVERS >"$st/etc/devpm/set-aside"
	cpio_of "$st" "$1/conf.cpio"
	rm -rf "$st"
}
