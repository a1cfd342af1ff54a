/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kconfig.h - the running kernel's configuration (after LTP's
 * tst_kconfig.c): read an option, check a test's need of one.
 */
#ifndef DEVPM_KCONFIG_H
#define DEVPM_KCONFIG_H

#include <stddef.h>

/*
 * Value of a kernel config option from /proc/config.gz or
 * /boot/config-$(uname -r): "y", "m", a string, or "" when not set.
 * -ENOENT when no config can be found (then needs are not enforced for
 * kconfigs: the reason says so in the log).
 */
int devpm_kconfig(const char *opt, char *val, size_t len);

/*
 * A need (needs.h): "CONFIG_X" wants y or m, "CONFIG_X=v" exactly v.
 * 0 met (or no config to check it against: said on stderr), 1 unmet (why
 * says what the kernel has), -errno on error.
 */
int devpm_kconfig_check(const char *need, char *why, size_t len);

#endif
