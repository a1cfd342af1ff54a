// SPDX-License-Identifier: GPL-2.0-only
/*
 * subtest.c - per-device nested KTAP lines (subtest.h).
 * Lines are flushed at once: the harness forks, and the runner timestamps
 * what it reads.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "judge/subtest.h"
#include "judge/baseline.h"
#include "judge/sleep_verdict.h"
#include "judge/verdict.h"
#include "rpm/device.h"

enum sub_res { SUB_PASS, SUB_FAIL, SUB_SKIP };

/*
 * The error rule (verdict.h) at the end of every device's block: a device
 * whose runtime PM went into error fails, whatever the case concluded.
 */
static enum sub_res judge(enum sub_res res, const char *dev, char *msg,
			  size_t len)
{
	const struct devpm_baseline *b;
	char why[768], was[512];

	if (!devpm_verdict_active())
		return res;
	devpm_verdict_touched(dev);
	b = devpm_baseline();
	if (!b || devpm_verdict_device(b, dev, DEVPM_V_ERROR, why,
				       sizeof(why)) <= 0)
		return res;
	snprintf(was, sizeof(was), "%s", msg);
	if (!was[0])
		snprintf(msg, len, "%s", why);
	else if (res == SUB_SKIP)
		snprintf(msg, len, "%s (the case would have skipped: %s)", why,
			 was);
	else
		snprintf(msg, len, "%s; %s", why, was);
	return SUB_FAIL;
}

/*
 * A device the kernel numbers in probe order (input12) gets the name of
 * its place (rpm/device.h: devpm_dev_stable_name(), "1-1:1.0/input"), its
 * path found through its class now (it may have come after the run's
 * baseline: the USB tree bound again for a case; a number may be used
 * again), else in the baseline; two in one directory are told apart by
 * their order there ("#2").  0 when dev's name is kept.
 */
int devpm_subtest_stable_name(const char *dev, char *buf, size_t len)
{
	const struct devpm_baseline *b;
	const struct devpm_base_dev *d;
	char path[DEVPM_PATH_MAX];
	int rank, n;

	if (devpm_dev_probe_number(dev) < 0)
		return 0;
	if (devpm_dev_class_path(dev, path, sizeof(path)) < 0) {
		b = devpm_baseline();
		d = b ? devpm_baseline_find(b, dev) : NULL;
		if (!d || strcmp(d->name, dev))
			return 0;
		snprintf(path, sizeof(path), "%s", d->path);
	}
	if (!devpm_dev_stable_name(path, buf, len))
		return 0;
	if (!devpm_dev_probe_rank(path, &rank, &n) && n > 1)
		snprintf(buf + strlen(buf), len - strlen(buf), "#%d", rank);
	return 1;
}

/*
 * A device's result line carries its name only, so that names compare
 * across runs; what was measured or why goes on a "# " line before it,
 * after the kernel's name when the line has a stable one instead.  Only a
 * SKIP reason follows the name, as a KTAP directive.
 */
static void sub_line(struct devpm_subtest *s, enum sub_res res, const char *dev,
		     const char *fmt, va_list ap)
{
	char msg[1024], shown[160], named[1200];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	res = judge(res, dev, msg, sizeof(msg));
	/*
	 * Another device of the machine kept this case's cycles from
	 * testing anything (sleep_verdict.h): not a failure of this one.
	 */
	if (res == SUB_FAIL && devpm_sleep_blame()[0]) {
		devpm_sleep_blame_short(msg, sizeof(msg));
		res = SUB_SKIP;
	}
	if (devpm_subtest_stable_name(dev, shown, sizeof(shown))) {
		/* A skip's reason stays as it is: it follows the name. */
		if (res == SUB_SKIP) {
			printf("    # %s\n", dev);
		} else {
			snprintf(named, sizeof(named), "%s%s%s", dev,
				 msg[0] ? ": " : "", msg);
			snprintf(msg, sizeof(msg), "%s", named);
		}
		dev = shown;
	}
	s->n++;
	if (res != SUB_SKIP && msg[0])
		printf("    # %s\n", msg);
	printf("    %s %d %s", res == SUB_FAIL ? "not ok" : "ok", s->n, dev);
	if (res == SUB_SKIP)
		printf(" # SKIP %s\n", msg);
	else
		printf("\n");
	fflush(stdout);
	if (res == SUB_FAIL && !s->first_fail[0])
		snprintf(s->first_fail, sizeof(s->first_fail), "%s: %s", dev,
			 msg);
	if (res == SUB_PASS)
		s->pass++;
	else if (res == SUB_FAIL)
		s->fail++;
	else
		s->skip++;
}

void devpm_subtest_begin(struct devpm_subtest *s, const char *casename)
{
	memset(s, 0, sizeof(*s));
	printf("    # Subtest: %s\n", casename);
	fflush(stdout);
}

void devpm_subtest_pass(struct devpm_subtest *s, const char *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sub_line(s, SUB_PASS, dev, fmt, ap);
	va_end(ap);
}

void devpm_subtest_fail(struct devpm_subtest *s, const char *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sub_line(s, SUB_FAIL, dev, fmt, ap);
	va_end(ap);
}

void devpm_subtest_skip(struct devpm_subtest *s, const char *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sub_line(s, SUB_SKIP, dev, fmt, ap);
	va_end(ap);
}

int devpm_subtest_end(struct devpm_subtest *s)
{
	printf("    1..%d\n", s->n);
	fflush(stdout);
	if (s->fail)
		return 1;
	return s->pass ? 0 : -1;
}
