/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * baseline.h - every device's runtime-PM state before a run touched it.
 *
 * Cases judge a device against this baseline, never against a state that
 * an earlier case caused: a usage count above it is a leaked reference, a
 * device that suspended at baseline and no longer does is a driver bug
 * (verdict.h).  `devpm run` takes the baseline before its first program
 * and writes it to <output dir>/baseline.tsv; test programs read the file
 * DEVPM_BASELINE names.  A program run by hand takes its own at start.
 *
 * File format (text, tab-separated, one device a line, "-" for empty):
 *	# devpm baseline 1 usage=<sysfs|none>
 *	path name bus driver status control usage active_kids enabled
 *	autosuspend_delay_ms could_suspend role
 * usage and active_kids are -1 when the kernel does not show them
 * (runtime_usage needs CONFIG_PM_ADVANCED_DEBUG); could_suspend is 0/1.
 */
#ifndef DEVPM_BASELINE_H
#define DEVPM_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include "rpm/device.h"

#define DEVPM_BASELINE_ENV "DEVPM_BASELINE"
#define DEVPM_BASELINE_FILE "baseline.tsv"

struct devpm_base_dev {
	char path[DEVPM_PATH_MAX];
	char name[128];
	char bus[32];
	char driver[64];
	char status[16];	/* "" when power/runtime_status is absent */
	char control[8];	/* "" when absent */
	long usage;		/* -1 unknown */
	long active_kids;	/* -1 unknown */
	char enabled[24];	/* runtime_enabled, "" unknown */
	long autosuspend_delay_ms;	/* LONG_MIN when unreadable */
	/*
	 * Suspended at baseline, or would when allowed: no usage reference
	 * beyond control=on's, no active child, runtime PM enabled, no
	 * resume-latency request of 0, not in error.
	 */
	bool could_suspend;
	char role[32];		/* why (not): see devpm_baseline_judge() */
};

struct devpm_baseline {
	struct devpm_base_dev *v;
	size_t n;
	bool have_usage;	/* runtime_usage shown (ADVANCED_DEBUG) */
	char source[DEVPM_PATH_MAX];	/* the file, or "taken at start" */
	/* Taken: reads of the counts after the first (1: calm at once). */
	unsigned int passes;
};

/*
 * References beyond the ones user space's knobs hold: control=on holds
 * one (pm_runtime_forbid()), and so does a negative autosuspend delay of
 * a driver that uses autosuspend (update_autosuspend() in
 * drivers/base/power/runtime.c; autosuspend_delay_ms is readable only
 * then).  delay_ms: LONG_MIN when unreadable.
 */
long devpm_usage_held(long usage, const char *control, long delay_ms);

/*
 * The references d held at the run's baseline beyond its knobs'
 * (devpm_usage_held()), or -1: not in the baseline, no usage count
 * there, or bound to another driver then.
 */
long devpm_baseline_usage(const struct devpm_dev *d);

/* Role and could_suspend of one device from its snapshot. */
void devpm_baseline_judge(const struct devpm_dev *d, struct devpm_base_dev *b);

/* Snapshot every device with a power/ directory. 0 or -errno. */
int devpm_baseline_take(struct devpm_baseline *b);
/*
 * Write atomically (<name>.tmp created O_EXCL | O_NOFOLLOW, renamed) in
 * the directory dfd (a run directory devpm made); 0 or -errno with
 * devpm_error().  _write: the same in file's directory, walked by
 * path_trust.h's rule.
 */
int devpm_baseline_write_at(const struct devpm_baseline *b, int dfd,
			    const char *name);
int devpm_baseline_write(const struct devpm_baseline *b, const char *file);
/*
 * Read a file written by devpm_baseline_write().  Its directory must pass
 * path_trust.h's rule and the file be a regular file, not a symlink,
 * owned by us or root, not writable by others and at most 256 MiB:
 * -EPERM otherwise; -EINVAL on a malformed line (devpm_error() names it).
 * devpm_baseline() reads DEVPM_BASELINE only when it passes the rule.
 */
int devpm_baseline_read(struct devpm_baseline *b, const char *file);
void devpm_baseline_free(struct devpm_baseline *b);

/* Entry by kernel path or by name (first in path order); NULL if none. */
const struct devpm_base_dev *devpm_baseline_find(const struct devpm_baseline *b,
						 const char *name_or_path);

/*
 * d as it was at baseline: its runtime status, control, usage and active
 * children from the process's baseline, when the device is in it with the
 * same driver (false otherwise, d unchanged).  Roles ("its driver keeps
 * the probe's reference", "can suspend") come from this, never from a
 * state an earlier case may have caused.
 */
bool devpm_baseline_apply(struct devpm_dev *d);

/*
 * The process's baseline: the file DEVPM_BASELINE names, else one taken
 * now (once).  NULL when neither works (devpm_error() says why).
 */
const struct devpm_baseline *devpm_baseline(void);
/* Forget the process's baseline (unit tests). */
void devpm_baseline_reset(void);

#endif
