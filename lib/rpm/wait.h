/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wait.h - wait for a device to reach a runtime status, with a bound.
 *
 * With a trace (trace.h) the waiter sleeps on the trace pipe and re-reads
 * runtime_status after every event, and also on a back-off (events may be
 * filtered out or lost); the transition time comes from the trace.
 * Without one it polls runtime_status with exponential back-off (1 ms
 * doubling to 64 ms).  On timeout the result carries the diagnosis of
 * what holds the device (diagnose.h).
 *
 * The traced time is that of the last transition to the status among the
 * events since the trace was last cleared, even one before the wait began
 * (a control write is often synchronous): call devpm_trace_clear() before
 * the action, and measure from your own timestamp of it.
 */
#ifndef DEVPM_WAIT_H
#define DEVPM_WAIT_H

#include <stdbool.h>
#include <stdint.h>
#include "rpm/device.h"
#include "trace/trace.h"

struct devpm_wait_result {
	bool reached;
	bool traced;		/* at_us comes from a trace event */
	uint64_t start_us;	/* when the wait began (CLOCK_MONOTONIC) */
	/* When the status was reached (traced: may precede start_us). */
	uint64_t at_us;
	/* at_us - start_us (0 if before it), or the time until the timeout. */
	uint64_t waited_us;
	char status[16];	/* the status last seen */
	char why[768];		/* on timeout: the diagnosis line */
};

/*
 * Wait until d's runtime_status equals status ("suspended", "active").
 * t may be NULL (polling).  Returns 0 when reached, -ETIMEDOUT otherwise
 * (res->why says what holds it), -ENOENT when d has no runtime_status
 * (no runtime callbacks on a kernel without CONFIG_PM_ADVANCED_DEBUG),
 * other -errno on error.  Snapshots d again on timeout.
 */
int devpm_wait_status(struct devpm_dev *d, struct devpm_trace *t,
		      const char *status, int timeout_ms,
		      struct devpm_wait_result *res);

/*
 * The same, with res->why set on every error, not only on timeout:
 * "waiting for <status>: <devpm_error()>", for a caller that reports why.
 */
int devpm_wait_status_why(struct devpm_dev *d, struct devpm_trace *t,
			  const char *status, int timeout_ms,
			  struct devpm_wait_result *res);

/*
 * What a wait that ended with res adds to the case's floor (least_time.h): for
 * "suspended", d's autosuspend delay before res->at_us when the wait had
 * to wait or its trace saw the transition.  Exposed for the unit tests.
 */
void devpm_wait_floor(const struct devpm_dev *d, const char *status,
		      bool waited, const struct devpm_wait_result *res);

/*
 * When the events (oldest first) show dev entering status ("suspended" or
 * "active"): 1 with *at_us set, -EAGAIN when the return of a call in
 * progress is still to come, 0 when they do not show it.  What
 * devpm_wait_status() uses; exposed for unit tests.
 */
int devpm_wait_traced_at(const struct devpm_event *ev, size_t n,
			 const char *dev, const char *status,
			 uint64_t *at_us);


#endif
