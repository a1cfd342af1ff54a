/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleep_verdict.h - every system-sleep cycle judged per device: a callback
 * of one of the machine's devices (one in the run's baseline) that
 * returns an error, in any phase, suspend or resume side, names the
 * device, its driver, the phase and the errno (the trace's
 * power:device_pm_callback_end, sleep_fault.h; suspend_stats'
 * last_failed_dev when there is no trace).  Devices a case made itself
 * (not in the baseline) are its own business, and so is a fault the case
 * causes on purpose (devpm_sleep_expect_fault()).
 *
 * Blame once: the case that owns the machine's system sleep,
 * DEVPM_SLEEP_JUDGE, fails the device on its own line; any other case
 * whose cycle such a device refused says so in one line and skips (its
 * promise could not be tested: the harness's teardown and the device
 * blocks turn it into a SKIP naming the device and the judging case); a
 * fault on the resume side is a note there.  What a case saw goes to the
 * run's record (run_record.h); the runner's final re-check fails a fault
 * that no judging case failed (devpm_sleep_verdict_unjudged()).
 *
 * lib/sleep calls devpm_sleep_verdict_mark() before and
 * devpm_sleep_verdict_cycle() after every write to /sys/power/state.
 */
#ifndef DEVPM_SLEEP_VERDICT_H
#define DEVPM_SLEEP_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "trace/sleep_trace.h"

/* The case that judges the machine's devices' system sleep. */
#define DEVPM_SLEEP_JUDGE	"async/sleep/real_device_timing"

/* A new case: no blame, no expected fault (devpm_case_setup()). */
void devpm_sleep_verdict_case_begin(void);

/* The running case is the judge: it reports the devices itself. */
void devpm_sleep_verdict_own(void);
bool devpm_sleep_verdict_owner(void);

/*
 * The case makes dev's callback fail on purpose (an alarm due in under
 * 2 s makes alarmtimer's suspend return -EBUSY): not judged in its cases.
 */
void devpm_sleep_expect_fault(const char *dev);

struct devpm_sleep_mark {
	size_t at;		/* faults seen before the cycle */
	unsigned long dropped;
};
void devpm_sleep_verdict_mark(struct devpm_sleep_mark *m);

/* What suspend_stats counted about the cycle (lib/sleep reads it). */
struct devpm_sleep_counted {
	bool failed;		/* fail moved */
	char dev[128];		/* last_failed_dev then ("" none) */
	char step[32];		/* last_failed_step */
	long err;		/* last_failed_errno */
};

/* A device of the machine whose callback failed in the cycle. */
struct devpm_sleep_culprit {
	char dev[128];
	char driver[64];
	enum devpm_pm_phase phase;	/* DEVPM_PH_NR: not known */
	int err;
	/* "<dev> (<driver>): suspend returned -16 (EBUSY): system sleep refused" */
	char why[384];
};

/*
 * Judge the cycle since m: ret is the state write's result, counted what
 * suspend_stats said (NULL: not read).  Records each culprit in the run;
 * outside the judging case, a culprit of a cycle that failed (a refusal,
 * or a resume error in its rollback) blames the case, one of a cycle that
 * went through is noted.  Returns the culprits, at most max into v (v may
 * be NULL).
 */
int devpm_sleep_verdict_cycle(const struct devpm_sleep_mark *m, int ret,
			      const struct devpm_sleep_counted *counted,
			      struct devpm_sleep_culprit *v, size_t max);

/*
 * The same for a cycle another case of the run made and saved (a cycle
 * cache, sleep_cycle_cache.h), ret its write's result: its callbacks'
 * errors, judged as above but not recorded again.  Returns the culprits.
 */
int devpm_sleep_verdict_replay(const struct devpm_sleep_cycle *c, int ret);

/* c for dev's failed callback, with the rule's words (docs/verdicts.md). */
void devpm_sleep_culprit_set(struct devpm_sleep_culprit *c, const char *dev,
			     const char *driver, enum devpm_pm_phase phase,
			     int err);

/*
 * The case's promise could not be tested because of a device of the
 * machine (one line: the device, what it did, who judges it).  The first
 * blame stays.  devpm_sleep_blame(): "" when none.
 */
void devpm_sleep_blame_set(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
const char *devpm_sleep_blame(void);
/*
 * Its first part ("system sleep refused by <dev> (<driver>)"), as the
 * reason of the device lines it skips.
 */
void devpm_sleep_blame_short(char *buf, size_t len);

/*
 * The runner's final re-check: every fault or held wakeup source the
 * run's cases recorded that no case failed ("judged" records), once per
 * device: fn(arg, dev, why).  Returns how many.
 */
int devpm_sleep_verdict_unjudged(void (*fn)(void *arg, const char *dev,
					    const char *why),
				 void *arg);

#endif
