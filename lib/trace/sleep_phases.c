// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep_phases.c - the per-phase figures of a traced sleep cycle
 * (sleep_phases.h).
 */
#include <stdio.h>
#include <string.h>

#include "trace/sleep_phases.h"
#include "core/note.h"
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

void devpm_sleep_phases_note(const char *what,
			     const struct devpm_sleep_cycle *c,
			     uint64_t wall_us, int ret)
{
	unsigned long long p[DEVPM_PH_NR];
	int i;

	for (i = 0; i < DEVPM_PH_NR; i++)
		p[i] = devpm_sleep_phase_us(c, i);
	devpm_note("%s: returned %s after %llu ms: suspend %llu us (prepare %llu, suspend %llu, late %llu, noirq %llu), resume %llu us (noirq %llu, early %llu, resume %llu, complete %llu); %zu callbacks",
		   what, ret ? strerror(-ret) : "0",
		   (unsigned long long)wall_us / 1000,
		   (unsigned long long)devpm_sleep_side_us(c, true),
		   p[DEVPM_PH_PREPARE], p[DEVPM_PH_SUSPEND],
		   p[DEVPM_PH_SUSPEND_LATE], p[DEVPM_PH_SUSPEND_NOIRQ],
		   (unsigned long long)devpm_sleep_side_us(c, false),
		   p[DEVPM_PH_RESUME_NOIRQ], p[DEVPM_PH_RESUME_EARLY],
		   p[DEVPM_PH_RESUME], p[DEVPM_PH_COMPLETE], c->ncb);
}

void devpm_sleep_phases_metrics(const struct devpm_sleep_cycle *c,
				uint64_t wall_us)
{
	char key[48];
	int i;

	/* Each side's total; "suspend_us" and "resume_us" are phases'. */
	devpm_metric("-", "suspend_total_us", devpm_sleep_side_us(c, true));
	devpm_metric("-", "resume_total_us", devpm_sleep_side_us(c, false));
	for (i = 0; i < DEVPM_PH_NR; i++) {
		snprintf(key, sizeof(key), "%s_us", devpm_pm_phase_name(i));
		devpm_metric("-", key, devpm_sleep_phase_us(c, i));
	}
	devpm_metric("-", "cycle_ms", wall_us / 1000.0);
	/* The mini-summit's other claim: resume is slower than suspend. */
	if (devpm_sleep_side_us(c, true))
		devpm_metric("-", "resume_over_suspend",
			     (double)devpm_sleep_side_us(c, false) /
			     devpm_sleep_side_us(c, true));
}
