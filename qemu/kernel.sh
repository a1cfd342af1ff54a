#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel.sh OUT.env - pick the guest kernel and write its facts to OUT.env.
#
# Default: Debian's package KERNEL_PKG (linux-image-amd64, a metapackage
# resolved to the versioned image with apt-cache depends), fetched with
# apt-get download and unpacked with dpkg -x into build/qemu/kernel/ -
# never installed on the host - together with the matching linux-headers
# (for out-of-tree fixture modules).  Fetched once per package version.
# KERNEL=bzImage MODULES=/lib/modules/<ver> picks a self-built kernel.
#
# OUT.env gets: KVER BZIMAGE VMLINUX MODDIR KCONFIG KHEADERS KERNEL_DESC
set -u
. "$(dirname "$0")/lib.sh"
set_qemu_build

out=$1
kdir=$QEMU_BUILD/kernel
mkdir -p "$kdir"

# The uncompressed vmlinux (an ELF with a PVH entry note) hides inside the
# bzImage behind a compression magic: try each candidate offset.
extract_vmlinux() { # bzImage out
	local img=$1 dst=$2 magic cmd off
	for pair in 'fd377a585a00:xz -dc' '1f8b08:gzip -dc' \
		    '28b52ffd:zstd -dc' '5d000000:xz -dc --format=lzma'; do
		magic=${pair%%:*}
		cmd=${pair#*:}
		for off in $(LC_ALL=C grep -obUaP \
			     "$(echo "$magic" | sed 's/../\\x&/g')" "$img" |
			     cut -d: -f1 | head -5); do
			tail -c +$((off + 1)) "$img" | $cmd 2>/dev/null \
				>"$dst.tmp"
			if [ "$(head -c 4 "$dst.tmp" | od -An -c | tr -d ' ')" \
			     = '177ELF' ]; then
				mv "$dst.tmp" "$dst"
				return 0
			fi
		done
	done
	rm -f "$dst.tmp"
	return 1
}

write_env() { # kver bzimage vmlinux moddir kconfig kheaders desc
	{
		printf 'KVER=%q\nBZIMAGE=%q\nVMLINUX=%q\n' "$1" "$2" "$3"
		printf 'MODDIR=%q\nKCONFIG=%q\nKHEADERS=%q\n' "$4" "$5" "$6"
		printf 'KERNEL_DESC=%q\n' "$7"
	} >"$out"
}

# The maintainer's own kernel.
if [ -n "${KERNEL:-}" ]; then
	[ -r "$KERNEL" ] ||
		die "KERNEL=$KERNEL: no such file; pass the path of a bzImage"
	[ -n "${MODULES:-}" ] ||
		die "KERNEL= needs MODULES=/path/lib/modules/<version> too"
	[ -r "$MODULES/modules.dep" ] ||
		die "MODULES=$MODULES: no modules.dep there; pass the lib/modules/<version> directory of 'make modules_install'"
	kver=$(basename "$(cd "$MODULES" && pwd)")
	own=$kdir/own-$kver
	mkdir -p "$own"
	vml=
	if [ "$KERNEL" -nt "$own/vmlinux" ]; then
		extract_vmlinux "$KERNEL" "$own/vmlinux" || rm -f "$own/vmlinux"
	fi
	[ -r "$own/vmlinux" ] && has_pvh_note "$own/vmlinux" &&
		vml=$own/vmlinux
	cfg=
	for c in "${KCONFIG:-}" "$MODULES/build/.config" \
		 "$(dirname "$KERNEL")/../../../.config"; do
		[ -n "$c" ] && [ -r "$c" ] && { cfg=$(readlink -f "$c"); break; }
	done
	[ -n "$cfg" ] || note "no .config found for $kver (KCONFIG=path): suites cannot check kernel options"
	hdr=
	[ -r "$MODULES/build/Makefile" ] && hdr=$(readlink -f "$MODULES/build")
	write_env "$kver" "$(readlink -f "$KERNEL")" "$vml" \
		"$(cd "$MODULES" && pwd)" "$cfg" "$hdr" "$KERNEL ($kver)"
	exit 0
fi

pkg=${KERNEL_PKG:-linux-image-amd64}
case $pkg in
linux-image-*) ;;
*) die "KERNEL_PKG=$pkg is not a kernel image package; use e.g. KERNEL_PKG=linux-image-amd64 or linux-image-6.12-amd64" ;;
esac

# Metapackages depend on the versioned image: follow them.  Prints
# "<package> <candidate version>"; fails for a package apt does not know.
resolve() {
	local p=$1 n=0 info dep
	while [ $n -lt 5 ]; do
		info=$(apt-cache show --no-all-versions "$p" 2>/dev/null) ||
			return 1
		dep=$(echo "$info" | sed -n 's/^Depends: //p' | tr ',' '\n' |
		      awk '$1 ~ /^linux-image-/ {print $1; exit}')
		if [ -z "$dep" ]; then
			echo "$p $(echo "$info" | sed -n 's/^Version: //p')"
			return 0
		fi
		p=$dep
		n=$((n + 1))
	done
	return 1
}

cached_any() { # pkg: newest already unpacked version of it
	ls -d "$kdir/$1"_*/.done 2>/dev/null | sort -V | tail -1 | xargs -r dirname
}

# apt-cache is slow: remember the answer until apt-get update changes the
# package lists.
rcache=$kdir/resolved-$pkg
rkey="$(stat -c %Y /var/lib/apt/lists 2>/dev/null)"
if [ -n "$rkey" ] && [ -r "$rcache" ] && [ "$(head -1 "$rcache")" = "$rkey" ]; then
	read -r real ver < <(sed -n 2p "$rcache")
else
	real=
	if r=$(resolve "$pkg"); then
		read -r real ver <<<"$r"
		[ -n "$rkey" ] && printf '%s\n%s\n' "$rkey" "$r" >"$rcache"
	fi
fi
if [ -n "$real" ]; then
	[ -n "$ver" ] ||
		die "KERNEL_PKG=$pkg: apt has no installable version of $real; run apt-get update or pick another package"
	dir=$kdir/${real}_$ver
else
	dir=$(cached_any "$pkg")
	[ -n "$dir" ] ||
		die "KERNEL_PKG=$pkg: no such Debian package (apt-cache show fails); try linux-image-amd64, or 'apt-cache search linux-image' for the names"
	real=$pkg
fi
kver=${real#linux-image-}

if [ ! -e "$dir/.done" ]; then
	need_space "$kdir" 1200 "unpack the kernel package $real"
	tmp=$dir.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp/debs" "$tmp/root"
	hpkgs=$(apt-cache depends "linux-headers-$kver" 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-(headers|kbuild)-/ {print $2}')
	step "FETCH   $real $ver + linux-headers-$kver"
	if ! (cd "$tmp/debs" && apt-get -q -o APT::Sandbox::User=root \
	      download "$real" "linux-headers-$kver" $hpkgs \
	      >"$tmp/download.log" 2>&1); then
		old=$(cached_any "$real")
		rm -rf "$tmp"
		[ -n "$old" ] ||
			die "could not download $real (see apt-get output above or check the network/apt sources); nothing cached to fall back to"
		note "could not download $real $ver; using the cached $(basename "$old")"
		dir=$old
	else
		step "UNPACK  $real"
		for d in "$tmp"/debs/*.deb; do
			dpkg -x "$d" "$tmp/root" ||
				die "dpkg -x $d failed (disk full?)"
		done
		rm -rf "$tmp/debs"
		# The headers' Makefile includes the -common tree by an
		# absolute /usr/src path: point it into our copy.
		hmk=$tmp/root/usr/src/linux-headers-$kver/Makefile
		[ -f "$hmk" ] &&
			sed -i "s|/usr/src/|$dir/root/usr/src/|g" "$hmk"
		ls "$tmp"/root/boot/vmlinuz-* >/dev/null 2>&1 ||
			die "package $real contains no /boot/vmlinuz-*: not a kernel image"
		# modules.dep is made by the package's postinst, not shipped.
		depmod -b "$tmp/root" "${kver}" ||
			die "depmod failed on the unpacked $real"
		rm -rf "$dir"
		mv "$tmp" "$dir"
		touch "$dir/.done"
	fi
fi

bz=$(ls "$dir"/root/boot/vmlinuz-* | head -1)
kver=${bz##*/vmlinuz-}
if [ ! -e "$dir/vmlinux.checked" ]; then
	step "EXTRACT vmlinux from $(basename "$bz")"
	extract_vmlinux "$bz" "$dir/vmlinux" || rm -f "$dir/vmlinux"
	if [ -r "$dir/vmlinux" ] && ! has_pvh_note "$dir/vmlinux"; then
		rm -f "$dir/vmlinux"
	fi
	touch "$dir/vmlinux.checked"
fi
vml=
[ -r "$dir/vmlinux" ] && vml=$dir/vmlinux
hdr=
[ -d "$dir/root/usr/src/linux-headers-$kver" ] &&
	hdr=$dir/root/usr/src/linux-headers-$kver
write_env "$kver" "$bz" "$vml" "$dir/root/lib/modules/$kver" \
	"$dir/root/boot/config-$kver" "$hdr" \
	"$real $(basename "$dir" | sed "s/^${real}_//")"
