// SPDX-License-Identifier: GPL-2.0-only
/* sysfs.c - STUB: to be implemented (sysfs.h). */
#include <errno.h>
#include <stddef.h>
#include "devpm.h"

int devpm_set_sysfs_root(const char *dir)
{
	(void)dir;
	return -ENOSYS;
}

int devpm_sysfs_root_from_env(void)
{
	return -ENOSYS;
}

const char *devpm_sysfs_root(void)
{
	return "";
}

int devpm_real_path(char *buf, size_t len, const char *kpath)
{
	(void)buf;
	(void)len;
	(void)kpath;
	return -ENOSYS;
}

int devpm_read_str(const char *kpath, char *buf, size_t len)
{
	(void)kpath;
	(void)buf;
	(void)len;
	return -ENOSYS;
}

int devpm_read_long(const char *kpath, long *val)
{
	(void)kpath;
	(void)val;
	return -ENOSYS;
}

int devpm_read_long_or_na(const char *kpath, long *val)
{
	(void)kpath;
	(void)val;
	return -ENOSYS;
}

bool devpm_exists(const char *kpath)
{
	(void)kpath;
	return false;
}

int devpm_write_str(const char *kpath, const char *val)
{
	(void)kpath;
	(void)val;
	return -ENOSYS;
}

const char *devpm_error(void)
{
	return "";
}

int devpm_fail(int err, const char *fmt, ...)
{
	(void)err;
	(void)fmt;
	return -ENOSYS;
}

int devpm_fmt(char *buf, size_t len, const char *fmt, ...)
{
	(void)buf;
	(void)len;
	(void)fmt;
	return -ENOSYS;
}
