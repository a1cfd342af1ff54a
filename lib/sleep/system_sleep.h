/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * system_sleep.h - system sleep from a test: entering a state, pm_test,
 * what the kernel counted about it (suspend_stats) and the wakeup_count
 * handshake (/sys/power, kernel/power/main.c).
 *
 * The knobs (pm_test, pm_test_delay, pm_async, mem_sleep, pm_print_times)
 * are written through the journal and put back by the case's restore;
 * /sys/power/state is an action (the write returns after resume).  A
 * test that sleeps needs --allow-sleep (needs.sleep).
 *
 *	struct devpm_sleep s;
 *	unsigned long wc;
 *
 *	if (devpm_wakeup_handshake(&wc, 2000) == 0 &&
 *	    devpm_sleep_attempt("freeze", &s) == -EBUSY)
 *		... aborted: s.after.last_failed_step says where ...
 */
#ifndef DEVPM_SYSTEM_SLEEP_H
#define DEVPM_SYSTEM_SLEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DEVPM_PM_TEST_DELAY \
	"/sys/module/suspend/parameters/pm_test_delay"

/* /sys/power/suspend_stats/ (kernel/power/main.c: suspend_attrs[]). */
struct devpm_suspend_stats {
	long success, fail, failed_freeze, failed_prepare, failed_suspend,
	     failed_suspend_late, failed_suspend_noirq, failed_resume,
	     failed_resume_early, failed_resume_noirq;
	long last_failed_errno;
	char last_failed_dev[128];
	char last_failed_step[32];	/* "" when the kernel names none */
};

/* 0, or -errno (devpm_error() names the file) when one is missing. */
int devpm_suspend_stats_read(struct devpm_suspend_stats *s);
/* The failed_<step> counter of a step name ("suspend_late"), or -1. */
long devpm_suspend_stats_failed(const struct devpm_suspend_stats *s,
				const char *step);

struct devpm_pm_level {
	char name[16];
};

/*
 * The levels /sys/power/pm_test lists ("none", "core", ...), at most
 * max; the count, or -ENOENT with devpm_error() naming
 * CONFIG_PM_DEBUG when the file is absent.  *current (may be NULL) gets
 * the index of the bracketed one.
 */
int devpm_pm_test_levels(struct devpm_pm_level *levels, size_t max,
			 int *current);

/*
 * Set pm_test to level (journaled) and, unless level is "none",
 * pm_test_delay to 0 (journaled: the kernel's default waits 5 s).
 * -ENOENT (devpm_error() names CONFIG_PM_DEBUG or the parameter file)
 * when either file is absent.
 */
int devpm_pm_test_set(const char *level);

/*
 * Is word one of the choices in a /sys/power list ("freeze mem",
 * "s2idle [deep]")?
 */
bool devpm_power_has(const char *kpath, const char *word);

/*
 * Write state ("freeze", "mem") to /sys/power/state: returns when the
 * system is back.  0, or the write's -errno (the transition's error:
 * the failing callback's, -EAGAIN for an s2idle pm_test level the
 * kernel refuses, -EBUSY for a wakeup event during the transition).
 */
int devpm_sleep_enter(const char *state);

/*
 * The same with a trace running (sleep_trace.h): what the trace held is
 * dropped first, the events of the cycle are read after it and parsed
 * into c (devpm_sleep_cycle_free() it, also on error).  *ret gets the
 * write's result and *wall_us how long it took.  Returns the parse's
 * result: 0, or -ENOENT when no device callback ran (a transition that
 * stopped before dpm_prepare, e.g. pm_test=freezer), -errno.
 */
struct devpm_trace;
struct devpm_sleep_cycle;
int devpm_sleep_traced(struct devpm_trace *t, const char *state, int *ret,
		       uint64_t *wall_us, struct devpm_sleep_cycle *c);

/*
 * What changed from a to b: "fail+1 failed_freeze+1" then, when a failure
 * was counted, "last_failed_step=freeze last_failed_errno=-16
 * last_failed_dev=X" (the dev only when not empty); "" when nothing
 * changed.  0 or -ENAMETOOLONG.
 */
int devpm_suspend_stats_diff(const struct devpm_suspend_stats *a,
			     const struct devpm_suspend_stats *b,
			     char *buf, size_t len);

/*
 * /sys/power/wakeup_count.  Reading blocks in the kernel while a wakeup
 * event is in progress; the read is cut after timeout_ms (-ETIMEDOUT).
 * Writing a count that moved, or while events are in progress, is
 * -EINVAL; success arms the check that makes a later event abort the
 * suspend (until the end of the next suspend attempt).
 */
int devpm_wakeup_count_read(unsigned long *count, int timeout_ms);
int devpm_wakeup_count_write(unsigned long count);
/* Read then write back: the handshake of a sleep manager.  0, or -errno. */
int devpm_wakeup_handshake(unsigned long *count, int timeout_ms);

/* One attempt to enter a sleep state. */
struct devpm_sleep {
	int err;		/* 0 or -errno of the write to state */
	uint64_t start_us;	/* CLOCK_MONOTONIC before the write */
	uint64_t end_us;	/* and after it returned */
	long wake_irq;		/* pm_wakeup_irq after it, -1: none */
	struct devpm_suspend_stats before, after;
};

/*
 * Write state ("freeze", "mem") to /sys/power/state.  -EPERM without
 * --allow-sleep (nothing written).  Returns r->err: 0 when the kernel
 * went through the cycle, -EBUSY when it aborted it, ...
 */
int devpm_sleep_attempt(const char *state, struct devpm_sleep *r);
/* The cycle failed: an error, or suspend_stats counted a failure. */
bool devpm_sleep_failed(const struct devpm_sleep *r);

#endif
