/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wakeup_suite.h - what the wakeup suite's programs share: how a cycle
 * sleeps and how it is woken, said on a "# " line before each cycle.
 *
 * Real s2idle is used where the platform can wake it: in devpm's QEMU
 * image the host agent (a console character, ttyS0's power/wakeup
 * enabled, journaled) or an hrtimer hard wakeup event.  Without the agent
 * (real hardware) a cycle that must be woken from outside runs at a
 * pm_test level instead and says so.
 */
#ifndef WAKEUP_SUITE_H
#define WAKEUP_SUITE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devpm.h"

#define WK_TTY_WAKEUP	"/sys/class/tty/ttyS0/power/wakeup"
#define WK_ARM_MS	15000	/* an agent arm never outlives its cycle */
#define WK_SELF_MS	1500	/* safety net's first kick after the freeze */
#define WK_COUNT_MS	5000	/* bound on a wakeup_count read (the
				 * alarmtimer holds its source 2 s) */

enum wk_how {
	WK_REAL,		/* s2idle, woken by the agent if it sleeps */
	WK_SELF,		/* s2idle, something in the guest wakes it */
	WK_PM_TEST,		/* pm_test level (wk_cycle's level) */
};

struct wk_env {
	bool agent;		/* host agent reachable, ttyS0 wakes s2idle */
	char pm_test[16];	/* level set now ("none") */
	bool handshake;		/* next wk_cycle: wakeup_count handshake
				 * right before the write */
};

/* Enable the agent's wake path; 0, or -errno with devpm_error(). */
static inline int wk_env_init(struct wk_env *e)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->pm_test, sizeof(e->pm_test), "none");
	e->agent = devpm_host_available();
	if (e->agent && devpm_exists(WK_TTY_WAKEUP))
		return devpm_knob_write(WK_TTY_WAKEUP, "enabled");
	e->agent = false;
	return 0;
}

static inline const char *wk_how_name(enum wk_how how, const char *level)
{
	static char buf[48];

	switch (how) {
	case WK_REAL:
		return "s2idle, woken by the host agent";
	case WK_SELF:
		return "s2idle, woken by the event";
	default:
		snprintf(buf, sizeof(buf), "pm_test=%s", level);
		return buf;
	}
}

static inline int wk_set_pm_test(struct wk_env *e, const char *level)
{
	int r;

	if (!strcmp(e->pm_test, level))
		return 0;
	r = devpm_pm_test_set(level);
	if (!r)
		snprintf(e->pm_test, sizeof(e->pm_test), "%s", level);
	return r;
}

/*
 * One attempt to suspend to idle.  WK_REAL arms the agent first (on
 * every real cycle: an arm is replaced, never left to a later cycle);
 * WK_SELF too when the agent exists, as a safety net that kicks only
 * WK_SELF_MS after the devices froze and whose use the caller sees in
 * s->wake_irq; WK_PM_TEST runs at level.  Returns the write's
 * result (0, -EBUSY for an abort) or -errno of the set-up (devpm_error()).
 */
static inline int wk_cycle(struct wk_env *e, enum wk_how how,
			   const char *level, const char *label,
			   struct devpm_sleep *s)
{
	char reply[160];
	int r;

	devpm_note("cycle %s: %s", label, wk_how_name(how, level));
	r = wk_set_pm_test(e, how == WK_PM_TEST ? level : "none");
	if (r)
		return r;
	if (how != WK_PM_TEST && e->agent) {
		/*
		 * The safety net of a cycle that must wake itself kicks only
		 * after WK_SELF_MS: a character that raced a wake already
		 * under way would be taken for the wake (pm_wakeup_irq).
		 */
		snprintf(reply, sizeof(reply), "wake freeze %d delay %d",
			 WK_ARM_MS, how == WK_SELF ? WK_SELF_MS : 0);
		r = devpm_host_request(reply, reply, sizeof(reply), 5000);
		if (r)
			return devpm_fail(r, "host agent wake arm: %s",
					  devpm_error());
	}
	if (e->handshake) {
		unsigned long wc;

		r = devpm_wakeup_handshake(&wc, WK_COUNT_MS);
		if (r)
			return r;
	}
	return devpm_sleep_attempt("freeze", s);
}

/* Serial IRQ of ttyS0 (the agent's wake), -1 when unknown. */
static inline long wk_serial_irq(void)
{
	long irq = -1;

	if (devpm_read_long("/sys/class/tty/ttyS0/irq", &irq) < 0)
		return -1;
	return irq;
}

#endif
