// SPDX-License-Identifier: GPL-2.0-only
/* journal_say.c - a stderr line safe in a signal handler (journal_say.h). */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "state/journal_say.h"

void devpm_journal_say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDERR_FILENO, buf, n) < 0)
		return;
}
