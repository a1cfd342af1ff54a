/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verdict.h - the rules that turn a driver's runtime-PM bug into a FAIL
 * naming the device and its driver, whatever the suite (docs/verdicts.md):
 *
 *  error	runtime_status=error now, or a runtime callback's error
 *		return (rpm_return_int) seen since the program began
 *		watching, fails: device, driver, callback, errno.
 *  leak	after a case put its knobs back, a usage count above the
 *		device's baseline (baseline.h) fails: device, driver,
 *		baseline and current count, and the case.
 *  suspend	a device that could suspend at baseline, now allowed
 *		(control=auto) and not held by an active child, a resume
 *		latency request or a disabled runtime PM, must suspend again
 *		within its autosuspend delay plus a bound.
 *
 * subtest.c applies "error" at the end of every device block; test.h's
 * devpm_case_teardown() applies all three to every device after the
 * journal put the case's knobs back; the runner re-checks the whole tree
 * after the last program.
 */
#ifndef DEVPM_VERDICT_H
#define DEVPM_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include "judge/baseline.h"

/*
 * After a case let go, how long the kernel's work still in flight may
 * hold a usage count or a suspend: measured as verdict_settle_ms
 * (docs/verdicts.md).
 */
#define DEVPM_VERDICT_SETTLE_MS 1000

/*
 * How long a usage count above baseline may take to come back: a poll
 * bound, met at once when nothing is in flight.  Work in flight after
 * a system resume held a device's count for more than 1000 ms under TCG
 * (docs/verdicts.md, rule 2, measured).
 */
#define DEVPM_VERDICT_COUNT_MS 5000

/*
 * The suspend rule's limit for a device let go by the case: its
 * autosuspend promise (delay + 25 % + DEVPM_AUTOSUSPEND_ALLOW_MS,
 * rpm/autosuspend_timer.h) after what is still in flight
 * (DEVPM_VERDICT_SETTLE_MS).
 */
int devpm_verdict_suspend_ms(long delay_ms);

enum devpm_verdict_rule {
	DEVPM_V_ERROR = 1,
	DEVPM_V_LEAK = 2,
	DEVPM_V_SUSPEND = 4,
	DEVPM_V_ALL = 7,
	/* In devpm_verdict_tree(): the suspend rule for touched devices only. */
	DEVPM_V_TOUCHED = 8,
	/*
	 * Against the state at devpm_verdict_case_begin() too: a count
	 * already above baseline, or an error, when the case began is an
	 * earlier case's (failed there, and in the final re-check).
	 */
	DEVPM_V_SINCE_CASE = 16,
	/*
	 * Not a device a case of the run failed already (run_record.h):
	 * the later cases and the runner's final re-check do not name it
	 * again (one FAIL per device per run).
	 */
	DEVPM_V_UNJUDGED = 32,
};

/* Each device's state as a case begins (devpm_case_setup() calls it). */
void devpm_verdict_case_begin(void);

/*
 * A device the running case reported on (subtest.c calls it for every
 * device line): after the case, the suspend rule applies to it.
 */
void devpm_verdict_touched(const char *dev);

/*
 * Start watching runtime callbacks' errors for this program
 * (devpm_trace_start_rpm_errors(): under `devpm run` the runner's kept
 * trace, else a private tracefs instance removed at exit); without
 * tracefs only runtime_status is seen.  Idempotent.
 */
void devpm_verdict_watch(void);
/* Whether devpm_verdict_watch() was called: subtest.c judges then. */
bool devpm_verdict_active(void);

/*
 * The device's (name or kernel path) case "caused" a runtime error on
 * purpose: the error rule does not apply to it in this process.
 */
void devpm_verdict_expect_error(const char *dev);

/*
 * Judge one device now by the rules given.  Returns 1 with why set (one
 * line naming device, driver, values) when it broke one, 0 when not or
 * when it has no baseline (a device the case created), -errno on error.
 */
int devpm_verdict_device(const struct devpm_baseline *b, const char *dev,
			 unsigned int rules, char *why, size_t len);

/*
 * Every device of the baseline by the rules; fn is called for each that
 * broke one.  Returns how many did.
 */
int devpm_verdict_tree(const struct devpm_baseline *b, unsigned int rules,
		       void (*fn)(void *arg, const char *dev, const char *why),
		       void *arg);

/*
 * After a case restored its knobs: devpm_verdict_tree() against the
 * process's baseline and the state when the case began - error and leak
 * for every device, suspend for those the case reported on - printing "# verdict: <why> (left by case C)"
 * per device.  Returns the number of failures.
 */
int devpm_verdict_case_end(const char *casename);

/*
 * Take one trace event as the watch would (an rpm_return_int with an
 * error return other than the ordinary ones); for unit tests, and
 * devpm_verdict_forget() to start again.
 */
struct devpm_event;
void devpm_verdict_event(const struct devpm_event *ev);
void devpm_verdict_forget(void);

/*
 * Whether the diagnosis names a reason the kernel honours (control=on, an
 * active child, a resume-latency request of 0, runtime PM disabled, no
 * driver, a negative autosuspend delay): a device held so is no driver's
 * bug, for the suspend rule and for rule 6 (probe_idle.h).
 */
struct devpm_diag;
bool devpm_verdict_honoured(const struct devpm_diag *g);

/*
 * The system-sleep callbacks' errors the watch has seen in this process
 * (sleep_fault.h; read up to now), for sleep_verdict.h.  Whether the
 * watch runs at all (without tracefs only suspend_stats names one).
 */
struct devpm_sleep_faults;
const struct devpm_sleep_faults *devpm_verdict_sleep_faults(void);
bool devpm_verdict_sleep_watched(void);

/* The first failure devpm_verdict_case_end() printed ("" none). */
const char *devpm_verdict_first(void);

/* "-5 (EIO)" style name of an errno value. */
const char *devpm_verdict_errno(int ret, char *buf, size_t len);

#endif
