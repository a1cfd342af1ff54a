// SPDX-License-Identifier: GPL-2.0-only
/* device.c - STUB: to be implemented (device.h). */
#include <errno.h>
#include <stddef.h>
#include "devpm.h"

int devpm_dev_open(struct devpm_dev *d, const char *spec)
{
	(void)d;
	(void)spec;
	return -ENOSYS;
}

int devpm_dev_snapshot(struct devpm_dev *d)
{
	(void)d;
	return -ENOSYS;
}

int devpm_dev_attr(const struct devpm_dev *d, const char *attr, char *buf, size_t len)
{
	(void)d;
	(void)attr;
	(void)buf;
	(void)len;
	return -ENOSYS;
}

int devpm_dev_list(const char *bus, struct devpm_dev **list, size_t *n)
{
	(void)bus;
	(void)list;
	(void)n;
	return -ENOSYS;
}

int devpm_dev_status(const struct devpm_dev *d, char *buf, size_t len)
{
	(void)d;
	(void)buf;
	(void)len;
	return -ENOSYS;
}

int devpm_dev_children(const struct devpm_dev *d, struct devpm_dev **list, size_t *n)
{
	(void)d;
	(void)list;
	(void)n;
	return -ENOSYS;
}
