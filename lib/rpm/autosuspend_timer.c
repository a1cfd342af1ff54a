// SPDX-License-Identifier: GPL-2.0-only
/*
 * autosuspend_timer.c - an autosuspend's put, timer and suspend from the
 * trace (autosuspend_timer.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpm/autosuspend_timer.h"
#include "core/clock.h"
#include "core/sysfs.h"
#include "trace/trace.h"
#include "trace/transition.h"

#define TIMER_FN "pm_suspend_timer_fn"

static uint64_t field_us(const char *raw, const char *key)
{
	return devpm_trace_field_ull(raw, key) / 1000;	/* ns in the trace */
}

/*
 * %p of the timer, or "(____ptrval____)" before the kernel's random pool
 * was ready (seen in the QEMU guest): then every timer prints the same.
 */
static bool hashed(const char *ptr)
{
	return ptr[0] && ptr[0] != '(';
}

/* The put call of dev at put_us, and when it returned (0: not seen). */
static uint64_t put_return(const struct devpm_event *ev, size_t n,
			   const char *dev, uint64_t put_us)
{
	struct devpm_call c[8];
	size_t k = devpm_rpm_calls(ev, n, dev, put_us, put_us, c, 8);

	return k && c[0].type == DEVPM_EV_RPM_SUSPEND ? c[0].ret_us : 0;
}

/*
 * rpm_suspend() arms the timer with hrtimer_start_range_ns() inside the
 * put; fields are looked up by name (their order differs by kernel).
 */
static size_t find_start(const struct devpm_event *ev, size_t n,
			 uint64_t from_us, uint64_t to_us,
			 struct devpm_autosuspend_timer *t, char *ptr,
			 size_t len)
{
	char fn[64];
	size_t i;

	for (i = 0; i < n && ev[i].ts_us <= to_us; i++) {
		if (ev[i].ts_us < from_us ||
		    !devpm_trace_is(&ev[i], "hrtimer_start"))
			continue;
		devpm_trace_field(ev[i].raw, "function", fn, sizeof(fn));
		if (strcmp(fn, TIMER_FN))
			continue;
		devpm_trace_field(ev[i].raw, "hrtimer", ptr, len);
		t->soft_us = field_us(ev[i].raw, "softexpires");
		t->hard_us = field_us(ev[i].raw, "expires");
		if (ptr[0] && t->soft_us && t->hard_us)
			return i;
	}
	return n;
}

int devpm_autosuspend_find(const struct devpm_event *ev, size_t n,
			   const char *dev, uint64_t put_from_us,
			   uint64_t put_to_us, uint64_t until_us,
			   struct devpm_autosuspend_timer *t, char *why,
			   size_t len)
{
	struct devpm_call c[64];
	char ptr[32], p2[32], fn[64];
	uint64_t ret;
	size_t i, k;

	memset(t, 0, sizeof(*t));
	t->put_us = devpm_rpm_last_put(ev, n, dev, put_from_us, put_to_us);
	if (!t->put_us) {
		snprintf(why, len,
			 "no pm_runtime_put (rpm_suspend with RPM_GET_PUT) of %s in the trace",
			 dev);
		return -1;
	}
	k = devpm_rpm_calls(ev, n, dev, t->put_us + 1, until_us, c, 64);
	for (i = 0; i < k && i < 64 && !t->suspend_us; i++)
		if (c[i].type == DEVPM_EV_RPM_SUSPEND)
			t->suspend_us = c[i].call_us;
	if (!t->suspend_us) {
		snprintf(why, len, "no rpm_suspend of %s after its put", dev);
		return -1;
	}
	/* Within the put's own call; 2 ms if its return was not traced. */
	ret = put_return(ev, n, dev, t->put_us);
	i = find_start(ev, n, t->put_us, ret ? ret : t->put_us + 2000, t,
		       ptr, sizeof(ptr));
	if (i == n) {
		snprintf(why, len,
			 "the trace shows no %s armed in the put of %s",
			 TIMER_FN, dev);
		return -1;
	}
	/*
	 * The expiry whose callback began the suspend: the last one at or
	 * before it (another device's timer may fire in between when the
	 * pointers are unhashed), else the first after it.
	 */
	for (i++; i < n && ev[i].ts_us <= until_us; i++) {
		if (!devpm_trace_is(&ev[i], "hrtimer_expire_entry"))
			continue;
		devpm_trace_field(ev[i].raw, "function", fn, sizeof(fn));
		devpm_trace_field(ev[i].raw, "hrtimer", p2, sizeof(p2));
		/* It cannot fire before its soft expiry. */
		if (strcmp(fn, TIMER_FN) ||
		    field_us(ev[i].raw, "now") < t->soft_us ||
		    (hashed(ptr) && strcmp(p2, ptr)))
			continue;
		if (t->fired_us && ev[i].ts_us > t->suspend_us)
			break;
		t->fired_us = ev[i].ts_us;
	}
	if (t->fired_us)
		return 0;
	snprintf(why, len, "the trace shows %s armed at the put of %s, never fired",
		 TIMER_FN, dev);
	return -1;
}

static double ms_after(uint64_t at, uint64_t put)
{
	return ((double)at - (double)put) / 1000.0;
}

int devpm_autosuspend_judge(const struct devpm_autosuspend_timer *t,
			    int delay_ms, char *why, size_t len)
{
	uint64_t delay = (uint64_t)delay_ms * 1000;
	uint64_t slack = delay / 4;	/* rpm_suspend(): expires + delay/4 */
	uint64_t late = DEVPM_AUTOSUSPEND_LATE_MS * 1000;
	double s = ms_after(t->suspend_us, t->put_us);
	double soft = ms_after(t->soft_us, t->put_us);
	double hard = ms_after(t->hard_us, t->put_us);

	/*
	 * The kernel counts the delay from last_busy, which the driver marks
	 * just before its put: the put's trace line may come a little after.
	 */
	if (t->soft_us + 1000 < t->put_us + delay)
		snprintf(why, len,
			 "timer armed to expire %.1f ms after the put, before the delay of %d ms",
			 soft, delay_ms);
	else if (t->suspend_us < t->soft_us)
		snprintf(why, len,
			 "suspend began %.1f ms after the put, before the timer's expiry at %.1f ms (delay %d ms)",
			 s, soft, delay_ms);
	else if (t->hard_us > t->put_us + delay + slack)
		snprintf(why, len,
			 "timer armed to expire by %.1f ms after the put, limit %.1f ms (delay %d ms + 25%% slack)",
			 hard, (double)(delay + slack) / 1000, delay_ms);
	else if (t->suspend_us > t->hard_us + late)
		snprintf(why, len,
			 "suspend began %.1f ms after the put, limit %.1f ms (timer's hard expiry + %d ms); its callback ran at %.1f ms",
			 s, hard + DEVPM_AUTOSUSPEND_LATE_MS,
			 DEVPM_AUTOSUSPEND_LATE_MS,
			 ms_after(t->fired_us, t->put_us));
	else
		return 0;
	return 1;
}

int devpm_autosuspend_trace(struct devpm_trace *t)
{
	int r = devpm_trace_add_event(t, "timer:hrtimer_start", NULL);

	return r ? r : devpm_trace_add_event(t, "timer:hrtimer_expire_entry",
					     NULL);
}

/* What an rpm event of the device says holds it ("" nothing). */
static const char *holds(const struct devpm_event *e)
{
	switch (e->type) {
	case DEVPM_EV_RPM_SUSPEND:
	case DEVPM_EV_RPM_RESUME:
	case DEVPM_EV_RPM_IDLE:
	case DEVPM_EV_RPM_USAGE:
		break;
	default:
		return "";
	}
	if (!e->rauto)
		return "control=on";
	if (e->usage > 0)
		return "its usage count";
	if (e->child > 0)
		return "an active child";
	if (e->depth > 0)
		return "runtime PM disabled";
	if (e->type == DEVPM_EV_RPM_RESUME)
		return "a resume";
	return "";
}

/*
 * The transition: the last synchronous rpm_suspend of dev that returned
 * 0 by to_us (a re-armed timer's returns 0 too, but before it; on a
 * suspended device it returns 1).  Its index in c, or -1.
 */
static long transition(const struct devpm_call *c, size_t k, uint64_t to_us)
{
	long at = -1;
	size_t i;

	for (i = 0; i < k; i++)
		if (c[i].type == DEVPM_EV_RPM_SUSPEND &&
		    !(c[i].flags & DEVPM_RPM_ASYNC) && c[i].ret_us &&
		    c[i].ret == 0 && c[i].ret_us <= to_us)
			at = (long)i;
	return at;
}

/* Whether event i came inside an rpm_suspend call of dev, in its task. */
static bool inside_call(const struct devpm_event *ev, size_t i,
			const struct devpm_call *c, size_t k, int pid)
{
	size_t j;

	for (j = 0; j < k; j++)
		if (c[j].type == DEVPM_EV_RPM_SUSPEND &&
		    c[j].call_us <= ev[i].ts_us &&
		    (!c[j].ret_us || ev[i].ts_us <= c[j].ret_us) &&
		    (!pid || !c[j].pid || c[j].pid == pid))
			return true;
	return false;
}

/* The next event of the same task after i, within 2 ms: the timer fn's. */
static const struct devpm_event *next_of(const struct devpm_event *ev,
					 size_t n, size_t i)
{
	size_t j;

	for (j = i + 1; j < n && ev[j].ts_us <= ev[i].ts_us + 2000; j++)
		if (ev[j].pid == ev[i].pid)
			return &ev[j];
	return NULL;
}

/*
 * The last pm_suspend_timer_fn armed in an rpm_suspend of dev (its soft
 * expiry is last_busy + delay), and when it fired: the expiry right
 * before pm_suspend_timer_fn()'s rpm_suspend of dev in the same context.
 */
static void find_timer(const struct devpm_event *ev, size_t n,
		       const char *dev, const struct devpm_call *c, size_t k,
		       uint64_t from_us, uint64_t begin_us,
		       struct devpm_autosuspend *a)
{
	char fn[64], ptr[32] = "", p2[32];
	const struct devpm_event *nx;
	size_t i, armed = n;

	for (i = 0; i < n && ev[i].ts_us <= begin_us; i++) {
		if (devpm_trace_is(&ev[i], "hrtimer_start") ||
		    devpm_trace_is(&ev[i], "hrtimer_expire_entry"))
			a->timers = true;
		if (ev[i].ts_us < from_us ||
		    !devpm_trace_is(&ev[i], "hrtimer_start"))
			continue;
		devpm_trace_field(ev[i].raw, "function", fn, sizeof(fn));
		if (strcmp(fn, TIMER_FN) || !inside_call(ev, i, c, k, ev[i].pid))
			continue;
		armed = i;
	}
	if (armed == n)
		return;
	devpm_trace_field(ev[armed].raw, "hrtimer", ptr, sizeof(ptr));
	a->soft_us = field_us(ev[armed].raw, "softexpires");
	a->hard_us = field_us(ev[armed].raw, "expires");
	for (i = armed + 1; i < n && ev[i].ts_us <= begin_us; i++) {
		if (!devpm_trace_is(&ev[i], "hrtimer_expire_entry"))
			continue;
		devpm_trace_field(ev[i].raw, "function", fn, sizeof(fn));
		devpm_trace_field(ev[i].raw, "hrtimer", p2, sizeof(p2));
		if (strcmp(fn, TIMER_FN) || (hashed(ptr) && strcmp(p2, ptr)))
			continue;
		/* pm_suspend_timer_fn() queues the suspend when it is due. */
		nx = next_of(ev, n, i);
		if (nx && nx->type == DEVPM_EV_RPM_SUSPEND &&
		    !strcmp(nx->dev, dev))
			a->fired_us = ev[i].ts_us;
	}
}

int devpm_autosuspend_check(const struct devpm_event *ev, size_t n,
			    const char *dev, uint64_t from_us, uint64_t to_us,
			    int delay_ms, struct devpm_autosuspend *a,
			    char *why, size_t len)
{
	uint64_t delay = delay_ms > 0 ? (uint64_t)delay_ms * 1000 : 0;
	uint64_t slack = delay / 4, bt, ref, allow;
	const char *held = "";
	struct devpm_call *c;
	size_t k, i;
	long tr;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	a->delay_ms = delay_ms > 0 ? delay_ms : 0;
	k = devpm_rpm_calls(ev, n, dev, from_us, to_us, NULL, 0);
	c = calloc(k ? k : 1, sizeof(*c));
	if (!c) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	devpm_rpm_calls(ev, n, dev, from_us, to_us, c, k);
	tr = transition(c, k, to_us);
	if (tr < 0) {
		snprintf(why, len,
			 "the trace shows no rpm_suspend of %s that suspended it",
			 dev);
		free(c);
		return -1;
	}
	a->begin_us = c[tr].call_us;
	a->done_us = c[tr].ret_us;
	/* Idle: the first event of dev after the last that shows a hold. */
	a->idle_us = from_us < a->begin_us ? from_us : a->begin_us;
	for (i = 0; i < n && ev[i].ts_us < a->begin_us; i++) {
		const char *h;

		if (ev[i].ts_us < from_us || strcmp(ev[i].dev, dev))
			continue;
		h = holds(&ev[i]);
		if (h[0]) {
			held = h;
			a->idle_us = 0;
		} else if (!a->idle_us && ev[i].type != DEVPM_EV_RPM_RETURN) {
			a->idle_us = ev[i].ts_us;
		}
	}
	if (!a->idle_us)	/* held up to the transition's own call */
		a->idle_us = a->begin_us;
	if (held[0])
		snprintf(a->idle_why, sizeof(a->idle_why), "%s", held);
	/* last_busy: rpm_resume() marks it as it resumes the device. */
	for (i = 0; i < (size_t)tr; i++)
		if (c[i].type == DEVPM_EV_RPM_RESUME &&
		    !(c[i].flags & DEVPM_RPM_ASYNC) && c[i].ret_us &&
		    c[i].ret == 0 && c[i].ret_us > a->busy_us)
			a->busy_us = c[i].ret_us;
	find_timer(ev, n, dev, c, k, from_us, a->begin_us, a);
	if (a->soft_us && delay && a->soft_us - delay > a->busy_us)
		a->busy_us = a->soft_us - delay;
	/* Unknown last_busy: at the latest when nothing held it any more. */
	bt = a->busy_us ? a->busy_us : a->idle_us;
	a->due_us = delay && bt + delay > a->idle_us ? bt + delay + slack :
		    a->idle_us;
	ref = a->fired_us > a->due_us ? a->fired_us : a->due_us;
	a->late_us = (int64_t)a->begin_us - (int64_t)ref;
	allow = DEVPM_AUTOSUSPEND_ALLOW_MS * 1000;
	if (a->soft_us && a->hard_us > a->soft_us + slack + 1) {
		snprintf(why, len,
			 "autosuspend timer armed with %.1f ms of slack, the kernel's is delay/4 = %.1f ms (rpm_suspend())",
			 ms_after(a->hard_us, a->soft_us), (double)slack / 1000);
		ret = 1;
	} else if (delay && a->busy_us && (c[tr].flags & DEVPM_RPM_AUTO) &&
		   a->begin_us + 1000 < a->busy_us + delay) {
		snprintf(why, len,
			 "suspend began %.1f ms after it was last busy, before its autosuspend delay of %d ms (pm_runtime_autosuspend_expiration())",
			 ms_after(a->begin_us, a->busy_us), delay_ms);
		ret = 1;
	} else if (a->begin_us > ref + allow) {
		snprintf(why, len,
			 "suspend began %.1f ms after it was idle, limit %.1f ms (due %.1f ms: %s; + %d ms allowance)%s",
			 ms_after(a->begin_us, a->idle_us),
			 ms_after(ref + allow, a->idle_us),
			 ms_after(a->due_us, a->idle_us),
			 a->due_us == a->idle_us ?
			 "its delay had passed, rpm_idle() suspends at once" :
			 "last_busy + delay + 25 % slack, rpm_suspend()",
			 DEVPM_AUTOSUSPEND_ALLOW_MS,
			 a->soft_us ? "" : !a->timers ?
			 "; no hrtimer events traced" :
			 a->due_us == a->idle_us ? "" :
			 "; no autosuspend timer armed");
		ret = 1;
	}
	free(c);
	return ret;
}

void devpm_autosuspend_line(const struct devpm_autosuspend *a, char *buf,
			    size_t len)
{
	char fired[48] = "";

	if (a->fired_us)
		snprintf(fired, sizeof(fired), ", timer fired at %.1f ms",
			 ms_after(a->fired_us, a->idle_us));
	snprintf(buf, len,
		 "suspend began %.1f ms after it was idle (due by %.1f ms%s), done %.1f ms later",
		 ms_after(a->begin_us, a->idle_us),
		 ms_after(a->due_us, a->idle_us), fired,
		 ms_after(a->done_us, a->begin_us));
}

int devpm_wait_autosuspend(struct devpm_dev *d, struct devpm_trace *t,
			   uint64_t from_us, struct devpm_autosuspend *a,
			   struct devpm_wait_result *w, char *why, size_t len)
{
	const struct devpm_event *ev;
	int delay = 0, bound, r;
	size_t n;

	memset(a, 0, sizeof(*a));
	if (devpm_dev_snapshot(d) == 0 && d->rpm.have_autosuspend &&
	    d->rpm.autosuspend_delay_ms > 0)
		delay = (int)d->rpm.autosuspend_delay_ms;
	a->delay_ms = delay;
	bound = 2 * (delay + delay / 4 + DEVPM_AUTOSUSPEND_ALLOW_MS) + 1000;
	r = devpm_wait_status(d, t, "suspended", bound, w);
	if (r == -ETIMEDOUT) {
		snprintf(why, len, "not suspended %d ms after it was let go: %s",
			 bound, w->why);
		return r;
	}
	if (r < 0) {
		snprintf(why, len, "waiting for suspended: %s", devpm_error());
		return r;
	}
	if (!t) {
		snprintf(why, len, "no trace: the autosuspend is not judged");
		return -1;
	}
	ev = devpm_trace_read(t, 0, &n);
	return devpm_autosuspend_check(ev, n, d->name, from_us,
				       devpm_now_us(), delay, a, why, len);
}
