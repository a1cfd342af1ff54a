// SPDX-License-Identifier: GPL-2.0-only
/* rpm_timeline.c - runtime-PM timelines of failed cases (rpm_timeline.h). */
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sysfs.h"
#include "trace/transition.h"
#include "rpm_timeline.h"
#include "util.h"

struct events {
	struct devpm_event *v;
	size_t n, cap;
};

static void collect(const struct devpm_event *e, void *arg)
{
	struct events *ev = arg;

	if (e->type != DEVPM_EV_RPM_SUSPEND && e->type != DEVPM_EV_RPM_RESUME &&
	    e->type != DEVPM_EV_RPM_RETURN)
		return;
	rn_grow(&ev->v, &ev->cap, ev->n, sizeof(*ev->v));
	ev->v[ev->n++] = *e;
}

/* A device's driver by its name: /sys/bus/<any>/devices/<name>/driver. */
static void driver_of(const char *dev, char *buf, size_t len)
{
	char pattern[PATH_MAX], link[PATH_MAX], *slash;
	glob_t g;
	ssize_t n;
	size_t i;

	snprintf(buf, len, "-");
	snprintf(pattern, sizeof(pattern), "/sys/bus/*/devices/%s/driver",
		 dev);
	if (glob(pattern, 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		n = readlink(g.gl_pathv[i], link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		slash = strrchr(link, '/');
		snprintf(buf, len, "%s", slash ? slash + 1 : link);
		break;
	}
	globfree(&g);
}

/*
 * A call that did nothing: already active (1), or refused as usual
 * (drivers/base/power/runtime.c: rpm_check_suspend_allowed() -EAGAIN,
 * -EBUSY, -EACCES when runtime PM is disabled, -EPERM; -EINPROGRESS).
 */
static bool idle_return(int ret)
{
	return ret == 1 || ret == -EAGAIN || ret == -EBUSY ||
	       ret == -EINPROGRESS || ret == -EACCES || ret == -EPERM;
}

/* One TIMELINE field: no blank, "-" when empty. */
static void field(char *dst, size_t len, const char *src)
{
	char *p;

	snprintf(dst, len, "%s", src[0] ? src : "-");
	for (p = dst; *p; p++)
		if (*p == ' ' || *p == '\t')
			*p = '_';
}

static bool seen(char (*devs)[128], size_t n, const char *dev)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(devs[i], dev))
			return true;
	return false;
}

int rn_rpm_case_timeline(struct rn_stream *st, const char *where,
			 const char *kase, uint64_t from_us, uint64_t to_us,
			 const struct devpm_event *ev, size_t n,
			 void (*driver)(const char *dev, char *buf,
					size_t len))
{
	struct devpm_call *calls = rn_xmalloc(RN_RPM_TL_MAX * sizeof(*calls));
	char (*devs)[128] = rn_xmalloc((n + 1) * sizeof(*devs));
	char drv[128], dev[128], cyc[256];
	size_t i, j, ndev = 0, nc;
	int out = 0;

	field(cyc, sizeof(cyc), kase);
	for (i = 0; i < n; i++)
		if ((ev[i].type == DEVPM_EV_RPM_SUSPEND ||
		     ev[i].type == DEVPM_EV_RPM_RESUME) && ev[i].dev[0] &&
		    ev[i].ts_us >= from_us && ev[i].ts_us <= to_us &&
		    !seen(devs, ndev, ev[i].dev))
			snprintf(devs[ndev++], sizeof(devs[0]), "%s",
				 ev[i].dev);
	for (i = 0; i < ndev && out < RN_RPM_TL_MAX; i++) {
		nc = devpm_rpm_calls(ev, n, devs[i], from_us, to_us, calls,
				     RN_RPM_TL_MAX);
		if (nc > RN_RPM_TL_MAX)
			nc = RN_RPM_TL_MAX;
		driver(devs[i], drv, sizeof(drv));
		field(dev, sizeof(dev), devs[i]);
		for (j = 0; j < nc && out < RN_RPM_TL_MAX; j++) {
			const struct devpm_call *c = &calls[j];

			if (c->type == DEVPM_EV_RPM_IDLE || !c->ret_us ||
			    idle_return(c->ret))
				continue;
			rn_stream_emit(st, "TIMELINE %s rpm:%s %s %s %s %d %" PRIu64 " %" PRIu64 " %d",
				       where, cyc, c->type == DEVPM_EV_RPM_SUSPEND ?
				       "rpm_suspend" : "rpm_resume", dev, drv,
				       c->pid, c->call_us - from_us,
				       c->ret_us - c->call_us, c->ret);
			out++;
		}
	}
	free(devs);
	free(calls);
	return out;
}

int rn_rpm_timelines(struct rn_stream *st, const struct rn_prog *p,
		     struct devpm_trace *t)
{
	uint64_t from = UINT64_MAX, to = 0, end;
	struct events ev = { 0 };
	const struct rn_case *c;
	char *where;
	size_t i;
	int r, out = 0;

	for (i = 0; i < p->ncases; i++) {
		c = &p->cases[i];
		if (c->result != RN_FAIL || !c->start_us)
			continue;
		end = c->end_us ? c->end_us : p->end_us;
		from = c->start_us < from ? c->start_us : from;
		to = end > to ? end : to;
	}
	if (!t || from > to)
		return 0;
	r = devpm_trace_read_buffer(t, from, to, collect, &ev);
	if (r < 0) {
		rn_stream_emit(st, "NOTE runtime-PM timeline of the failed cases: %s",
			       devpm_error());
		return r;
	}
	for (i = 0; i < p->ncases; i++) {
		c = &p->cases[i];
		if (c->result != RN_FAIL || !c->start_us)
			continue;
		where = rn_xasprintf("%s/%s/%s", p->suite, p->name, c->name);
		out += rn_rpm_case_timeline(st, where, c->name, c->start_us,
					    c->end_us ? c->end_us : p->end_us,
					    ev.v, ev.n, driver_of);
		free(where);
	}
	free(ev.v);
	return out;
}
