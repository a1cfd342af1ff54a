// SPDX-License-Identifier: GPL-2.0-only
/*
 * transition.c - runtime-PM transitions from trace events (transition.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trace/transition.h"
#include "trace/trace.h"

static bool is_call(const struct devpm_event *e)
{
	return e->type == DEVPM_EV_RPM_SUSPEND ||
	       e->type == DEVPM_EV_RPM_RESUME ||
	       e->type == DEVPM_EV_RPM_IDLE;
}

static const char *call_func(enum devpm_ev_type type)
{
	switch (type) {
	case DEVPM_EV_RPM_SUSPEND:
		return "rpm_suspend";
	case DEVPM_EV_RPM_RESUME:
		return "rpm_resume";
	default:
		return "rpm_idle";
	}
}

/*
 * Pair calls with returns over the whole list (a return may come after
 * to_us), keeping only calls made in the window.  open[] holds indexes into
 * out[] (or -1 for calls outside the window) of calls not yet returned.
 */
size_t devpm_rpm_calls(const struct devpm_event *ev, size_t n,
		       const char *dev, uint64_t from_us, uint64_t to_us,
		       struct devpm_call *out, size_t max)
{
	enum { DEPTH = 64 };
	long open[DEPTH];
	enum devpm_ev_type open_type[DEPTH];
	size_t nopen = 0, count = 0, i, j;

	for (i = 0; i < n; i++) {
		const struct devpm_event *e = &ev[i];

		if (strcmp(e->dev, dev))
			continue;
		if (is_call(e)) {
			bool in = e->ts_us >= from_us && e->ts_us <= to_us;
			long idx = -1;

			if (in) {
				if (count < max) {
					out[count] = (struct devpm_call){
						.type = e->type,
						.flags = e->flags,
						.usage = e->usage,
						.pid = e->pid,
						.call_us = e->ts_us,
					};
					idx = (long)count;
				}
				count++;
			}
			if (nopen == DEPTH) {	/* unmatched returns: drop oldest */
				memmove(open, open + 1, (DEPTH - 1) * sizeof(*open));
				memmove(open_type, open_type + 1,
					(DEPTH - 1) * sizeof(*open_type));
				nopen--;
			}
			open[nopen] = idx;
			open_type[nopen++] = e->type;
			continue;
		}
		if (e->type != DEVPM_EV_RPM_RETURN)
			continue;
		for (j = nopen; j-- > 0;) {
			if (strcmp(call_func(open_type[j]), e->func))
				continue;
			if (open[j] >= 0) {
				out[open[j]].ret_us = e->ts_us;
				out[open[j]].ret = e->ret;
			}
			memmove(open + j, open + j + 1,
				(nopen - j - 1) * sizeof(*open));
			memmove(open_type + j, open_type + j + 1,
				(nopen - j - 1) * sizeof(*open_type));
			nopen--;
			break;
		}
	}
	return count;
}

bool devpm_rpm_has_status(const struct devpm_event *ev, size_t n,
			  const char *dev)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ev[i].type == DEVPM_EV_RPM_STATUS &&
		    !strcmp(ev[i].dev, dev))
			return true;
	return false;
}

static struct devpm_call *all_calls(const struct devpm_event *ev, size_t n,
				    const char *dev, uint64_t from_us,
				    uint64_t to_us, size_t *count)
{
	struct devpm_call *c;

	*count = devpm_rpm_calls(ev, n, dev, from_us, to_us, NULL, 0);
	c = calloc(*count ? *count : 1, sizeof(*c));
	if (!c) {
		*count = 0;
		return NULL;
	}
	devpm_rpm_calls(ev, n, dev, from_us, to_us, c, *count);
	return c;
}

int devpm_rpm_resumes(const struct devpm_event *ev, size_t n,
		      const char *dev, uint64_t from_us, uint64_t to_us,
		      uint64_t *at_us, size_t max)
{
	struct devpm_call *c;
	size_t count, i;
	int found = 0;

	if (devpm_rpm_has_status(ev, n, dev)) {
		const char *prev = "";

		for (i = 0; i < n; i++) {
			if (ev[i].type != DEVPM_EV_RPM_STATUS ||
			    strcmp(ev[i].dev, dev))
				continue;
			if (ev[i].ts_us >= from_us && ev[i].ts_us <= to_us &&
			    !strcmp(ev[i].status, "active") &&
			    !strcmp(prev, "resuming")) {
				if (at_us && (size_t)found < max)
					at_us[found] = ev[i].ts_us;
				found++;
			}
			prev = ev[i].status;
		}
		return found;
	}
	c = all_calls(ev, n, dev, from_us, to_us, &count);
	for (i = 0; c && i < count; i++) {
		if (c[i].type != DEVPM_EV_RPM_RESUME ||
		    (c[i].flags & DEVPM_RPM_ASYNC) || !c[i].ret_us ||
		    c[i].ret != 0 || c[i].ret_us > to_us)
			continue;
		if (at_us && (size_t)found < max)
			at_us[found] = c[i].ret_us;
		found++;
	}
	free(c);
	return found;
}

uint64_t devpm_rpm_suspended_at(const struct devpm_event *ev, size_t n,
				const char *dev, uint64_t from_us,
				uint64_t to_us, uint64_t *dur_us)
{
	struct devpm_call *c;
	uint64_t at = 0;
	size_t count, i;

	if (dur_us)
		*dur_us = 0;
	if (devpm_rpm_has_status(ev, n, dev)) {
		for (i = 0; i < n; i++)
			if (ev[i].type == DEVPM_EV_RPM_STATUS &&
			    !strcmp(ev[i].dev, dev) &&
			    ev[i].ts_us >= from_us && ev[i].ts_us <= to_us &&
			    !strcmp(ev[i].status, "suspended"))
				at = ev[i].ts_us;
		return at;
	}
	c = all_calls(ev, n, dev, from_us, to_us, &count);
	for (i = 0; c && i < count; i++) {
		if (c[i].type != DEVPM_EV_RPM_SUSPEND || !c[i].ret_us ||
		    c[i].ret != 0 || c[i].ret_us > to_us ||
		    c[i].ret_us < at)
			continue;
		/* A queued request returns before the work runs it. */
		if (c[i].flags & DEVPM_RPM_ASYNC)
			continue;
		at = c[i].ret_us;
		if (dur_us)
			*dur_us = c[i].ret_us - c[i].call_us;
	}
	free(c);
	return at;
}

uint64_t devpm_rpm_last_put(const struct devpm_event *ev, size_t n,
			    const char *dev, uint64_t from_us, uint64_t to_us)
{
	uint64_t at = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (ev[i].type == DEVPM_EV_RPM_SUSPEND &&
		    !strcmp(ev[i].dev, dev) && ev[i].ts_us >= from_us &&
		    ev[i].ts_us <= to_us && (ev[i].flags & DEVPM_RPM_GET_PUT))
			at = ev[i].ts_us;
	return at;
}

int devpm_rpm_last_usage(const struct devpm_event *ev, size_t n,
			 const char *dev, uint64_t from_us, uint64_t to_us)
{
	int usage = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if ((is_call(&ev[i]) || ev[i].type == DEVPM_EV_RPM_USAGE) &&
		    !strcmp(ev[i].dev, dev) && ev[i].ts_us >= from_us &&
		    ev[i].ts_us <= to_us)
			usage = ev[i].usage;
	return usage;
}
