/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * autosuspend_timer.h - when an autosuspend really began, read from the
 * trace: the driver's put, the pm_suspend_timer_fn hrtimer rpm_suspend()
 * armed in it, the timer's callback and the suspend that followed.
 *
 * The kernel's promise (drivers/base/power/runtime.c:rpm_suspend()): no
 * suspend before last_busy + delay, and a timer armed to expire by then
 * plus a slack of delay / 4.  Delivering the timer interrupt is the
 * platform's part, and under TCG the host may stall the guest's CPU for
 * milliseconds anywhere between the expiry and the suspend, so the upper
 * bound is the timer's hard expiry plus a latency allowance, judged from
 * the armed timer and not from the test's own clock.
 */
#ifndef DEVPM_AUTOSUSPEND_TIMER_H
#define DEVPM_AUTOSUSPEND_TIMER_H

#include <stddef.h>
#include <stdint.h>
#include "trace/trace.h"

/* All CLOCK_MONOTONIC µs from the trace (trace_clock=mono). */
struct devpm_autosuspend_timer {
	uint64_t put_us;	/* the driver's put: rpm_suspend, RPM_GET_PUT */
	uint64_t soft_us, hard_us; /* pm_suspend_timer_fn's expiry range */
	uint64_t fired_us;	/* hrtimer_expire_entry: its callback ran */
	uint64_t suspend_us;	/* the first rpm_suspend after the put */
};

/* Allowed between the timer's hard expiry and the suspend beginning. */
#define DEVPM_AUTOSUSPEND_LATE_MS 10

/*
 * Find dev's last put in [put_from_us, put_to_us], then the timer armed
 * in it and the suspend after it, up to until_us.  The trace needs the
 * timer:hrtimer_start and timer:hrtimer_expire_entry events.  Returns 0,
 * or -1 with why saying which of them the trace lacks (fields found so
 * far are filled).
 */
int devpm_autosuspend_find(const struct devpm_event *ev, size_t n,
			   const char *dev, uint64_t put_from_us,
			   uint64_t put_to_us, uint64_t until_us,
			   struct devpm_autosuspend_timer *t, char *why,
			   size_t len);

/*
 * Judge t against delay_ms: 0 when the kernel kept its promise, 1 with
 * why naming the value and the limit it broke.
 */
int devpm_autosuspend_judge(const struct devpm_autosuspend_timer *t,
			    int delay_ms, char *why, size_t len);

#endif
