// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep_fault.c - system-sleep callback errors from a trace (sleep_fault.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/sleep_fault.h"
#include "trace/trace.h"

/*
 * error < 0: ->prepare() returns 1 for "may stay runtime-suspended"
 * (drivers/base/power/main.c: device_prepare()), no error.
 */
const char *const devpm_sleep_fault_events[] = {
	"power:device_pm_callback_end if error < 0",
	"power:suspend_resume",
	NULL
};

void devpm_sleep_faults_init(struct devpm_sleep_faults *f)
{
	memset(f, 0, sizeof(*f));
	f->open = -1;
}

static void end_event(struct devpm_sleep_faults *f,
		      const struct devpm_event *e)
{
	const char *err = strstr(e->raw, ", err="), *q;
	struct devpm_pm_cb head;
	struct devpm_sleep_fault *v;
	int n;

	for (q = err; q; q = strstr(q + 1, ", err="))
		err = q;
	if (!err)
		return;
	n = atoi(err + strlen(", err="));
	if (n >= 0 || devpm_sleep_split_head(e->raw, err - e->raw, &head))
		return;
	if (f->n == DEVPM_SLEEP_FAULTS_MAX) {
		f->dropped++;
		return;
	}
	v = &f->v[f->n++];
	snprintf(v->dev, sizeof(v->dev), "%s", head.dev);
	snprintf(v->driver, sizeof(v->driver), "%s", head.driver);
	v->phase = f->open < 0 ? DEVPM_PH_NR : (enum devpm_pm_phase)f->open;
	v->err = n;
	v->ts_us = e->ts_us;
}

void devpm_sleep_faults_feed(struct devpm_sleep_faults *f,
			     const struct devpm_event *e)
{
	bool begin;
	int ph;

	if (!strcmp(e->event, "device_pm_callback_end")) {
		end_event(f, e);
		return;
	}
	if (strcmp(e->event, "suspend_resume") ||
	    devpm_sleep_phase_event(e->raw, &ph, &begin))
		return;
	if (begin && ph == DEVPM_PH_PREPARE)
		f->prepares++;
	f->open = begin ? ph : -1;
}
