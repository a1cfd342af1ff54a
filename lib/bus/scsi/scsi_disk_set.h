/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scsi_disk_set.h - a set of SCSI disks under test, each with its target
 * and host: which disks devpm may test, a trace of all of them, I/O cycles
 * run on all of them at once (each burst when its disk is found
 * suspended), so that slow disks do not add up, and a disk's drop-out in
 * such a phase, which its own block (block.h) reports at the end.
 */
#ifndef DEVPM_SCSI_DISK_SET_H
#define DEVPM_SCSI_DISK_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/block.h"
#include "rpm/device.h"
#include "judge/subtest.h"
#include "bus/scsi/scsi.h"
#include "trace/trace.h"

/* A disk under test. */
struct devpm_test_disk {
	const struct devpm_scsi_disk *d;
	struct devpm_dev sd, tgt, host;
	bool on;		/* still under test */
	bool skip;		/* dropped out as a SKIP, not a FAIL */
	char why[768];		/* why it dropped out */
};

/* Open sd, target and host of d into x; -1 (devpm_error()) on error. */
int devpm_test_disk_init(const struct devpm_scsi_disk *d,
			 struct devpm_test_disk *x);

/* devpm_test_disk_init(), with a FAIL line for d on error. */
int devpm_test_disk_open(struct devpm_subtest *s, const struct devpm_scsi_disk *d,
			 struct devpm_test_disk *x);

/*
 * Drop x out of the test (x->on false) in a phase run on many disks: its
 * block's devpm_test_disk_check() ends as a FAIL with why (which may be
 * x->why), or, after devpm_test_disk_drop_skip(), as a SKIP.
 */
void devpm_test_disk_drop(struct devpm_test_disk *x, const char *why);
void devpm_test_disk_drop_skip(struct devpm_test_disk *x, const char *why);

/*
 * In x's block: a disk that dropped out ends it here, a FAIL naming its
 * block device ("sdb: why") or a SKIP with why; a disk still on goes on.
 */
void devpm_test_disk_check(struct devpm_block *b,
			   const struct devpm_test_disk *x);

/* End x's block as a FAIL naming its block device: "sdb: <fmt>". */
void devpm_test_disk_abort(struct devpm_block *b,
			   const struct devpm_test_disk *x, const char *fmt,
			   ...) __attribute__((format(printf, 3, 4), noreturn));

/*
 * The disks of d[0..n) whose PM knobs devpm may write (and, with data,
 * that it may write test data to), with a block device and a medium,
 * opened into x; the others get a SKIP line.  Returns the count.
 */
size_t devpm_disk_set_select(struct devpm_subtest *s,
			     const struct devpm_scsi_disk *d, size_t n,
			     bool data, struct devpm_test_disk *x);

/*
 * A trace of the rpm events of names (a calloc'd, NULL-ended array, freed
 * here), or NULL with a "# " note: the waits then poll runtime_status.
 */
struct devpm_trace *devpm_disk_set_trace_names(const char **names);

/* Trace every disk, target and host of x[0..n), and up to 7 extra. */
struct devpm_trace *devpm_disk_set_trace(struct devpm_test_disk *x, size_t n,
					 const char *const *extra);

/*
 * Run `cycles` bursts on every disk of x[0..n) still on: each when its sd
 * device is found suspended, at most bound_ms after the previous one.
 * Between checks it waits for a trace event (or, without one, backs off
 * 1-16 ms: a suspend is seen within 20 ms).  Each suspend after a burst
 * adds its autosuspend delay to the case's floor (least_time.h).  burst()
 * returns 0, or -1 with x->why set; a disk that fails or never suspends
 * drops out (on false) with x->why set.
 */
void devpm_disk_set_cycles(struct devpm_test_disk *x, size_t n,
			   struct devpm_trace *t, int cycles, int bound_ms,
			   int (*burst)(struct devpm_test_disk *x, size_t i,
					int cycle, void *arg),
			   void *arg);

#endif
