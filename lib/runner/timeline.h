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
 */
#ifndef DEVPM_RUNNER_TIMELINE_H
#define DEVPM_RUNNER_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include "util.h"

struct rn_tl_event {
	char *cycle, *phase, *device, *driver;
	int lane;
	uint64_t start_us, dur_us;
	int err;
	char *where;		/* suite/program[/case] that printed it */
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

/* The SVG of one cycle's events into b. */
void rn_tl_svg(struct rn_buf *b, const struct rn_timeline *tl,
	       const char *cycle);

#endif
