/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wait.h - wait for a device to reach a runtime status, with a bound.
 *
 * With a trace (trace.h) the waiter sleeps on the trace pipe and re-reads
 * runtime_status after every event; the transition time comes from the
 * trace.  Without one it polls runtime_status with exponential back-off
 * (1 ms doubling to 64 ms).  On timeout the result carries the diagnosis of
 * what holds the device (diagnose.h).
 */
#ifndef DEVPM_WAIT_H
#define DEVPM_WAIT_H

#include <stdbool.h>
#include <stdint.h>
#include "device.h"
#include "trace.h"

struct devpm_wait_result {
	bool reached;
	bool traced;		/* at_us comes from a trace event */
	uint64_t start_us;	/* when the wait began (CLOCK_MONOTONIC) */
	uint64_t at_us;		/* when the status was reached */
	uint64_t waited_us;	/* at_us - start_us, or the timeout */
	char status[16];	/* the status last seen */
	char why[768];		/* on timeout: the diagnosis line */
};

/*
 * Wait until d's runtime_status equals status ("suspended", "active").
 * t may be NULL (polling).  Returns 0 when reached, -ETIMEDOUT otherwise,
 * other -errno on error.
 */
int devpm_wait_status(struct devpm_dev *d, struct devpm_trace *t,
		      const char *status, int timeout_ms,
		      struct devpm_wait_result *res);

/*
 * Poll cond(arg) with exponential back-off until it returns true or
 * timeout_ms passes.  For waits that no trace event marks.
 */
bool devpm_poll_until(bool (*cond)(void *arg), void *arg, int timeout_ms);

#endif
