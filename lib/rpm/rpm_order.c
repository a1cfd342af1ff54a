// SPDX-License-Identifier: GPL-2.0-only
/*
 * rpm_order.c - the order of parent and child transitions (rpm_order.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpm/rpm_order.h"
#include "trace/trace.h"
#include "trace/transition.h"

#define MAX_CALLS 256

int devpm_order_suspend(const struct devpm_event *ev, size_t n,
			const char *parent, const char *const *children,
			size_t nkids, uint64_t from_us, uint64_t to_us,
			struct devpm_order *o, char *why, size_t len)
{
	uint64_t at;
	size_t i;

	memset(o, 0, sizeof(*o));
	why[0] = '\0';
	for (i = 0; i < nkids; i++) {
		at = devpm_rpm_suspended_at(ev, n, children[i], from_us, to_us,
					    NULL);
		if (!at) {
			snprintf(why, len, "no completed suspend of %s in the trace",
				 children[i]);
			return -ENODATA;
		}
		if (at > o->child_us) {
			o->child_us = at;
			snprintf(o->child, sizeof(o->child), "%s", children[i]);
		}
	}
	o->parent_us = devpm_rpm_suspended_at(ev, n, parent, from_us, to_us,
					      NULL);
	if (!o->parent_us) {
		snprintf(why, len, "no completed suspend of %s in the trace",
			 parent);
		return -ENODATA;
	}
	if (nkids && o->parent_us <= o->child_us) {
		snprintf(why, len,
			 "%s suspended %.3f ms before its child %s did",
			 parent, (o->child_us - o->parent_us) / 1000.0,
			 o->child);
		return 1;
	}
	return 0;
}

/* The first completed (synchronous, returned 0) resume of dev. */
static int first_resume(const struct devpm_event *ev, size_t n,
			const char *dev, uint64_t from_us, uint64_t to_us,
			struct devpm_call *out)
{
	struct devpm_call *c;
	size_t count, i;
	int found = 0;

	c = calloc(MAX_CALLS, sizeof(*c));
	if (!c)
		return -ENOMEM;
	count = devpm_rpm_calls(ev, n, dev, from_us, to_us, c, MAX_CALLS);
	if (count > MAX_CALLS)
		count = MAX_CALLS;
	for (i = 0; i < count && !found; i++) {
		if (c[i].type != DEVPM_EV_RPM_RESUME || !c[i].ret_us ||
		    c[i].ret != 0 || (c[i].flags & DEVPM_RPM_ASYNC))
			continue;
		*out = c[i];
		found = 1;
	}
	free(c);
	return found;
}

int devpm_order_resume(const struct devpm_event *ev, size_t n,
		       const char *parent, const char *child, uint64_t from_us,
		       uint64_t to_us, struct devpm_order *o, char *why,
		       size_t len)
{
	struct devpm_call c, p;
	int r;

	memset(o, 0, sizeof(*o));
	why[0] = '\0';
	snprintf(o->child, sizeof(o->child), "%s", child);
	r = first_resume(ev, n, child, from_us, to_us, &c);
	if (r <= 0) {
		snprintf(why, len, "no completed resume of %s in the trace",
			 child);
		return r < 0 ? r : -ENODATA;
	}
	o->child_us = c.ret_us;
	r = first_resume(ev, n, parent, from_us, to_us, &p);
	if (r <= 0) {
		snprintf(why, len,
			 "no completed resume of %s in the trace (was it suspended?)",
			 parent);
		return r < 0 ? r : -ENODATA;
	}
	o->parent_us = p.ret_us;
	if (p.call_us < c.call_us) {
		snprintf(why, len,
			 "%s resumed %.3f ms before %s's resume began: something else woke it",
			 parent, (c.call_us - p.call_us) / 1000.0, child);
		return -ENODATA;
	}
	if (p.ret_us > c.ret_us) {
		snprintf(why, len,
			 "%s finished resuming %.3f ms before its parent %s did",
			 child, (p.ret_us - c.ret_us) / 1000.0, parent);
		return 1;
	}
	return 0;
}

int devpm_order_idle_refused(const struct devpm_event *ev, size_t n,
			     const char *dev, uint64_t from_us,
			     uint64_t to_us, uint64_t *last_us)
{
	bool pending = false, suspended = false;
	int count = 0;
	size_t i;

	if (last_us)
		*last_us = 0;
	for (i = 0; i < n; i++) {
		const struct devpm_event *e = &ev[i];

		if (strcmp(e->dev, dev) || e->ts_us < from_us ||
		    e->ts_us > to_us)
			continue;
		if (e->type == DEVPM_EV_RPM_IDLE) {
			pending = e->usage == 0 && e->child == 0;
			suspended = false;
		} else if (e->type == DEVPM_EV_RPM_SUSPEND) {
			suspended = true;
		} else if (e->type == DEVPM_EV_RPM_RETURN && pending &&
			   !strcmp(e->func, "rpm_idle")) {
			if (e->ret == -EBUSY && !suspended) {
				count++;
				if (last_us)
					*last_us = e->ts_us;
			}
			pending = false;
		}
	}
	return count;
}
