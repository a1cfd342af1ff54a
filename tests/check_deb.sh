#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# check_deb.sh DIR SRC - what `make check-deb` built in DIR from the tree
# SRC holds what it must: the runner, every suite's programs, the man
# page, the bash completion, the guides, the kselftest tree (the kernel's
# run_kselftest.sh, 0755, and a test per program linking to it), and the
# devpm_mock source with its dkms.conf; the packaged devpm, unpacked, finds
# its test programs.  Then the package's autopkgtests (debian/tests/
# control), run here as autopkgtest's null testbed would but on the
# unpacked package rather than an installed one (installing it would
# change this machine, which other runs share): each test's script from
# the source tree, devpm on PATH, AUTOPKGTEST_TMP its own; a test without
# needs-root as a user who is not root (a scratch system user, made and
# removed here), a "skippable" exit 77 a skip.  Exit 1 on a failure.
set -u
dir=${1:?usage: sh tests/check_deb.sh DIR SRC}
src=${2:?usage: sh tests/check_deb.sh DIR SRC}
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
	./usr/share/bash-completion/completions/devpm \
	./usr/lib/devpm-kselftest/run_kselftest.sh \
	./usr/lib/devpm-kselftest/kselftest/runner.sh \
	./usr/lib/devpm-kselftest/kselftest-list.txt \
	./usr/lib/devpm-kselftest/devpm/settings; do
	echo "$files" | grep -qx "$f" || bad "$f not in $(basename "$deb")"
done
for f in README writing-tests.md verdicts.md fixtures.md bisect.md \
	suites/pci.md; do
	echo "$files" | grep -qx "./usr/share/doc/devpm/$f\(.gz\)\?" ||
		bad "doc $f not in $(basename "$deb")"
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
# The kselftest tree: 0755 scripts, each test a link to a program.
k=$root/usr/lib/devpm-kselftest
for f in "$k/run_kselftest.sh" "$k"/kselftest/*.sh "$k"/kselftest/*.pl; do
	[ "$(stat -c %a "$f")" = 755 ] || bad "${f#$root} is mode $(stat -c %a "$f"), not 755"
done
nk=0
for t in $(sed -n 's/^devpm://p' "$k/kselftest-list.txt"); do
	[ -x "$k/devpm/$t" ] && [ -L "$k/devpm/$t" ] ||
		bad "kselftest test devpm:$t is not a link to a program"
	nk=$((nk + 1))
done
[ "$nk" = "$n" ] || bad "kselftest-list.txt has $nk devpm tests, the package $n programs"
[ $fail = 0 ] && echo "  ok   deb: $(basename "$deb") ($n programs, kselftest tree of $nk, man page, completion, guides), $(basename "$mock")"

# The autopkgtests, on the unpacked package.
user=devpm-deb
made_user=
W=$(mktemp -d "${TMPDIR:-/tmp}/devpm-deb.XXXXXX") || exit 2
trap 'rm -rf "$W" "$root"; [ -n "$made_user" ] && userdel "$user" 2>/dev/null' EXIT INT TERM
chmod 755 "$W"
mv "$root" "$W/pkg"
root=$W/pkg
mkdir "$W/src"
tar -C "$src" -cf - debian/tests fixtures/sysfs | tar -C "$W/src" -xf -
if ! id "$user" >/dev/null 2>&1; then
	useradd --system --no-create-home --shell /usr/sbin/nologin "$user" ||
		{ echo "devpm: useradd $user failed" >&2; exit 2; }
	made_user=1
fi
# "name restrictions" per stanza of debian/tests/control.
awk 'BEGIN { RS = ""; FS = "\n" }
     { t = ""; r = ""
       for (i = 1; i <= NF; i++) {
	       if ($i ~ /^Tests:/) { t = $i; sub(/^Tests: */, "", t) }
	       if ($i ~ /^Restrictions:/) { r = $i; sub(/^Restrictions: */, "", r); gsub(/[ ,]+/, ",", r) }
       }
       n = split(t, names, /[ ,]+/)
       for (j = 1; j <= n; j++) print names[j], (r == "" ? "-" : r) }' \
	"$src/debian/tests/control" >"$W/tests"
[ -s "$W/tests" ] || bad "debian/tests/control names no test"
ran=0
while read -r t r; do
	tmp=$W/tmp-$t
	mkdir "$tmp"
	case ",$r," in
	*,needs-root,*) as=root ;;
	*) as=$user; chown "$user" "$tmp" ;;
	esac
	[ -x "$W/src/debian/tests/$t" ] || { bad "debian/tests/$t is not an executable"; continue; }
	env="PATH=$root/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin AUTOPKGTEST_TMP=$tmp"
	if [ $as = root ]; then
		(cd "$W/src" && env -i $env sh -c "debian/tests/$t") >"$W/$t.log" 2>&1
	else
		runuser -u "$user" -- sh -c "cd '$W/src' && env -i $env debian/tests/$t" >"$W/$t.log" 2>&1
	fi
	rc=$?
	[ $as = root ] || rm -rf "/tmp/devpm-$(id -u "$user")"
	if [ $rc = 77 ] && case ",$r," in *,skippable,*) true ;; *) false ;; esac; then
		echo "  skip autopkgtest $t (as $as): $(tail -1 "$W/$t.log")"
	elif [ $rc = 0 ]; then
		echo "  ok   autopkgtest $t (as $as): $(tail -1 "$W/$t.log")"
		ran=$((ran + 1))
	else
		sed 's/^/    /' "$W/$t.log" | tail -20
		bad "autopkgtest $t (as $as) exited $rc"
	fi
done <"$W/tests"
[ "$ran" -gt 0 ] || bad "no autopkgtest passed"
exit $fail
