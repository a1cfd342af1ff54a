// SPDX-License-Identifier: GPL-2.0-only
/* kept.c - the runner's traces and probes for all its programs (kept.h). */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/safety.h"
#include "core/sysfs.h"
#include "trace/least_time_sleeps.h"
#include "trace/sleep_fault.h"
#include "trace/trace.h"
#include "kept.h"

static struct devpm_trace *rpm, *timeline;
static char timeline_why[256] = "not root, or a recorded tree: no tracefs";
static pthread_t thread;
static bool making;

/* Suffix of the runner's instance for the failed cases' timelines. */
#define TIMELINE_KEPT "tl"

static const char *const timeline_events[] = {
	"rpm:rpm_suspend", "rpm:rpm_resume", "rpm:rpm_return_int", NULL
};

static void *make(void *arg)
{
	const char *ev[32];
	size_t n = 0, i;

	(void)arg;
	devpm_least_time_sleeps_share();
	/*
	 * One instance for the floor's windows and the verdict's errors
	 * (the windows' events have every rpm_return_int), runtime and
	 * system sleep: each costs ~0.2 s to make under TCG, a directory
	 * per kernel event.
	 */
	for (i = 0; devpm_least_time_sleeps_events[i] && n < 31; i++)
		ev[n++] = devpm_least_time_sleeps_events[i];
	for (i = 0; devpm_sleep_fault_events[i] && n < 31; i++)
		ev[n++] = devpm_sleep_fault_events[i];
	ev[n] = NULL;
	rpm = devpm_trace_keep(DEVPM_TRACE_RPM_KEPT, ev);
	/* Its tracepoints are on already: no kernel text patched again. */
	timeline = devpm_trace_keep(TIMELINE_KEPT, timeline_events);
	if (!timeline)
		snprintf(timeline_why, sizeof(timeline_why), "%s",
			 devpm_error());
	return NULL;
}

void rn_kept_begin(void)
{
	sigset_t all, old;

	if (!devpm_is_root() || devpm_sysfs_root()[0])
		return;
	devpm_tracefs();	/* found (or mounted) here, read there */
	/* The runner's signals go to the runner's thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	making = !pthread_create(&thread, NULL, make, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!making)
		make(NULL);
}

void rn_kept_ready(void)
{
	if (making)
		pthread_join(thread, NULL);
	making = false;
	devpm_least_time_sleeps_share_ready();
}

void rn_kept_end(void)
{
	if (making)
		pthread_join(thread, NULL);
	making = false;
	devpm_least_time_sleeps_unshare();
	devpm_trace_stop(rpm);
	devpm_trace_stop(timeline);
	rpm = timeline = NULL;
}

struct devpm_trace *rn_kept_timeline(const char **why)
{
	if (why)
		*why = timeline_why;
	return timeline;
}
