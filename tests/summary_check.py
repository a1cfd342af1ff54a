#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# summary_check.py - summary.json as a consumer takes it without glue: a
# format and its version, totals that add up to the cases, a known result,
# a start time (ISO 8601, UTC) and a kernel_log list for each case, the
# run's properties with the config's sha256, and units for every metric
# that agree with its name (output_json.c: rn_metric_units; never
# "none").
#
#   python3 tests/summary_check.py FILE [not_run=N ...]
#
# Exit 0 when all holds, 1 with one line saying what did not, 2 on bad use.

import json
import re
import sys

RESULTS = ('pass', 'fail', 'skip', 'xfail', 'not_run')
FORMAT_VERSION = 3
STARTED = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$')
PROPERTIES = ('devpm_version', 'run_id', 'hostname', 'kernel_release',
	      'kernel_version', 'config_sha256', 'arch', 'machine',
	      'opt_suites', 'opt_test', 'opt_allow_sleep', 'opt_allow_disk')


def units_of(name):
	for word in name.split('_')[1:]:
		if word in ('ns', 'us', 'ms', 's'):
			return word
	if 'speedup' in name or '_over_' in name:
		return 'ratio'
	if name == 'outcome':
		return 'code'
	return 'count'


def main(argv):
	if len(argv) < 2:
		print('usage: summary_check.py FILE [RESULT=N ...]', file=sys.stderr)
		return 2
	with open(argv[1]) as f:
		s = json.load(f)
	bad = []
	if s.get('format') != 'devpm-summary':
		bad.append('no "format": "devpm-summary"')
	if s.get('format_version') != FORMAT_VERSION:
		bad.append(f'"format_version" {s.get("format_version")!r}, '
			   f'expected {FORMAT_VERSION}')
	props = s.get('properties')
	if not isinstance(props, dict):
		bad.append('no "properties"')
	else:
		for key in PROPERTIES:
			if not isinstance(props.get(key), str):
				bad.append(f'properties: no {key}')
		sha = props.get('config_sha256', '')
		if sha and not re.fullmatch('[0-9a-f]{64}', sha):
			bad.append(f'properties: config_sha256 {sha!r} is no sha256')
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
		if not STARTED.match(str(c.get('started'))):
			bad.append(f'{where}: started {c.get("started")!r}')
		klog = c.get('kernel_log')
		if not isinstance(klog, list) or (klog and c['result'] != 'fail'):
			bad.append(f'{where}: kernel_log {klog!r}')
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
