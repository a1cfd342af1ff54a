// SPDX-License-Identifier: GPL-2.0-only
/* wait.c - STUB: to be implemented (wait.h). */
#include <errno.h>
#include <stddef.h>
#include "devpm.h"

int devpm_wait_status(struct devpm_dev *d, struct devpm_trace *t, const char *status, int timeout_ms, struct devpm_wait_result *res)
{
	(void)d;
	(void)t;
	(void)status;
	(void)timeout_ms;
	(void)res;
	return -ENOSYS;
}

bool devpm_poll_until(bool (*cond)(void *arg), void *arg, int timeout_ms)
{
	(void)cond;
	(void)arg;
	(void)timeout_ms;
	return false;
}
