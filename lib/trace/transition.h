/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * transition.h - runtime-PM transitions of one device, read from trace
 * events (trace.h).
 *
 * On 6.1 there is no rpm_status event and a return value of 0 does not
 * mean a transition happened: rpm_resume(RPM_ASYNC) returns 0 when it only
 * queued the work, and rpm_suspend(RPM_AUTO) returns 0 when it re-armed the
 * autosuspend timer after a busy callback.  So each rpm_suspend/rpm_resume
 * call is paired with its rpm_return_int and only these count:
 *  - a resume: an rpm_resume call without RPM_ASYNC that returned 0 (the
 *    device was not active: an active one returns 1, a waiter -EINPROGRESS
 *    or 1 after the wait);
 *  - a suspend: the last rpm_suspend that returned 0 before the device was
 *    seen suspended (earlier ones may be re-armed timers).
 * Where rpm_status events exist (6.9+), they are used instead.
 */
#ifndef DEVPM_TRANSITION_H
#define DEVPM_TRANSITION_H

#include <stddef.h>
#include <stdint.h>
#include "trace/trace.h"

/* rpmflags (include/linux/pm_runtime.h) */
#define DEVPM_RPM_ASYNC		0x01
#define DEVPM_RPM_NOWAIT	0x02
#define DEVPM_RPM_GET_PUT	0x04
#define DEVPM_RPM_AUTO		0x08

/* One rpm_suspend/rpm_resume/rpm_idle call and its return. */
struct devpm_call {
	enum devpm_ev_type type;	/* DEVPM_EV_RPM_{SUSPEND,RESUME,IDLE} */
	int flags;
	int usage;		/* usage count when called */
	int pid;		/* the task that called (0: unknown) */
	uint64_t call_us;
	uint64_t ret_us;	/* 0: no rpm_return_int seen */
	int ret;
};

/*
 * The calls of dev made in [from_us, to_us], in order, each paired with
 * the first later rpm_return_int of the same function that is not taken by
 * a call nested inside it.  Stores at most max; returns how many there are.
 */
size_t devpm_rpm_calls(const struct devpm_event *ev, size_t n,
		       const char *dev, uint64_t from_us, uint64_t to_us,
		       struct devpm_call *out, size_t max);

/*
 * Completed resumes of dev in [from_us, to_us]; at_us (may be NULL) gets
 * up to max completion times.  Returns the count.
 */
int devpm_rpm_resumes(const struct devpm_event *ev, size_t n,
		      const char *dev, uint64_t from_us, uint64_t to_us,
		      uint64_t *at_us, size_t max);

/*
 * When dev last completed a suspend in [from_us, to_us] (0: none).  Call
 * it with to_us no later than a moment dev was seen suspended.  dur_us (may
 * be NULL) gets the time from the call to its return (0 with rpm_status).
 */
uint64_t devpm_rpm_suspended_at(const struct devpm_event *ev, size_t n,
				const char *dev, uint64_t from_us,
				uint64_t to_us, uint64_t *dur_us);

/*
 * The last rpm_suspend call of dev with RPM_GET_PUT in [from_us, to_us]:
 * a driver's pm_runtime_put_autosuspend() after its last use, which is
 * when it marked the device busy (0: none).
 */
uint64_t devpm_rpm_last_put(const struct devpm_event *ev, size_t n,
			    const char *dev, uint64_t from_us, uint64_t to_us);

/* The usage count carried by dev's last rpm event in the window; -1 none. */
int devpm_rpm_last_usage(const struct devpm_event *ev, size_t n,
			 const char *dev, uint64_t from_us, uint64_t to_us);

/* True if some rpm_status event of dev is in the list (kernel >= 6.9). */
bool devpm_rpm_has_status(const struct devpm_event *ev, size_t n,
			  const char *dev);

#endif
