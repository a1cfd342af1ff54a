/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wait_latency.h - how long after the kernel's transition a runtime-status
 * wait returned.
 *
 * A traced wait (wait.c) knows when the kernel changed the status (the
 * rpm_return_int / rpm_status event, on the trace's "mono" clock, which is
 * CLOCK_MONOTONIC) and when it saw it; the difference is time the case
 * spent for nothing.  The samples of one case are reported as the metrics
 * "-" wait_lag_us_p50 and wait_lag_us_p99 (nothing when no wait was
 * traced); a wait should end within 20 ms of the transition.
 */
#ifndef DEVPM_WAIT_LATENCY_H
#define DEVPM_WAIT_LATENCY_H

#include <stddef.h>
#include <stdint.h>

/* A case begins: forget the samples. */
void devpm_wait_latency_begin(void);

/* One wait saw at seen_us the transition the kernel made at kernel_us. */
void devpm_wait_latency_add(uint64_t kernel_us, uint64_t seen_us);

/*
 * The pct-th percentile (nearest rank) of the samples in µs: 0 with *us
 * set, -ENODATA when there are none.
 */
int devpm_wait_latency_pct(unsigned int pct, uint64_t *us);

size_t devpm_wait_latency_count(void);

/* "# METRIC - wait_lag_us_p50=..." and p99, when there are samples. */
void devpm_wait_latency_report(void);

#endif
