// SPDX-License-Identifier: GPL-2.0-only
/*
 * wake_env.c - how a suspend cycle sleeps and is woken (wake_env.h).
 */
#include <stdio.h>
#include <string.h>

#include "sleep/wake_env.h"
#include "core/host.h"
#include "core/note.h"
#include "core/sysfs.h"
#include "sleep/system_sleep.h"
#include "sleep/system_sleep.h"
#include "state/journal.h"

int devpm_wake_env_init(struct devpm_wake_env *e)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->pm_test, sizeof(e->pm_test), "none");
	e->agent = devpm_host_available();
	if (e->agent && devpm_exists(DEVPM_WAKE_TTY))
		return devpm_knob_write(DEVPM_WAKE_TTY, "enabled");
	e->agent = false;
	return 0;
}

const char *devpm_wake_how_name(enum devpm_wake_how how, const char *level)
{
	static char buf[48];

	switch (how) {
	case DEVPM_HOW_REAL:
		return "s2idle, woken by the host agent";
	case DEVPM_HOW_SELF:
		return "s2idle, woken by the event";
	default:
		snprintf(buf, sizeof(buf), "pm_test=%s", level);
		return buf;
	}
}

int devpm_wake_set_pm_test(struct devpm_wake_env *e, const char *level)
{
	int r;

	if (!strcmp(e->pm_test, level))
		return 0;
	r = devpm_pm_test_set(level);
	if (!r)
		snprintf(e->pm_test, sizeof(e->pm_test), "%s", level);
	return r;
}

int devpm_wake_cycle(struct devpm_wake_env *e, enum devpm_wake_how how,
		     const char *level, const char *label,
		     struct devpm_sleep *s)
{
	char reply[160];
	int r;

	devpm_note("cycle %s: %s", label, devpm_wake_how_name(how, level));
	r = devpm_wake_set_pm_test(e, how == DEVPM_HOW_PM_TEST ? level : "none");
	if (r)
		return r;
	if (how != DEVPM_HOW_PM_TEST && e->agent) {
		/*
		 * The safety net of a cycle that must wake itself kicks only
		 * after DEVPM_WAKE_SELF_MS: a character that raced a wake already
		 * under way would be taken for the wake (pm_wakeup_irq).
		 */
		snprintf(reply, sizeof(reply), "wake freeze %d delay %d",
			 DEVPM_WAKE_ARM_MS, how == DEVPM_HOW_SELF ? DEVPM_WAKE_SELF_MS : 0);
		r = devpm_host_request(reply, reply, sizeof(reply), 5000);
		if (r)
			return devpm_fail(r, "host agent wake arm: %s",
					  devpm_error());
	}
	if (e->handshake) {
		unsigned long wc;

		r = devpm_wakeup_handshake(&wc, DEVPM_WAKE_COUNT_MS);
		if (r)
			return r;
	}
	return devpm_sleep_attempt("freeze", s);
}

long devpm_serial_irq(void)
{
	long irq = -1;

	if (devpm_read_long("/sys/class/tty/ttyS0/irq", &irq) < 0)
		return -1;
	return irq;
}
