// SPDX-License-Identifier: GPL-2.0-only
/* diagnose.c - STUB: to be implemented (diagnose.h). */
#include <errno.h>
#include <stddef.h>
#include "devpm.h"

int devpm_diagnose(const struct devpm_dev *d, struct devpm_diag *diag)
{
	(void)d;
	(void)diag;
	return -ENOSYS;
}

void devpm_diag_line(const struct devpm_diag *diag, char *buf, size_t len)
{
	(void)diag;
	(void)buf;
	(void)len;
}

const char *devpm_reason_name(enum devpm_reason_code code)
{
	(void)code;
	return "";
}
