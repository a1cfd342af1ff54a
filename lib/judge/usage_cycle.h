/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usage_cycle.h - usage balance over control cycles, for any device that can
 * suspend (rule 4 of docs/verdicts.md).
 *
 * Where a suite knows no access that resumes a device through its driver,
 * usage_balanced_after_cycles still cycles it: control on (pm_runtime_forbid:
 * one usage reference, a synchronous resume) then auto (pm_runtime_allow:
 * the reference dropped, rpm_idle()).  After each auto the device must be
 * suspended again, and its usage count must be back at its baseline: a
 * driver whose runtime_resume takes a reference it never drops drifts on
 * the first cycle.  Given a trace, each suspend must also begin when the
 * kernel promised (rpm/autosuspend_timer.h; add its hrtimer events with
 * devpm_autosuspend_trace()).
 */
#ifndef DEVPM_CYCLE_H
#define DEVPM_CYCLE_H

#include <stdint.h>
#include "rpm/device.h"
#include "trace/trace.h"

#define DEVPM_CYCLES_MIN 10

struct devpm_usage_cycle {
	int done;		/* cycles completed */
	int drift;		/* 1-based cycle that drifted; 0 none */
	long usage0;		/* baseline usage, control=on's not counted */
	long usage;		/* the same, last read */
	const char *usage_src;	/* "runtime_usage" | "rpm trace" */
	uint64_t elapsed_us;
	char why[512];		/* what went wrong, in which cycle */
};

/*
 * Cycle d's control on -> auto n times (journaled writes; the caller's
 * case restores control).  t: a trace of d, used for the usage count when
 * runtime_usage is absent and for the suspend's timing (NULL: polling
 * only, no timing).  bound_ms: how long past its delay the wait for each
 * suspend goes on (a bound, not a limit).  Returns 0 when every
 * cycle suspended again and came back to baseline usage, 1 when one did
 * not (c->why names the cycle and the counts), -errno on error.
 */
int devpm_usage_cycle_control(struct devpm_dev *d, struct devpm_trace *t, int n,
			int bound_ms, struct devpm_usage_cycle *c);

#endif
