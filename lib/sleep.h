/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleep.h - system sleep from a test: /sys/power/state, the wakeup_count
 * handshake, suspend_stats and pm_test (kernel/power/main.c).
 *
 * Entering sleep needs --allow-sleep.  /sys/power/state and wakeup_count
 * are action files (nothing to restore); pm_test, its delay and mem_sleep
 * are knobs and go through the journal.
 *
 *	struct devpm_sleep s;
 *	unsigned long wc;
 *
 *	if (devpm_wakeup_handshake(&wc, 2000) == 0 &&
 *	    devpm_sleep_attempt("freeze", &s) == -EBUSY)
 *		... aborted: s.after.last_failed_step says where ...
 */
#ifndef DEVPM_SLEEP_H
#define DEVPM_SLEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "system_sleep.h"

/* struct devpm_suspend_stats, its reader and pm_test: system_sleep.h */
/*
 * What changed from a to b: "fail+1 failed_freeze+1" then, when a failure
 * was counted, "last_failed_step=freeze last_failed_errno=-16
 * last_failed_dev=X" (the dev only when not empty); "" when nothing
 * changed.  0 or -ENAMETOOLONG.
 */
int devpm_suspend_stats_diff(const struct devpm_suspend_stats *a,
			     const struct devpm_suspend_stats *b,
			     char *buf, size_t len);

/*
 * /sys/power/wakeup_count.  Reading blocks in the kernel while a wakeup
 * event is in progress; the read is cut after timeout_ms (-ETIMEDOUT).
 * Writing a count that moved, or while events are in progress, is
 * -EINVAL; success arms the check that makes a later event abort the
 * suspend (until the end of the next suspend attempt).
 */
int devpm_wakeup_count_read(unsigned long *count, int timeout_ms);
int devpm_wakeup_count_write(unsigned long count);
/* Read then write back: the handshake of a sleep manager.  0, or -errno. */
int devpm_wakeup_handshake(unsigned long *count, int timeout_ms);

/* One attempt to enter a sleep state. */
struct devpm_sleep {
	int err;		/* 0 or -errno of the write to state */
	uint64_t start_us;	/* CLOCK_MONOTONIC before the write */
	uint64_t end_us;	/* and after it returned */
	long wake_irq;		/* pm_wakeup_irq after it, -1: none */
	struct devpm_suspend_stats before, after;
};

/*
 * Write state ("freeze", "mem") to /sys/power/state.  -EPERM without
 * --allow-sleep (nothing written).  Returns r->err: 0 when the kernel
 * went through the cycle, -EBUSY when it aborted it, ...
 */
int devpm_sleep_attempt(const char *state, struct devpm_sleep *r);
/* The cycle failed: an error, or suspend_stats counted a failure. */
bool devpm_sleep_failed(const struct devpm_sleep *r);

#endif
