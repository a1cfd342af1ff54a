// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep.c - system suspend/resume: asynchronous callbacks and their
 * order on mock devices with known delays (devpm_mock,
 * docs/fixtures.md), a real s2idle cycle of the machine's own devices
 * checked against the kernel's pm_print_times figures, and every pm_test
 * level.
 *
 * One bench of mock devices serves the mock cases: independent devices
 * for the speed-up, parent/child trees, a device link, synchronous
 * devices around one whose power/async is disabled, a planted slow
 * resume, and an unrelated pair that must overlap (the control of every
 * order check).  It goes through a pm_test=platform cycle with
 * /sys/power/pm_async=1 and a pm_test=devices cycle with 0.  A cycle that
 * suspends every device costs the machine's whole resume (in QEMU the USB
 * chain alone takes ~1.6 s), so cycles are shared: the first case that
 * needs one runs it and saves it (lib/sleep/sleep_cycle_cache.h), the later
 * cases of the same run read it, and pm_test_levels counts the bench's
 * and real_device_timing's cycles for their levels.  In devpm's QEMU
 * image the bench's cycles run with the xHCI unbound, and so do the
 * other pm_test levels' (core, processors, freezer), made in the same
 * window for pm_test_levels.  The bench's trace holds only the mock
 * devices' callbacks.  A case run alone runs what it needs.
 *
 * Timing comes from the power:device_pm_callback_start/end and
 * power:suspend_resume trace events (lib/trace/sleep_trace.h); the kernel's
 * view from the "calling ... / returned ... after N usecs" lines that
 * /sys/power/pm_print_times=1 makes initcall_debug_start() and
 * initcall_debug_report() log.
 *
 * Kernel side (drivers/base/power/main.c): dpm_suspend()/dpm_resume()
 * walk the list and hand async devices to async_schedule_dev_nocall()
 * (dpm_async_fn()); __device_suspend() waits for children and consumers
 * (dpm_wait_for_subordinate()), device_resume() for the parent and
 * suppliers (dpm_wait_for_superior()); is_async() is power.async_suspend
 * && pm_async_enabled.
 */
#include "harness/test.h"
#include "core/host.h"
#include "mock/mock.h"
#include "mock/async_bench.h"
#include "sleep/platform_wake.h"
#include "sleep/pm_test_cycle.h"
#include "sleep/sleep_cycle_cache.h"
#include "sleep/system_sleep.h"
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
	struct devpm_sleep_cycle c2;	/* real_device_timing's repeat */
	struct devpm_pm_prints pr2;
	bool repeated;			/* c2 and pr2 hold a real cycle */
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
	self->cy.repeated = false;
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
 * Both bench cycles, from this run's cache or run here.  0, 1 (skip:
 * why), -1.  The pm_async=1 cycle is a pm_test=platform one, the
 * pm_async=0 cycle a pm_test=devices one: pm_test_levels counts them
 * for those levels, and the cycles of its other levels are made here
 * too when this run has it.  The cases that run them judge only the
 * bench: where the environment has devices whose resume is CPU work
 * (QEMU's controllers under TCG), it sets them aside for the case
 * (lib/harness/environment.h), so that no real device resumes on the
 * one CPU while a mock callback's timer is due.  They are back at the
 * case's end, before the verdict and real_device_timing.
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

/* Span of the NPAR independent devices' callbacks in a phase. */
static void par_span(struct __test_metadata *_metadata,
		     const struct devpm_sleep_cycle *c,
		     enum devpm_pm_phase ph, uint64_t *span)
{
	const char *devs[NPAR];
	int i;

	for (i = 0; i < NPAR; i++)
		devs[i] = devpm_mock_name(PAR0 + i);
	ASSERT_EQ(0, devpm_sleep_span(c, ph, devs, NPAR, span))
		TH_LOG("%s", devpm_error());
}

/*
 * Each of the NPAR callbacks took its delay (else the spans mean
 * nothing): the number that did not, with why set.
 */
static int par_delays(const struct devpm_sleep_cycle *c,
		      enum devpm_pm_phase ph, char *why, size_t len)
{
	char w[256];
	int i, bad = 0;

	for (i = 0; i < NPAR; i++) {
		const struct devpm_pm_cb *cb = devpm_sleep_cb(c, ph, devpm_mock_name(i));

		if (cb && !devpm_sleep_check_delay(devpm_pm_cb_own_us(cb),
						   PAR_US, w, sizeof(w)))
			continue;
		if (!bad++)
			snprintf(why, len, "%s %s: %s", devpm_mock_name(i),
				 devpm_pm_phase_name(ph),
				 cb ? w : "no callback");
	}
	return bad;
}

/* Distinct lanes among the NPAR callbacks. */
static int par_lanes(const struct devpm_sleep_cycle *c,
		     enum devpm_pm_phase ph)
{
	int pids[NPAR], n = 0, i, j;

	for (i = 0; i < NPAR; i++) {
		const struct devpm_pm_cb *cb = devpm_sleep_cb(c, ph, devpm_mock_name(i));

		if (!cb)
			continue;
		for (j = 0; j < n && pids[j] != cb->pid; j++)
			;
		if (j == n)
			pids[n++] = cb->pid;
	}
	return n;
}

static void parallel(struct __test_metadata *_metadata,
		     struct cycles *self, enum devpm_pm_phase ph)
{
	const char *pn = devpm_pm_phase_name(ph);
	uint64_t on, off;
	char why[512];

	par_span(_metadata, &self->on, ph, &on);
	par_span(_metadata, &self->off, ph, &off);
	devpm_note("%d devices x %d us %s: %llu us with pm_async=1 (%d lanes), %llu us with pm_async=0 (%d lanes)",
		   NPAR, PAR_US, pn, (unsigned long long)on,
		   par_lanes(&self->on, ph), (unsigned long long)off,
		   par_lanes(&self->off, ph));
	devpm_metric("-", "async_speedup", on ? (double)off / on : 0);
	devpm_metric("-", "async_us", on);
	devpm_metric("-", "sync_us", off);
	EXPECT_EQ(0, par_delays(&self->on, ph, why, sizeof(why)))
		TH_LOG("pm_async=1: %s", why);
	EXPECT_EQ(0, par_delays(&self->off, ph, why, sizeof(why)))
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

/*
 * A delay or budget that is negative or absurd is refused, with one line
 * that names it (lib/mock/mock.c, the module's store functions).  0 when all
 * four are, else 1 with why.
 */
static int bad_input(char *why, size_t len)
{
	static const struct {
		long delay;		/* -1: set the budget to text */
		const char *text;
	} in[] = {
		{ -1000, NULL }, { 20000000, NULL },
		{ -1, "-5" }, { -1, "99999999999" },
	};
	size_t i;
	int r;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		if (in[i].text)
			r = devpm_mock_set(BAD_ID, "resume_budget_us",
					   in[i].text);
		else
			r = devpm_mock_set_cb(BAD_ID, DEVPM_MOCK_RESUME,
					      in[i].delay, 0);
		if (!r || strchr(devpm_error(), '\n') || !devpm_error()[0]) {
			snprintf(why, len, "%s %ld%s%s: %s", in[i].text ?
				 "resume_budget_us" : "resume delay",
				 in[i].delay, in[i].text ? " text " : "",
				 in[i].text ? in[i].text : "",
				 r ? "refused without one clear line" :
				 "accepted");
			return 1;
		}
		devpm_note("refused as it should: %s", devpm_error());
	}
	return 0;
}

/* The bad input goes to a device of its own, outside the bench. */
static void bad_input_one(struct devpm_block *b, void *arg)
{
	char why[512] = "";

	(void)arg;
	if (devpm_mock_load(false, why, sizeof(why)) ||
	    devpm_mock_create(BAD_ID, NULL))
		devpm_block_abort(b, "%s %s", why, devpm_error());
	if (bad_input(why, sizeof(why)))
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

/* One device's callbacks in a cycle. */
struct devtime {
	const char *dev, *driver;
	uint64_t us[DEVPM_PH_NR];
	uint64_t total;
	bool timed;		/* has a callback outside prepare/complete */
};

static size_t collect(const struct devpm_sleep_cycle *c, struct devtime *d,
		      size_t max)
{
	size_t i, j, n = 0;

	for (i = 0; i < c->ncb; i++) {
		const struct devpm_pm_cb *cb = &c->cb[i];

		for (j = 0; j < n; j++)
			if (!strcmp(d[j].dev, cb->dev))
				break;
		if (j == n) {
			if (n == max)
				continue;
			memset(&d[n], 0, sizeof(d[n]));
			d[n].dev = cb->dev;
			d[n].driver = cb->driver;
			n++;
		}
		d[j].us[cb->phase] += devpm_pm_cb_dur(cb);
		d[j].total += devpm_pm_cb_dur(cb);
		if (cb->phase != DEVPM_PH_PREPARE &&
		    cb->phase != DEVPM_PH_COMPLETE)
			d[j].timed = true;
	}
	return n;
}

static int by_total(const void *a, const void *b)
{
	const struct devtime *x = a, *y = b;

	return x->total < y->total ? 1 : x->total > y->total ? -1 : 0;
}

/* "suspend=12 suspend_late=3 ..." of the phases with a callback. */
static void phase_list(const struct devtime *d, char *buf, size_t len)
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

/* Has dev a traced callback outside prepare/complete in c? */
static bool has_timed(const struct devpm_sleep_cycle *c, const char *dev)
{
	size_t i;

	for (i = 0; i < c->ncb; i++)
		if (!strcmp(c->cb[i].dev, dev) &&
		    c->cb[i].phase != DEVPM_PH_PREPARE &&
		    c->cb[i].phase != DEVPM_PH_COMPLETE)
			return true;
	return false;
}

/*
 * real_device_timing's second real cycle, into c2 and pr2, made only
 * when a device disagreed by the kernel's figure alone.  0 or -1 (why).
 */
static int repeat_cycle(struct cycles *self, char *why,
			size_t len)
{
	uint64_t wall;
	int ret;

	if (devpm_platform_wake_arm("freeze", why, len))
		return -1;
	if (devpm_sleep_traced(self->t, "freeze", &ret, &wall, &self->c2)) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	if (ret) {
		snprintf(why, len, "s2idle: %s", strerror(-ret));
		return -1;
	}
	if (devpm_kmsg_drain(self->k, devpm_pm_prints_line, &self->pr2) < 0) {
		snprintf(why, len, "kmsg: %s", devpm_error());
		return -1;
	}
	devpm_note("repeat cycle %llu ms: %zu callbacks, %zu kernel records",
		   (unsigned long long)wall / 1000, self->c2.ncb,
		   self->pr2.n);
	self->repeated = true;
	return 0;
}

/* The figures of sleep_phases.h as a note prints them. */
static unsigned long long ph_us(const struct devpm_sleep_cycle *c,
				enum devpm_pm_phase ph)
{
	return devpm_sleep_phase_us(c, ph);
}

static unsigned long long side_us(const struct devpm_sleep_cycle *c,
				  bool suspend)
{
	return devpm_sleep_side_us(c, suspend);
}

struct agree_ctx {
	struct cycles *self;
	const struct devtime *d;
};

/* One device of the real cycle: its traced callbacks against the kernel's. */
static void agree_one(struct devpm_block *b, void *arg)
{
	const struct agree_ctx *x = arg;
	struct cycles *self = x->self;
	const struct devtime *d = x->d;
	char list[512], kern[512], why[512];
	int ph, r;

	phase_list(d, list, sizeof(list));
	r = devpm_pm_print_dev_agree(&self->c, &self->pr, d->dev, kern,
				     sizeof(kern), why, sizeof(why));
	devpm_note("%s (%s): trace %s; kernel %s", d->dev,
		   d->driver[0] ? d->driver : "-", list,
		   kern[0] ? kern : "none");
	for (ph = 0; ph < DEVPM_PH_NR; ph++) {
		char key[48];

		if (!d->us[ph])
			continue;
		snprintf(key, sizeof(key), "%s_us", devpm_pm_phase_name(ph));
		devpm_metric(d->dev, key, d->us[ph]);
	}
	if (!r)
		return;
	/*
	 * The kernel's figure alone larger: its window (calltime before
	 * trace_device_pm_callback_start, rettime after _end, in
	 * drivers/base/power/main.c dpm_run_callback()) was interrupted
	 * outside the callback, by the guest or by the host stalling the
	 * vCPU (ata17: trace 38 us, kernel 1515 us in one CI run).  Such a
	 * gap does not come back for the same callback: the device fails
	 * only when the repeat cycle disagrees too.
	 */
	if (r == 2 && self->repeated && has_timed(&self->c2, d->dev)) {
		char why2[512];

		r = devpm_pm_print_dev_agree(&self->c2, &self->pr2, d->dev,
					     kern, sizeof(kern), why2,
					     sizeof(why2));
		if (!r) {
			devpm_note("%s: cycle 1: %s; the repeat cycle agrees (kernel %s)",
				   d->dev, why, kern);
			return;
		}
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "; repeat cycle: %s", why2);
	}
	/*
	 * Records overwritten before they were read (a ring too small for
	 * ~2 lines per callback) make the kernel's side incomplete: no
	 * verdict then, for a device that disagrees.
	 */
	if (devpm_kmsg_lost(self->k))
		devpm_block_skip(b, "the kernel log overwrote pm_print_times records before they were read (%lu gaps): boot with a larger log_buf_len",
			       devpm_kmsg_lost(self->k));
	devpm_block_abort(b, "%s (%s)", why,
			d->driver[0] ? d->driver : "no driver");
}

TEST_F(sleep, real_device_timing)
{
	struct devpm_suspend_stats before, after;
	struct devtime *d;
	struct devpm_subtest sub;
	char list[512], why[512];
	uint64_t wall;
	size_t i, n;
	struct devpm_sleep_cycle_meta m = { .level = "none", .state = "freeze",
				.name = "real_device_timing.1" };
	int ret, r;

	if (!devpm_power_has("/sys/power/state", "freeze"))
		SKIP(return, "no s2idle: /sys/power/state has no 'freeze'");
	if (devpm_platform_wake_setup(why, sizeof(why)))
		SKIP(return, "%s", why);
	self->cy.t = devpm_sleep_trace_start(NULL);
	if (!self->cy.t)
		SKIP(return, "needs the power trace events: %s",
		     devpm_error());
	/* A real sleep: no pm_test level. */
	if (devpm_exists("/sys/power/pm_test"))
		ASSERT_EQ(0, devpm_pm_test_set("none"))
			TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_knob_write("/sys/power/pm_print_times", "1"))
		TH_LOG("%s", devpm_error());
	self->cy.k = devpm_kmsg_open();
	ASSERT_NE(NULL, self->cy.k) TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_suspend_stats_read(&before))
		TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_platform_wake_arm("freeze", why, sizeof(why)))
		TH_LOG("%s", why);
	r = devpm_sleep_traced(self->cy.t, "freeze", &ret, &wall, &self->cy.c);
	if (devpm_suspend_stats_read(&after))
		after.success = -1;
	/* pm_test_levels counts it for "none". */
	m.ret = ret;
	m.success_before = before.success;
	m.success_after = after.success;
	m.wall_us = wall;
	if (!r)
		devpm_sleep_cycle_cache_save("real", &self->cy.c, &m);
	ASSERT_EQ(0, ret) TH_LOG("s2idle: %s", strerror(-ret));
	ASSERT_EQ(0, r) TH_LOG("%s", devpm_error());
	ASSERT_EQ(before.success + 1, after.success)
		TH_LOG("suspend_stats/success %ld -> %ld: no sleep counted",
		       before.success, after.success);
	ASSERT_LE(0, devpm_kmsg_drain(self->cy.k, devpm_pm_prints_line,
				      &self->cy.pr));
	devpm_sleep_timeline_print(&self->cy.c, "real_device_timing.1");

	d = calloc(self->cy.c.ncb, sizeof(*d));
	ASSERT_NE(NULL, d);
	n = collect(&self->cy.c, d, self->cy.c.ncb);
	devpm_note("cycle %llu ms: suspend %llu us (prepare %llu, suspend %llu, late %llu, noirq %llu), resume %llu us (noirq %llu, early %llu, resume %llu, complete %llu); %zu callbacks, %zu kernel records",
		   (unsigned long long)wall / 1000,
		   side_us(&self->cy.c, true),
		   ph_us(&self->cy.c, DEVPM_PH_PREPARE),
		   ph_us(&self->cy.c, DEVPM_PH_SUSPEND),
		   ph_us(&self->cy.c, DEVPM_PH_SUSPEND_LATE),
		   ph_us(&self->cy.c, DEVPM_PH_SUSPEND_NOIRQ),
		   side_us(&self->cy.c, false),
		   ph_us(&self->cy.c, DEVPM_PH_RESUME_NOIRQ),
		   ph_us(&self->cy.c, DEVPM_PH_RESUME_EARLY),
		   ph_us(&self->cy.c, DEVPM_PH_RESUME),
		   ph_us(&self->cy.c, DEVPM_PH_COMPLETE),
		   self->cy.c.ncb, self->cy.pr.n);
	if (devpm_kmsg_lost(self->cy.k))
		devpm_note("the kernel log overwrote records before they were read (%lu gaps)",
			   devpm_kmsg_lost(self->cy.k));
	/* Each side's total; "suspend_us" and "resume_us" are phases'. */
	devpm_metric("-", "suspend_total_us",
		     devpm_sleep_side_us(&self->cy.c, true));
	devpm_metric("-", "resume_total_us",
		     devpm_sleep_side_us(&self->cy.c, false));
	for (i = 0; i < DEVPM_PH_NR; i++) {
		char key[48];

		snprintf(key, sizeof(key), "%s_us", devpm_pm_phase_name(i));
		devpm_metric("-", key, devpm_sleep_phase_us(&self->cy.c, i));
	}
	devpm_metric("-", "cycle_ms", wall / 1000.0);
	/* The mini-summit's other claim: resume is slower than suspend. */
	if (devpm_sleep_side_us(&self->cy.c, true))
		devpm_metric("-", "resume_over_suspend",
			     (double)devpm_sleep_side_us(&self->cy.c, false) /
			     devpm_sleep_side_us(&self->cy.c, true));

	/* A disagreement by the kernel's figure alone gets a repeat cycle. */
	for (i = 0; i < n; i++) {
		char kern[512];

		if (d[i].timed &&
		    devpm_pm_print_dev_agree(&self->cy.c, &self->cy.pr, d[i].dev,
					     kern, sizeof(kern), why,
					     sizeof(why)) == 2)
			break;
	}
	if (i < n) {
		devpm_note("%s: the kernel's figure alone is larger: a repeat cycle decides",
			   d[i].dev);
		if (repeat_cycle(&self->cy, why, sizeof(why)))
			devpm_note("repeat cycle not made: %s", why);
	}

	devpm_subtest_begin(&sub, "real_device_timing");
	for (i = 0; i < n; i++) {
		struct agree_ctx x = { &self->cy, &d[i] };

		/* prepare/complete only: no record */
		if (d[i].timed)
			devpm_block_run(&sub, d[i].dev, agree_one, &x);
	}
	qsort(d, n, sizeof(*d), by_total);
	for (i = 0; i < n && i < SLOWEST; i++) {
		phase_list(&d[i], list, sizeof(list));
		devpm_note("slowest %zu: %s (%s) %llu us: %s", i + 1, d[i].dev,
			   d[i].driver[0] ? d[i].driver : "-",
			   (unsigned long long)d[i].total, list);
	}
	free(d);
	DEVPM_SUBTEST_END(&sub);
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
