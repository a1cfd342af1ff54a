// SPDX-License-Identifier: GPL-2.0-only
/*
 * pm_test_cycle.c - one traced system-sleep cycle at a pm_test level
 * (pm_test_cycle.h).
 */
#include <stdio.h>
#include <string.h>

#include "sleep/pm_test_cycle.h"
#include "core/sysfs.h"
#include "sleep/sleep_cycle_cache.h"
#include "sleep/system_sleep.h"
#include "state/journal.h"
#include "trace/sleep_trace.h"

const char *devpm_pm_test_state(const char *level, char *why, size_t len)
{
	if (strcmp(level, "core") && strcmp(level, "processors"))
		return "freeze";
	if (!devpm_power_has("/sys/power/state", "mem") ||
	    !devpm_power_has("/sys/power/mem_sleep", "deep")) {
		snprintf(why, len, "s2idle refuses pm_test=%s (-EAGAIN) and there is no deep mem_sleep to test it with",
			 level);
		return NULL;
	}
	if (devpm_knob_write("/sys/power/mem_sleep", "deep")) {
		snprintf(why, len, "%s", devpm_error());
		return NULL;
	}
	return "mem";
}

int devpm_pm_test_cycle(struct devpm_trace *t, const char *level,
			const char *state, const char *name,
			struct devpm_sleep_cycle *c,
			struct devpm_sleep_cycle_meta *m, int *r, char *why,
			size_t len)
{
	struct devpm_suspend_stats a, b;
	uint64_t wall;

	memset(m, 0, sizeof(*m));
	if (devpm_pm_test_set(level) || devpm_suspend_stats_read(&b)) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	*r = devpm_sleep_traced(t, state, &m->ret, &wall, c);
	if (devpm_suspend_stats_read(&a))
		a.success = -1;
	snprintf(m->level, sizeof(m->level), "%s", level);
	snprintf(m->state, sizeof(m->state), "%s", state);
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->success_before = b.success;
	m->success_after = a.success;
	m->wall_us = wall;
	devpm_sleep_timeline_print(c, name);
	return 0;
}

unsigned int devpm_pm_test_phases(const char *level)
{
	if (!strcmp(level, "freezer"))
		return 0;	/* enter_state(): before any device */
	if (!strcmp(level, "devices"))	/* suspend_devices_and_enter() */
		return 1u << DEVPM_PH_PREPARE | 1u << DEVPM_PH_SUSPEND |
		       1u << DEVPM_PH_RESUME | 1u << DEVPM_PH_COMPLETE;
	return (1u << DEVPM_PH_NR) - 1;
}

unsigned int devpm_pm_test_phases_seen(const struct devpm_sleep_cycle *c)
{
	unsigned int m = 0;
	int i;

	for (i = 0; i < DEVPM_PH_NR; i++)
		if (c->phase[i].begin_us && c->phase[i].end_us)
			m |= 1u << i;
	return m;
}
