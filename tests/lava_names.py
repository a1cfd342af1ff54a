#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""lava_names.py SUMMARY NAMES - the LAVA test case names of a run (one a
line in NAMES: what lava-test-case was called with, or what LAVA recorded)
must be exactly those summary.json's cases and metrics give under devpm's
one LAVA naming (lib/runner/output_lava.c), computed here on their own:

    devpm.<suite>.<program>.<case>                 a case
    devpm.<suite>.<program>.<case>.<device>.<metric>  a measurement
    devpm.<suite>.<program>                        a program's own result

each part with every character but [A-Za-z0-9_-] made '_'.  Each name
once; exit 1 naming the differences, 2 on bad input.

lava_names.py --table SUMMARY prints each case and metric of summary.json
next to its LAVA name."""
import json
import re
import sys


def part(s):
    return re.sub(r'[^A-Za-z0-9_-]', '_', s)


def pairs(summary):
    """(what summary.json calls it, its LAVA name), in summary order."""
    out = []
    for c in summary['cases']:
        base = 'devpm.%s.%s' % (part(c['suite']), part(c['program']))
        key = '%s/%s' % (c['suite'], c['program'])
        if not c.get('case'):
            out.append((key, base))
            continue
        name = '%s.%s' % (base, part(c['case']))
        out.append(('%s/%s' % (key, c['case']), name))
        for m in c.get('metrics', []):
            out.append(('  %s %s' % (m['device'], m['name']),
                        '%s.%s.%s' % (name, part(m['device']),
                                      part(m['name']))))
    return out


def expected(summary):
    return [name for _, name in pairs(summary)]


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--table':
        with open(sys.argv[2], encoding='utf-8') as f:
            for key, name in pairs(json.load(f)):
                print('%-56s %s' % (key, name))
        return 0
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding='utf-8') as f:
            summary = json.load(f)
        with open(sys.argv[2], encoding='utf-8') as f:
            got = [line.strip() for line in f if line.strip()]
    except (OSError, ValueError) as e:
        print('lava_names: %s' % e, file=sys.stderr)
        return 2
    want = expected(summary)
    bad = []
    dup = sorted({n for n in want if want.count(n) > 1})
    if dup:
        bad.append('summary.json gives %d name(s) twice: %s'
                   % (len(dup), ', '.join(dup[:5])))
    dup = sorted({n for n in got if got.count(n) > 1})
    if dup:
        bad.append('%d name(s) recorded twice: %s'
                   % (len(dup), ', '.join(dup[:5])))
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    if missing:
        bad.append('%d name(s) of summary.json not recorded: %s'
                   % (len(missing), ', '.join(missing[:5])))
    if extra:
        bad.append('%d name(s) recorded that summary.json does not give: %s'
                   % (len(extra), ', '.join(extra[:5])))
    for b in bad:
        print('lava_names: ' + b)
    if bad:
        return 1
    print('lava_names: %d names, each that of a case or metric of %s'
          % (len(got), sys.argv[1]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
