// SPDX-License-Identifier: GPL-2.0-only
/*
 * note.c - "# " lines and metrics on stdout (note.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "core/note.h"

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
