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
#include "rpm/device.h"
#include "rpm/wait.h"
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

/*
 * One autosuspend against the kernel's promise, from the rpm events of
 * the device and, when traced, the hrtimer events
 * (devpm_autosuspend_trace()).  drivers/base/power/runtime.c: once
 * nothing holds the device (usage_count 0, no active child, runtime PM
 * allowed and enabled), rpm_idle() -> rpm_suspend(RPM_AUTO) suspends it
 * at once when last_busy + delay has passed
 * (pm_runtime_autosuspend_expiration()), else arms pm_suspend_timer_fn
 * for last_busy + delay with a slack of delay / 4
 * (hrtimer_start_range_ns() in rpm_suspend()); rpm_resume() marks
 * last_busy as it resumes.  So the suspend begins no sooner than
 * last_busy + delay and no later than
 *
 *	due = idle                          (last_busy + delay <= idle)
 *	      last_busy + delay + delay / 4 (otherwise)
 *
 * plus the time the kernel's timer and workqueue take to run the request
 * (a timer that fired after its hard expiry moves due to when it fired:
 * interrupt delivery, and under TCG the host's scheduling, are no
 * runtime-PM promise).  The late allowance is that lag, measured.
 */
struct devpm_autosuspend {
	int delay_ms;
	uint64_t idle_us;	/* nothing held it from then on */
	uint64_t busy_us;	/* last_busy, as the trace tells (0: unknown) */
	uint64_t due_us;	/* the promise: its suspend begun by then */
	uint64_t soft_us, hard_us; /* the last timer armed for it (0: none) */
	uint64_t fired_us;	/* that timer's callback ran (0: not seen) */
	uint64_t begin_us;	/* the rpm_suspend call that suspended it */
	uint64_t done_us;	/* its return: suspended */
	int64_t late_us;	/* begin - max(due, fired): > 0 is lag */
	bool timers;		/* the trace had hrtimer events */
	char idle_why[96];	/* what held it until idle_us ("" none seen) */
};

/*
 * The kernel's part between a due (or fired) autosuspend and its
 * rpm_suspend beginning: pm_wq's work item (rpm_idle(RPM_ASYNC),
 * pm_suspend_timer_fn's RPM_ASYNC request) and the trace's resolution.
 * Measured under TCG with a CPU hog on the host (docs/verdicts.md).
 */
#define DEVPM_AUTOSUSPEND_ALLOW_MS 20

/* Add the hrtimer events devpm_autosuspend_check() reads; 0 or -errno. */
int devpm_autosuspend_trace(struct devpm_trace *t);

/*
 * Judge dev's last suspend in [from_us, to_us] (to_us: when it was seen
 * suspended; from_us: when the caller let it go or before, the events
 * since then read) against an autosuspend delay of delay_ms (0: the
 * device does not use autosuspend, or its delay is 0).  Returns 0 when
 * the kernel kept its promise, 1 with why naming value and limit when
 * not, -1 with why when the trace shows no suspend to judge.
 */
int devpm_autosuspend_check(const struct devpm_event *ev, size_t n,
			    const char *dev, uint64_t from_us, uint64_t to_us,
			    int delay_ms, struct devpm_autosuspend *a,
			    char *why, size_t len);

/*
 * Wait (wait.h) for d, let go at from_us, to suspend, then judge the
 * autosuspend from t's events: d's autosuspend_delay_ms when its driver
 * uses autosuspend, else 0.  The wait's bound is the limit plus as much
 * again, so a late suspend is measured, not only timed out.  Returns 0
 * kept, 1 broken, -ETIMEDOUT not suspended (w->why: the diagnosis), -1
 * no trace to judge by (t NULL, or no transition in it): why says so,
 * other -errno.  why: one line with value and limit.
 */
int devpm_wait_autosuspend(struct devpm_dev *d, struct devpm_trace *t,
			   uint64_t from_us, struct devpm_autosuspend *a,
			   struct devpm_wait_result *w, char *why, size_t len);

/* "suspend began 51.2 ms after it was idle (due 62.5 ms)" for a pass. */
void devpm_autosuspend_line(const struct devpm_autosuspend *a, char *buf,
			    size_t len);

#endif
