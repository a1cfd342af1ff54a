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
#include "core/clock.h"
#include "core/sysfs.h"
#include "judge/verdict.h"
#include "rpm/autosuspend_timer.h"
#include "rpm/device.h"
#include "rpm/diagnose.h"
#include "rpm/wait.h"
#include "trace/trace.h"

static const char *drv(const struct devpm_dev *d)
{
	return d->driver[0] ? d->driver : "none";
}

int devpm_probe_idle(struct devpm_dev *d, int (*reprobe)(void *arg),
		     void *arg, struct devpm_probe_idle *res)
{
	const char *names[2] = { d->name, NULL };
	char path[DEVPM_PATH_MAX], line[512];
	struct devpm_trace *t;
	struct devpm_diag g;
	uint64_t probed, at;
	int r;

	memset(res, 0, sizeof(*res));
	snprintf(path, sizeof(path), "%s", d->path);
	/* The transition's time from the trace: a poll lags by its back-off. */
	t = devpm_trace_start(names);
	r = reprobe(arg);
	probed = devpm_now_us();
	if (r < 0) {
		snprintf(res->why, sizeof(res->why),
			 "%s (driver %s): reprobe: %s", d->name, drv(d),
			 devpm_error());
		goto out;
	}
	/* The driver may differ now, and the probe sets the delay. */
	r = devpm_dev_open(d, path);
	if (r < 0) {
		snprintf(res->why, sizeof(res->why),
			 "%s: after the reprobe: %s", path, devpm_error());
		goto out;
	}
	res->delay_ms = d->rpm.have_autosuspend &&
			d->rpm.autosuspend_delay_ms > 0 ?
			d->rpm.autosuspend_delay_ms : 0;
	res->limit_ms = (int)(res->delay_ms + res->delay_ms / 4) +
			DEVPM_AUTOSUSPEND_ALLOW_MS;
	/* Twice the limit: a late suspend is measured, not only timed out. */
	r = devpm_wait_status_why(d, t, "suspended", 2 * res->limit_ms + 500,
				  &res->w);
	at = res->w.at_us > probed ? res->w.at_us : probed;
	res->waited_ms = r ? (devpm_now_us() - probed) / 1000 :
		(at - probed) / 1000;
	if (!r && res->waited_ms <= (unsigned long long)res->limit_ms)
		goto out;
	if (r && r != -ETIMEDOUT) {
		snprintf(res->why, sizeof(res->why), "%s (driver %s): %s",
			 d->name, drv(d), res->w.why);
		goto out;
	}
	if (!r) {
		snprintf(res->why, sizeof(res->why),
			 "%s (driver %s): suspended %llu ms after its probe returned, limit %d ms (autosuspend_delay_ms %ld + 25 %% + %d ms)",
			 d->name, drv(d), res->waited_ms, res->limit_ms,
			 res->delay_ms, DEVPM_AUTOSUSPEND_ALLOW_MS);
		r = 1;
		goto out;
	}
	/* devpm_wait_status() took a snapshot at the timeout. */
	devpm_diagnose(d, &g);
	devpm_diag_line(&g, line, sizeof(line));
	if (devpm_verdict_honoured(&g)) {
		snprintf(res->why, sizeof(res->why),
			 "%s (driver %s): still %s after its probe, held by what the kernel honours: %s",
			 d->name, drv(d), res->w.status, line);
		r = 2;
		goto out;
	}
	snprintf(res->why, sizeof(res->why),
		 "%s (driver %s): still %s %llu ms after its probe returned, limit %d ms (autosuspend_delay_ms %ld + 25 %% + %d ms): %s",
		 d->name, drv(d), res->w.status, res->waited_ms, res->limit_ms,
		 res->delay_ms, DEVPM_AUTOSUSPEND_ALLOW_MS, line);
	r = 1;
out:
	if (t)
		devpm_trace_stop(t);
	return r;
}
