#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# check_deb.sh DIR - what `make check-deb` built in DIR holds what it must:
# the runner, every suite's programs, the man page, the bash completion,
# and the devpm_mock source with its dkms.conf; the packaged devpm, unpacked,
# finds its test programs.  Exit 1 on anything missing.
set -u
dir=${1:?usage: sh tests/check_deb.sh DIR}
fail=0
bad() {
	echo "  FAIL deb: $*"
	fail=1
}

deb=$(ls "$dir"/devpm_*.deb 2>/dev/null | head -1)
mock=$(ls "$dir"/devpm-mock-dkms_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "  FAIL deb: no devpm_*.deb in $dir"; exit 1; }
[ -n "$mock" ] || bad "no devpm-mock-dkms_*.deb in $dir"

files=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/devpm ./usr/share/man/man1/devpm.1.gz \
	./usr/share/bash-completion/completions/devpm; do
	echo "$files" | grep -qx "$f" || bad "$f not in $(basename "$deb")"
done
for s in suites/*/*.c; do
	p=${s#suites/}
	p=${p%.c}
	echo "$files" | grep -qx "./usr/lib/devpm/suites/$p" ||
		bad "program $p not in $(basename "$deb")"
done
if [ -n "$mock" ]; then
	dpkg-deb -c "$mock" | awk '{print $6}' |
		grep -q '^./usr/src/devpm-mock-[^/]*/dkms.conf$' ||
		bad "no /usr/src/devpm-mock-*/dkms.conf in $(basename "$mock")"
fi

# The installed layout works: bin/devpm finds ../lib/devpm/suites.
root=$dir/unpacked
rm -rf "$root"
dpkg-deb -x "$deb" "$root"
n=$(DEVPM_SUITES_DIR= "$root/usr/bin/devpm" list | grep -c '^[^ ]')
[ "$n" = "$(ls suites/*/*.c | wc -l)" ] ||
	bad "the packaged devpm lists $n programs, the tree has $(ls suites/*/*.c | wc -l)"
rm -rf "$root"
[ $fail = 0 ] && echo "  ok   deb: $(basename "$deb") ($n programs, man page, completion), $(basename "$mock")"
exit $fail
