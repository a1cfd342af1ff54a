/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mock_cycle.h - one suspend cycle with one wakeup event from devpm_mock
 * (docs/fixtures.md): armed at a point of the suspend sequence, then
 * accounted for (produced, reported to the PM core, read by user space)
 * and placed in the sequence by the power:suspend_resume trace.
 */
#ifndef DEVPM_MOCK_CYCLE_H
#define DEVPM_MOCK_CYCLE_H

#include <stdbool.h>
#include <stdint.h>

#include "mock/mock.h"
#include "sleep/wake_account.h"
#include "sleep/wake_env.h"

#define DEVPM_MOCK_CYCLE_MAX_EVENTS	16
/* A fired event's record is queued by then. */
#define DEVPM_MOCK_CYCLE_RECORD_MS	500

struct devpm_mock_cycle {
	int id;
	int qfd;			/* /dev/devpm_mock.ID */
	char ws_count[DEVPM_PATH_MAX];	/* its source's event_count */
	char ws_name[32];
	struct devpm_wake_env *env;
	struct devpm_trace *t;		/* NULL: no phases */
	long serial_irq;
	struct devpm_wake_tally tally;
};

struct devpm_mock_cycle_shot {
	const char *point;		/* pm_prepare, prepare, ... */
	long off_us;
	enum devpm_mock_wake kind;	/* soft or hard */
	bool handshake;			/* wakeup_count written before */
	enum devpm_wake_how how;
	const char *level;		/* for DEVPM_HOW_PM_TEST */
};

struct devpm_mock_cycle_res {
	int err;			/* the write to state */
	bool fired;
	enum devpm_wake_outcome o;
	unsigned long lost;
	long long lat_us;		/* event to user space, -1: none read */
	uint64_t cycle_us;		/* the write to state */
	char phase[24];			/* where the event landed, "?" */
	char stats[256];		/* suspend_stats diff */
	char blocker[160];		/* what the PM core saw in the cycle */
	long wake_irq;
};

/* "hard" or "soft". */
const char *devpm_mock_cycle_kind_name(enum devpm_mock_wake k);

/*
 * Load devpm_mock, create device id, open its queue and find its wakeup
 * source.  0; 1 when there is no module (why says so); -errno.
 */
int devpm_mock_cycle_open(struct devpm_mock_cycle *m, int id, struct devpm_wake_env *env,
		  char *why, size_t len);

/* Stop its trace and close its queue. */
void devpm_mock_cycle_close(struct devpm_mock_cycle *m);

/* Its wakeup source's event_count, -1 unreadable. */
long devpm_mock_cycle_event_count(const struct devpm_mock_cycle *m);

/* Read every record queued now, waiting at most ms for the first. */
int devpm_mock_cycle_drain(struct devpm_mock_cycle *m, struct devpm_mock_event *ev,
		   int max, int ms);

/*
 * Read and set aside what is queued (waiting at most ms for the first):
 * records read outside a cycle, not counted as produced in the next.
 */
int devpm_mock_cycle_skip(struct devpm_mock_cycle *m, int ms);

/*
 * One cycle: arm the event, (handshake,) suspend, then account for it.
 * Returns 0 when the cycle ran (whatever its outcome), -errno when it
 * could not be set up (devpm_error()).
 */
int devpm_mock_cycle_cycle(struct devpm_mock_cycle *m, const struct devpm_mock_cycle_shot *s,
		   struct devpm_mock_cycle_res *r);

#endif
