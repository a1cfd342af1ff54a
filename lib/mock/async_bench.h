/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * async_bench.h - a bench of mock devices (devpm_mock.<id>, docs/fixtures.md)
 * with known callback delays, parents and a device link, and its two
 * system-sleep cycles: a pm_test=platform cycle with
 * /sys/power/pm_async=1 and a pm_test=devices cycle with 0.
 *
 * A cycle that suspends every device costs the machine's whole resume,
 * so the cycles are shared: the first case that needs them runs them and
 * saves them (sleep_cycle_cache.h), the later cases of the same run read
 * them back.  The first case also makes the cycles of the other pm_test
 * levels, saved for a case that counts them (levels).
 */
#ifndef DEVPM_ASYNC_BENCH_H
#define DEVPM_ASYNC_BENCH_H

#include <stdbool.h>
#include <stddef.h>

struct devpm_trace;
struct devpm_sleep_cycle;

/* One device of the bench; its id is its index. */
struct devpm_async_bench_dev {
	int parent;		/* DEVPM_MOCK_NO_PARENT or an id */
	int async;		/* power.async_suspend at creation */
	bool async_off;		/* then power/async=disabled */
	long us;		/* suspend and resume delay */
	long budget_us;		/* mock/resume_budget_us, 0 none */
	bool sync_judged;	/* the pm_async=0 cycle judges it */
};

struct devpm_async_bench {
	const struct devpm_async_bench_dev *dev;
	int n;
	int link_consumer, link_supplier;	/* -1: no link */
	const char *glob;	/* the devices' names, for the trace */
};

/* The bench cycles this run saved: 0, or -ENOENT (run them). */
int devpm_async_bench_load(struct devpm_sleep_cycle *on,
			   struct devpm_sleep_cycle *off);

/* Can this kernel run them?  0, or 1 with why (no pm_test, no s2idle). */
int devpm_async_bench_usable(char *why, size_t len);

/*
 * A delay or budget that is negative or absurd is refused by mock device
 * id (made already), with one line that names it (lib/mock/mock.c, the
 * module's store functions).  0 when all four are, else 1 with why.
 */
int devpm_async_bench_bad_input(int id, char *why, size_t len);

/*
 * Create the bench (journaled: the case's restore removes it), trace it
 * into *t, run both cycles into on and off and save them; a judged
 * callback longer than its delay allows gets one more cycle (a
 * descheduled vCPU under TCG lengthens one callback of one cycle).  With
 * levels, also the other pm_test levels' cycles.  0, 1 (skip: why), -1
 * (why).
 */
int devpm_async_bench_cycles(const struct devpm_async_bench *bench,
			     const char *casename, bool levels,
			     struct devpm_trace **t,
			     struct devpm_sleep_cycle *on,
			     struct devpm_sleep_cycle *off, char *why,
			     size_t len);

#endif
