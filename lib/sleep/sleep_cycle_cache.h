/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleep_cycle_cache.h - the traced sleep cycles of one run of a test program,
 * shared by its cases: each case is a child of the harness, getppid()
 * names the run.  In the journal's directory (root's, 0700):
 * async-cycle-<run>-<name>.cycle (sleep_trace.h text) and .meta.  Files
 * of runs that are gone are removed when a new one is saved; a file is
 * created O_EXCL without following a symlink and read only if this user
 * wrote it and nobody else may write it.
 */
#ifndef DEVPM_CYCLE_CACHE_H
#define DEVPM_CYCLE_CACHE_H

#include "trace/sleep_trace.h"

/*
 * What a cycle was: its pm_test level and state, the write's result, the
 * success count around it, how long it took, the name its TIMELINE lines
 * carry.
 */
struct devpm_sleep_cycle_meta {
	char level[16];
	char state[16];
	int ret;
	long success_before, success_after;
	unsigned long long wall_us;
	char name[64];
};

/* Save c and m under name; on any error nothing is saved. */
void devpm_sleep_cycle_cache_save(const char *name,
			    const struct devpm_sleep_cycle *c,
			    const struct devpm_sleep_cycle_meta *m);

/*
 * 0 with c (and m, if not NULL) filled from an earlier case of this run,
 * else -1 (c zeroed): the caller runs the cycle.
 */
int devpm_sleep_cycle_cache_load(const char *name, struct devpm_sleep_cycle *c,
			   struct devpm_sleep_cycle_meta *m);

/*
 * The kernel's pm_print_times records of a cycle beside it (name.prints;
 * pm_print_times.h), with the kernel log's lost records: save ignores
 * errors, load 0 or -1 (pr zeroed).
 */
struct devpm_pm_prints;
void devpm_pm_prints_cache_save(const char *name,
				const struct devpm_pm_prints *pr,
				unsigned long lost);
int devpm_pm_prints_cache_load(const char *name, struct devpm_pm_prints *pr,
			       unsigned long *lost);

#endif
