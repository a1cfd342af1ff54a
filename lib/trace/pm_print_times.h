/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pm_print_times.h - the kernel's own per-callback times of a system
 * sleep cycle, from the log lines /sys/power/pm_print_times=1 asks for
 * (drivers/base/power/main.c: initcall_debug_start(),
 * initcall_debug_report(), through dev_info()):
 *
 *   <driver> <dev>: PM: calling <cb>+0x0/0x50 [mod] @ <pid>, parent: <p>
 *   <driver> <dev>: PM: <cb>+0x0/0x50 [mod] returned <err> after <n> usecs
 *
 * ("PM: " is main.c's pr_fmt; " [mod]" only for a callback in a module).
 * Both <driver> and <dev> may hold spaces ("i8042 kbd 00:00"): records
 * are matched to traced callbacks by the whole "<driver> <dev>".
 *
 * They are printed around dpm_run_callback() and legacy_suspend() only:
 * prepare and complete have trace events but no such lines.  The time is
 * ktime_get() around the callback, the trace's is the mono trace clock
 * around the same call: they must agree.
 */
#ifndef DEVPM_PM_PRINT_TIMES_H
#define DEVPM_PM_PRINT_TIMES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "trace/sleep_trace.h"

/* One callback as the kernel reported it. */
struct devpm_pm_print {
	char who[192];		/* "<driver> <dev>" as printed */
	char func[64];		/* the callback's symbol, no offset */
	int pid;		/* from the "calling" line; 0 if not seen */
	int err;
	uint64_t usecs;
};

/*
 * Collects the records of a cycle: feed it every kmsg line
 * (devpm_kmsg_drain(k, devpm_pm_prints_line, &p)).  A "returned" line
 * completes the record its "calling" line began.
 */
struct devpm_pm_prints {
	struct devpm_pm_print *rec;
	size_t n, cap;
	size_t unmatched;	/* "returned" lines with no "calling" */
};
void devpm_pm_prints_line(const char *line, void *prints);
void devpm_pm_prints_free(struct devpm_pm_prints *p);
/*
 * As text and back (another case of the program reads the judging case's
 * cycle): "unmatched N", then "rec pid err usecs func who" a line,
 * tab-separated.  0, or -errno (-EINVAL on a bad line).
 */
int devpm_pm_prints_save(const struct devpm_pm_prints *p, FILE *f);
int devpm_pm_prints_load(FILE *f, struct devpm_pm_prints *p);

/*
 * Parse one line.  1: a "calling" line (who, func, pid set);
 * 2: a "returned" line (who, func, err, usecs); 0: neither.
 */
int devpm_pm_print_parse(const char *line, struct devpm_pm_print *out);

/*
 * The kernel's record of a traced callback: the k-th record of cb's
 * "<driver> <dev>" where cb is the k-th callback of that device in c outside
 * prepare and complete.  NULL when there is none (prepare/complete, or
 * the record was lost).
 */
const struct devpm_pm_print *
devpm_pm_print_for(const struct devpm_pm_prints *p,
		   const struct devpm_sleep_cycle *c,
		   const struct devpm_pm_cb *cb);

/* What the kernel's wider timing window may add beyond the limit. */
#define DEVPM_PM_PRINT_GAP_US	500

/*
 * Do the trace's and the kernel's time of one callback agree, within
 * 10 % of the kernel's or 200 µs (whichever is larger; the kernel's
 * figure may exceed the trace's by DEVPM_PM_PRINT_GAP_US more)?  0 yes, 1 no;
 * why has both values and the limit.
 */
int devpm_pm_print_agree(uint64_t trace_us, uint64_t kernel_us, char *why,
			 size_t len);

/*
 * Every traced callback of dev in c outside prepare/complete against the
 * kernel's record in pr: 0 all agree; 1 not (why says the first that
 * does not); 2 not, but only by the kernel's figure being the larger, so
 * that an interruption of dpm_run_callback() outside the callback
 * explains it.  kern gets "phase=us ..." of the kernel's figures.
 */
int devpm_pm_print_dev_agree(const struct devpm_sleep_cycle *c,
			     const struct devpm_pm_prints *pr, const char *dev,
			     char *kern, size_t klen, char *why, size_t len);

/*
 * devpm_pm_print_dev_agree() for every device of c with a timed callback:
 * 0 all agree, 1 not (why names the first device), 2 not but only by the
 * kernel's figures being the larger.  *ndev: the devices compared.
 */
int devpm_pm_prints_agree_all(const struct devpm_sleep_cycle *c,
			      const struct devpm_pm_prints *pr, int *ndev,
			      char *why, size_t len);

#endif
