/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kept.h - what the runner makes once and keeps for every program it
 * starts: the floor's sleep probes (least_time_sleeps.h) and a trace of every
 * device's runtime-PM calls, DEVPM_TRACE_RPM_KEPT (trace.h), which the
 * floor's windows and the verdict's error watch read.  Each program would
 * otherwise make its own, and turning a tracepoint or a kprobe on or off
 * patches kernel text: 0.1-0.3 s a program under TCG.
 *
 * rn_kept_begin() after devpm_trace_pool_share(): makes them in a thread,
 * beside the runner's own start (its baseline).  rn_kept_ready() before
 * the first program, rn_kept_end() after the last.  What could not be
 * made, each program makes for itself or says why it cannot.
 */
#ifndef DEVPM_RUNNER_KEPT_H
#define DEVPM_RUNNER_KEPT_H

void rn_kept_begin(void);
void rn_kept_ready(void);
void rn_kept_end(void);

/*
 * The runner's own trace of every device's rpm_suspend, rpm_resume and
 * rpm_return_int, read by nobody while programs run: after a program with
 * a failed case the runner reads that case's window from its buffer
 * (rpm_timeline.h).  NULL when it could not be made (why: *why).
 */
struct devpm_trace *rn_kept_timeline(const char **why);

#endif
