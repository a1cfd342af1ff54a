// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - per-device nested KTAP lines and metric lines (report.h).
 * Lines are flushed at once: the harness forks, and the runner timestamps
 * what it reads.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/*
 * A device's result line carries its name only, so that names compare
 * across runs; what was measured or why goes on a "# " line before it.
 * Only a SKIP reason follows the name, as a KTAP directive.
 */
static void sub_line(struct devpm_sub *s, const char *res, const char *dev,
		     const char *directive, const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	s->n++;
	if (!directive && msg[0])
		printf("    # %s\n", msg);
	printf("    %s %d %s", res, s->n, dev);
	if (directive)
		printf(" # %s %s\n", directive, msg);
	else
		printf("\n");
	fflush(stdout);
	if (!strcmp(res, "not ok") && !s->first_fail[0])
		snprintf(s->first_fail, sizeof(s->first_fail), "%s: %s", dev,
			 msg);
}

void devpm_sub_begin(struct devpm_sub *s, const char *casename)
{
	memset(s, 0, sizeof(*s));
	printf("    # Subtest: %s\n", casename);
	fflush(stdout);
}

void devpm_sub_pass(struct devpm_sub *s, const char *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sub_line(s, "ok", dev, NULL, fmt, ap);
	va_end(ap);
	s->pass++;
}

void devpm_sub_fail(struct devpm_sub *s, const char *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sub_line(s, "not ok", dev, NULL, fmt, ap);
	va_end(ap);
	s->fail++;
}

void devpm_sub_skip(struct devpm_sub *s, const char *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sub_line(s, "ok", dev, "SKIP", fmt, ap);
	va_end(ap);
	s->skip++;
}

int devpm_sub_end(struct devpm_sub *s)
{
	printf("    1..%d\n", s->n);
	fflush(stdout);
	if (s->fail)
		return 1;
	return s->pass ? 0 : -1;
}

void devpm_metric(const char *dev, const char *key, double value)
{
	printf("# METRIC %s %s=%.3f\n", dev && dev[0] ? dev : "-", key, value);
	fflush(stdout);
}

void devpm_note(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("# %s\n", msg);
	fflush(stdout);
}
