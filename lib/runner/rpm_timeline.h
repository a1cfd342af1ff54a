/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rpm_timeline.h - the runtime-PM timeline of each failed case: after a
 * program ends, the runner reads the window of each of its failed cases
 * from its own trace (kept.h: rn_kept_timeline()) and records every
 * rpm_suspend and rpm_resume call that did something (returned 0 or a
 * real error, not "already active" 1 nor -EAGAIN, -EBUSY, -EINPROGRESS,
 * -EACCES, -EPERM),
 * paired with its rpm_return_int (trace/transition.h), as stream records
 *	TIMELINE <suite>/<prog>/<case> rpm:<case> <phase> <device>
 *	  <driver> <lane> <start_us> <dur_us> <err>
 * (timeline.h's fields, start_us from the case's start) that `devpm
 * report` draws in the failure.  ENV rpm_timeline says whether there was
 * a trace ("trace") or why not.
 */
#ifndef DEVPM_RUNNER_RPM_TIMELINE_H
#define DEVPM_RUNNER_RPM_TIMELINE_H

#include "model.h"
#include "stream.h"
#include "trace/trace.h"

/* Calls recorded per failed case at most (the first ones). */
#define RN_RPM_TL_MAX 400

/*
 * p has just ended: the TIMELINE records of its failed cases from t's
 * buffer.  Returns how many records, -errno when the buffer could not be
 * read (a NOTE says so).
 */
int rn_rpm_timelines(struct rn_stream *st, const struct rn_prog *p,
		     struct devpm_trace *t);

/*
 * The records of one case from events (in time order): exposed for the
 * unit tests.  driver(dev, buf, len) names a device's driver ("-" none).
 */
int rn_rpm_case_timeline(struct rn_stream *st, const char *where,
			 const char *kase, uint64_t from_us, uint64_t to_us,
			 const struct devpm_event *ev, size_t n,
			 void (*driver)(const char *dev, char *buf,
					size_t len));

#endif
