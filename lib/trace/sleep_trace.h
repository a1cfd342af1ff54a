/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleep_trace.h - one system suspend/resume cycle as the trace shows it:
 * every device callback (power:device_pm_callback_start/end) with its
 * phase, lane (the pid that ran it), start, duration and return, and the
 * phases themselves (power:suspend_resume dpm_prepare ... dpm_complete).
 *
 * The phase of a callback is the dpm_* phase open when it started: async
 * callbacks run in kworkers, but every phase ends with
 * async_synchronize_full() (drivers/base/power/main.c: dpm_suspend(),
 * dpm_resume(), ...), so none outlives its phase.  prepare and complete
 * are traced around device_prepare()/device_complete() for every device,
 * with or without a callback; the other phases only when a callback runs
 * (dpm_run_callback(), legacy_suspend()).
 *
 *	struct devpm_trace *t = devpm_sleep_trace_start(names);
 *	... enter and leave a sleep state ...
 *	devpm_trace_poll(t, 0);
 *	ev = devpm_trace_events(t, &n);
 *	devpm_sleep_cycle_parse(ev, n, &c);
 *	devpm_sleep_timeline_print(&c, "case.1");
 */
#ifndef DEVPM_SLEEP_TRACE_H
#define DEVPM_SLEEP_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "trace/trace.h"

enum devpm_pm_phase {
	DEVPM_PH_PREPARE,
	DEVPM_PH_SUSPEND,
	DEVPM_PH_SUSPEND_LATE,
	DEVPM_PH_SUSPEND_NOIRQ,
	DEVPM_PH_RESUME_NOIRQ,
	DEVPM_PH_RESUME_EARLY,
	DEVPM_PH_RESUME,
	DEVPM_PH_COMPLETE,
	DEVPM_PH_NR
};

/* "prepare", "suspend_late", ... (the TIMELINE phase names). */
const char *devpm_pm_phase_name(enum devpm_pm_phase ph);
/* The phase of a name, or -EINVAL. */
int devpm_pm_phase_parse(const char *name);
/* True for prepare .. suspend_noirq. */
bool devpm_pm_phase_is_suspend(enum devpm_pm_phase ph);

/* One device callback. */
struct devpm_pm_cb {
	enum devpm_pm_phase phase;
	char dev[128];
	char driver[64];	/* dev_driver_string(): "" when none */
	char parent[128];	/* the trace's "parent:", "none" at the top */
	int pid;		/* lane: the task that ran it */
	uint64_t start_us;	/* trace clock (mono), µs */
	uint64_t end_us;	/* 0: no end event seen */
	int err;
	uint64_t held_us;	/* the platform's part: devpm_pm_cb_own_us() */
};

struct devpm_pm_span {
	uint64_t begin_us, end_us;	/* 0: not seen */
};

struct devpm_sleep_cycle {
	struct devpm_pm_cb *cb;		/* in start order */
	size_t ncb;
	struct devpm_pm_span phase[DEVPM_PH_NR];
	uint64_t first_us;		/* the cycle's first event */
	uint64_t last_us;		/* and its last */
	size_t unended;			/* callbacks without an end event */
};

/*
 * Start a trace (trace.h) with the power events a cycle needs.  The rpm
 * events that devpm_trace_start() enables are filtered to devs (NULL:
 * to no device, so that they do not fill the buffer during the cycle).
 * NULL with devpm_error() set when tracefs or an event is missing.
 */
struct devpm_trace *devpm_sleep_trace_start(const char *const *devs);
/*
 * The same with the callback events filtered in the kernel to the devices
 * whose name matches glob ("devpm_mock.*"): a cycle of mock devices
 * without the machine's thousand other callbacks to read, parse, print
 * and save.  power:suspend_resume (the phases) stays unfiltered.  NULL
 * with devpm_error() set also for a glob with a quote, backslash or
 * newline.
 */
struct devpm_trace *devpm_sleep_trace_start_glob(const char *glob);

/*
 * Add timer:hrtimer_start, sched:sched_wakeup and sched:sched_switch to a
 * sleep trace, for the callbacks' held_us.  0, or -errno (the trace goes
 * on without them: held_us stays 0).
 */
int devpm_sleep_trace_add_sched(struct devpm_trace *t);

/*
 * The pieces of the callback events, for a reader of its own
 * (sleep_fault.h): "<driver> <dev>" of length n into cb->driver and
 * cb->dev (either may hold spaces: the split whose device is in sysfs
 * wins), 0 or -EINVAL; "dpm_suspend_late[2] begin" into the phase and
 * begin, 0 or -EINVAL for another action.
 */
int devpm_sleep_split_head(const char *s, size_t n, struct devpm_pm_cb *cb);
int devpm_sleep_phase_event(const char *raw, int *phase, bool *begin);

/*
 * The callbacks and phases among events (oldest first).  Events outside
 * the dpm_* phases are ignored.  0, or -ENOMEM; -ENOENT (devpm_error()
 * says so) when no callback was seen.  Free with devpm_sleep_cycle_free().
 */
int devpm_sleep_cycle_parse(const struct devpm_event *ev, size_t n,
			    struct devpm_sleep_cycle *c);
void devpm_sleep_cycle_free(struct devpm_sleep_cycle *c);

/*
 * A parsed cycle as text and back (a program's cases share one cycle):
 * 0, or -errno (-EINVAL on a bad record, devpm_error() says which).
 */
int devpm_sleep_cycle_save(const struct devpm_sleep_cycle *c, FILE *f);
int devpm_sleep_cycle_load(FILE *f, struct devpm_sleep_cycle *c);

/* The callback of dev in phase (the first, if several), or NULL. */
const struct devpm_pm_cb *devpm_sleep_cb(const struct devpm_sleep_cycle *c,
					 enum devpm_pm_phase ph,
					 const char *dev);
/* end - start, 0 when not ended. */
uint64_t devpm_pm_cb_dur(const struct devpm_pm_cb *cb);

/*
 * A callback that sleeps (usleep_range(), as devpm_mock's delays do) can
 * only be as exact as the platform wakes it: held_us is how late its
 * first hrtimer sleep's wakeup came after the timer's hard expiry, plus
 * how long its task then waited for the CPU (from hrtimer_start,
 * sched_wakeup and sched_switch of its pid; 0 when the trace lacks them
 * or it did not sleep).  Under TCG a stalled vCPU wakes a 5 ms sleep 5 ms
 * late; a callback that sleeps longer than it should (a longer timer, a
 * second sleep) is not excused.  own_us: the duration without it.
 */
uint64_t devpm_pm_cb_own_us(const struct devpm_pm_cb *cb);

/*
 * From the first start to the last end of the callbacks of devs[0..n) in
 * phase.  0 with *span set, -ENOENT (devpm_error() names the device)
 * when one of them has no ended callback in that phase.
 */
int devpm_sleep_span(const struct devpm_sleep_cycle *c,
		     enum devpm_pm_phase ph, const char *const *devs,
		     size_t n, uint64_t *span_us);

/*
 * How many threads ran the callbacks of devs[0..n) in phase (their pids,
 * distinct): 1 for a serial walk, up to n when async ran them in parallel.
 */
int devpm_sleep_lanes(const struct devpm_sleep_cycle *c,
		      enum devpm_pm_phase ph, const char *const *devs,
		      size_t n);

/*
 * How many of devs[0..n) have no phase callback that took its delay_us
 * (devpm_sleep_check_delay()); why names the first.
 */
int devpm_sleep_delays_missed(const struct devpm_sleep_cycle *c,
			      enum devpm_pm_phase ph, const char *const *devs,
			      size_t n, uint64_t delay_us, char *why,
			      size_t len);

/*
 * Does the callback of first in phase end no later than that of second
 * starts?  0 yes; 1 no (why says by how much, naming both); -ENOENT
 * when either callback is missing or unended (why says which).
 */
int devpm_sleep_check_before(const struct devpm_sleep_cycle *c,
			     enum devpm_pm_phase ph, const char *first,
			     const char *second, char *why, size_t len);

/*
 * A measured callback time against a configured delay: it must lie in
 * [delay, delay + max(20 %, 5 ms)] (a mock callback sleeps at least its
 * delay; the rest is scheduling).  0 inside, 1 shorter, 2 longer (why
 * has value and limits).
 */
int devpm_sleep_check_delay(uint64_t measured_us, uint64_t delay_us,
			    char *why, size_t len);

/*
 * A resume callback against the budget its driver declares: 0 within,
 * 1 slower (why names the device, the phase, value and budget).  A
 * budget of 0 means none: always 0.
 */
int devpm_sleep_check_budget(const struct devpm_pm_cb *cb,
			     uint64_t budget_us, char *why, size_t len);

/*
 * One line per ended callback, in start order:
 *   # TIMELINE <cycle> <phase> <device> <driver> <lane> <start_us>
 *     <dur_us> <err>
 * start_us from the cycle's first event; a space inside a device or
 * driver name becomes '_', an empty driver "-".  On stdout;
 * devpm_sleep_timeline_line() formats one (no "# ", no newline):
 * 0 or -ENAMETOOLONG.
 */
void devpm_sleep_timeline_print(const struct devpm_sleep_cycle *c,
				const char *cycle);
int devpm_sleep_timeline_line(const struct devpm_sleep_cycle *c,
			      const struct devpm_pm_cb *cb,
			      const char *cycle, char *buf, size_t len);

#endif
