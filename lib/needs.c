// SPDX-License-Identifier: GPL-2.0-only
/* needs.c - STUB: to be implemented (needs.h). */
#include <errno.h>
#include <stddef.h>
#include "devpm.h"

int devpm_needs_check(const struct devpm_needs *n, char *why, size_t len)
{
	(void)n;
	(void)why;
	(void)len;
	return -ENOSYS;
}

int devpm_kconfig(const char *opt, char *val, size_t len)
{
	(void)opt;
	(void)val;
	(void)len;
	return -ENOSYS;
}

void devpm_needs_print(const struct devpm_needs *n)
{
	(void)n;
}

bool devpm_module_loaded(const char *module)
{
	(void)module;
	return false;
}
