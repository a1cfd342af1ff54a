/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleep_devices.h - the machine's own devices through a traced system-sleep
 * cycle, judged one by one: the case that owns their system sleep
 * (judge/sleep_verdict.h, DEVPM_SLEEP_JUDGE) gives each device with a
 * callback outside prepare/complete one line.  A device fails for
 *
 *  - a callback that returned an error, any phase (the trace's
 *    device_pm_callback_end: judge/sleep_verdict.h's words);
 *  - its parent's or a supplier's callback (a device link the PM core
 *    orders: not dormant) overlapping its own in a phase: a child or
 *    consumer suspends first and resumes last (drivers/base/power/main.c:
 *    dpm_wait_for_subordinate(), dpm_wait_for_superior(), and the walk of
 *    dpm_list in both directions);
 *  - a resume-side callback longer than the run's resume budget
 *    (--resume-budget-ms: DEVPM_RESUME_BUDGET_MS, 0 none);
 *  - a PCI device left shallower than pci_prepare_to_sleep() promised
 *    at the end of suspend_noirq (pci_sleep_state.h).
 *
 * Its callbacks' µs per phase are its metrics; the five slowest devices
 * go on "# " lines and into a TIMELINE cycle of their own.
 */
#ifndef DEVPM_SLEEP_DEVICES_H
#define DEVPM_SLEEP_DEVICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/sleep_trace.h"

#define DEVPM_RESUME_BUDGET_ENV	"DEVPM_RESUME_BUDGET_MS"

/* The run's resume budget in µs; 0 when none (or not a number). */
uint64_t devpm_resume_budget_us(void);

/* One device's callbacks in a cycle. */
struct devpm_sleep_dev {
	char dev[128];
	char driver[64];
	char parent[128];
	uint64_t us[DEVPM_PH_NR];	/* per phase, summed */
	uint64_t total;
	bool timed;		/* a callback outside prepare/complete */
};

/*
 * The devices of c, in the order of their first callback: *d malloc'd
 * (free it), *n set.  0 or -ENOMEM.
 */
int devpm_sleep_devs(const struct devpm_sleep_cycle *c,
		     struct devpm_sleep_dev **d, size_t *n);
/* "suspend=12 suspend_late=3 ..." of the phases with a callback. */
void devpm_sleep_dev_phases(const struct devpm_sleep_dev *d, char *buf,
			    size_t len);
/* The suspend side's (prepare .. suspend_noirq) or resume side's µs. */
uint64_t devpm_sleep_dev_side_us(const struct devpm_sleep_dev *d,
				 bool suspend);

/* A device link: the consumer suspends before, resumes after, the supplier. */
struct devpm_devlink {
	char supplier[128];
	char consumer[128];
};

/*
 * /sys/class/devlink's links the PM core orders (status other than
 * "dormant"): *v malloc'd, *n set.  0, or -errno (none: 0 and n 0).
 */
int devpm_devlinks_read(struct devpm_devlink **v, size_t *n);

/*
 * dev's first callback error in c: 1 with why (the rule's words), 0 none.
 */
int devpm_sleep_dev_error(const struct devpm_sleep_cycle *c, const char *dev,
			  char *why, size_t len);
/*
 * dev's order against its parent and its suppliers in every phase
 * where both ran a callback: 1 with why at the first that does not
 * hold, 0 when all do; *checked counts the pairs looked at.
 */
int devpm_sleep_dev_order(const struct devpm_sleep_cycle *c, const char *dev,
			  const struct devpm_devlink *links, size_t nlinks,
			  char *why, size_t len, int *checked);
/*
 * dev's resume-side callbacks against budget_us (0: none): 1 with why
 * naming the phase and its time at the slowest one over it, else 0.
 */
int devpm_sleep_dev_budget(const struct devpm_sleep_cycle *c, const char *dev,
			   uint64_t budget_us, char *why, size_t len);

/*
 * The k slowest of d[0..n) by their total: "# slowest i: ..." lines and
 * their callbacks as the TIMELINE lines of cycle "<cycle>.slowest" (sorts
 * d by total, slowest first).
 */
void devpm_sleep_devs_slowest(const struct devpm_sleep_cycle *c,
			      struct devpm_sleep_dev *d, size_t n, size_t k,
			      const char *cycle);

/*
 * One real cycle of the machine into state ("freeze"; "mem" with
 * mem_sleep "deep", journaled): pm_test none, woken by the platform
 * (platform_wake.h), traced by t into c (devpm_sleep_traced()).  0 with
 * *ret the write's result and *wall_us its time; 1 with why when the
 * machine has no such state or no wake for it; -1 with why.
 */
struct devpm_trace;
int devpm_sleep_devices_cycle(struct devpm_trace *t, const char *state,
			      struct devpm_sleep_cycle *c, int *ret,
			      uint64_t *wall_us, char *why, size_t len);

/*
 * The cycles one judgment covers: s2idle and S3 (names for the lines);
 * pci: the cycle's PCI D-states with what pci_prepare_to_sleep()
 * promised each (pci_sleep_state.h; NULL none).
 */
struct devpm_pci_sleep_log;
struct devpm_sleep_judged {
	const struct devpm_sleep_cycle *c;
	const char *name;		/* "s2idle", "S3" */
	const char *metric_prefix;	/* "" for the first, "s3_" ... */
	const struct devpm_pci_sleep_log *pci;
};

/*
 * One line per device with a callback outside prepare/complete in any of
 * the cycles, in sub: errors, order (links too), the resume budget, a
 * PCI device's D-state at suspend_noirq against the promise, its
 * µs per phase as metrics; held: a wakeup source held (wakeup_source.h)
 * whose device fails with these words (NULL/"" none; its device gets a
 * line even without a callback).  Returns the devices judged.
 */
struct devpm_subtest;
struct devpm_wakeup_source;
size_t devpm_sleep_devices_judge(struct devpm_subtest *sub,
				 const struct devpm_sleep_judged *cy,
				 size_t ncy, uint64_t budget_us,
				 const char *held_dev, const char *held);

/*
 * A real s2idle cycle with the kernel's pm_print_times records: *t and
 * *k made on first use (stopped and closed by the caller), the cycle into
 * c, the records into pr, the kernel log's lost records into *lost.  0,
 * 1 skip (why: no trace, no s2idle, no wake), -1 (why).
 */
struct devpm_kmsg;
struct devpm_pm_prints;
int devpm_sleep_devices_prints_cycle(struct devpm_trace **t,
				     struct devpm_kmsg **k,
				     struct devpm_sleep_cycle *c,
				     struct devpm_pm_prints *pr,
				     unsigned long *lost, char *why,
				     size_t len);

/*
 * With DEVPM_SLEEP_RECORD=1: the cycle's phases and the callbacks of the
 * devices whose name holds glob, as "# RECORD <name> <trace line>" (for
 * fixtures/trace/qemu-6.1/, the unit tests' recorded cycles).
 */
void devpm_sleep_record(struct devpm_trace *t, const char *name,
			const char *glob);

#endif
