// SPDX-License-Identifier: GPL-2.0-only
/*
 * autosuspend_timer.c - an autosuspend's put, timer and suspend from the
 * trace (autosuspend_timer.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpm/autosuspend_timer.h"
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
