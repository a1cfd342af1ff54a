#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages devpm needs to build, test and boot its QEMU
# image.  As root, missing packages are installed; otherwise the exact
# apt-get line is printed and the script fails (exit 2).  python3 runs the
# kernel's kunit.py (make qemu-check) and, with python3-jsonschema, checks
# the KCIDB export (tests/kcidb_check.py); chromium renders report.html
# (make check-report); debhelper, dh-dkms, dkms, lintian and fakeroot
# build and check the Debian package (make check-deb); util-linux's
# setpriv and unshare play a local user in tests/root_safety.sh (make
# check-unit).
set -u

PKGS="gcc make pkg-config libc6-dev libpci-dev libusb-1.0-0-dev libevdev-dev
zlib1g-dev linux-source-6.1 xz-utils perl qemu-system-x86 busybox-static cpio
kmod zstd dpkg-dev binutils e2fsprogs clang libclang-rt-14-dev python3
libxml2-utils python3-jsonschema chromium debhelper dh-dkms dkms lintian
fakeroot util-linux"

# `deps.sh lava`: also Debian's LAVA dispatcher (make check-lava).
[ "${1:-}" = lava ] && PKGS="$PKGS lava-dispatcher git"

# One dpkg-query for all (one each took 0.7 s, in every make qemu);
# a package of two architectures is there when one is installed.
installed=" $(dpkg-query -W -f='${Package}:${db:Status-Status} ' $PKGS 2>/dev/null) "
missing=
for p in $PKGS; do
	case "$installed" in
	*" $p:installed "*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "devpm: missing Debian packages:$missing; run: sudo apt-get install$missing" >&2
	exit 2
fi

echo "  DEPS    apt-get install$missing"
export DEBIAN_FRONTEND=noninteractive
# An old or empty package list cannot find the packages: update once.
if ! apt-get install -y --no-install-recommends $missing >/dev/null 2>&1; then
	apt-get update -q >/dev/null 2>&1 || true
	if ! apt-get install -y -q --no-install-recommends $missing; then
		echo "devpm: apt-get install$missing failed; fix the package sources and run 'make deps' again" >&2
		exit 2
	fi
fi
