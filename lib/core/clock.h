/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * clock.h - CLOCK_MONOTONIC in µs (the trace's "mono" clock: trace.h), a
 * sleep that survives signals, and what is left of a deadline.
 */
#ifndef DEVPM_CLOCK_H
#define DEVPM_CLOCK_H

#include <stdint.h>

uint64_t devpm_now_us(void);

/* Sleep ms milliseconds, again after a signal. */
void devpm_sleep_ms(int ms);

/* Milliseconds left until deadline_us (devpm_now_us()), rounded up; 0 past. */
int devpm_ms_left(uint64_t deadline_us);

#endif
