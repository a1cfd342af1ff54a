/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * diagnose.h - why is this device not runtime-suspended?
 *
 * Every reason the kernel would give, from what sysfs shows: control=on,
 * usage count held (and whether it is the PCI probe's reference), active
 * children (named), a resume-latency request of 0 ("n/a"), runtime PM
 * disabled/forbidden, runtime error, no driver / no runtime callbacks,
 * autosuspend delay not yet expired (or -1).  What cannot be known on this
 * kernel (no CONFIG_PM_ADVANCED_DEBUG) is said, with why.
 */
#ifndef DEVPM_DIAGNOSE_H
#define DEVPM_DIAGNOSE_H

#include "rpm/device.h"

enum devpm_reason_code {
	DEVPM_R_SUSPENDED,		/* nothing to explain */
	DEVPM_R_CONTROL_ON,
	DEVPM_R_USAGE_HELD,
	DEVPM_R_PROBE_USAGE,		/* PCI: driver kept probe's reference */
	DEVPM_R_ACTIVE_CHILDREN,
	DEVPM_R_QOS_NO_SUSPEND,		/* pm_qos_resume_latency_us = n/a */
	DEVPM_R_DISABLED,
	DEVPM_R_ERROR,
	DEVPM_R_NO_DRIVER,
	DEVPM_R_NO_CALLBACKS,
	DEVPM_R_AUTOSUSPEND_PENDING,
	DEVPM_R_AUTOSUSPEND_NEGATIVE,	/* delay -1: never (sd's default) */
	DEVPM_R_UNKNOWN,		/* cannot be known here: says why */
};

struct devpm_reason {
	enum devpm_reason_code code;
	char text[256];
};

#define DEVPM_MAX_REASONS 12

struct devpm_diag {
	int n;
	struct devpm_reason r[DEVPM_MAX_REASONS];
};

/*
 * Fills diag from d's snapshot (and its children's status, to name the
 * active ones); returns diag->n: 0 when the device is suspended, >= 1
 * otherwise (DEVPM_R_UNKNOWN says so when sysfs shows no reason).
 */
int devpm_diagnose(const struct devpm_dev *d, struct devpm_diag *diag);

/* "reason1; reason2; ..." in one line ("" for none), cut to fit len. */
void devpm_diag_line(const struct devpm_diag *diag, char *buf, size_t len);

const char *devpm_reason_name(enum devpm_reason_code code);

#endif
