/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wake_env.h - how a suspend cycle sleeps and how it is woken, said on a
 * "# " line before each cycle.
 *
 * Real s2idle is used where the platform can wake it: in devpm's QEMU
 * image the host agent (a console character, ttyS0's power/wakeup
 * enabled, journaled) or an hrtimer hard wakeup event.  Without the agent
 * (real hardware) a cycle that must be woken from outside runs at a
 * pm_test level instead and says so.
 */
#ifndef DEVPM_WAKE_ENV_H
#define DEVPM_WAKE_ENV_H

#include <stdbool.h>

#include "sleep/system_sleep.h"

#define DEVPM_WAKE_TTY		"/sys/class/tty/ttyS0/power/wakeup"
/* An agent arm never outlives its cycle. */
#define DEVPM_WAKE_ARM_MS	15000
/* The safety net's first kick after the freeze. */
#define DEVPM_WAKE_SELF_MS	1500
/* Bound on a wakeup_count read (the alarmtimer holds its source 2 s). */
#define DEVPM_WAKE_COUNT_MS	5000

enum devpm_wake_how {
	DEVPM_HOW_REAL,		/* s2idle, woken by the agent if it sleeps */
	DEVPM_HOW_SELF,		/* s2idle, something in the guest wakes it */
	DEVPM_HOW_PM_TEST,	/* pm_test level (devpm_wake_cycle's level) */
};

struct devpm_wake_env {
	bool agent;		/* host agent reachable, ttyS0 wakes s2idle */
	char pm_test[16];	/* level set now ("none") */
	/* Next devpm_wake_cycle(): the wakeup_count handshake first. */
	bool handshake;
};

/* Enable the agent's wake path; 0, or -errno with devpm_error(). */
int devpm_wake_env_init(struct devpm_wake_env *e);

/* "s2idle, woken by the host agent", "pm_test=devices", ... */
const char *devpm_wake_how_name(enum devpm_wake_how how, const char *level);

/* Set pm_test (journaled) unless it is level already; 0 or -errno. */
int devpm_wake_set_pm_test(struct devpm_wake_env *e, const char *level);

/*
 * One attempt to suspend to idle.  DEVPM_HOW_REAL arms the agent first
 * (on every real cycle: an arm is replaced, never left to a later cycle);
 * DEVPM_HOW_SELF too when the agent exists, as a safety net that kicks
 * only DEVPM_WAKE_SELF_MS after the devices froze and whose use the
 * caller sees in s->wake_irq; DEVPM_HOW_PM_TEST runs at level.  Returns the write's
 * result (0, -EBUSY for an abort) or -errno of the set-up (devpm_error()).
 */
int devpm_wake_cycle(struct devpm_wake_env *e, enum devpm_wake_how how,
		     const char *level, const char *label,
		     struct devpm_sleep *s);

/* Serial IRQ of ttyS0 (the agent's wake), -1 when unknown. */
long devpm_serial_irq(void);

#endif
