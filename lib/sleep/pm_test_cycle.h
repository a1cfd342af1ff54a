/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pm_test_cycle.h - one traced system-sleep cycle at a pm_test level
 * (kernel/power/suspend.c: suspend_test()), and the phases each level
 * runs.
 */
#ifndef DEVPM_PM_TEST_CYCLE_H
#define DEVPM_PM_TEST_CYCLE_H

#include <stddef.h>

struct devpm_trace;
struct devpm_sleep_cycle;
struct devpm_sleep_cycle_meta;

/*
 * The state to write for a level: s2idle refuses core and processors
 * (enter_state(): -EAGAIN); those levels go through mem with mem_sleep
 * deep (journaled), which they never enter: core stops after
 * syscore_suspend(), before ->enter.  NULL with why when there is no
 * deep mem_sleep to test them with.
 */
const char *devpm_pm_test_state(const char *level, char *why, size_t len);

/*
 * One cycle at a pm_test level in state, traced into c and printed as
 * the TIMELINE lines of name; m says what it was.  0 (*r the parse's
 * result, m->ret the state write's), or -1 (why: a knob or
 * suspend_stats).
 */
int devpm_pm_test_cycle(struct devpm_trace *t, const char *level,
			const char *state, const char *name,
			struct devpm_sleep_cycle *c,
			struct devpm_sleep_cycle_meta *m, int *r, char *why,
			size_t len);

/* The phases (1 << enum devpm_pm_phase) a level runs. */
unsigned int devpm_pm_test_phases(const char *level);
/* The phases a traced cycle began and ended. */
unsigned int devpm_pm_test_phases_seen(const struct devpm_sleep_cycle *c);

#endif
