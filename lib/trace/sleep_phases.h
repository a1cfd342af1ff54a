/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleep_phases.h - the per-phase figures of one traced sleep cycle
 * (sleep_trace.h): how long a phase or a whole side took, which phases
 * the trace saw.
 */
#ifndef DEVPM_CYCLE_PHASES_H
#define DEVPM_CYCLE_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/sleep_trace.h"

/* Span of a phase from its suspend_resume events, µs; 0 if not seen. */
uint64_t devpm_sleep_phase_us(const struct devpm_sleep_cycle *c,
			      enum devpm_pm_phase ph);

/*
 * From dpm_prepare's begin to dpm_suspend_noirq's end (or the last
 * suspend phase seen), and from dpm_resume_noirq's begin to
 * dpm_complete's end; µs, 0 if not seen.
 */
uint64_t devpm_sleep_side_us(const struct devpm_sleep_cycle *c,
			     bool suspend);

/* The phases the trace saw, "prepare,suspend,...", or "none". */
void devpm_sleep_phases_seen(const struct devpm_sleep_cycle *c, char *buf,
			     size_t len);

/*
 * A cycle's figures on one "# " line: "<what>: returned <err> after N ms:
 * suspend N us (prepare .., suspend .., late .., noirq ..), resume ...;
 * N callbacks".
 */
void devpm_sleep_phases_note(const char *what,
			     const struct devpm_sleep_cycle *c,
			     uint64_t wall_us, int ret);
/*
 * Its machine-wide metrics (device "-"): suspend_us, resume_us, <phase>_us,
 * cycle_ms and resume_over_suspend.
 */
void devpm_sleep_phases_metrics(const struct devpm_sleep_cycle *c,
				uint64_t wall_us);

#endif
