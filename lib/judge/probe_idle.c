// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe_idle.c - rule 6: after its driver's probe returned, a device must
 * be runtime-suspended within its autosuspend delay + the bound of the
 * suspend rule (probe_idle.h, docs/verdicts.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "judge/probe_idle.h"
#include "core/sysfs.h"
#include "judge/verdict.h"
#include "rpm/device.h"
#include "rpm/diagnose.h"
#include "rpm/wait.h"

static const char *drv(const struct devpm_dev *d)
{
	return d->driver[0] ? d->driver : "none";
}

int devpm_probe_idle(struct devpm_dev *d, int (*reprobe)(void *arg),
		     void *arg, struct devpm_probe_idle *res)
{
	char path[DEVPM_PATH_MAX], line[512];
	struct devpm_diag g;
	int r;

	memset(res, 0, sizeof(*res));
	snprintf(path, sizeof(path), "%s", d->path);
	r = reprobe(arg);
	if (r < 0) {
		snprintf(res->why, sizeof(res->why),
			 "%s (driver %s): reprobe: %s", d->name, drv(d),
			 devpm_error());
		return r;
	}
	/* The driver may differ now, and the probe sets the delay. */
	r = devpm_dev_open(d, path);
	if (r < 0) {
		snprintf(res->why, sizeof(res->why),
			 "%s: after the reprobe: %s", path, devpm_error());
		return r;
	}
	res->delay_ms = d->rpm.have_autosuspend &&
			d->rpm.autosuspend_delay_ms > 0 ?
			d->rpm.autosuspend_delay_ms : 0;
	res->limit_ms = (int)res->delay_ms + DEVPM_VERDICT_SUSPEND_MS;
	r = devpm_wait_status_why(d, NULL, "suspended", res->limit_ms,
				  &res->w);
	res->waited_ms = res->w.waited_us / 1000;
	if (!r)
		return 0;
	if (r != -ETIMEDOUT) {
		snprintf(res->why, sizeof(res->why), "%s (driver %s): %s",
			 d->name, drv(d), res->w.why);
		return r;
	}
	/* devpm_wait_status() took a snapshot at the timeout. */
	devpm_diagnose(d, &g);
	devpm_diag_line(&g, line, sizeof(line));
	if (devpm_verdict_honoured(&g)) {
		snprintf(res->why, sizeof(res->why),
			 "%s (driver %s): still %s after its probe, held by what the kernel honours: %s",
			 d->name, drv(d), res->w.status, line);
		return 2;
	}
	snprintf(res->why, sizeof(res->why),
		 "%s (driver %s): still %s %llu ms after its probe returned, limit %d ms (autosuspend_delay_ms %ld + %d): %s",
		 d->name, drv(d), res->w.status, res->waited_ms, res->limit_ms,
		 res->delay_ms, DEVPM_VERDICT_SUSPEND_MS, line);
	return 1;
}
