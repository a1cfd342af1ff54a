// SPDX-License-Identifier: GPL-2.0-only
/* error.c - the last error message of this thread (error.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

static __thread char errbuf[1024];

const char *devpm_error(void)
{
	return errbuf;
}

int devpm_fail(int err, const char *fmt, ...)
{
	char msg[sizeof(errbuf)];
	va_list ap;

	/* Formatted aside first: an argument may point into errbuf. */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	memcpy(errbuf, msg, sizeof(errbuf));
	return err > 0 ? -err : err;
}

int devpm_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		if (len)
			buf[0] = '\0';
		return devpm_fail(ENAMETOOLONG, "path too long (%zu bytes max)",
				  len);
	}
	return 0;
}
