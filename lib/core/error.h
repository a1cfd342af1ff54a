/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * error.h - the last error of this thread, as one line that names what
 * failed and, where devpm knows it, the fix.  Every lib/ call that fails
 * returns -errno and leaves its message here.
 */
#ifndef DEVPM_ERROR_H
#define DEVPM_ERROR_H

#include <stddef.h>

/* Last error message of this thread ("" if none). */
const char *devpm_error(void);

/*
 * Set the error message; returns -|err| for 'return devpm_fail(...)'.
 * An argument may be devpm_error() itself ("%s: %s", what, devpm_error()).
 */
int devpm_fail(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * snprintf that returns 0, or -ENAMETOOLONG (devpm_error() set, buf "") on
 * truncation.
 */
int devpm_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
