#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# summary_check.py - summary.json as a consumer takes it without glue: a
# format and its version, totals that add up to the cases, a known result
# for each case, and units for every metric that agree with its name
# (_us us, _ms ms, else none).
#
#   python3 tests/summary_check.py FILE [not_run=N ...]
#
# Exit 0 when all holds, 1 with one line saying what did not, 2 on bad use.

import json
import sys

RESULTS = ('pass', 'fail', 'skip', 'xfail', 'not_run')


def units_of(name):
	if name.endswith('_us'):
		return 'us'
	if name.endswith('_ms'):
		return 'ms'
	return 'none'


def main(argv):
	if len(argv) < 2:
		print('usage: summary_check.py FILE [RESULT=N ...]', file=sys.stderr)
		return 2
	with open(argv[1]) as f:
		s = json.load(f)
	bad = []
	if s.get('format') != 'devpm-summary':
		bad.append('no "format": "devpm-summary"')
	if not isinstance(s.get('format_version'), int):
		bad.append('no integer "format_version"')
	count = dict.fromkeys(RESULTS, 0)
	devs = dict.fromkeys(('pass', 'fail', 'skip', 'xfail'), 0)
	for c in s.get('cases', []):
		for d in c.get('devices', []):
			if d.get('result') in devs:
				devs[d['result']] += 1
		where = f'{c.get("suite")}/{c.get("program")}/{c.get("case")}'
		if c.get('result') not in RESULTS:
			bad.append(f'{where}: result {c.get("result")!r}')
			continue
		count[c['result']] += 1
		for m in c.get('metrics', []):
			if m.get('units') != units_of(m.get('name', '')):
				bad.append(f'{where}: metric {m.get("name")} has units '
					   f'{m.get("units")!r}')
	if s.get('totals') != count:
		bad.append(f'totals {s.get("totals")} but cases {count}')
	if s.get('device_totals') != devs:
		bad.append(f'device_totals {s.get("device_totals")} but devices {devs}')
	for want in argv[2:]:
		key, _, n = want.partition('=')
		if key not in count or not n.isdigit():
			print(f'summary_check: bad expectation {want!r}', file=sys.stderr)
			return 2
		if count[key] != int(n):
			bad.append(f'{key} {count[key]}, expected {n}')
	if bad:
		print(f'summary_check: {argv[1]}: ' + '; '.join(bad))
		return 1
	print(f'summary_check: {argv[1]}: {count}')
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv))
