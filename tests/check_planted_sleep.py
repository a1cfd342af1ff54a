#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check_planted_sleep.py KIND RUN_DIR [MAX_RUN_S] - the system-sleep
verdicts' planted bugs (qemu/run.sh --planted, docs/verdicts.md): a run of
the sleeping suites with devpm_mock devices made before the baseline
(DEVPM_SLEEP_BUGS) must fail each planted bug exactly once, naming its
device with the rule's words, in the case that owns the judgment, and fail
nothing else.

KIND:
  refusal  devpm_mock.60 suspend_ebusy: real_device_timing fails it; every
           other case whose cycles it refused skips naming it and the
           judging case
  resume   devpm_mock.60 resume_eio, .61 resume_leak, .62 resume_slow
           over the resume budget: .60 and .62 fail in real_device_timing,
           .61's leak in the first case after a sleep, each once; and
           0000:02:00.0, a virtio-pci that refuses D3hot, fails there
           (left in D0 by system sleep) while the clean 0000:03:00.0
           beside it reaches D3hot
  held     devpm_mock.60 wakeup_held: real_device_timing fails it; the
           cases whose wakeup_count handshake it blocks skip naming it;
           the run takes at most MAX_RUN_S seconds

Prints each planted bug's FAIL line; exit 1 with the reasons when a check
does not hold.
"""
import json
import re
import sys

JUDGE = 'async/sleep/real_device_timing'


def lines(run):
    """(case key, device, reason) of every device-level 'not ok' line."""
    out, case, prev = [], None, ''
    prog = None
    for raw in open(run + '/results.ktap', errors='replace'):
        line = raw.rstrip('\n')
        m = re.match(r'^ {8}# Subtest: (\S+)$', line)
        if m:
            prog = m.group(1)
        m = re.match(r'^ {12}# Subtest: (\S+)$', line)
        if m:
            case = m.group(1)
        m = re.match(r'^ {12}not ok \d+ (\S+)$', line)
        if m:
            out.append((prog, case, m.group(1), prev))
        prev = line.strip()[2:] if line.strip().startswith('# ') else ''
    return out


def main():
    kind, run = sys.argv[1], sys.argv[2]
    max_run_s = float(sys.argv[3]) if len(sys.argv) > 3 else None
    summary = json.load(open(run + '/summary.json'))
    cases = summary['cases']
    key = {id(c): '%s/%s/%s' % (c['suite'], c['program'], c['case'])
           for c in cases}
    failed = {key[id(c)]: c.get('reason') or '' for c in cases
              if c['result'] == 'fail'}
    skipped = {key[id(c)]: c.get('reason') or '' for c in cases
               if c['result'] == 'skip'}
    devs = lines(run)
    ktap = open(run + '/results.ktap', errors='replace').read()
    bad = []

    def one_line(dev, words, where):
        got = [d for d in devs if d[2] == dev]
        if len(got) != 1:
            bad.append('%s: %d failing lines, want 1 (%s)' %
                       (dev, len(got), '; '.join(g[3] for g in got)))
            return
        if words not in got[0][3]:
            bad.append('%s: reason "%s" lacks "%s"' % (dev, got[0][3], words))
        if got[0][1] != where:
            bad.append('%s: failed in %s, want %s' % (dev, got[0][1], where))
        print('  planted %s: FAIL in %s/%s: "%s"' %
              (dev, got[0][0], got[0][1], got[0][3]))

    def only_failed(allowed):
        for k in failed:
            if k not in allowed:
                bad.append('collateral failure %s: %s' % (k, failed[k]))

    def skips_name(words):
        n = [k for k, r in skipped.items() if words in r and JUDGE in r]
        if not n:
            bad.append('no case skipped with "%s ... judged in %s"' %
                       (words, JUDGE))
        else:
            print('  %d case(s) skipped naming it, e.g. %s: "%s"' %
                  (len(n), n[0], skipped[n[0]]))

    if kind == 'refusal':
        one_line('devpm_mock.60',
                 'devpm_mock.60 (devpm_mock): suspend returned -16 (EBUSY): system sleep refused',
                 'real_device_timing')
        only_failed({JUDGE})
        skips_name('system sleep refused by devpm_mock.60 (devpm_mock)')
        others = [d for d in devs if d[2] != 'devpm_mock.60']
        for d in others:
            bad.append('collateral device failure %s in %s: %s' %
                       (d[2], d[1], d[3]))
    elif kind == 'resume':
        one_line('devpm_mock.60',
                 'devpm_mock.60 (devpm_mock): resume returned -5 (EIO)',
                 'real_device_timing')
        one_line('devpm_mock.62', 'over the resume budget',
                 'real_device_timing')
        leak = 'devpm_mock.61 (driver devpm_mock): usage count'
        n = ktap.count(leak)
        where = [k for k, r in failed.items() if leak in r]
        if n != 1 or len(where) != 1:
            bad.append('devpm_mock.61: its leak named %d times in results.ktap, failing %s; want once' %
                       (n, where))
        else:
            print('  planted devpm_mock.61: FAIL in %s: "%s"' %
                  (where[0], failed[where[0]]))
        one_line('0000:02:00.0',
                 '0000:02:00.0 (virtio-pci): left in D0 by system sleep (pci_prepare_to_sleep()), expected D3hot',
                 'real_device_timing')
        if not re.search(r'# s2idle: [^\n]*, D3hot at suspend_noirq;'
                         r' S3: [^\n]*, D3hot at suspend_noirq[^\n]*\n'
                         r' *ok \d+ 0000:03:00\.0\n', ktap):
            bad.append('0000:03:00.0: its line lacks D3hot at suspend_noirq in both cycles')
        only_failed({JUDGE} | set(where))
        others = [d for d in devs
                  if d[2] not in ('devpm_mock.60', 'devpm_mock.62',
                                  '0000:02:00.0')]
        for d in others:
            bad.append('collateral device failure %s in %s: %s' %
                       (d[2], d[1], d[3]))
    elif kind == 'held':
        one_line('devpm_mock.60',
                 'wakeup source devpm_mock.60 held active', 'real_device_timing')
        only_failed({JUDGE})
        skips_name('system sleep blocked by devpm_mock.60 (devpm_mock)')
        run_s = summary.get('duration_ms', 0) / 1000.0
        print('  run %.1f s (bound %s s)' % (run_s, max_run_s))
        if max_run_s and run_s > max_run_s:
            bad.append('the run took %.1f s, more than %.1f s: a held source costs each case its wait' %
                       (run_s, max_run_s))
    else:
        print('check_planted_sleep: KIND is refusal, resume or held',
              file=sys.stderr)
        return 2
    for b in bad:
        print('  planted %s FAILED: %s' % (kind, b))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
