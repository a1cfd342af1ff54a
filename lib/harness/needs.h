/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * needs.h - what a test program needs before it can run (after LTP's
 * struct tst_test).  An unmet need is a SKIP whose reason names it:
 * "needs root", "no CONFIG_SCSI_DEBUG", "driver i2c_i801 not bound",
 * "needs --allow-disk".
 */
#ifndef DEVPM_NEEDS_H
#define DEVPM_NEEDS_H

#include <stdbool.h>
#include <stddef.h>
/* What the kconfigs and modules needs are checked with. */
#include "core/kconfig.h"
#include "core/module.h"

struct devpm_needs {
	bool root;
	/* "CONFIG_PM" (y or m), "CONFIG_PM_ADVANCED_DEBUG=y" (exact) */
	const char *const *kconfigs;
	/* modprobe'd if not loaded (unload journaled); "scsi_debug dev_size_mb=16" */
	const char *const *modules;
	/* "bus:driver" that must be registered, e.g. "pci:ahci" */
	const char *const *drivers;
	/* kernel paths that must exist */
	const char *const *files;
	bool sleep;		/* --allow-sleep */
	bool disk;		/* --allow-disk */
	bool tracefs;		/* skip without tracefs (most tests fall back) */
};

/*
 * 0 when every need is met (modules get loaded here), 1 when one is not
 * (why says which), -errno on error (a malformed need: devpm_error()).
 * Checked in the order root, sleep, disk, kconfigs, drivers (a missing
 * driver's module is loaded once), modules, files, tracefs.
 */
int devpm_needs_check(const struct devpm_needs *n, char *why, size_t len);

/*
 * Print the needs as "# NEEDS key: value" lines (for `devpm list`), one per
 * need, keys in check order: root, allow-sleep, allow-disk (value "yes"),
 * kconfig, driver, module, file (value as declared), tracefs ("yes").
 */
void devpm_needs_print(const struct devpm_needs *n);

#endif
