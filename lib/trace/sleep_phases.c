// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep_phases.c - the per-phase figures of a traced sleep cycle
 * (sleep_phases.h).
 */
#include <stdio.h>

#include "trace/sleep_phases.h"
#include "trace/sleep_trace.h"

uint64_t devpm_sleep_phase_us(const struct devpm_sleep_cycle *c,
			      enum devpm_pm_phase ph)
{
	const struct devpm_pm_span *s = &c->phase[ph];

	return s->end_us > s->begin_us && s->begin_us ?
	       s->end_us - s->begin_us : 0;
}

uint64_t devpm_sleep_side_us(const struct devpm_sleep_cycle *c,
			     bool suspend)
{
	int first = suspend ? DEVPM_PH_PREPARE : DEVPM_PH_RESUME_NOIRQ;
	int last = suspend ? DEVPM_PH_SUSPEND_NOIRQ : DEVPM_PH_COMPLETE;
	uint64_t b = 0, e = 0;
	int i;

	for (i = first; i <= last; i++) {
		if (!b && c->phase[i].begin_us)
			b = c->phase[i].begin_us;
		if (c->phase[i].end_us)
			e = c->phase[i].end_us;
	}
	return b && e > b ? e - b : 0;
}

void devpm_sleep_phases_seen(const struct devpm_sleep_cycle *c, char *buf,
			     size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < DEVPM_PH_NR && used < len; i++)
		if (c->phase[i].begin_us)
			used += snprintf(buf + used, len - used, "%s%s",
					 used ? "," : "",
					 devpm_pm_phase_name(i));
	if (!buf[0])
		snprintf(buf, len, "none");
}
