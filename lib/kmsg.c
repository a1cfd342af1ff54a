// SPDX-License-Identifier: GPL-2.0-only
/* kmsg.c - STUB: to be implemented (kmsg.h). */
#include <errno.h>
#include <stddef.h>
#include "devpm.h"

struct devpm_kmsg *devpm_kmsg_open(void)
{
	return NULL;
}

int devpm_kmsg_fd(struct devpm_kmsg *k)
{
	(void)k;
	return -ENOSYS;
}

int devpm_kmsg_drain(struct devpm_kmsg *k, void (*cb)(const char *line, void *arg), void *arg)
{
	(void)k;
	(void)cb;
	(void)arg;
	return -ENOSYS;
}

void devpm_kmsg_close(struct devpm_kmsg *k)
{
	(void)k;
}

bool devpm_kmsg_is_bad(const char *line)
{
	(void)line;
	return false;
}

long devpm_taint_read(void)
{
	return -ENOSYS;
}

void devpm_taint_new(long before, long now, char *buf, size_t len)
{
	(void)before;
	(void)now;
	(void)buf;
	(void)len;
}
