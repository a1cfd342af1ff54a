// SPDX-License-Identifier: GPL-2.0-only
/*
 * usage_cycle.c - usage balance over control cycles (usage_cycle.h).
 *
 * pm_runtime_forbid() increments usage_count and resumes the device;
 * pm_runtime_allow() decrements it and calls rpm_idle()
 * (drivers/base/power/runtime.c).  So control=on -> auto leaves the count
 * where it was, and a device that suspended before suspends again.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "judge/usage_cycle.h"
#include "core/clock.h"
#include "core/sysfs.h"
#include "judge/baseline.h"
#include "rpm/autosuspend_timer.h"
#include "rpm/device.h"
#include "rpm/wait.h"
#include "state/journal.h"
#include "trace/trace.h"
#include "trace/transition.h"

static long held(const struct devpm_rpm *r)
{
	return devpm_usage_held(r->usage, r->have_control ? r->control : "",
				r->have_autosuspend ? r->autosuspend_delay_ms :
				LONG_MIN);
}

/* The usage count after cycle i: runtime_usage, else the trace's. */
static int read_usage(struct devpm_dev *d, struct devpm_trace *t,
		      uint64_t from_us, struct devpm_usage_cycle *c)
{
	const struct devpm_event *ev;
	size_t n;
	int u;

	if (devpm_dev_snapshot(d) < 0)
		return -ENOENT;
	if (d->rpm.have_usage) {
		c->usage_src = "runtime_usage";
		c->usage = held(&d->rpm);
		return 0;
	}
	if (!t)
		return -ENODATA;
	ev = devpm_trace_read(t, 0, &n);
	u = devpm_rpm_last_usage(ev, n, d->name, from_us, devpm_now_us());
	if (u < 0)
		return -ENODATA;
	c->usage_src = "rpm trace";
	c->usage = u;
	return 0;
}

/*
 * With a trace, when the suspend began against the kernel's promise
 * (rpm/autosuspend_timer.h).  1 with c->why set when it broke it.
 */
static int judge_timing(struct devpm_dev *d, struct devpm_trace *t,
			uint64_t from, int delay, int i, int n,
			struct devpm_usage_cycle *c)
{
	const struct devpm_event *ev;
	struct devpm_autosuspend a;
	char why[400];
	size_t ne;

	if (!t)
		return 0;
	ev = devpm_trace_read(t, 0, &ne);
	if (devpm_autosuspend_check(ev, ne, d->name, from, devpm_now_us(),
				    delay, &a, why, sizeof(why)) != 1)
		return 0;
	c->drift = i;
	snprintf(c->why, sizeof(c->why), "cycle %d of %d: %s", i, n, why);
	return 1;
}

int devpm_usage_cycle_control(struct devpm_dev *d, struct devpm_trace *t, int n,
			int bound_ms, struct devpm_usage_cycle *c)
{
	const struct devpm_baseline *b = devpm_baseline();
	const struct devpm_base_dev *base = b ?
		devpm_baseline_find(b, d->path) : NULL;
	struct devpm_wait_result w;
	char ctl[DEVPM_PATH_MAX];
	uint64_t t0 = devpm_now_us(), from;
	long delay;
	int i, r;

	memset(c, 0, sizeof(*c));
	r = devpm_dev_attr(d, "control", ctl, sizeof(ctl));
	if (r < 0)
		return r;
	devpm_dev_snapshot(d);
	if (base && base->usage >= 0)
		c->usage0 = devpm_usage_held(base->usage, base->control,
					     base->autosuspend_delay_ms);
	else if (d->rpm.have_usage)
		c->usage0 = held(&d->rpm);
	else
		c->usage0 = 0;	/* the trace counts control=on's too: 0 */
	delay = d->rpm.have_autosuspend && d->rpm.autosuspend_delay_ms > 0 ?
		d->rpm.autosuspend_delay_ms : 0;
	for (i = 1; i <= n; i++) {
		from = devpm_now_us();
		r = devpm_knob_write(ctl, "on");
		if (!r)
			r = devpm_knob_write(ctl, "auto");
		if (r < 0) {
			snprintf(c->why, sizeof(c->why),
				 "cycle %d of %d: writing control: %s", i, n,
				 devpm_error());
			return r;
		}
		r = devpm_wait_status(d, t, "suspended",
				      (int)delay + bound_ms, &w);
		if (r == -ETIMEDOUT) {
			c->drift = i;
			snprintf(c->why, sizeof(c->why),
				 "cycle %d of %d: not suspended %ld ms after control=auto: %s",
				 i, n, delay + bound_ms, w.why);
			break;
		}
		if (r < 0) {
			snprintf(c->why, sizeof(c->why),
				 "cycle %d of %d: waiting: %s", i, n,
				 devpm_error());
			return r;
		}
		r = judge_timing(d, t, from, (int)delay, i, n, c);
		if (r)
			break;
		r = read_usage(d, t, from, c);
		if (r == -ENODATA) {
			snprintf(c->why, sizeof(c->why),
				 "cycle %d of %d: no runtime_usage and no rpm event told the usage count",
				 i, n);
			return r;
		}
		if (r < 0) {
			snprintf(c->why, sizeof(c->why),
				 "cycle %d of %d: the device went away", i, n);
			return r;
		}
		if (c->usage != c->usage0) {
			c->drift = i;
			snprintf(c->why, sizeof(c->why),
				 "cycle %d of %d: usage count %ld (%s, control=on's not counted) after suspending again, baseline %ld",
				 i, n, c->usage, c->usage_src, c->usage0);
			break;
		}
		c->done = i;
	}
	c->elapsed_us = devpm_now_us() - t0;
	return c->drift ? 1 : 0;
}
