// SPDX-License-Identifier: GPL-2.0-only
/*
 * idle.c - PCI devices left idle: they suspend, their D-state matches
 * their runtime status, a config read leaves D3hot alone, control=on
 * resumes at once, and the active/suspended time accounting adds up.
 *
 * Each case lets the devices that may suspend do so (lib/bus/pci/pci_settle.h), giving
 * unbound devices with a PM capability to vfio-pci first: that is the path
 * to D3hot at runtime.  Everything written is put back when the case ends.
 */
#include <time.h>

#include "harness/test.h"
#include "bus/pci/pci.h"
#include "bus/pci/pci_set.h"
#include "bus/pci/pci_settle.h"
#include "rpm/autosuspend_timer.h"
#include "trace/transition.h"
#include "pci_set_fixture.h"

static const struct devpm_test_info info = {
	.suite = "pci",
	.timeout_s = 60,
	.needs = { .root = true, .files = (const char *[]){
			"/sys/bus/pci/devices", NULL } },
};

/* Devices whose D-state tells something: a PM capability, or no driver. */
static bool want_dstate(const struct devpm_pci_dev *p, char *why, size_t len)
{
	if ((p->info_r == 0 && p->info.pm_cap) || !p->d.driver[0])
		return true;
	snprintf(why, len, "no PM capability: in D0 whatever its status");
	return false;
}

static bool want_pm_cap(const struct devpm_pci_dev *p, char *why, size_t len)
{
	if (p->info_r == 0 && p->info.pm_cap)
		return true;
	snprintf(why, len, "no PM capability: it stays in D0");
	return false;
}

/* The kernel's power_state of p: enum devpm_pci_dstate, -1 unknown. */
static int read_power_state(const struct devpm_pci_dev *p, char *buf,
			    size_t len)
{
	char k[DEVPM_PATH_MAX];

	snprintf(buf, len, "absent");
	if (devpm_fmt(k, sizeof(k), "%s/power_state", p->d.path) < 0 ||
	    devpm_read_str(k, buf, len) < 0)
		return -2;
	return devpm_pci_dstate_parse(buf);
}

/* A device's runtime status and power_state, read before any check. */
struct dstate_at {
	char status[16], ps_name[16];
	int ps;
};

struct acct;		/* runtime_time_accounting's windows */

/*
 * What a case's blocks share: the set, the device of the block and its
 * index, and the case's own readings of each device.
 */
struct idle_ctx {
	struct devpm_pci_set *s;
	struct devpm_pci_dev *p;
	size_t i;
	const struct dstate_at *at;
	const struct acct *acct;
};

/*
 * One device let suspend: it must, and its suspend must begin when the
 * kernel promised (rpm/autosuspend_timer.h), judged from the trace.
 */
static void suspend_one(struct devpm_block *b, void *arg)
{
	struct idle_ctx *c = arg;
	struct devpm_pci_set *s = c->s;
	struct devpm_pci_dev *p = c->p;
	const struct devpm_event *ev;
	struct devpm_autosuspend a;
	struct devpm_wait_result w;
	char why[512], line[256];
	int delay = 0;
	size_t n = 0;
	int r;

	if (!p->part)
		devpm_block_skip(b, "%s", p->skip);
	/* The opposite first: control=on kept it active. */
	if (strcmp(p->on_status, "active"))
		devpm_block_abort(b,
				"control=on left runtime_status %s (pm_runtime_forbid() resumes)",
				p->on_status);
	r = devpm_pci_dev_wait_suspended(s, p, &w);
	if (r == 1)
		devpm_block_skip(b, "%s", p->skip);
	if (r < 0)
		devpm_block_abort(b,
				"%s (%s): not suspended %.0f ms after control=auto (waited up to its delay %ld ms + %d): %s",
				p->d.name, p->d.driver[0] ? p->d.driver : "no driver",
				us_to_ms(devpm_now_us() - p->allow_us),
				p->delay_ms, DEVPM_PCI_BOUND_MS,
				w.why[0] ? w.why : devpm_error());
	if (!s->t) {
		devpm_block_pass(b, "suspended within %.1f ms (polled: %s): not judged",
			       us_to_ms(w.at_us - p->allow_us), s->trace_why);
		return;
	}
	if (p->d.rpm.have_autosuspend && p->d.rpm.autosuspend_delay_ms > 0)
		delay = (int)p->d.rpm.autosuspend_delay_ms;
	ev = devpm_trace_read(s->t, 0, &n);
	r = devpm_autosuspend_check(ev, n, p->d.name, p->allow_us,
				    devpm_now_us(), delay, &a, why,
				    sizeof(why));
	if (r == 1)
		devpm_block_abort(b, "%s (%s): %s", p->d.name,
				  p->d.driver[0] ? p->d.driver : "no driver",
				  why);
	if (r < 0) {
		devpm_block_pass(b, "suspended %.1f ms after control=auto (not judged: %s)",
			       us_to_ms(w.at_us - p->allow_us), why);
		return;
	}
	devpm_metric(p->d.name, "suspend_us", (double)(a.done_us - p->allow_us));
	devpm_metric(p->d.name, "autosuspend_late_us", (double)a.late_us);
	devpm_autosuspend_line(&a, line, sizeof(line));
	devpm_block_pass(b, "%s (delay %d ms)", line, delay);
}

TEST_F(pci, idle_devices_suspend)
{
	struct idle_ctx c = { .s = &self->s };

	devpm_pci_set_parts(c.s, true, NULL);
	if (c.s->t && devpm_autosuspend_trace(c.s->t) < 0)
		devpm_note("no hrtimer events (%s): a late timer counts as late",
			   devpm_error());
	devpm_pci_set_allow(c.s, true, false);
	devpm_subtest_begin(&self->sub, "idle_devices_suspend");
	devpm_pci_set_each(&self->sub, c.s, suspend_one, &c, &c.i, &c.p);
	DEVPM_SUBTEST_END(&self->sub);
}

/* One device's D-state against its runtime status. */
static void dstate_one(struct devpm_block *b, void *arg)
{
	struct idle_ctx *c = arg;
	struct devpm_pci_dev *p = c->p;
	const char *status = c->at[c->i].status;
	const char *ps_name = c->at[c->i].ps_name;
	int ps = c->at[c->i].ps;
	unsigned int pmcsr;
	int pm;

	if (p->info_r < 0)
		devpm_block_abort(b, "config space: %s", p->info_why);
	if (!p->info.pm_cap) {
		if (ps > DEVPM_PCI_D0)
			devpm_block_abort(b,
					"%s: power_state %s without a PM capability",
					p->d.name, ps_name);
		/* D0 whatever its status: there is no D-state to match. */
		devpm_block_skip(b, "no PM capability: in D0 whatever its runtime status");
	}
	pm = devpm_pci_pmcsr(c->s->pci, p->d.name, &pmcsr);
	if (pm < 0)
		devpm_block_abort(b, "PMCSR: %s", devpm_error());
	if (ps >= 0 && ps != pm)
		devpm_block_abort(b, "power_state %s but PMCSR %#06x says %s",
				ps_name, pmcsr, devpm_pci_dstate_name(pm));
	if (!strcmp(status, "active")) {
		if (pm != DEVPM_PCI_D0)
			devpm_block_abort(b,
					"active in %s (PMCSR %#06x), expected D0",
					devpm_pci_dstate_name(pm), pmcsr);
		devpm_block_pass(b, "active in D0 (PMCSR %#06x, power_state %s)",
			       pmcsr, ps_name);
		return;
	}
	if (strcmp(status, "suspended"))
		devpm_block_skip(b, "runtime_status %s", status);
	if (!p->d.driver[0]) {
		devpm_block_pass(b,
			       "suspended unbound in %s (PMCSR %#06x): pci_pm_runtime_suspend() only saves state",
			       devpm_pci_dstate_name(pm), pmcsr);
		return;
	}
	if (pm < DEVPM_PCI_D3HOT)
		devpm_block_abort(b,
				"suspended by %s but in %s (PMCSR %#06x, power_state %s), expected D3hot",
				p->d.driver, devpm_pci_dstate_name(pm), pmcsr,
				ps_name);
	devpm_block_pass(b, "suspended by %s in %s (PMCSR %#06x, power_state %s)",
		       p->d.driver, devpm_pci_dstate_name(pm), pmcsr, ps_name);
}

TEST_F(pci, d_state_matches_status)
{
	struct idle_ctx c = { .s = &self->s };
	struct devpm_pci_set *s = c.s;
	struct dstate_at *at;
	size_t i;

	devpm_pci_set_parts(s, true, want_dstate);
	devpm_pci_set_allow(s, false, true);
	devpm_pci_set_settle(s);
	at = calloc(s->n ? s->n : 1, sizeof(*at));
	ASSERT_TRUE(at != NULL);
	/* States first: reading config space resumes a parent bridge. */
	for (i = 0; i < s->n; i++) {
		if (devpm_dev_status(&s->v[i].d, at[i].status,
				     sizeof(at[i].status)))
			snprintf(at[i].status, sizeof(at[i].status),
				 "unreadable");
		at[i].ps = read_power_state(&s->v[i], at[i].ps_name,
					    sizeof(at[i].ps_name));
	}
	c.at = at;
	devpm_subtest_begin(&self->sub, "d_state_matches_status");
	devpm_pci_set_each(&self->sub, c.s, dstate_one, &c, &c.i, &c.p);
	free(at);
	DEVPM_SUBTEST_END(&self->sub);
}

/* Resumes of dev traced in [from, to]: started calls that completed. */
static int traced_resumes(struct devpm_pci_set *s, const char *dev,
			  uint64_t from, uint64_t to)
{
	const struct devpm_event *ev;
	size_t n;

	ev = devpm_trace_read(s->t, 0, &n);
	return devpm_rpm_resumes(ev, n, dev, from, to, NULL, 0);
}

/* A config read of a device in D3hot: it must stay suspended there. */
static void config_read_one(struct devpm_block *b, void *arg)
{
	struct idle_ctx *c = arg;
	struct devpm_pci_set *s = c->s;
	struct devpm_pci_dev *p = c->p;
	unsigned char cfg[256];
	const char *parent = strrchr(p->d.parent, '/');
	char psn[16];
	uint64_t t0, t1;
	int n, pn = 0, pm, ps;

	if (!p->part)
		devpm_block_skip(b, "%s", p->skip);
	if (read_power_state(p, psn, sizeof(psn)) != DEVPM_PCI_D3HOT)
		devpm_block_skip(b, "suspended in power_state %s, not D3hot%s",
			       psn, p->info.pm_cap ? "" :
			       ": no PM capability");
	if (parent)
		devpm_trace_add_dev(s->t, parent + 1);
	devpm_trace_poll(s->t, 0);
	t0 = devpm_now_us();
	if (devpm_pci_read_config(s->pci, p->d.name, cfg, sizeof(cfg)) < 0)
		devpm_block_abort(b, "%s", devpm_error());
	t1 = devpm_now_us();
	n = traced_resumes(s, p->d.name, t0, t1);
	if (parent)
		pn = traced_resumes(s, parent + 1, t0, t1);
	pm = cfg[p->info.pm_cap + 4] & 3;
	ps = read_power_state(p, psn, sizeof(psn));
	if (n || !devpm_pci_dev_status_is(p, "suspended") ||
	    ps != DEVPM_PCI_D3HOT || pm != DEVPM_PCI_D3HOT)
		devpm_block_abort(b,
				"a %zu-byte config read resumed it: %d rpm_resume in the trace, power_state %s, PMCSR %s",
				sizeof(cfg), n, psn, devpm_pci_dstate_name(pm));
	/* The opposite: a resume of this device does show in the trace. */
	t0 = devpm_now_us();
	if (devpm_pci_dev_control(p, "on") < 0)
		devpm_block_abort(b, "control=on: %s", devpm_error());
	t1 = devpm_now_us();
	if (traced_resumes(s, p->d.name, t0, t1) != 1)
		devpm_block_abort(b,
				"control=on gave no traced resume: the trace cannot vouch that the read did not resume it");
	devpm_block_pass(b,
		       "config read in %.2f ms left it suspended in D3hot (no rpm_resume; parent %s resumed %d times); control=on resumed it",
		       us_to_ms(t1 - t0), parent ? parent + 1 : "-", pn);
}

TEST_F(pci, config_read_keeps_d3hot)
{
	struct idle_ctx c = { .s = &self->s };

	if (!c.s->t)
		SKIP(return, "needs rpm trace events: %s", c.s->trace_why);
	devpm_pci_set_parts(c.s, true, want_pm_cap);
	devpm_pci_set_allow(c.s, false, true);
	devpm_pci_set_settle(c.s);
	devpm_subtest_begin(&self->sub, "config_read_keeps_d3hot");
	devpm_pci_set_each(&self->sub, c.s, config_read_one, &c, &c.i, &c.p);
	DEVPM_SUBTEST_END(&self->sub);
}

/* control=on of a suspended device: active when the write returns. */
static void forbid_one(struct devpm_block *b, void *arg)
{
	struct idle_ctx *c = arg;
	struct devpm_pci_set *s = c->s;
	struct devpm_pci_dev *p = c->p;
	struct devpm_wait_result w;
	const struct devpm_event *ev;
	char st[16];
	uint64_t t0, t1, at;
	size_t n;
	int r;

	if (!p->part)
		devpm_block_skip(b, "%s", p->skip);
	if (s->t)
		devpm_trace_poll(s->t, 0);
	t0 = devpm_now_us();
	r = devpm_pci_dev_control(p, "on");
	t1 = devpm_now_us();
	if (r < 0 || devpm_dev_status(&p->d, st, sizeof(st)) < 0)
		devpm_block_abort(b, "%s", devpm_error());
	if (strcmp(st, "active"))
		devpm_block_abort(b,
				"control=on returned after %.2f ms with runtime_status %s, expected active",
				us_to_ms(t1 - t0), st);
	at = 0;
	if (s->t) {
		ev = devpm_trace_read(s->t, 0, &n);
		if (devpm_rpm_resumes(ev, n, p->d.name, t0, t1, &at, 1) != 1)
			devpm_block_abort(b,
					"active after control=on but no resume completed in the trace within the write (%.2f ms)",
					us_to_ms(t1 - t0));
		devpm_metric(p->d.name, "resume_us", (double)(at - t0));
	}
	/* The opposite: control=auto lets it suspend again. */
	p->allow_us = devpm_now_us();
	p->deadline_us = p->allow_us +
			 (uint64_t)(p->delay_ms + DEVPM_PCI_BOUND_MS) * 1000;
	memset(&w, 0, sizeof(w));
	if (devpm_pci_dev_control(p, "auto") < 0 ||
	    devpm_pci_dev_wait_suspended(s, p, &w) != 0)
		devpm_block_abort(b,
				"resumed, but not suspended again after control=auto: %s",
				w.why[0] ? w.why : devpm_error());
	devpm_block_pass(b, "active when control=on returned (%.2f ms%s%.2f ms)",
		       us_to_ms(t1 - t0), at ? ", resumed in " : ", polled",
		       at ? us_to_ms(at - t0) : 0.0);
}

TEST_F(pci, forbid_resumes_immediately)
{
	struct idle_ctx c = { .s = &self->s };

	devpm_pci_set_parts(c.s, true, NULL);
	devpm_pci_set_allow(c.s, false, true);
	devpm_pci_set_settle(c.s);
	devpm_subtest_begin(&self->sub, "forbid_resumes_immediately");
	devpm_pci_set_each(&self->sub, c.s, forbid_one, &c, &c.i, &c.p);
	DEVPM_SUBTEST_END(&self->sub);
}

/* runtime_active_time and runtime_suspended_time (ms), status, when. */
struct times {
	long long a, s;
	char status[16];
	uint64_t at;
	bool ok;
};

static void read_times(struct devpm_pci_dev *p, struct times *t)
{
	char k[DEVPM_PATH_MAX];
	long a = 0, s = 0;

	if (devpm_dev_status(&p->d, t->status, sizeof(t->status)) < 0)
		t->status[0] = '\0';
	t->at = devpm_now_us();
	t->ok = !devpm_dev_attr(&p->d, "runtime_active_time", k, sizeof(k)) &&
		!devpm_read_long(k, &a) &&
		!devpm_dev_attr(&p->d, "runtime_suspended_time", k, sizeof(k)) &&
		!devpm_read_long(k, &s);
	t->a = a;
	t->s = s;
}

/*
 * Let a measured interval pass (the kernel is not waited for here): the
 * check needs it, so it is part of the case's floor.
 */
static void hold_ms(int n)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = n * 1000000L };

	devpm_least_time_add(devpm_now_us(), (uint64_t)n * 1000);
	while (nanosleep(&ts, &ts))
		;
}

#define HOLD_MS 200

/*
 * Check one window: the times must grow by the elapsed time together, and
 * only the one of the status held throughout.  Returns 0 or fills why.
 */
static int check_window(const struct times *t0, const struct times *t1,
			const char *held, char *why, size_t len)
{
	long long da = t1->a - t0->a, ds = t1->s - t0->s;
	double el = us_to_ms(t1->at - t0->at), tol = el / 100 + 10;
	bool active = !strcmp(held, "active");

	if (!t0->ok || !t1->ok) {
		snprintf(why, len, "times unreadable: %s", devpm_error());
		return -1;
	}
	if (da + ds < el - tol || da + ds > el + tol) {
		snprintf(why, len,
			 "%s %.0f ms: active +%lld ms + suspended +%lld ms = %lld ms, limit %.0f±%.0f ms",
			 held, el, da, ds, da + ds, el, tol);
		return -1;
	}
	if ((active && ds) || (!active && da)) {
		snprintf(why, len,
			 "%s for %.0f ms but %s time grew %lld ms",
			 held, el, active ? "suspended" : "active",
			 active ? ds : da);
		return -1;
	}
	return 0;
}

/*
 * Was p in state st throughout the window t0..t1?  Its status at both
 * ends, and no transition in between in the trace if there is one.
 */
static bool steady(struct devpm_pci_set *s, struct devpm_pci_dev *p,
		   const char *st, const struct times *t0,
		   const struct times *t1)
{
	const struct devpm_event *ev;
	size_t n;

	if (strcmp(t0->status, st) || strcmp(t1->status, st))
		return false;
	if (!s->t)
		return true;
	ev = devpm_trace_read(s->t, 0, &n);
	return !devpm_rpm_resumes(ev, n, p->d.name, t0->at, t1->at, NULL, 0) &&
	       !devpm_rpm_suspended_at(ev, n, p->d.name, t0->at, t1->at,
				       NULL);
}

/* A device's two windows, and why control=on was refused ("" if not). */
struct acct {
	struct times a0, a1, b0, b1;
	char on_why[256];
};

/* Both windows of a device: the time of the status held grew alone. */
static void accounting_one(struct devpm_block *b, void *arg)
{
	struct idle_ctx *c = arg;
	struct devpm_pci_dev *p = c->p;
	const struct acct *t = &c->acct[c->i];
	char why[256], st[16];

	if (t->on_why[0])
		devpm_block_abort(b, "control=on: %s", t->on_why);
	devpm_dev_status(&p->d, st, sizeof(st));
	if (strcmp(st, "active") && strcmp(st, "suspended"))
		devpm_block_skip(b,
			       "runtime_status %s: runtime PM disabled, nothing is accounted",
			       st);
	if (!steady(c->s, p, "active", &t->a0, &t->a1))
		devpm_block_skip(b,
			       "not active throughout window A (it changed state by itself)");
	if (check_window(&t->a0, &t->a1, "active", why, sizeof(why)))
		devpm_block_abort(b, "%s", why);
	if (!p->part) {
		devpm_block_pass(b,
			       "active %.0f ms: +%lld ms active, +0 suspended (it does not suspend: %s)",
			       us_to_ms(t->a1.at - t->a0.at), t->a1.a - t->a0.a,
			       p->skip);
		return;
	}
	if (!steady(c->s, p, "suspended", &t->b0, &t->b1))
		devpm_block_abort(b,
				"not suspended throughout window B (%.0f ms) though idle",
				us_to_ms(t->b1.at - t->b0.at));
	if (check_window(&t->b0, &t->b1, "suspended", why, sizeof(why)))
		devpm_block_abort(b, "%s", why);
	devpm_block_pass(b,
		       "active %.0f ms: +%lld/+%lld ms; suspended %.0f ms: +%lld/+%lld ms (active/suspended)",
		       us_to_ms(t->a1.at - t->a0.at), t->a1.a - t->a0.a,
		       t->a1.s - t->a0.s, us_to_ms(t->b1.at - t->b0.at),
		       t->b1.a - t->b0.a, t->b1.s - t->b0.s);
}

TEST_F(pci, runtime_time_accounting)
{
	struct idle_ctx c = { .s = &self->s };
	struct devpm_pci_set *s = c.s;
	struct acct *t;
	size_t i;

	devpm_pci_set_parts(s, true, NULL);
	devpm_pci_set_allow(s, false, true);
	devpm_pci_set_settle(s);
	t = calloc(s->n ? s->n : 1, sizeof(*t));
	ASSERT_TRUE(t != NULL);

	/* Window A: every device active (the parts resumed by control=on). */
	for (i = 0; i < s->n; i++)
		if (s->v[i].part && devpm_pci_dev_control(&s->v[i], "on") < 0)
			snprintf(t[i].on_why, sizeof(t[i].on_why), "%s",
				 devpm_error());
	for (i = 0; i < s->n; i++)
		read_times(&s->v[i], &t[i].a0);
	hold_ms(HOLD_MS);
	for (i = 0; i < s->n; i++)
		read_times(&s->v[i], &t[i].a1);

	/* Window B: the parts suspended again. */
	devpm_pci_set_allow(s, false, true);
	devpm_pci_set_settle(s);
	for (i = 0; i < s->n; i++)
		read_times(&s->v[i], &t[i].b0);
	hold_ms(HOLD_MS);
	for (i = 0; i < s->n; i++)
		read_times(&s->v[i], &t[i].b1);

	c.acct = t;
	devpm_subtest_begin(&self->sub, "runtime_time_accounting");
	devpm_pci_set_each(&self->sub, c.s, accounting_one, &c, &c.i, &c.p);
	free(t);
	DEVPM_SUBTEST_END(&self->sub);
}

DEVPM_TEST_MAIN(info)
