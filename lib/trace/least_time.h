/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * least_time.h - the time a case cannot beat: the kernel delays it must wait
 * out (the autosuspend delay before each suspend it waits for, a mock
 * callback's configured delay, a hold the check itself needs).
 *
 * Each delay is an interval of CLOCK_MONOTONIC; the floor is the length of
 * their union since the case began, so devices that wait out their
 * delays at the same time count once and a chain (a child's delay, then
 * its parent's) counts in full.  The waits add theirs (wait.c); a case
 * adds what no wait sees.  Reported per case as the metric "-" floor_ms
 * (devpm_least_time_report(), from the case's teardown), for the runner and the
 * bench scripts to sum per program and compare with its duration.
 */
#ifndef DEVPM_LEAST_TIME_H
#define DEVPM_LEAST_TIME_H

#include <stdint.h>

/* A case begins: forget the intervals; those before now are not its. */
void devpm_least_time_begin(void);

/* The kernel had to wait len_us from from_us (CLOCK_MONOTONIC, µs). */
void devpm_least_time_add(uint64_t from_us, uint64_t len_us);

/* A delay of ms ending at end_us (a suspend that waited its delay). */
void devpm_least_time_add_before(uint64_t end_us, long ms);

/* Length of the union of the intervals since devpm_least_time_begin(), µs. */
uint64_t devpm_least_time_us(void);

/* "# METRIC - floor_ms=<ms>" for the case. */
void devpm_least_time_report(void);

#endif
