// SPDX-License-Identifier: GPL-2.0-only
/*
 * wait.c - wait for a runtime status, bounded (wait.h).
 *
 * runtime_status is re-read after every trace event and, because events
 * can be filtered out or missed, also on an exponential back-off (1 ms
 * doubling to 16 ms: a wait ends within 20 ms of the transition even
 * when no event wakes it) whether or not a trace is given.
 *
 * A wait adds to the case's floor (least_time.h) the device's autosuspend delay
 * before the suspend it waited for or found in its trace, and, when it had
 * to wait and was traced, its lag behind the kernel's transition
 * (wait_latency.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rpm/wait.h"
#include "core/clock.h"
#include "core/poll.h"
#include "core/sysfs.h"
#include "rpm/device.h"
#include "rpm/diagnose.h"
#include "trace/least_time.h"
#include "trace/trace.h"
#include "trace/wait_latency.h"


/*
 * Newest first.  With rpm_status (6.9+) the newest status event of dev
 * decides.  Without one, the newest return 0 of rpm_suspend/rpm_resume counts,
 * unless a newer call in the same direction has no return yet (it is
 * about to be written: -EAGAIN).  The search stops at a call in the other
 * direction that did not fail (ret 0, or 1 "already there"): the device
 * was out of the status after it.  Other returns pair with their calls.
 */
int devpm_wait_traced_at(const struct devpm_event *ev, size_t n,
			 const char *dev, const char *status, uint64_t *at_us)
{
	bool to_susp = !strcmp(status, "suspended");
	enum devpm_ev_type same = to_susp ? DEVPM_EV_RPM_SUSPEND :
				  DEVPM_EV_RPM_RESUME;
	enum devpm_ev_type other = to_susp ? DEVPM_EV_RPM_RESUME :
				   DEVPM_EV_RPM_SUSPEND;
	const char *func = to_susp ? "rpm_suspend" : "rpm_resume";
	const char *ofunc = to_susp ? "rpm_resume" : "rpm_suspend";
	bool pending = false, same_ret = false, other_failed = false;
	size_t i;

	if (!to_susp && strcmp(status, "active"))
		return 0;
	for (i = n; i-- > 0;) {
		if (ev[i].type != DEVPM_EV_RPM_STATUS || strcmp(ev[i].dev, dev))
			continue;
		if (strcmp(ev[i].status, status))
			return 0;
		*at_us = ev[i].ts_us;
		return 1;
	}
	for (i = n; i-- > 0;) {
		const struct devpm_event *e = &ev[i];

		if (strcmp(e->dev, dev))
			continue;
		if (e->type == DEVPM_EV_RPM_RETURN && !strcmp(e->func, func)) {
			if (e->ret) {
				same_ret = true;
				continue;
			}
			if (pending)
				return -EAGAIN;
			*at_us = e->ts_us;
			return 1;
		}
		if (e->type == DEVPM_EV_RPM_RETURN && !strcmp(e->func, ofunc)) {
			other_failed = e->ret < 0;
		} else if (e->type == same) {
			pending |= !same_ret;
			same_ret = false;
		} else if (e->type == other) {
			if (!other_failed)
				break;
			other_failed = false;
		}
	}
	return pending ? -EAGAIN : 0;
}

/*
 * Timestamp of d's transition to status from the events read since the
 * trace was last cleared, also from before the wait began (a control
 * write is often synchronous).  A return still to come is waited for a
 * few ms.
 */
static bool traced_at(struct devpm_trace *t, const struct devpm_dev *d,
		      const char *status, uint64_t *at)
{
	const struct devpm_event *ev;
	int k, r = -EAGAIN;
	size_t n;

	for (k = 0; k < 3 && r == -EAGAIN; k++) {
		ev = devpm_trace_read(t, k ? 2 : 0, &n);
		r = devpm_wait_traced_at(ev, n, d->name, status, at);
	}
	return r == 1;
}

/* The autosuspend delay d waits out before suspending, ms; 0 if none. */
static long autosuspend_ms(const struct devpm_dev *d)
{
	char k[DEVPM_PATH_MAX];
	long ms;

	/* -EIO when the driver does not use autosuspend (rpm_suspend()). */
	if (devpm_dev_attr(d, "autosuspend_delay_ms", k, sizeof(k)) < 0 ||
	    devpm_read_long(k, &ms) < 0 || ms < 0)
		return 0;
	return ms;
}

/*
 * A suspend the wait saw adds the delay before it to the floor: one it
 * waited for, and, traced, one the trace holds that came before the wait
 * (in a chain, a child's delay runs out while the wait is on another
 * device; each level waits out its own delay first).  The floor clips
 * what precedes the case.
 */
void devpm_wait_floor(const struct devpm_dev *d, const char *status,
		      bool waited, const struct devpm_wait_result *res)
{
	if (!res->reached || strcmp(status, "suspended") ||
	    (!waited && !res->traced))
		return;
	devpm_least_time_add_before(res->at_us, autosuspend_ms(d));
}

static void explain(struct devpm_dev *d, const char *status, int timeout_ms,
		    struct devpm_wait_result *res)
{
	struct devpm_diag diag;
	char line[sizeof(res->why)];

	if (strcmp(status, "suspended") || devpm_dev_snapshot(d) < 0 ||
	    devpm_diagnose(d, &diag) <= 0) {
		snprintf(res->why, sizeof(res->why),
			 "runtime_status stayed %s for %d ms", res->status,
			 timeout_ms);
		return;
	}
	devpm_diag_line(&diag, line, sizeof(line));
	snprintf(res->why, sizeof(res->why), "still %s after %d ms: %s",
		 res->status, timeout_ms, line);
}

int devpm_wait_status(struct devpm_dev *d, struct devpm_trace *t,
		      const char *status, int timeout_ms,
		      struct devpm_wait_result *res)
{
	uint64_t deadline, seen;
	int backoff = DEVPM_BACKOFF_MIN_MS, left, r;
	bool waited = false;

	memset(res, 0, sizeof(*res));
	res->start_us = devpm_now_us();
	deadline = res->start_us + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) *
		   1000;
	for (;;) {
		r = devpm_dev_status(d, res->status, sizeof(res->status));
		if (r < 0)
			return r;
		if (!res->status[0])
			return devpm_fail(ENOENT,
					  "%s: no power/runtime_status to wait on (no runtime PM callbacks, or a kernel without CONFIG_PM_ADVANCED_DEBUG)",
					  d->name);
		if (!strcmp(res->status, status))
			break;
		left = devpm_ms_left(deadline);
		if (!left) {
			res->at_us = devpm_now_us();
			res->waited_us = res->at_us - res->start_us;
			/* Not suspending takes at least its delay to show. */
			if (!strcmp(status, "suspended"))
				devpm_least_time_add_before(res->at_us,
						       autosuspend_ms(d));
			explain(d, status, timeout_ms, res);
			return -ETIMEDOUT;
		}
		waited = true;
		if (left > backoff)
			left = backoff;
		if (!t || devpm_trace_poll(t, left) < 0)
			devpm_sleep_ms(left);
		backoff = devpm_backoff_next(backoff);
	}
	res->reached = true;
	seen = devpm_now_us();
	res->at_us = seen;
	if (t)
		res->traced = traced_at(t, d, status, &res->at_us);
	if (waited && res->traced)
		devpm_wait_latency_add(res->at_us, seen);
	devpm_wait_floor(d, status, waited, res);
	/* A traced transition may predate the wait: waited 0 then. */
	res->waited_us = res->at_us > res->start_us ?
			 res->at_us - res->start_us : 0;
	return 0;
}

int devpm_wait_status_why(struct devpm_dev *d, struct devpm_trace *t,
			  const char *status, int timeout_ms,
			  struct devpm_wait_result *res)
{
	int r = devpm_wait_status(d, t, status, timeout_ms, res);

	if (r && r != -ETIMEDOUT)
		snprintf(res->why, sizeof(res->why), "waiting for %s: %s",
			 status, devpm_error());
	return r;
}
