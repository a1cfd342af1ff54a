// SPDX-License-Identifier: GPL-2.0-only
/* trace.c - STUB: to be implemented (trace.h). */
#include <errno.h>
#include <stddef.h>
#include "devpm.h"

const char *devpm_tracefs(void)
{
	return "";
}

struct devpm_trace *devpm_trace_start(const char *const *devs)
{
	(void)devs;
	return NULL;
}

int devpm_trace_add_event(struct devpm_trace *t, const char *sysev, const char *filter)
{
	(void)t;
	(void)sysev;
	(void)filter;
	return -ENOSYS;
}

int devpm_trace_add_dev(struct devpm_trace *t, const char *dev)
{
	(void)t;
	(void)dev;
	return -ENOSYS;
}

int devpm_trace_poll(struct devpm_trace *t, int timeout_ms)
{
	(void)t;
	(void)timeout_ms;
	return -ENOSYS;
}

const struct devpm_event *devpm_trace_events(struct devpm_trace *t, size_t *n)
{
	(void)t;
	(void)n;
	return NULL;
}

void devpm_trace_clear(struct devpm_trace *t)
{
	(void)t;
}

void devpm_trace_stop(struct devpm_trace *t)
{
	(void)t;
}

void devpm_trace_cleanup_stale(void)
{
}

int devpm_trace_parse_line(const char *line, struct devpm_event *ev)
{
	(void)line;
	(void)ev;
	return -ENOSYS;
}

uint64_t devpm_now_us(void)
{
	return 0;
}
