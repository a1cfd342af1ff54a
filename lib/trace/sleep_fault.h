/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleep_fault.h - the system-sleep callbacks that returned an error, read
 * from a trace as it goes (the verdict's watch, verdict.h): every
 * power:device_pm_callback_end with error < 0 and the dpm_* phase open
 * when it ended (power:suspend_resume).  Phases end with
 * async_synchronize_full() (drivers/base/power/main.c: dpm_suspend(),
 * dpm_resume(), ...), so an async callback ends inside its phase too.
 *
 * The events to enable, for a trace of every device: devpm_sleep_fault_
 * events (the callbacks' filtered to errors in the kernel: ~1000 ends a
 * cycle of a real machine, prepare and complete of every device).
 */
#ifndef DEVPM_SLEEP_FAULT_H
#define DEVPM_SLEEP_FAULT_H

#include <stddef.h>
#include <stdint.h>

#include "trace/sleep_trace.h"

#define DEVPM_SLEEP_FAULTS_MAX	64

/* "system:event" or "system:event if <filter>" (trace.h's keep). */
extern const char *const devpm_sleep_fault_events[];

struct devpm_sleep_fault {
	char dev[128];
	char driver[64];
	enum devpm_pm_phase phase;	/* DEVPM_PH_NR: outside any phase */
	int err;
	uint64_t ts_us;
};

struct devpm_sleep_faults {
	struct devpm_sleep_fault v[DEVPM_SLEEP_FAULTS_MAX];
	size_t n;
	unsigned long dropped;		/* past the last slot */
	int open;			/* the phase open now, -1: none */
	unsigned long prepares;		/* dpm_prepare begins: cycles seen */
};

void devpm_sleep_faults_init(struct devpm_sleep_faults *f);
/* One event of the trace, in order; others than the two are ignored. */
void devpm_sleep_faults_feed(struct devpm_sleep_faults *f,
			     const struct devpm_event *e);

#endif
