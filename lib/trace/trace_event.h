/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_event.h - one event of a trace instance (trace.h), parsed from
 * its line of trace_pipe output:
 *
 *	<task>-<pid> [cpu] flags <secs.usecs>: <event>: <text>
 *
 * The runtime-PM events get their fields (drivers/base/power/runtime.c's
 * tracepoints, include/trace/events/rpm.h); any other keeps its text.
 */
#ifndef DEVPM_TRACE_EVENT_H
#define DEVPM_TRACE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum devpm_ev_type {
	DEVPM_EV_RPM_SUSPEND,
	DEVPM_EV_RPM_RESUME,
	DEVPM_EV_RPM_IDLE,
	DEVPM_EV_RPM_USAGE,
	DEVPM_EV_RPM_RETURN,	/* rpm_return_int */
	DEVPM_EV_RPM_STATUS,	/* rpm_status (kernels >= 6.9): see .status */
	DEVPM_EV_OTHER,		/* any added event: see .event and .raw */
};

struct devpm_event {
	uint64_t ts_us;		/* CLOCK_MONOTONIC, µs */
	int pid;		/* the task that emitted it (0: unknown) */
	enum devpm_ev_type type;
	char event[48];		/* "rpm_suspend", "scsi_dispatch_cmd_start" */
	char dev[128];		/* device name ("" if none) */
	int flags, usage, depth, child;	/* rpm_internal fields */
	int rauto;		/* rpm_internal auto-: 0 while control=on */
	char func[64];		/* rpm_return_int: "rpm_suspend" etc. */
	int ret;		/* rpm_return_int */
	char status[16];	/* rpm_status: "suspended", "active", ... */
	char raw[256];		/* the text after "event: " */
};

/* Parse one line of trace output; 0 on success.  Exposed for unit tests. */
int devpm_trace_parse_line(const char *line, struct devpm_event *ev);

/*
 * The word after "key=" in an event's text (raw), "" if none: "pid" is
 * not found in "prev_pid=".  Fields are looked up by name, their order
 * differs between kernels.  field_ull: its value as a number (0 none).
 */
void devpm_trace_field(const char *raw, const char *key, char *buf,
		       size_t len);
/* Whether e is the event name of those trace.c has no type for. */
bool devpm_trace_is(const struct devpm_event *e, const char *name);
unsigned long long devpm_trace_field_ull(const char *raw, const char *key);

#endif
