// SPDX-License-Identifier: GPL-2.0-only
/* host.c - STUB: to be implemented (host.h). */
#include <errno.h>
#include <stddef.h>
#include "devpm.h"

bool devpm_host_available(void)
{
	return false;
}

int devpm_host_request(const char *req, char *reply, size_t len, int timeout_ms)
{
	(void)req;
	(void)reply;
	(void)len;
	(void)timeout_ms;
	return -ENOSYS;
}
