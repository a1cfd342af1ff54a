#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# kunit_check.py - read a results.ktap with the kernel's own KTAP parser
# (tools/testing/kunit/kunit_parser.py, the one `kunit.py parse` uses) and
# check that it takes the file whole: no parse errors, every plan read
# (a plan the parser did not see is a count it cannot check) and matched,
# and the counts given.
#
#   python3 tests/kunit_check.py KUNIT_DIR FILE passed=N failed=N skipped=N
#
# Exit 0 when all holds, 1 with one line saying what did not, 2 on bad use.

import contextlib
import io
import os
import sys


def plans(test, path, bad):
	"""Every test with subtests must have had its plan read, and kept."""
	if test.subtests:
		if test.expected_count is None:
			bad.append(f'{path or "top level"}: plan not read')
		elif test.expected_count != len(test.subtests):
			bad.append(f'{path or "top level"}: plan {test.expected_count}, '
				   f'{len(test.subtests)} results')
	for sub in test.subtests:
		plans(sub, f'{path}/{sub.name}' if path else sub.name, bad)


def main(argv):
	if len(argv) < 3:
		print('usage: kunit_check.py KUNIT_DIR FILE [passed=N ...]',
		      file=sys.stderr)
		return 2
	kunit_dir, path = argv[1], argv[2]
	if not os.path.isfile(os.path.join(kunit_dir, 'kunit_parser.py')):
		print(f'kunit_check: {kunit_dir}/kunit_parser.py missing: '
		      'run make headers (it unpacks tools/testing/kunit)',
		      file=sys.stderr)
		return 2
	sys.path.insert(0, kunit_dir)
	with open(path, errors='backslashreplace') as f:
		lines = f.read().splitlines()
	# Its printer keeps the sys.stdout of import time: import it here.
	log = io.StringIO()
	with contextlib.redirect_stdout(log):
		import kunit_parser  # from the kernel tree
		test = kunit_parser.parse_run_tests(lines)
	c = test.counts
	bad = []
	if c.errors:
		bad.append(f'{c.errors} parse error(s)')
	plans(test, '', bad)
	got = {'passed': c.passed, 'failed': c.failed, 'skipped': c.skipped,
	       'crashed': c.crashed}
	for want in argv[3:]:
		key, _, n = want.partition('=')
		if key not in got or not n.isdigit():
			print(f'kunit_check: bad expectation {want!r}', file=sys.stderr)
			return 2
		if got[key] != int(n):
			bad.append(f'{key} {got[key]}, expected {n}')
	if bad:
		sys.stdout.write(log.getvalue())
		print(f'kunit_check: {path}: ' + '; '.join(bad) + f' ({c})')
		return 1
	print(f'kunit_check: {path}: {c}')
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv))
