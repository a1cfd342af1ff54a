// SPDX-License-Identifier: GPL-2.0-only
/* safety.c - STUB: to be implemented (safety.h). */
#include <errno.h>
#include <stddef.h>
#include "devpm.h"

bool devpm_allow_sleep(void)
{
	return false;
}

bool devpm_allow_disk(void)
{
	return false;
}

bool devpm_dev_protected(const char *devpath, char *why, size_t len)
{
	(void)devpath;
	(void)why;
	(void)len;
	return false;
}

bool devpm_is_root(void)
{
	return false;
}
