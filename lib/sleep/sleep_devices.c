// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep_devices.c - the machine's devices through a system-sleep cycle,
 * one by one (sleep_devices.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sleep/sleep_devices.h"
#include "sleep/pci_sleep_state.h"
#include "core/kmsg.h"
#include "core/note.h"
#include "core/sysfs.h"
#include "judge/block.h"
#include "judge/run_record.h"
#include "judge/sleep_verdict.h"
#include "judge/subtest.h"
#include "sleep/platform_wake.h"
#include "sleep/system_sleep.h"
#include "state/journal.h"
#include "trace/pm_print_times.h"
#include "trace/sleep_trace.h"

uint64_t devpm_resume_budget_us(void)
{
	const char *v = getenv(DEVPM_RESUME_BUDGET_ENV);
	char *end;
	long ms;

	if (!v || !v[0])
		return 0;
	ms = strtol(v, &end, 10);
	return *end || ms <= 0 ? 0 : (uint64_t)ms * 1000;
}

int devpm_sleep_devs(const struct devpm_sleep_cycle *c,
		     struct devpm_sleep_dev **out, size_t *nout)
{
	struct devpm_sleep_dev *d;
	size_t i, j, n = 0;

	*out = NULL;
	*nout = 0;
	d = calloc(c->ncb ? c->ncb : 1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (i = 0; i < c->ncb; i++) {
		const struct devpm_pm_cb *cb = &c->cb[i];

		for (j = 0; j < n; j++)
			if (!strcmp(d[j].dev, cb->dev))
				break;
		if (j == n) {
			snprintf(d[n].dev, sizeof(d[n].dev), "%s", cb->dev);
			snprintf(d[n].driver, sizeof(d[n].driver), "%s",
				 cb->driver);
			n++;
		}
		if (!d[j].parent[0] && cb->parent[0])
			snprintf(d[j].parent, sizeof(d[j].parent), "%s",
				 cb->parent);
		d[j].us[cb->phase] += devpm_pm_cb_dur(cb);
		d[j].total += devpm_pm_cb_dur(cb);
		if (cb->phase != DEVPM_PH_PREPARE &&
		    cb->phase != DEVPM_PH_COMPLETE)
			d[j].timed = true;
	}
	*out = d;
	*nout = n;
	return 0;
}

void devpm_sleep_dev_phases(const struct devpm_sleep_dev *d, char *buf,
			    size_t len)
{
	size_t used = 0;
	int ph;

	buf[0] = '\0';
	for (ph = 0; ph < DEVPM_PH_NR && used < len; ph++)
		if (d->us[ph])
			used += snprintf(buf + used, len - used, "%s%s=%llu",
					 used ? " " : "",
					 devpm_pm_phase_name(ph),
					 (unsigned long long)d->us[ph]);
}

uint64_t devpm_sleep_dev_side_us(const struct devpm_sleep_dev *d,
				 bool suspend)
{
	uint64_t t = 0;
	int ph;

	for (ph = 0; ph < DEVPM_PH_NR; ph++)
		if (devpm_pm_phase_is_suspend(ph) == suspend)
			t += d->us[ph];
	return t;
}

int devpm_devlinks_read(struct devpm_devlink **v, size_t *n)
{
	struct devpm_devlink *l = NULL, *t;
	char dir[DEVPM_PATH_MAX], p[DEVPM_PATH_MAX], st[32];
	size_t cap = 0, k = 0;
	struct dirent *e;
	DIR *d;

	*v = NULL;
	*n = 0;
	d = devpm_opendir("/sys/class/devlink");
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    devpm_fmt(dir, sizeof(dir), "/sys/class/devlink/%s",
			      e->d_name) < 0)
			continue;
		/* drivers/base/core.c: status_show(); dormant: not ordered. */
		if (!devpm_fmt(p, sizeof(p), "%s/status", dir) &&
		    !devpm_read_str(p, st, sizeof(st)) &&
		    !strcmp(st, "dormant"))
			continue;
		if (k == cap) {
			cap = cap ? 2 * cap : 16;
			t = realloc(l, cap * sizeof(*l));
			if (!t) {
				free(l);
				closedir(d);
				return -ENOMEM;
			}
			l = t;
		}
		devpm_link_base(dir, "supplier", l[k].supplier,
			 sizeof(l[k].supplier));
		devpm_link_base(dir, "consumer", l[k].consumer,
			 sizeof(l[k].consumer));
		if (l[k].supplier[0] && l[k].consumer[0])
			k++;
	}
	closedir(d);
	*v = l;
	*n = k;
	return 0;
}

int devpm_sleep_dev_error(const struct devpm_sleep_cycle *c, const char *dev,
			  char *why, size_t len)
{
	struct devpm_sleep_culprit k;
	size_t i;

	for (i = 0; i < c->ncb; i++) {
		const struct devpm_pm_cb *cb = &c->cb[i];

		if (cb->err >= 0 || !cb->end_us || strcmp(cb->dev, dev))
			continue;
		devpm_sleep_culprit_set(&k, cb->dev, cb->driver, cb->phase,
					cb->err);
		snprintf(why, len, "%s", k.why);
		return 1;
	}
	return 0;
}

/* One superior (parent, supplier) of dev in every phase both ran. */
static int order_with(const struct devpm_sleep_cycle *c, const char *dev,
		      const char *sup, const char *what, char *why,
		      size_t len, int *checked)
{
	static const enum devpm_pm_phase phs[] = {
		DEVPM_PH_SUSPEND, DEVPM_PH_SUSPEND_LATE,
		DEVPM_PH_SUSPEND_NOIRQ, DEVPM_PH_RESUME_NOIRQ,
		DEVPM_PH_RESUME_EARLY, DEVPM_PH_RESUME,
	};
	char w[512];
	size_t i;
	bool down;
	int r;

	for (i = 0; i < sizeof(phs) / sizeof(phs[0]); i++) {
		if (!devpm_sleep_cb(c, phs[i], dev) ||
		    !devpm_sleep_cb(c, phs[i], sup))
			continue;
		/* Suspend: the child first; resume: the parent first. */
		down = devpm_pm_phase_is_suspend(phs[i]);
		r = devpm_sleep_check_before(c, phs[i], down ? dev : sup,
					     down ? sup : dev, w, sizeof(w));
		if (r < 0)
			continue;	/* unended: a refused cycle's */
		(*checked)++;
		if (r) {
			snprintf(why, len, "%s order broken with its %s %s: %s",
				 devpm_pm_phase_name(phs[i]), what, sup, w);
			return 1;
		}
	}
	return 0;
}

int devpm_sleep_dev_order(const struct devpm_sleep_cycle *c, const char *dev,
			  const struct devpm_devlink *links, size_t nlinks,
			  char *why, size_t len, int *checked)
{
	const struct devpm_pm_cb *cb = NULL;
	size_t i;

	/*
	 * A class device may carry its parent's name (devpm_mock's misc
	 * node): the trace cannot tell the two apart, nor order them.
	 */
	for (i = 0; i < c->ncb && !cb; i++)
		if (!strcmp(c->cb[i].dev, dev) && c->cb[i].parent[0] &&
		    strcmp(c->cb[i].parent, dev))
			cb = &c->cb[i];
	if (cb && strcmp(cb->parent, "none") &&
	    order_with(c, dev, cb->parent, "parent", why, len, checked))
		return 1;
	for (i = 0; i < nlinks; i++)
		if (!strcmp(links[i].consumer, dev) &&
		    order_with(c, dev, links[i].supplier, "supplier", why,
			       len, checked))
			return 1;
	return 0;
}

int devpm_sleep_dev_budget(const struct devpm_sleep_cycle *c, const char *dev,
			   uint64_t budget_us, char *why, size_t len)
{
	const struct devpm_pm_cb *worst = NULL;
	size_t i;

	if (!budget_us)
		return 0;
	for (i = 0; i < c->ncb; i++) {
		const struct devpm_pm_cb *cb = &c->cb[i];

		if (strcmp(cb->dev, dev) || devpm_pm_phase_is_suspend(cb->phase) ||
		    devpm_pm_cb_dur(cb) <= budget_us)
			continue;
		if (!worst || devpm_pm_cb_dur(cb) > devpm_pm_cb_dur(worst))
			worst = cb;
	}
	if (!worst)
		return 0;
	snprintf(why, len, "%s (%s): %s took %llu us, over the resume budget %llu us (--resume-budget-ms)",
		 worst->dev, worst->driver[0] ? worst->driver : "no driver",
		 devpm_pm_phase_name(worst->phase),
		 (unsigned long long)devpm_pm_cb_dur(worst),
		 (unsigned long long)budget_us);
	return 1;
}

static int by_total(const void *a, const void *b)
{
	const struct devpm_sleep_dev *x = a, *y = b;

	return x->total < y->total ? 1 : x->total > y->total ? -1 : 0;
}

void devpm_sleep_devs_slowest(const struct devpm_sleep_cycle *c,
			      struct devpm_sleep_dev *d, size_t n, size_t k,
			      const char *cycle)
{
	char list[512], name[160], line[512];
	size_t i, j;

	qsort(d, n, sizeof(*d), by_total);
	for (i = 0; i < n && i < k; i++) {
		devpm_sleep_dev_phases(&d[i], list, sizeof(list));
		devpm_note("slowest %zu: %s (%s) %llu us: %s", i + 1, d[i].dev,
			   d[i].driver[0] ? d[i].driver : "-",
			   (unsigned long long)d[i].total, list);
	}
	snprintf(name, sizeof(name), "%s.slowest", cycle);
	for (j = 0; j < c->ncb; j++) {
		const struct devpm_pm_cb *cb = &c->cb[j];

		for (i = 0; i < n && i < k; i++)
			if (!strcmp(d[i].dev, cb->dev))
				break;
		if (i == n || i == k || !cb->end_us ||
		    devpm_sleep_timeline_line(c, cb, name, line, sizeof(line)))
			continue;
		printf("# %s\n", line);
	}
	fflush(stdout);
}

int devpm_sleep_devices_cycle(struct devpm_trace *t, const char *state,
			      struct devpm_sleep_cycle *c, int *ret,
			      uint64_t *wall_us, char *why, size_t len)
{
	bool mem = !strcmp(state, "mem");

	memset(c, 0, sizeof(*c));
	*ret = 0;
	*wall_us = 0;
	if (!devpm_power_has("/sys/power/state", state)) {
		snprintf(why, len, "no %s: /sys/power/state has no '%s'",
			 mem ? "S3" : "s2idle", state);
		return 1;
	}
	if (mem && !devpm_power_has("/sys/power/mem_sleep", "deep")) {
		snprintf(why, len, "no S3: /sys/power/mem_sleep has no 'deep'");
		return 1;
	}
	if (devpm_platform_wake_setup(why, len))
		return 1;
	/* A real sleep: no pm_test level. */
	if (devpm_exists("/sys/power/pm_test") && devpm_pm_test_set("none")) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	if (mem && devpm_knob_write("/sys/power/mem_sleep", "deep")) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	if (devpm_platform_wake_arm(state, why, len))
		return -1;
	if (devpm_sleep_traced(t, state, ret, wall_us, c) && !c->ncb) {
		snprintf(why, len, "%s: %s", state, devpm_error());
		return -1;
	}
	return 0;
}

/* What a device's line needs, across the cycles judged. */
#define JUDGE_CYCLES	4

struct judge_ctx {
	const struct devpm_sleep_judged *cy;
	size_t ncy;
	struct devpm_sleep_dev *d[JUDGE_CYCLES];	/* each cycle's */
	size_t nd[JUDGE_CYCLES];
	const struct devpm_devlink *links;
	size_t nlinks;
	uint64_t budget_us;
	const char *dev;
	const char *held;	/* the device holds a source: these words */
};

static void metrics_of(const struct devpm_sleep_dev *d, const char *prefix)
{
	char key[64], name[160];
	int ph;

	/* Under the name its result line has: metrics compare across runs. */
	if (!devpm_subtest_stable_name(d->dev, name, sizeof(name)))
		snprintf(name, sizeof(name), "%s", d->dev);
	for (ph = 0; ph < DEVPM_PH_NR; ph++) {
		if (!d->us[ph])
			continue;
		snprintf(key, sizeof(key), "%s%s_us", prefix,
			 devpm_pm_phase_name(ph));
		devpm_metric(name, key, d->us[ph]);
	}
}

/*
 * dev's D-state at the end of suspend_noirq in cy, added to msg at *at
 * (", D3hot at suspend_noirq"); 1 with why when it stayed shallower than
 * pci_prepare_to_sleep() promised (pci_sleep_state.h).
 */
static int pci_state(const struct devpm_sleep_judged *cy, const char *dev,
		     char *msg, size_t len, size_t *at, char *why, size_t wlen)
{
	const struct devpm_pci_sleep_seen *s;

	s = devpm_pci_sleep_find(cy->pci, dev);
	if (!s || s->state < 0 || s->expect < 0)
		return 0;
	*at += snprintf(msg + *at, len - *at, ", %s at suspend_noirq",
			devpm_pci_sleep_state_name(s->state));
	if (*at >= len)
		*at = len - 1;
	return devpm_pci_sleep_judge(s, why, wlen);
}

/* One device: its callbacks in each cycle, judged. */
static void judge_one(struct devpm_block *b, void *arg)
{
	const struct judge_ctx *x = arg;
	char why[768], list[512], msg[1024] = "";
	const struct devpm_sleep_dev *d;
	size_t i, j, n, at = 0;
	int checked = 0;

	if (x->held)
		devpm_block_fail(b, "%s", x->held);
	for (i = 0; i < x->ncy; i++) {
		const struct devpm_sleep_cycle *c = x->cy[i].c;

		if (!c)
			continue;
		d = x->d[i];
		n = x->nd[i];
		for (j = 0; j < n && strcmp(d[j].dev, x->dev); j++)
			;
		if (j < n) {
			metrics_of(&d[j], x->cy[i].metric_prefix);
			devpm_sleep_dev_phases(&d[j], list, sizeof(list));
			at += snprintf(msg + at, sizeof(msg) - at,
				       "%s%s: suspend %llu us, resume %llu us (%s)",
				       at ? "; " : "", x->cy[i].name,
				       (unsigned long long)
				       devpm_sleep_dev_side_us(&d[j], true),
				       (unsigned long long)
				       devpm_sleep_dev_side_us(&d[j], false),
				       list);
			if (at >= sizeof(msg))
				at = sizeof(msg) - 1;
			if (pci_state(&x->cy[i], x->dev, msg, sizeof(msg), &at,
				      why, sizeof(why)))
				devpm_block_fail(b, "%s (%s)", why,
						 x->cy[i].name);
		}
		if (devpm_sleep_dev_error(c, x->dev, why, sizeof(why)) ||
		    devpm_sleep_dev_order(c, x->dev, x->links, x->nlinks, why,
					  sizeof(why), &checked) ||
		    devpm_sleep_dev_budget(c, x->dev, x->budget_us, why,
					   sizeof(why)))
			devpm_block_fail(b, "%s (%s)", why, x->cy[i].name);
	}
	if (devpm_block_failed(b)) {
		const char *f[2] = { x->dev, "system sleep" };

		/* Judged here: the final re-check does not repeat it. */
		devpm_run_record("judged", f, 2);
		return;
	}
	if (checked)
		snprintf(why, sizeof(why), "its order with parent or supplier kept in %d phase%s",
			 checked, checked == 1 ? "" : "s");
	else
		snprintf(why, sizeof(why), "no parent or supplier with callbacks to order against");
	devpm_block_pass(b, "%s; no callback error, %s%s",
			 msg[0] ? msg : "no timed callback", why,
			 x->budget_us ? ", within the resume budget" : "");
}

/* Has the device a callback outside prepare/complete in a cycle? */
static bool timed_in(const struct devpm_sleep_judged *cy, size_t ncy,
		     const char *dev)
{
	size_t i, k;

	for (i = 0; i < ncy; i++)
		for (k = 0; cy[i].c && k < cy[i].c->ncb; k++)
			if (!strcmp(cy[i].c->cb[k].dev, dev) &&
			    cy[i].c->cb[k].phase != DEVPM_PH_PREPARE &&
			    cy[i].c->cb[k].phase != DEVPM_PH_COMPLETE)
				return true;
	return false;
}

/* Was the device's line written already (an earlier cycle had it)? */
static bool seen_before(const struct devpm_sleep_judged *cy, size_t upto,
			const char *dev)
{
	return upto && timed_in(cy, upto, dev);
}

size_t devpm_sleep_devices_judge(struct devpm_subtest *sub,
				 const struct devpm_sleep_judged *cy,
				 size_t ncy, uint64_t budget_us,
				 const char *held_dev, const char *held)
{
	struct judge_ctx x = { .cy = cy, .budget_us = budget_us };
	struct devpm_devlink *links = NULL;
	bool held_done = !held || !held[0] || !held_dev || !held_dev[0];
	size_t i, k, n = 0;

	x.ncy = ncy < JUDGE_CYCLES ? ncy : JUDGE_CYCLES;
	for (i = 0; i < x.ncy; i++)
		if (cy[i].c && devpm_sleep_devs(cy[i].c, &x.d[i], &x.nd[i]))
			x.nd[i] = 0;
	devpm_devlinks_read(&links, &x.nlinks);
	x.links = links;
	for (i = 0; i < x.ncy; i++) {
		/* Each device once, in its first cycle's callback order. */
		for (k = 0; k < x.nd[i]; k++) {
			const char *dev = x.d[i][k].dev;

			if (!x.d[i][k].timed || seen_before(cy, i, dev))
				continue;
			x.dev = dev;
			x.held = !held_done && !strcmp(dev, held_dev) ? held :
				 NULL;
			held_done |= x.held != NULL;
			devpm_block_run(sub, dev, judge_one, &x);
			n++;
		}
	}
	if (!held_done) {
		x.dev = held_dev;
		x.held = held;
		devpm_block_run(sub, held_dev, judge_one, &x);
		n++;
	}
	for (i = 0; i < x.ncy; i++)
		free(x.d[i]);
	free(links);
	return n;
}

void devpm_sleep_record(struct devpm_trace *t, const char *name,
			const char *glob)
{
	const struct devpm_event *ev;
	const char *env = getenv("DEVPM_SLEEP_RECORD");
	size_t i, n;

	if (!env || strcmp(env, "1") || !t)
		return;
	ev = devpm_trace_events(t, &n);
	for (i = 0; i < n; i++) {
		const struct devpm_event *e = &ev[i];

		if (strcmp(e->event, "suspend_resume") &&
		    (strncmp(e->event, "device_pm_callback_", 19) ||
		     !strstr(e->raw, glob)))
			continue;
		printf("# RECORD %s %16s-%-7d [000] ..... %llu.%06llu: %s: %s\n",
		       name, "devpm", e->pid,
		       (unsigned long long)(e->ts_us / 1000000),
		       (unsigned long long)(e->ts_us % 1000000), e->event,
		       e->raw);
	}
	fflush(stdout);
}

int devpm_sleep_devices_prints_cycle(struct devpm_trace **t,
				     struct devpm_kmsg **k,
				     struct devpm_sleep_cycle *c,
				     struct devpm_pm_prints *pr,
				     unsigned long *lost, char *why,
				     size_t len)
{
	uint64_t wall;
	int ret, r;

	if (!*t)
		*t = devpm_sleep_trace_start(NULL);
	if (!*t) {
		snprintf(why, len, "needs the power trace events: %s",
			 devpm_error());
		return 1;
	}
	if (devpm_knob_write("/sys/power/pm_print_times", "1")) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	if (!*k)
		*k = devpm_kmsg_open();
	if (!*k || devpm_kmsg_drain(*k, NULL, NULL) < 0) {
		snprintf(why, len, "kmsg: %s", devpm_error());
		return -1;
	}
	r = devpm_sleep_devices_cycle(*t, "freeze", c, &ret, &wall, why, len);
	if (r)
		return r;
	if (ret) {
		snprintf(why, len, "s2idle: %s", strerror(-ret));
		return -1;
	}
	if (devpm_kmsg_drain(*k, devpm_pm_prints_line, pr) < 0) {
		snprintf(why, len, "kmsg: %s", devpm_error());
		return -1;
	}
	*lost = devpm_kmsg_lost(*k);
	devpm_note("cycle %llu ms: %zu callbacks, %zu kernel records",
		   (unsigned long long)wall / 1000, c->ncb, pr->n);
	return 0;
}
