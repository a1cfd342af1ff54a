#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# kcidb_check.py - `devpm export --kcidb` as KCIDB takes it: valid against
# KCIDB's own v4 schema when this machine has it, and always against
# tests/kcidb/devpm-kcidb-v4.schema.json (tests/kcidb/README says which is
# which); every test id once; with --summary, a test per case of
# summary.json at devpm.<suite>.<program>.<case> with the status its
# result maps to.
#
#   python3 tests/kcidb_check.py FILE [--summary SUMMARY.json]
#
# Exit 0 when all holds, 1 with one line per problem, 2 on bad use or
# when python3 has no jsonschema ('make deps' installs python3-jsonschema).

import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OURS = os.path.join(HERE, 'kcidb', 'devpm-kcidb-v4.schema.json')
STATUS = {'pass': 'PASS', 'fail': ('FAIL', 'ERROR'), 'skip': 'SKIP',
	  'xfail': 'FAIL', 'not_run': 'MISS'}


def kcidb_schema():
	"""KCIDB's own schema and where it came from, or (None, why not)."""
	path = os.environ.get('KCIDB_SCHEMA')
	if not path:
		found = sorted(glob.glob(os.path.join(
			HERE, '..', '..', 'shared', 'kcidb-io.schema.v4*.json')))
		path = found[-1] if found else None
	if path:
		with open(path) as f:
			return json.load(f), os.path.normpath(path)
	try:
		import kcidb_io  # a lab's pip install kcidb-io
		v = kcidb_io.schema.v04_05.Version
		return v.json, 'kcidb_io %s v%d.%d' % (kcidb_io.__file__, v.major,
							v.minor)
	except (ImportError, AttributeError):
		return None, ('KCIDB\'s own schema not on this machine (KCIDB_SCHEMA, '
			      'shared/kcidb-io.schema.v4*.json, kcidb_io)')


def name(s):
	"""output_kcidb.c: rn_kcidb_name()."""
	s = re.sub('[^a-zA-Z0-9_-]', '_', s)
	return s or '_'


def main(argv):
	try:
		import jsonschema
	except ImportError:
		print('kcidb_check: python3 has no jsonschema: run make deps '
		      '(python3-jsonschema)', file=sys.stderr)
		return 2
	if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != '--summary'):
		print('usage: kcidb_check.py FILE [--summary SUMMARY.json]',
		      file=sys.stderr)
		return 2
	with open(argv[1]) as f:
		doc = json.load(f)
	bad = []
	used = []
	with open(OURS) as f:
		ours = json.load(f)
	schemas = [(ours, os.path.relpath(OURS))]
	theirs, where = kcidb_schema()
	if theirs is not None:
		schemas.insert(0, (theirs, where))
	for schema, what in schemas:
		v = jsonschema.Draft7Validator(schema)
		errs = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
		for e in errs[:5]:
			bad.append(f'{what}: {"/".join(map(str, e.path))}: '
				   f'{e.message[:160]}')
		if len(errs) > 5:
			bad.append(f'{what}: {len(errs) - 5} more error(s)')
		used.append(what)
	tests = doc.get('tests', [])
	ids = [t.get('id') for t in tests]
	if len(set(ids)) != len(ids):
		bad.append(f'{len(ids) - len(set(ids))} test id(s) used twice')
	if len(argv) == 4:
		with open(argv[3]) as f:
			summary = json.load(f)
		got = {t['path']: t for t in tests
		       if isinstance(t.get('misc'), dict) and
		       'devpm_result' in t['misc']}
		for c in summary.get('cases', []):
			path = 'devpm.' + '.'.join(
				name(x) for x in (c['suite'], c['program'], c['case'])
				if x)
			t = got.pop(path, None)
			if not t:
				bad.append(f'{path}: no test for this case')
				continue
			want = STATUS.get(c['result'])
			if t.get('status') not in (want if isinstance(want, tuple)
						   else (want,)):
				bad.append(f'{path}: status {t.get("status")} for '
					   f'{c["result"]}')
		for path in got:
			bad.append(f'{path}: a test summary.json has no case for')
	if theirs is None:
		print(f'kcidb_check: {where}')
	if bad:
		print(f'kcidb_check: {argv[1]}: ' + '; '.join(bad[:12]))
		return 1
	print(f'kcidb_check: {argv[1]}: {len(tests)} tests valid against '
	      + ' and '.join(used))
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv))
