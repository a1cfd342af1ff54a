// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep.c - system suspend/resume: asynchronous callbacks and their order
 * on a bench of mock devices with known delays (lib/mock/async_bench.h,
 * docs/fixtures.md); the machine's own devices through a real s2idle and
 * S3 cycle, judged one by one (real_device_timing, the case that owns
 * their system sleep: lib/judge/sleep_verdict.h, lib/sleep/sleep_devices.h);
 * the trace's times against the kernel's pm_print_times figures; and
 * every pm_test level.  docs/suites/async.md says what each case's PASS
 * requires.
 *
 * A cycle that suspends every device costs the machine's whole resume,
 * so cycles are shared: the first case that needs one runs and saves it
 * (lib/sleep/sleep_cycle_cache.h), later cases of the run read it.
 *
 * Kernel side (drivers/base/power/main.c): dpm_suspend()/dpm_resume()
 * hand async devices to async_schedule_dev_nocall() (dpm_async_fn());
 * __device_suspend() waits for children and consumers
 * (dpm_wait_for_subordinate()), device_resume() for the parent and
 * suppliers (dpm_wait_for_superior()); is_async() is
 * power.async_suspend && pm_async_enabled.
 */
#include "harness/test.h"
#include "core/host.h"
#include "bus/pci/pci.h"
#include "mock/mock.h"
#include "mock/async_bench.h"
#include "sleep/pci_sleep_state.h"
#include "sleep/platform_wake.h"
#include "sleep/pm_test_cycle.h"
#include "sleep/sleep_devices.h"
#include "sleep/sleep_cycle_cache.h"
#include "sleep/system_sleep.h"
#include "sleep/wakeup_source.h"
#include "trace/pm_print_times.h"
#include "trace/sleep_phases.h"
#include "trace/sleep_trace.h"
#include "async_suite.h"

#define NPAR		8
#define PAR_US		50000
#define SLOWEST		5	/* devices on "# slowest" lines */

static const struct devpm_test_info info = {
	.suite = "async",
	.timeout_s = 150,
	.needs = {
		.root = true,
		.sleep = true,
		.tracefs = true,
		.kconfigs = (const char *const[]){ "CONFIG_PM_SLEEP", NULL },
		.files = (const char *const[]){ "/sys/power/state", NULL },
	},
};

/*
 * The bench (lib/mock/async_bench.h).  Ids are devpm_mock.<id>; the
 * pm_async=0 cycle judges the NPAR devices and the link (the last field).
 */
enum {
	PAR0 = 0,		/* 0..7: independent, 50 ms each way */
	TREE_A = 8, TREE_A1, TREE_A2,	/* parent 5 ms, children 20 ms */
	TREE_B = 11, TREE_B1,		/* parent 5 ms, child 30 ms */
	LINK_CON = 13, LINK_SUP,	/* consumer 20 ms, supplier 5 ms */
	SYNC_A = 15, SYNC_OFF, SYNC_B, SYNC_CTL, SYNC_C,
	CTL_P = 20, CTL_C,		/* unrelated: 5 ms, 20 ms */
	SLOW = 22,			/* resume 20 ms, budget 5 ms */
	NBENCH,
	BAD_ID = 40			/* takes the bad input */
};

#define NP DEVPM_MOCK_NO_PARENT
static const struct devpm_async_bench_dev bench[NBENCH] = {
	[0 ... 7] = { NP, 1, false, PAR_US, 2 * PAR_US, true },
	[TREE_A] = { NP, 1, false, 5000, 0 },
	[TREE_A1] = { TREE_A, 1, false, 20000, 0 },
	[TREE_A2] = { TREE_A, 1, false, 20000, 0 },
	[TREE_B] = { NP, 1, false, 5000, 0 },
	[TREE_B1] = { TREE_B, 1, false, 30000, 0 },
	[LINK_CON] = { NP, 1, false, 20000, 0, true },
	[LINK_SUP] = { NP, 1, false, 5000, 0, true },
	[SYNC_A] = { NP, 0, false, 10000, 0 },
	[SYNC_OFF] = { NP, 1, true, 30000, 0 },
	[SYNC_B] = { NP, 0, false, 10000, 0 },
	[SYNC_CTL] = { NP, 1, false, 30000, 0 },
	[SYNC_C] = { NP, 0, false, 10000, 0 },
	[CTL_P] = { NP, 1, false, 5000, 0 },
	[CTL_C] = { NP, 1, false, 20000, 0 },
	[SLOW] = { NP, 1, false, 20000, 5000 },
};

static const struct devpm_async_bench the_bench = {
	.dev = bench, .n = NBENCH, .glob = MOCK_GLOB,
	/*
	 * Consumer first in the list: device_link_add() moves it behind
	 * its supplier (device_reorder_to_tail()).
	 */
	.link_consumer = LINK_CON, .link_supplier = LINK_SUP,
};

/* What a case's helpers share: its cycles, their trace, why it stopped. */
struct cycles {
	struct devpm_trace *t;
	struct devpm_kmsg *k;
	struct devpm_sleep_cycle on, off;	/* pm_async 1 and 0 */
	struct devpm_sleep_cycle c;		/* the platform cases' */
	struct devpm_pm_prints pr;
	struct devpm_sleep_cycle c2;	/* the S3 cycle, the repeat */
	struct devpm_pm_prints pr2;
	struct devpm_pci_sleep_log pci[2];	/* s2idle's, S3's */
	char why[512];
};

FIXTURE(sleep) {
	off_t mark;
	struct cycles cy;
};

FIXTURE_SETUP(sleep)
{
	self->mark = devpm_case_setup();
	self->cy.t = NULL;
	self->cy.k = NULL;
	memset(&self->cy.on, 0, sizeof(self->cy.on));
	memset(&self->cy.off, 0, sizeof(self->cy.off));
	memset(&self->cy.c, 0, sizeof(self->cy.c));
	memset(&self->cy.pr, 0, sizeof(self->cy.pr));
	memset(&self->cy.c2, 0, sizeof(self->cy.c2));
	memset(&self->cy.pr2, 0, sizeof(self->cy.pr2));
	memset(self->cy.pci, 0, sizeof(self->cy.pci));
	self->cy.why[0] = '\0';
}

FIXTURE_TEARDOWN(sleep)
{
	devpm_sleep_cycle_free(&self->cy.on);
	devpm_sleep_cycle_free(&self->cy.off);
	devpm_sleep_cycle_free(&self->cy.c);
	devpm_pm_prints_free(&self->cy.pr);
	devpm_sleep_cycle_free(&self->cy.c2);
	devpm_pm_prints_free(&self->cy.pr2);
	devpm_kmsg_close(self->cy.k);
	devpm_trace_stop(self->cy.t);
	devpm_case_teardown(self->mark);
}

/*
 * Both bench cycles (pm_async=1 with pm_test=platform, pm_async=0 with
 * pm_test=devices), from this run's cache or run here: 0, 1 (skip: why),
 * -1.  They judge only the bench: the environment may set aside devices
 * whose resume is CPU work (lib/harness/environment.h) until the case's
 * end, so no real device resumes while a mock callback's timer is due.
 */
static int bench_cycles(struct cycles *self, const char *casename)
{
	int r;

	if (!devpm_async_bench_load(&self->on, &self->off)) {
		devpm_note("the bench cycles of this run, read back (their TIMELINE lines come with the case that ran them)");
		return 0;
	}
	r = devpm_async_bench_usable(self->why, sizeof(self->why));
	if (r)
		return r;
	r = devpm_env_request(DEVPM_ENV_OWN_DEVICES);
	if (r < 0) {
		snprintf(self->why, sizeof(self->why), "%s", devpm_error());
		return -1;
	}
	return devpm_async_bench_cycles(&the_bench, casename,
					devpm_test_selected("pm_test_levels"),
					&self->t, &self->on, &self->off,
					self->why, sizeof(self->why));
}

/* The NPAR independent devices' names. */
static void par_names(const char *devs[NPAR])
{
	int i;

	for (i = 0; i < NPAR; i++)
		devs[i] = devpm_mock_name(PAR0 + i);
}

static void parallel(struct __test_metadata *_metadata,
		     struct cycles *self, enum devpm_pm_phase ph)
{
	const char *pn = devpm_pm_phase_name(ph), *devs[NPAR];
	uint64_t on, off;
	char why[512];

	par_names(devs);
	ASSERT_EQ(0, devpm_sleep_span(&self->on, ph, devs, NPAR, &on))
		TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_sleep_span(&self->off, ph, devs, NPAR, &off))
		TH_LOG("%s", devpm_error());
	devpm_note("%d devices x %d us %s: %llu us with pm_async=1 (%d lanes), %llu us with pm_async=0 (%d lanes)",
		   NPAR, PAR_US, pn, (unsigned long long)on,
		   devpm_sleep_lanes(&self->on, ph, devs, NPAR),
		   (unsigned long long)off,
		   devpm_sleep_lanes(&self->off, ph, devs, NPAR));
	devpm_metric("-", "async_speedup", on ? (double)off / on : 0);
	devpm_metric("-", "async_us", on);
	devpm_metric("-", "sync_us", off);
	EXPECT_EQ(0, devpm_sleep_delays_missed(&self->on, ph, devs, NPAR,
					       PAR_US, why, sizeof(why)))
		TH_LOG("pm_async=1: %s", why);
	EXPECT_EQ(0, devpm_sleep_delays_missed(&self->off, ph, devs, NPAR,
					       PAR_US, why, sizeof(why)))
		TH_LOG("pm_async=0: %s", why);
	EXPECT_LT(on, 2ULL * PAR_US)
		TH_LOG("%s of %d async devices took %llu us with pm_async=1, limit %d us (2 x delay)",
		       pn, NPAR, (unsigned long long)on, 2 * PAR_US);
	EXPECT_GE(off, (uint64_t)NPAR * PAR_US)
		TH_LOG("%s of %d devices took %llu us with pm_async=0, want >= %d us (%d x delay): not serialized",
		       pn, NPAR, (unsigned long long)off, NPAR * PAR_US,
		       NPAR);
}

TEST_F(sleep, async_resume_parallel)
{
	int r;

	r = bench_cycles(&self->cy, _metadata->name);
	if (r > 0)
		SKIP(return, "%s", self->cy.why);
	ASSERT_EQ(0, r) TH_LOG("%s", self->cy.why);
	parallel(_metadata, &self->cy, DEVPM_PH_RESUME);
}

TEST_F(sleep, async_suspend_parallel)
{
	int r;

	r = bench_cycles(&self->cy, _metadata->name);
	if (r > 0)
		SKIP(return, "%s", self->cy.why);
	ASSERT_EQ(0, r) TH_LOG("%s", self->cy.why);
	parallel(_metadata, &self->cy, DEVPM_PH_SUSPEND);
}

/* One ordering: first's callback in ph ends before second's starts. */
struct pair {
	bool sync_cycle;	/* in the pm_async=0 cycle, else the other */
	enum devpm_pm_phase ph;
	int first, second;
};

/* The orderings of one device, its block. */
struct order_ctx {
	struct cycles *self;
	const struct pair *p;
	size_t n;
	bool control;
};

/*
 * control: a device with no relation to the others, whose pairs must NOT
 * come out ordered (else the check could not tell).  Every pair is
 * checked and noted; the first that does not hold fails the device.
 */
static void order_one(struct devpm_block *b, void *arg)
{
	const struct order_ctx *x = arg;
	const struct pair *p = x->p;
	char why[512];
	size_t i;
	int r;

	for (i = 0; i < x->n; i++) {
		const struct devpm_sleep_cycle *c = p[i].sync_cycle ?
						    &x->self->off :
						    &x->self->on;

		r = devpm_sleep_check_before(c, p[i].ph, devpm_mock_name(p[i].first),
					     devpm_mock_name(p[i].second), why,
					     sizeof(why));
		devpm_note("%s%s, pm_async=%d: %s",
			   x->control ? "control: " : "",
			   devpm_pm_phase_name(p[i].ph), !p[i].sync_cycle,
			   why);
		if (r < 0 || (!x->control && r))
			devpm_block_fail(b, "%s", why);
		else if (x->control && !r)
			devpm_block_fail(b, "control: unrelated devices came out ordered (%s): the check cannot tell",
				       why);
	}
}

#define ORDER(sub, self, dev, control, ...) do { \
	const struct pair __p[] = { __VA_ARGS__ }; \
	struct order_ctx __x = { (self), __p, \
				 sizeof(__p) / sizeof(__p[0]), (control) }; \
	devpm_block_run((sub), devpm_mock_name(dev), order_one, &__x); \
} while (0)

#define S DEVPM_PH_SUSPEND
#define R DEVPM_PH_RESUME

/*
 * The same shape as a parent or supplier and its child or consumer,
 * without the relation: overlaps.
 */
#define UNRELATED(sub, self) \
	ORDER(sub, self, CTL_C, true, { false, S, CTL_C, CTL_P }, \
	      { false, R, CTL_P, CTL_C })

TEST_F(sleep, parent_waits_for_children)
{
	struct devpm_subtest sub;
	int r;

	r = bench_cycles(&self->cy, _metadata->name);
	if (r > 0)
		SKIP(return, "%s", self->cy.why);
	ASSERT_EQ(0, r) TH_LOG("%s", self->cy.why);
	devpm_subtest_begin(&sub, "parent_waits_for_children");
	ORDER(&sub, &self->cy, TREE_A1, false, { false, S, TREE_A1, TREE_A },
	      { false, R, TREE_A, TREE_A1 });
	ORDER(&sub, &self->cy, TREE_A2, false, { false, S, TREE_A2, TREE_A },
	      { false, R, TREE_A, TREE_A2 });
	ORDER(&sub, &self->cy, TREE_B1, false, { false, S, TREE_B1, TREE_B },
	      { false, R, TREE_B, TREE_B1 });
	UNRELATED(&sub, &self->cy);
	DEVPM_SUBTEST_END(&sub);
}

TEST_F(sleep, device_link_order)
{
	struct devpm_subtest sub;
	int r;

	r = bench_cycles(&self->cy, _metadata->name);
	if (r > 0)
		SKIP(return, "%s", self->cy.why);
	ASSERT_EQ(0, r) TH_LOG("%s", self->cy.why);
	devpm_subtest_begin(&sub, "device_link_order");
	ORDER(&sub, &self->cy, LINK_CON, false, { false, S, LINK_CON, LINK_SUP },
	      { false, R, LINK_SUP, LINK_CON },
	      { true, S, LINK_CON, LINK_SUP },
	      { true, R, LINK_SUP, LINK_CON });
	UNRELATED(&sub, &self->cy);
	DEVPM_SUBTEST_END(&sub);
}

/*
 * The first of SYNC_A, SYNC_OFF, SYNC_B, SYNC_C whose ph callback
 * overlaps dev's in cycle c: its id, -1 for none, -errno with why.
 */
static int first_overlap(const struct devpm_sleep_cycle *c,
			 enum devpm_pm_phase ph, int dev, char *why,
			 size_t len)
{
	static const int run[] = { SYNC_A, SYNC_OFF, SYNC_B, SYNC_C };
	size_t i;
	int a, b;

	for (i = 0; i < sizeof(run) / sizeof(run[0]); i++) {
		a = devpm_sleep_check_before(c, ph, devpm_mock_name(run[i]), devpm_mock_name(dev), why,
					     len);
		if (a < 0)
			return a;
		b = devpm_sleep_check_before(c, ph, devpm_mock_name(dev), devpm_mock_name(run[i]), why,
					     len);
		if (b < 0)
			return b;
		if (a == 1 && b == 1)
			return run[i];
	}
	return -1;
}

/* The device whose overlaps are checked, SYNC_CTL. */
struct overlap_ctx {
	struct cycles *self;
	int dev;
};

/*
 * The control of async_attribute_forces_sync: SYNC_CTL sits in the same
 * run of synchronous neighbours as SYNC_OFF but keeps power/async
 * enabled, so in each phase its callback must overlap at least one of
 * theirs (the main thread walks on while it runs).  Where in the run it
 * lands is the kernel's choice: dpm_resume() schedules every async
 * device before it resumes the first synchronous one (6.1: its first
 * loop; 6.12: dpm_async_fn()), dpm_suspend() when its walk from the
 * tail reaches it (drivers/base/power/main.c).  In the pm_async=0 cycle
 * it must overlap none: the overlap test itself can tell.
 */
static void overlaps_sync_run(struct devpm_block *b, void *arg)
{
	static const enum devpm_pm_phase phs[] = { DEVPM_PH_SUSPEND,
						   DEVPM_PH_RESUME };
	const struct overlap_ctx *x = arg;
	struct cycles *self = x->self;
	const int dev = x->dev;
	char why[512];
	size_t k;
	int on, off;

	for (k = 0; k < 2; k++) {
		const char *pn = devpm_pm_phase_name(phs[k]);

		on = first_overlap(&self->on, phs[k], dev, why, sizeof(why));
		if (on < -1)
			devpm_block_abort(b, "%s", why);
		off = first_overlap(&self->off, phs[k], dev, why,
				    sizeof(why));
		if (off < -1)
			devpm_block_abort(b, "%s", why);
		if (on < 0)
			devpm_block_abort(b, "control: %s of %s (power/async enabled) overlapped none of its synchronous neighbours %s..%s: the check cannot tell async from sync",
					pn, devpm_mock_name(dev), devpm_mock_name(SYNC_A), devpm_mock_name(SYNC_C));
		if (off >= 0)
			devpm_block_abort(b, "control: %s of %s overlapped %s with pm_async=0: the overlap test is wrong",
					pn, devpm_mock_name(dev), devpm_mock_name(off));
		devpm_note("control: %s, pm_async=1: %s overlapped %s; pm_async=0: none",
			   pn, devpm_mock_name(dev), devpm_mock_name(on));
	}
}

TEST_F(sleep, async_attribute_forces_sync)
{
	struct overlap_ctx ctl = { &self->cy, SYNC_CTL };
	struct devpm_subtest sub;
	int r;

	r = bench_cycles(&self->cy, _metadata->name);
	if (r > 0)
		SKIP(return, "%s", self->cy.why);
	ASSERT_EQ(0, r) TH_LOG("%s", self->cy.why);
	devpm_subtest_begin(&sub, "async_attribute_forces_sync");
	/* Suspend walks the list from its tail, resume from its head. */
	ORDER(&sub, &self->cy, SYNC_OFF, false, { false, S, SYNC_B, SYNC_OFF },
	      { false, S, SYNC_OFF, SYNC_A },
	      { false, R, SYNC_A, SYNC_OFF },
	      { false, R, SYNC_OFF, SYNC_B });
	devpm_block_run(&sub, devpm_mock_name(SYNC_CTL), overlaps_sync_run, &ctl);
	DEVPM_SUBTEST_END(&sub);
}

#undef S
#undef R

/* The bad input goes to a device of its own, outside the bench. */
static void bad_input_one(struct devpm_block *b, void *arg)
{
	char why[512] = "";

	(void)arg;
	if (devpm_mock_load(false, why, sizeof(why)) ||
	    devpm_mock_create(BAD_ID, NULL))
		devpm_block_abort(b, "%s %s", why, devpm_error());
	if (devpm_async_bench_bad_input(BAD_ID, why, sizeof(why)))
		devpm_block_abort(b, "%s", why);
}

struct timing_ctx {
	struct cycles *self;
	int id;
};

/*
 * One bench device's callbacks in the pm_async=1 cycle took their delay,
 * and its resume kept its budget; the planted slow resume must not.
 */
static void timing_one(struct devpm_block *b, void *arg)
{
	const struct timing_ctx *x = arg;
	const int id = x->id;
	const struct devpm_sleep_cycle *on = &x->self->on;
	const struct devpm_async_bench_dev *bd = &bench[id];
	const struct devpm_pm_cb *cb;
	uint64_t d[2] = { 0, 0 }, held[2] = { 0, 0 };
	char w[256];
	int ph;

	for (ph = 0; ph < 2; ph++) {
		enum devpm_pm_phase p = ph ? DEVPM_PH_RESUME :
					DEVPM_PH_SUSPEND;

		cb = devpm_sleep_cb(on, p, devpm_mock_name(id));
		if (!cb) {
			devpm_block_fail(b, "no %s callback in the trace",
				       devpm_pm_phase_name(p));
			continue;
		}
		d[ph] = devpm_pm_cb_dur(cb);
		held[ph] = cb->held_us;
		if (devpm_sleep_check_delay(devpm_pm_cb_own_us(cb), bd->us, w,
					    sizeof(w)))
			devpm_block_fail(b, "%s: %s (took %llu us, its sleep held %llu us by the platform)",
				       devpm_pm_phase_name(p), w,
				       (unsigned long long)d[ph],
				       (unsigned long long)held[ph]);
		devpm_metric(devpm_mock_name(id), ph ? "resume_us" : "suspend_us", d[ph]);
	}
	cb = devpm_sleep_cb(on, DEVPM_PH_RESUME, devpm_mock_name(id));
	devpm_note("%s: suspend %llu us (held %llu), resume %llu us (held %llu), configured %ld us, resume budget %ld us",
		   devpm_mock_name(id), (unsigned long long)d[0],
		   (unsigned long long)held[0], (unsigned long long)d[1],
		   (unsigned long long)held[1], bd->us, bd->budget_us);
	if (devpm_block_failed(b))
		return;
	if (cb && devpm_sleep_check_budget(cb, bd->budget_us, w,
					   sizeof(w))) {
		/* The planted slow resume: caught. */
		if (id != SLOW)
			devpm_block_abort(b, "%s", w);
		devpm_note("planted slow resume caught: %s", w);
	} else if (id == SLOW) {
		devpm_block_abort(b, "control: the planted slow resume (%ld us, budget %ld us) was not flagged",
				bd->us, bd->budget_us);
	}
}

TEST_F(sleep, callback_timing_matches)
{
	struct devpm_subtest sub;
	int id, r;

	r = bench_cycles(&self->cy, _metadata->name);
	if (r > 0)
		SKIP(return, "%s", self->cy.why);
	ASSERT_EQ(0, r) TH_LOG("%s", self->cy.why);
	devpm_subtest_begin(&sub, "callback_timing_matches");
	devpm_block_run(&sub, devpm_mock_name(BAD_ID), bad_input_one, NULL);
	for (id = 0; id < NBENCH; id++) {
		struct timing_ctx x = { &self->cy, id };

		devpm_block_run(&sub, devpm_mock_name(id), timing_one, &x);
	}
	DEVPM_SUBTEST_END(&sub);
}

/* TIMELINE names of real_device_timing's s2idle and S3 cycles. */
#define REAL_S2IDLE	"real_device_timing.1"
#define REAL_S3		"real_device_timing.S3"

/* A real cycle's kernel log: pm_print_times' records, PCI's D-states. */
struct cycle_log {
	struct devpm_pm_prints *pr;
	struct devpm_pci_sleep_log *pci;
};

static void cycle_line(const char *line, void *arg)
{
	struct cycle_log *g = arg;

	devpm_pm_prints_line(line, g->pr);
	devpm_pci_sleep_line(line, g->pci);
}

/* The S3 cycle into c2, every device bound: 0 made, 1 none (why). */
static int s3_cycle(struct cycles *self, char *why, size_t len)
{
	struct cycle_log g = { &self->pr2, &self->pci[1] };
	struct devpm_sleep_cycle_meta m = { .level = "none", .state = "mem",
					    .name = REAL_S3 };
	uint64_t wall;
	int ret, r;

	r = devpm_sleep_devices_cycle(self->t, "mem", &self->c2, &ret, &wall,
				      why, len);
	if (r)
		return r;
	devpm_sleep_phases_note("S3 (mem, deep)", &self->c2, wall, ret);
	m.ret = ret;
	m.wall_us = wall;
	/* Its records too: the second opinion of pm_print_times_agree. */
	if (!self->k || devpm_kmsg_drain(self->k, cycle_line, &g) < 0) {
		self->pci[1].n = 0;
	} else {
		devpm_sleep_cycle_cache_save("s3", &self->c2, &m);
		devpm_pm_prints_cache_save("s3", &self->pr2,
					   devpm_kmsg_lost(self->k));
	}
	devpm_metric("-", "s3_cycle_ms", wall / 1000.0);
	devpm_sleep_timeline_print(&self->c2, REAL_S3);
	return 0;
}

/*
 * What pci_prepare_to_sleep() promised each PCI device of l, from its
 * config space, power/wakeup and firmware node (pci_sleep_state.h).
 */
static void pci_expect(struct devpm_pci *p, struct devpm_pci_sleep_log *l)
{
	struct devpm_pci_sleep_facts f;
	struct devpm_pci_info info;
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct devpm_pci_sleep_seen *s = &l->v[i];

		memset(&f, 0, sizeof(f));
		if (!p || devpm_pci_info(p, s->dev, &info)) {
			snprintf(s->why_not, sizeof(s->why_not),
				 "config space unreadable");
			continue;
		}
		f.pm_cap = info.pm_cap;
		f.pmc = info.pmc;
		f.bridge = info.bridge;
		f.saved_early = s->saved_early;
		devpm_pci_sleep_facts_read(s->dev, &f);
		s->expect = devpm_pci_sleep_expect(&f, s->why_not,
						   sizeof(s->why_not));
	}
}

/*
 * The machine's own devices through real s2idle and S3, every one bound:
 * the case that judges their system sleep (judge/sleep_verdict.h), a line
 * per device with a callback (sleep/sleep_devices.h, sleep/pci_sleep_state.h;
 * docs/suites/async.md).  Its cycles are saved for the later cases.
 */
TEST_F(sleep, real_device_timing)
{
	struct cycle_log g;
	struct devpm_sleep_cycle_meta m = { .level = "none", .state = "freeze",
					    .name = REAL_S2IDLE };
	struct devpm_suspend_stats before, after;
	struct devpm_sleep_judged cy[2] = {
		{ &self->cy.c, "s2idle", "", &self->cy.pci[0] },
		{ NULL, "S3", "s3_", &self->cy.pci[1] },
	};
	struct devpm_pci *pci;
	char why[512], held[768], held_dev[128] = "";
	struct devpm_sleep_dev *d;
	struct devpm_subtest sub;
	uint64_t wall;
	size_t n;
	int ret, r;

	devpm_sleep_verdict_own();
	self->cy.t = devpm_sleep_trace_start(NULL);
	if (!self->cy.t)
		SKIP(return, "needs the power trace events: %s",
		     devpm_error());
	/* The kernel's own figures, for pm_print_times_agree. */
	ASSERT_EQ(0, devpm_knob_write("/sys/power/pm_print_times", "1"))
		TH_LOG("%s", devpm_error());
	self->cy.k = devpm_kmsg_open();
	ASSERT_NE(NULL, self->cy.k) TH_LOG("%s", devpm_error());
	r = devpm_pci_sleep_dbg_on(why, sizeof(why));
	if (r)
		devpm_note("PCI D-states at suspend_noirq not checked: %s",
			   why);
	/*
	 * Without the wakeup_count handshake an active source does not stop
	 * the cycle (drivers/base/power/wakeup.c: pm_wakeup_pending()), but
	 * every sleep manager that uses it waits for good.
	 */
	devpm_wakeup_held_check_wait(held_dev, sizeof(held_dev), held,
				     sizeof(held));
	ASSERT_EQ(0, devpm_suspend_stats_read(&before))
		TH_LOG("%s", devpm_error());
	r = devpm_sleep_devices_cycle(self->cy.t, "freeze", &self->cy.c, &ret,
				      &wall, why, sizeof(why));
	if (r > 0)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, r) TH_LOG("%s", why);
	if (devpm_suspend_stats_read(&after))
		after.success = -1;
	m.ret = ret;
	m.success_before = before.success;
	m.success_after = after.success;
	m.wall_us = wall;
	devpm_sleep_cycle_cache_save("real", &self->cy.c, &m);
	g.pr = &self->cy.pr;
	g.pci = &self->cy.pci[0];
	if (devpm_kmsg_drain(self->cy.k, cycle_line, &g) >= 0)
		devpm_pm_prints_cache_save("real", &self->cy.pr,
					   devpm_kmsg_lost(self->cy.k));
	devpm_sleep_record(self->cy.t, "s2idle", "devpm_mock");
	devpm_sleep_phases_note("s2idle", &self->cy.c, wall, ret);
	devpm_sleep_phases_metrics(&self->cy.c, wall);
	devpm_sleep_timeline_print(&self->cy.c, REAL_S2IDLE);
	if (!s3_cycle(&self->cy, why, sizeof(why)))
		cy[1].c = &self->cy.c2;
	else
		devpm_note("no S3 cycle: %s", why);

	pci = devpm_pci_open();
	pci_expect(pci, &self->cy.pci[0]);
	pci_expect(pci, &self->cy.pci[1]);
	if (pci)
		devpm_pci_close(pci);
	devpm_subtest_begin(&sub, "real_device_timing");
	devpm_sleep_devices_judge(&sub, cy, cy[1].c ? 2 : 1,
				  devpm_resume_budget_us(), held_dev, held);
	if (!devpm_sleep_devs(&self->cy.c, &d, &n)) {
		devpm_sleep_devs_slowest(&self->cy.c, d, n, SLOWEST,
					 REAL_S2IDLE);
		free(d);
	}
	/* A refusal no device's callback explains: what aborted it. */
	if (ret && !sub.fail)
		devpm_subtest_fail(&sub, "system", "s2idle returned %s and no device's callback failed: %s",
				   strerror(-ret), devpm_error());
	DEVPM_SUBTEST_END(&sub);
	EXPECT_EQ(ret ? before.success : before.success + 1, after.success)
		TH_LOG("suspend_stats/success %ld -> %ld after s2idle returned %d",
		       before.success, after.success, ret);
}

/*
 * devpm's clock against the kernel's (pm_print_times), a line for the
 * machine: real_device_timing's s2idle cycle; a disagreement by the
 * kernel's figure alone (its window around dpm_run_callback()) fails
 * only if it holds in a second cycle too (that case's S3 one, or its own).
 */
TEST_F(sleep, pm_print_times_agree)
{
	unsigned long lost = 0;
	char why[768], why2[768];
	int r, devs;

	if (devpm_sleep_cycle_cache_load("real", &self->cy.c, NULL) ||
	    devpm_pm_prints_cache_load("real", &self->cy.pr, &lost)) {
		devpm_sleep_cycle_free(&self->cy.c);
		r = devpm_sleep_devices_prints_cycle(&self->cy.t, &self->cy.k,
						     &self->cy.c, &self->cy.pr,
						     &lost, why, sizeof(why));
		if (r > 0)
			SKIP(return, "%s", why);
		ASSERT_EQ(0, r) TH_LOG("%s", why);
	} else {
		devpm_note("real_device_timing's s2idle cycle of this run, read back");
	}
	r = devpm_pm_prints_agree_all(&self->cy.c, &self->cy.pr, &devs, why,
				      sizeof(why));
	/* The S3 cycle of this run decides, else a cycle of its own. */
	if (r == 2 && !devpm_sleep_cycle_cache_load("s3", &self->cy.c2, NULL) &&
	    !devpm_pm_prints_cache_load("s3", &self->cy.pr2, &lost)) {
		devpm_note("%s; the kernel's figure alone is larger: real_device_timing's S3 cycle decides",
			   why);
		r = devpm_pm_prints_agree_all(&self->cy.c2, &self->cy.pr2,
					      &devs, why, sizeof(why));
	} else if (r == 2) {
		devpm_note("%s; the kernel's figure alone is larger: a cycle of its own decides",
			   why);
		r = devpm_sleep_devices_prints_cycle(&self->cy.t, &self->cy.k,
						     &self->cy.c2,
						     &self->cy.pr2, &lost,
						     why2, sizeof(why2));
		ASSERT_EQ(0, r) TH_LOG("%s", why2);
		r = devpm_pm_prints_agree_all(&self->cy.c2, &self->cy.pr2,
					      &devs, why, sizeof(why));
	}
	devpm_metric("-", "devices", devs);
	if (r && lost)
		SKIP(return, "the kernel log overwrote pm_print_times records before they were read (%lu gaps): boot with a larger log_buf_len",
		     lost);
	ASSERT_EQ(0, r) TH_LOG("%s", why);
	devpm_note("%d devices: every callback's trace time agrees with the kernel's",
		   devs);
}

/*
 * The cycle of a level: one an earlier case of this run made at that
 * level (real_device_timing: none; the bench: platform and devices, and
 * the others in its window), or one run here.  0 (self->c, m and *r
 * set), 1 skip, -1 fail (why).
 */
static int level_cycle(struct cycles *self, const char *level,
		       struct devpm_sleep_cycle_meta *m, int *r, char *why,
		       size_t len)
{
	static const char *const keys[] = { "real", "on", "off", NULL };
	char key[32], name[64];
	const char *state;
	size_t i;

	snprintf(key, sizeof(key), "level-%s", level);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (devpm_sleep_cycle_cache_load(keys[i] ? keys[i] : key, &self->c,
					   m))
			continue;
		if (!strcmp(m->level, level)) {
			devpm_note("pm_test=%s: the cycle %s of this run (its TIMELINE lines come with that case)",
				   level, m->name);
			/* A device of the machine that refused it is named. */
			devpm_sleep_verdict_replay(&self->c, m->ret);
			*r = 0;
			return 0;
		}
		devpm_sleep_cycle_free(&self->c);
	}
	state = devpm_pm_test_state(level, why, len);
	if (!state)
		return 1;
	if (!strcmp(level, "none")) {
		if (devpm_platform_wake_setup(why, len))
			return 1;
		if (devpm_platform_wake_arm(state, why, len))
			return -1;
	}
	if (!self->t)
		self->t = devpm_sleep_trace_start(NULL);
	if (!self->t) {
		snprintf(why, len, "needs the power trace events: %s",
			 devpm_error());
		return 1;
	}
	snprintf(name, sizeof(name), "pm_test_levels.%s", level);
	return devpm_pm_test_cycle(self->t, level, state, name, &self->c, m, r, why,
			 len);
}

struct level_ctx {
	struct cycles *self;
	const char *lvl;
	bool made;		/* a cycle: its cycle_ms after the line */
	struct devpm_sleep_cycle_meta m;
};

static void cycle_free(void *arg)
{
	devpm_sleep_cycle_free(arg);
}

/* One pm_test level: its cycle returned, was counted, ran its phases. */
static void level_one(struct devpm_block *b, void *arg)
{
	struct level_ctx *x = arg;
	struct cycles *self = x->self;
	struct devpm_sleep_cycle_meta *m = &x->m;
	const char *lvl = x->lvl;
	unsigned int want = devpm_pm_test_phases(lvl);
	char why[512], seen[128];
	int got, r = 0;

	memset(m, 0, sizeof(*m));
	devpm_block_defer(b, cycle_free, &self->c);
	got = level_cycle(self, lvl, m, &r, why, sizeof(why));
	if (got > 0)
		devpm_block_skip(b, "%s", why);
	if (got < 0)
		devpm_block_abort(b, "%s", why);
	x->made = true;
	devpm_sleep_phases_seen(&self->c, seen, sizeof(seen));
	devpm_note("pm_test=%s with state %s: returned %s after %llu ms; phases %s",
		   lvl, m->state, m->ret ? strerror(-m->ret) : "0",
		   m->wall_us / 1000, seen);
	if (m->ret)
		devpm_block_abort(b, "writing %s to /sys/power/state: %s",
				m->state, strerror(-m->ret));
	if (m->success_after != m->success_before + 1)
		devpm_block_abort(b, "suspend_stats/success %ld -> %ld",
				m->success_before, m->success_after);
	if (r && r != -ENOENT)
		devpm_block_abort(b, "trace: %s", devpm_error());
	if (devpm_pm_test_phases_seen(&self->c) != want)
		devpm_block_abort(b, "phases %s, want %s", seen,
				want ? (want == 0xff ? "all eight" :
				"prepare,suspend,resume,complete") : "none");
}

TEST_F(sleep, pm_test_levels)
{
	struct devpm_subtest sub;
	struct devpm_pm_level lv[12];
	bool has_core = false;
	int i, n, ret;

	n = devpm_pm_test_levels(lv, 12, NULL);
	if (n == -ENOENT)
		SKIP(return, "%s", devpm_error());
	ASSERT_LT(0, n) TH_LOG("/sys/power/pm_test: %s", devpm_error());
	ASSERT_TRUE(devpm_exists(DEVPM_PM_TEST_DELAY))
		TH_LOG("no %s: each level would wait its default 5 s",
		       DEVPM_PM_TEST_DELAY);
	for (i = 0; i < n; i++)
		has_core |= !strcmp(lv[i].name, "core");

	/* The kernel's refusal, seen once: the check below can fail. */
	if (has_core && devpm_power_has("/sys/power/state", "freeze")) {
		ASSERT_EQ(0, devpm_pm_test_set("core"))
			TH_LOG("%s", devpm_error());
		ret = devpm_sleep_enter("freeze");
		devpm_note("s2idle with pm_test=core: %s (kernel/power/suspend.c: enter_state() refuses core and processors for s2idle)",
			   ret ? strerror(-ret) : "accepted");
		EXPECT_EQ(-EAGAIN, ret);
	}

	devpm_subtest_begin(&sub, "pm_test_levels");
	for (i = 0; i < n; i++) {
		struct level_ctx x = { .self = &self->cy, .lvl = lv[i].name };

		devpm_block_run(&sub, x.lvl, level_one, &x);
		/* After the line, as the level's figure. */
		if (x.made)
			devpm_metric(x.lvl, "cycle_ms", x.m.wall_us / 1000.0);
	}
	DEVPM_SUBTEST_END(&sub);
}

DEVPM_TEST_MAIN(info)
