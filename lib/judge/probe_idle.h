/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe_idle.h - rule 6 (docs/verdicts.md): a device suspends after its
 * driver's probe.  The driver core queues an idle request once probe
 * returns (drivers/base/dd.c: __driver_probe_device(): pm_request_idle()
 * after really_probe()), so a driver that let go of its device in probe
 * sees it runtime-suspended within its autosuspend delay; one that keeps
 * probe's reference holds it active.
 *
 *	r = devpm_probe_idle(&d, reprobe, &id, &res);
 *	if (r)
 *		devpm_block_abort(b, "%s", res.why);
 *	devpm_block_pass(b, "suspended %llu ms after probe", res.waited_ms);
 */
#ifndef DEVPM_PROBE_IDLE_H
#define DEVPM_PROBE_IDLE_H

#include <stdint.h>
#include "rpm/device.h"
#include "rpm/wait.h"

struct devpm_probe_idle {
	long delay_ms;		/* autosuspend_delay_ms after probe (0 none) */
	/* delay_ms + 25 % + DEVPM_AUTOSUSPEND_ALLOW_MS (autosuspend_timer.h) */
	int limit_ms;
	unsigned long long waited_ms;	/* from the probe's return */
	struct devpm_wait_result w;
	char why[1024];		/* the failure: device, driver, values */
};

/*
 * reprobe(arg) must probe d's driver again and return once the probe
 * returned (0, or -errno with devpm_error() set); d is then re-read and
 * must be runtime-suspended within res->limit_ms, waited on without a
 * fixed sleep.  Returns 0 when it was; 1 when not (res->why: "DEV (driver
 * DRV): still STATUS N ms after its probe returned, limit L ms (...): "
 * and who holds it, lib/rpm/diagnose.c); 2 when the diagnosis names a hold
 * the kernel honours (devpm_verdict_honoured(): control=on, ...), not the
 * driver's, res->why says which; -errno when the reprobe, a read or the
 * wait failed (res->why says which).
 */
int devpm_probe_idle(struct devpm_dev *d, int (*reprobe)(void *arg),
		     void *arg, struct devpm_probe_idle *res);

#endif
