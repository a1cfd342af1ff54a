// SPDX-License-Identifier: GPL-2.0-only
/*
 * system_sleep.c - entering a system sleep state and suspend_stats
 * (system_sleep.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "floor.h"
#include "journal.h"
#include "sleep_trace.h"
#include "sysfs.h"
#include "system_sleep.h"
#include "trace.h"

#define STATS "/sys/power/suspend_stats/"

int devpm_suspend_stats_read(struct devpm_suspend_stats *s)
{
	static const struct {
		const char *name;
		size_t off;
	} nums[] = {
#define F(x) { #x, offsetof(struct devpm_suspend_stats, x) }
		F(success), F(fail), F(failed_freeze), F(failed_prepare),
		F(failed_suspend), F(failed_suspend_late),
		F(failed_suspend_noirq), F(failed_resume),
		F(failed_resume_early), F(failed_resume_noirq),
		F(last_failed_errno),
#undef F
	};
	char p[DEVPM_PATH_MAX];
	size_t i;
	int r;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		snprintf(p, sizeof(p), STATS "%s", nums[i].name);
		r = devpm_read_long(p, (long *)((char *)s + nums[i].off));
		if (r)
			return r;
	}
	r = devpm_read_str(STATS "last_failed_dev", s->last_failed_dev,
			   sizeof(s->last_failed_dev));
	if (!r)
		r = devpm_read_str(STATS "last_failed_step",
				   s->last_failed_step,
				   sizeof(s->last_failed_step));
	return r;
}

long devpm_suspend_stats_failed(const struct devpm_suspend_stats *s,
				const char *step)
{
	if (!strcmp(step, "freeze"))
		return s->failed_freeze;
	if (!strcmp(step, "prepare"))
		return s->failed_prepare;
	if (!strcmp(step, "suspend"))
		return s->failed_suspend;
	if (!strcmp(step, "suspend_late"))
		return s->failed_suspend_late;
	if (!strcmp(step, "suspend_noirq"))
		return s->failed_suspend_noirq;
	if (!strcmp(step, "resume_noirq"))
		return s->failed_resume_noirq;
	if (!strcmp(step, "resume_early"))
		return s->failed_resume_early;
	if (!strcmp(step, "resume"))
		return s->failed_resume;
	return -1;
}

int devpm_pm_test_levels(struct devpm_pm_level *levels, size_t max,
			 int *current)
{
	char buf[256], *tok, *save = NULL;
	size_t n = 0, l;
	int r;

	r = devpm_read_str("/sys/power/pm_test", buf, sizeof(buf));
	if (r == -ENOENT)
		return devpm_fail(ENOENT, "no /sys/power/pm_test (CONFIG_PM_SLEEP_DEBUG: CONFIG_PM_DEBUG is off)");
	if (r)
		return r;
	if (current)
		*current = -1;
	for (tok = strtok_r(buf, " ", &save); tok && n < max;
	     tok = strtok_r(NULL, " ", &save)) {
		l = strlen(tok);
		if (tok[0] == '[' && l > 2 && tok[l - 1] == ']') {
			tok[l - 1] = '\0';
			tok++;
			if (current)
				*current = n;
		}
		snprintf(levels[n++].name, sizeof(levels[0].name), "%s", tok);
	}
	return n;
}

int devpm_pm_test_set(const char *level)
{
	int r;

	if (!devpm_exists("/sys/power/pm_test"))
		return devpm_fail(ENOENT, "no /sys/power/pm_test (CONFIG_PM_SLEEP_DEBUG: CONFIG_PM_DEBUG is off)");
	if (strcmp(level, "none")) {
		if (!devpm_exists(DEVPM_PM_TEST_DELAY))
			return devpm_fail(ENOENT, "no %s (CONFIG_PM_DEBUG is off)",
					  DEVPM_PM_TEST_DELAY);
		r = devpm_knob_write(DEVPM_PM_TEST_DELAY, "0");
		if (r)
			return r;
	}
	return devpm_knob_write("/sys/power/pm_test", level);
}

bool devpm_power_has(const char *kpath, const char *word)
{
	char buf[256], *tok, *save = NULL;
	size_t l;

	if (devpm_read_str(kpath, buf, sizeof(buf)))
		return false;
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		l = strlen(tok);
		if (tok[0] == '[' && l > 2 && tok[l - 1] == ']') {
			tok[l - 1] = '\0';
			tok++;
		}
		if (!strcmp(tok, word))
			return true;
	}
	return false;
}

int devpm_sleep_enter(const char *state)
{
	uint64_t t0 = devpm_now_us();
	int r = devpm_write_str("/sys/power/state", state);

	/*
	 * The write returns when the kernel has suspended and resumed the
	 * devices (or given up): time the case cannot beat (floor.h).
	 */
	devpm_floor_add(t0, devpm_now_us() - t0);
	return r;
}

/* Read everything the trace holds now (the writer ran the whole cycle). */
static int drain(struct devpm_trace *t)
{
	int r;

	do {
		r = devpm_trace_poll(t, 0);
	} while (r > 0);
	return r;
}

int devpm_sleep_traced(struct devpm_trace *t, const char *state, int *ret,
		       uint64_t *wall_us, struct devpm_sleep_cycle *c)
{
	const struct devpm_event *ev;
	uint64_t t0;
	size_t n;
	int r;

	memset(c, 0, sizeof(*c));
	r = drain(t);
	if (r < 0)
		return r;
	devpm_trace_clear(t);
	t0 = devpm_now_us();
	*ret = devpm_sleep_enter(state);
	*wall_us = devpm_now_us() - t0;
	r = drain(t);
	if (r < 0)
		return r;
	ev = devpm_trace_events(t, &n);
	return devpm_sleep_cycle_parse(ev, n, c);
}
