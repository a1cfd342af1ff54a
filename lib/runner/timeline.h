/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * timeline.h - the PM callbacks test programs print as KTAP diagnostic
 * lines, and their SVG timeline (one row per device, one per async lane),
 * drawn for `devpm report`:
 *	# TIMELINE <cycle> <phase> <device> <driver> <lane> <start_us>
 *	  <dur_us> <err>
 * (one line, single spaces) cycle names a suspend cycle or a case's runtime
 * transitions, phase is a system-sleep phase or rpm_suspend/rpm_resume,
 * driver "-" for none, lane the pid of the kernel thread that ran the
 * callback, start_us from the cycle's first event, err its return.
 * The runner adds the runtime-PM calls of a failed case as stream records
 * "TIMELINE <suite>/<prog>/<case> <the same fields>" (rpm_timeline.h),
 * cycle "rpm:<case>", start_us from the case's start.
 */
#ifndef DEVPM_RUNNER_TIMELINE_H
#define DEVPM_RUNNER_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util.h"

struct rn_tl_event {
	char *cycle, *phase, *device, *driver;
	int lane;
	uint64_t start_us, dur_us;
	int err;
	char *where;		/* suite/program[/case] that printed it */
	bool runner;		/* a TIMELINE record of the runner's */
};

struct rn_timeline {
	struct rn_tl_event *ev;
	size_t n, cap;
	size_t bad;		/* TIMELINE lines that could not be read */
	char *first_bad;
};

/*
 * One program output line (leading blanks allowed).  1 and *ev filled (free
 * with rn_tl_event_free), 0 when it is no TIMELINE line, -1 when it is one
 * that is malformed.
 */
int rn_tl_parse(const char *line, struct rn_tl_event *ev);
void rn_tl_event_free(struct rn_tl_event *ev);

/*
 * Every TIMELINE line of a stream file (stream.h), each with the program
 * and case it came from.  0, or -errno when the file cannot be read.
 */
int rn_tl_read_stream(const char *path, struct rn_timeline *tl);
void rn_tl_free(struct rn_timeline *tl);

/* Distinct cycle names in order of appearance; free the array only. */
size_t rn_tl_cycles(const struct rn_timeline *tl, const char ***names);

/* What the report says of a cycle before its drawing. */
struct rn_tl_sum {
	size_t ndev;		/* devices with an event */
	size_t nshown;		/* rows of their own (not folded) */
	size_t nerr;		/* devices with a failed callback */
	const struct rn_tl_event *slowest;	/* longest callback */
	const char *where;	/* of its first event */
};

/* Callbacks shorter than this are folded into one row (report.html). */
#define RN_TL_FOLD_US 1000

void rn_tl_summary(const struct rn_timeline *tl, const char *cycle,
		   uint64_t fold_us, struct rn_tl_sum *s);

/*
 * The SVG of one cycle's events into b: a row per device, the slowest
 * device (longest callback) first; with fold_us, the devices whose every
 * callback is shorter than fold_us and none failed share one last row.
 * fold_us 0: every device a row, in the order of their first event.
 */
void rn_tl_svg(struct rn_buf *b, const struct rn_timeline *tl,
	       const char *cycle, uint64_t fold_us);

#endif
