// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_event.c - one line of trace output parsed into an event
 * (trace_event.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_event.h"

/* "123.456789" -> µs; any number of fraction digits. */
static int parse_ts(const char *s, uint64_t *us)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9')
		sec = sec * 10 + (*s++ - '0');
	if (*s++ != '.')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		if (digits < 6) {
			frac = frac * 10 + (*s - '0');
			digits++;
		}
		s++;
	}
	if (!digits || *s != ':')
		return -EINVAL;
	while (digits++ < 6)
		frac *= 10;
	*us = sec * 1000000 + frac;
	return 0;
}

static void copy_n(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* "<dev> flags-%x cnt-%d dep-%d auto-%d p-%d irq-%d child-%d" */
static int parse_rpm_internal(const char *s, struct devpm_event *ev)
{
	const char *f = strstr(s, " flags-");
	int p, irq;

	if (!f || f == s)
		return -EINVAL;
	copy_n(ev->dev, sizeof(ev->dev), s, f - s);
	if (sscanf(f, " flags-%x cnt-%d dep-%d auto-%d p-%d irq-%d child-%d",
		   (unsigned int *)&ev->flags, &ev->usage, &ev->depth,
		   &ev->rauto, &p, &irq, &ev->child) != 7)
		return -EINVAL;
	return 0;
}

/* "rpm_suspend+0x2ea/0x5a0:<dev> ret=%d" (the symbol may lack +off). */
static int parse_return(const char *s, struct devpm_event *ev)
{
	const char *plus = strchr(s, '+'), *colon, *ret;
	size_t flen;

	colon = strchr(plus ? plus : s, ':');
	ret = strstr(s, " ret=");
	while (ret && strstr(ret + 1, " ret="))
		ret = strstr(ret + 1, " ret=");
	if (!colon || !ret || ret < colon)
		return -EINVAL;
	flen = (plus && plus < colon ? plus : colon) - s;
	if (!flen)
		return -EINVAL;
	copy_n(ev->func, sizeof(ev->func), s, flen);
	copy_n(ev->dev, sizeof(ev->dev), colon + 1, ret - colon - 1);
	if (sscanf(ret, " ret=%d", &ev->ret) != 1)
		return -EINVAL;
	return 0;
}

/* "<dev> status=RPM_SUSPENDED" -> status "suspended" */
static int parse_status(const char *s, struct devpm_event *ev)
{
	const char *st = strstr(s, " status=");
	char *c;

	if (!st || st == s)
		return -EINVAL;
	copy_n(ev->dev, sizeof(ev->dev), s, st - s);
	st += strlen(" status=");
	if (!strncmp(st, "RPM_", 4))
		st += 4;
	copy_n(ev->status, sizeof(ev->status), st, strcspn(st, " "));
	for (c = ev->status; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c += 'a' - 'A';
	return ev->status[0] ? 0 : -EINVAL;
}

/* The pid of "<comm>-<pid>   [cpu]", end pointing at " [": 0 if none. */
static int task_pid(const char *line, const char *end)
{
	const char *q = end;
	int pid = 0, mul = 1;

	while (q > line && q[-1] == ' ')
		q--;
	while (q > line && q[-1] >= '0' && q[-1] <= '9' && mul <= 100000000) {
		pid += (q[-1] - '0') * mul;
		mul *= 10;
		q--;
	}
	return q > line && q[-1] == '-' && mul > 1 ? pid : 0;
}

/*
 * "<comm>-<pid> [cpu] <flags> <sec.usec>: <event>: <text>".  The comm may
 * hold spaces and the irq-flags column may be off, so anchor on "[cpu]".
 */
void devpm_trace_field(const char *raw, const char *key, char *buf,
		       size_t len)
{
	size_t klen = strlen(key), n;
	const char *v = raw;

	buf[0] = '\0';
	for (;;) {
		v = strstr(v, key);
		if (!v)
			return;
		if ((v == raw || v[-1] == ' ') && v[klen] == '=')
			break;
		v += klen;
	}
	v += klen + 1;
	n = strcspn(v, " ");
	snprintf(buf, len, "%.*s", (int)n, v);
}

bool devpm_trace_is(const struct devpm_event *e, const char *name)
{
	return e->type == DEVPM_EV_OTHER && !strcmp(e->event, name);
}

unsigned long long devpm_trace_field_ull(const char *raw, const char *key)
{
	char v[32];

	devpm_trace_field(raw, key, v, sizeof(v));
	return strtoull(v, NULL, 10);
}

int devpm_trace_parse_line(const char *line, struct devpm_event *ev)
{
	const char *p = line, *q, *colon;
	size_t n;

	memset(ev, 0, sizeof(*ev));
	ev->type = DEVPM_EV_OTHER;
	for (;;) {
		p = strstr(p, " [");
		if (!p)
			return -EINVAL;
		p += 2;
		n = strspn(p, "0123456789");
		if (n && p[n] == ']')
			break;
	}
	ev->pid = task_pid(line, p - 2);
	p += n + 1;
	/* One or two fields: [flags] timestamp: */
	while (*p == ' ')
		p++;
	if (parse_ts(p, &ev->ts_us)) {
		p += strcspn(p, " ");
		while (*p == ' ')
			p++;
		if (parse_ts(p, &ev->ts_us))
			return -EINVAL;
	}
	p = strchr(p, ':') + 1;
	while (*p == ' ')
		p++;
	colon = strstr(p, ": ");
	q = colon ? colon : p + strlen(p);
	if (!colon || q == p || memchr(p, ' ', q - p))
		return -EINVAL;
	copy_n(ev->event, sizeof(ev->event), p, q - p);
	p = colon + 2;
	copy_n(ev->raw, sizeof(ev->raw), p, strlen(p));

	if (!strcmp(ev->event, "rpm_suspend"))
		ev->type = DEVPM_EV_RPM_SUSPEND;
	else if (!strcmp(ev->event, "rpm_resume"))
		ev->type = DEVPM_EV_RPM_RESUME;
	else if (!strcmp(ev->event, "rpm_idle"))
		ev->type = DEVPM_EV_RPM_IDLE;
	else if (!strcmp(ev->event, "rpm_usage"))
		ev->type = DEVPM_EV_RPM_USAGE;
	else if (!strcmp(ev->event, "rpm_return_int"))
		ev->type = DEVPM_EV_RPM_RETURN;
	else if (!strcmp(ev->event, "rpm_status"))
		ev->type = DEVPM_EV_RPM_STATUS;

	switch (ev->type) {
	case DEVPM_EV_RPM_SUSPEND:
	case DEVPM_EV_RPM_RESUME:
	case DEVPM_EV_RPM_IDLE:
	case DEVPM_EV_RPM_USAGE:
		return parse_rpm_internal(p, ev);
	case DEVPM_EV_RPM_RETURN:
		return parse_return(p, ev);
	case DEVPM_EV_RPM_STATUS:
		return parse_status(p, ev);
	default:
		return 0;
	}
}
