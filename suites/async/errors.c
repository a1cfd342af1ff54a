// SPDX-License-Identifier: GPL-2.0-only
/*
 * errors.c - a device callback that fails aborts the system transition,
 * everything already suspended is resumed, and suspend_stats says who
 * and where.
 *
 * Six mock devices: an async one, four synchronous ones (the walk stops
 * at a synchronous one at once: dpm_suspend() breaks on its error), an
 * async one.  devpm_mock.1 fails with -EIO in prepare, .2 in suspend, .3
 * in suspend_late, .4 in suspend_noirq: a different device each time, so
 * that last_failed_dev cannot be left over from an earlier step.  pm_test=platform, so
 * that late and noirq run and a transition that wrongly goes on still
 * returns.  Kernel side (drivers/base/power/main.c): dpm_prepare(),
 * dpm_suspend(), dpm_suspend_late(), dpm_suspend_noirq() stop on the
 * error; suspend_devices_and_enter() / suspend_enter()
 * (kernel/power/suspend.c) resume what was suspended; pm_suspend() counts
 * fail; dpm_save_failed_dev() / dpm_save_failed_step() record the rest.
 */
#include "harness/test.h"
#include "mock/mock.h"
#include "sleep/system_sleep.h"
#include "trace/sleep_trace.h"
#include "async_suite.h"

#define ERR		(-EIO)

static const struct devpm_test_info info = {
	.suite = "async",
	.timeout_s = 90,
	/* QEMU's controllers out of its cycles: the runner's window. */
	/* Its cycles judge the mock devices only. */
	.sleep_scope = DEVPM_SLEEP_OWN_DEVICES,
	.needs = {
		.root = true,
		.sleep = true,
		.tracefs = true,
		.kconfigs = (const char *const[]){ "CONFIG_PM_SLEEP", NULL },
		.files = (const char *const[]){ "/sys/power/state", NULL },
	},
};

FIXTURE(err) {
	off_t mark;
	struct devpm_trace *t;
	struct devpm_sleep_cycle c;
};

FIXTURE_SETUP(err)
{
	self->mark = devpm_case_setup();
	self->t = NULL;
	memset(&self->c, 0, sizeof(self->c));
}

FIXTURE_TEARDOWN(err)
{
	devpm_sleep_cycle_free(&self->c);
	devpm_trace_stop(self->t);
	devpm_case_teardown(self->mark);
}

/* A failing step, its callback and the one that undoes it. */
static const struct {
	const char *step;
	enum devpm_mock_cb cb, undo;
	enum devpm_pm_phase ph;
} steps[] = {
	{ "prepare", DEVPM_MOCK_PREPARE, DEVPM_MOCK_COMPLETE,
	  DEVPM_PH_PREPARE },
	{ "suspend", DEVPM_MOCK_SUSPEND, DEVPM_MOCK_RESUME,
	  DEVPM_PH_SUSPEND },
	{ "suspend_late", DEVPM_MOCK_SUSPEND_LATE, DEVPM_MOCK_RESUME_EARLY,
	  DEVPM_PH_SUSPEND_LATE },
	{ "suspend_noirq", DEVPM_MOCK_SUSPEND_NOIRQ,
	  DEVPM_MOCK_RESUME_NOIRQ, DEVPM_PH_SUSPEND_NOIRQ },
};
#define NSTEP ((int)(sizeof(steps) / sizeof(steps[0])))
#define NDEV		(NSTEP + 2)
#define BAD(s)		(1 + (s))	/* the device failing step s */

/*
 * Counters after the failed transition: every pair balances, except on
 * the failing device the failing step (ran once, never undone) and the
 * steps after it (never ran).  0, or 1 with why.
 */
static int counters(int s, char *why, size_t len)
{
	long a, b;
	int id, i;

	for (id = 0; id < NDEV; id++) {
		for (i = 0; i < NSTEP; i++) {
			long wa = -1, wb = -1;

			a = devpm_mock_count(id, steps[i].cb);
			b = devpm_mock_count(id, steps[i].undo);
			if (id == BAD(s) && i == s)
				wa = 1, wb = 0;
			else if (id == BAD(s) && i > s)
				wa = 0, wb = 0;
			if (a < 0 || b < 0) {
				snprintf(why, len, "devpm_mock.%d callback counts: %s",
					 id, devpm_error());
				return 1;
			}
			if ((wa < 0 && a != b) || (wa >= 0 && (a != wa ||
							       b != wb))) {
				snprintf(why, len, "devpm_mock.%d: %s ran %ld times, %s %ld times%s",
					 id, devpm_mock_cb_name(steps[i].cb), a,
					 devpm_mock_cb_name(steps[i].undo), b,
					 id == BAD(s) ? " (the failing device)" :
					 ": not rolled back");
				return 1;
			}
		}
	}
	return 0;
}

struct step_ctx {
	struct _test_data_err *self;
	int s;			/* the failing step */
};

static void undo_fail(void *arg)
{
	const struct step_ctx *x = arg;

	devpm_mock_set_cb(BAD(x->s), steps[x->s].cb, 0, 0);
}

static void cycle_free(void *arg)
{
	devpm_sleep_cycle_free(arg);
}

/*
 * One step, the failing device's block: ends as FAIL at the first check
 * that does not hold, as an XFAIL SKIP when only a known kernel deviation
 * is left (the message says which).
 */
static void step_one(struct devpm_block *b, void *arg)
{
	struct step_ctx *x = arg;
	struct _test_data_err *self = x->self;
	const int s = x->s;
	const char *st = steps[s].step;
	struct devpm_suspend_stats a, bs;
	const struct devpm_pm_cb *cb;
	char dev[32], why[768] = "";
	uint64_t wall;
	int i, ret, r, known = 0;

	snprintf(dev, sizeof(dev), "devpm_mock.%d", BAD(s));
	for (i = 0; i < NDEV; i++)
		if (devpm_mock_reset_counts(i))
			devpm_block_abort(b, "%s: %s", st, devpm_error());
	if (devpm_mock_set_cb(BAD(s), steps[s].cb, 0, ERR))
		devpm_block_abort(b, "%s: %s", st, devpm_error());
	devpm_block_defer(b, undo_fail, x);
	if (devpm_suspend_stats_read(&bs))
		devpm_block_abort(b, "%s: %s", st, devpm_error());
	devpm_block_defer(b, cycle_free, &self->c);
	r = devpm_sleep_traced(self->t, "freeze", &ret, &wall, &self->c);
	undo_fail(x);
	if (devpm_suspend_stats_read(&a))
		devpm_block_abort(b, "%s: %s", st, devpm_error());
	devpm_note("%s fails %s: state write %s after %llu ms; suspend_stats fail %ld -> %ld, failed_%s %ld -> %ld, last_failed_dev '%s', last_failed_step '%s', last_failed_errno %ld",
		   dev, st, ret ? strerror(-ret) : "succeeded",
		   (unsigned long long)wall / 1000, bs.fail, a.fail,
		   st, devpm_suspend_stats_failed(&bs, st),
		   devpm_suspend_stats_failed(&a, st),
		   a.last_failed_dev, a.last_failed_step, a.last_failed_errno);
	{
		char cyc[64];

		snprintf(cyc, sizeof(cyc), "suspend_error_rolls_back.%s", st);
		devpm_sleep_timeline_print(&self->c, cyc);
	}
	if (ret != ERR)
		devpm_block_abort(b, "%s: the transition returned %d, want %d (the callback's error): not aborted",
				st, ret, ERR);
	cb = r ? NULL : devpm_sleep_cb(&self->c, steps[s].ph, dev);
	if (!cb || cb->err != ERR)
		devpm_block_abort(b, "%s: the trace shows %s %s %s%d, want err=%d",
				st, dev, st, cb ? "err=" : "no callback ",
				cb ? cb->err : 0, ERR);
	if (counters(s, why, sizeof(why)))
		devpm_block_abort(b, "%s: %s", st, why);
	if (a.fail != bs.fail + 1 || a.success != bs.success)
		devpm_block_abort(b, "%s: suspend_stats fail %ld -> %ld, success %ld -> %ld: want fail +1",
				st, bs.fail, a.fail, bs.success, a.success);
	if (devpm_suspend_stats_failed(&a, st) !=
	    devpm_suspend_stats_failed(&bs, st) + 1)
		devpm_block_abort(b, "%s: suspend_stats failed_%s %ld -> %ld: want +1",
				st, st, devpm_suspend_stats_failed(&bs, st),
				devpm_suspend_stats_failed(&a, st));
	if (a.last_failed_errno != ERR)
		devpm_block_abort(b, "%s: last_failed_errno %ld, want %d", st,
				a.last_failed_errno, ERR);
	why[0] = '\0';
	if (strcmp(a.last_failed_dev, dev)) {
		/* 6.1: dpm_prepare() never calls dpm_save_failed_dev(). */
		known = s == 0;
		snprintf(why, sizeof(why), "last_failed_dev '%s', want '%s'%s",
			 a.last_failed_dev, dev, known ?
			 " (drivers/base/power/main.c:1883 dpm_prepare() does not call dpm_save_failed_dev(); docs/kernel-bugs.md)" :
			 "");
		if (!known)
			devpm_block_abort(b, "%s: %s", st, why);
	}
	if (strcmp(a.last_failed_step, st)) {
		/* 6.1: suspend_step_name() has no SUSPEND_SUSPEND_LATE. */
		bool k = !strcmp(st, "suspend_late") &&
			 !a.last_failed_step[0];
		size_t used = strlen(why);

		snprintf(why + used, sizeof(why) - used, "%slast_failed_step '%s', want '%s'%s",
			 used ? "; " : "", a.last_failed_step, st,
			 k ? " (kernel/power/main.c:297 suspend_step_name() has no case for SUSPEND_SUSPEND_LATE; docs/kernel-bugs.md)" :
			 "");
		if (!k)
			devpm_block_abort(b, "%s: %s", st, why);
		known = 1;
	}
	if (known)
		devpm_block_skip(b, "XFAIL %s: %s", st, why);
}

TEST_F(err, suspend_error_rolls_back)
{
	struct devpm_mock_opts o = { .parent = DEVPM_MOCK_NO_PARENT };
	struct devpm_subtest sub;
	char why[768];
	int i, r;

	if (!devpm_exists("/sys/power/pm_test"))
		SKIP(return, "no /sys/power/pm_test (CONFIG_PM_DEBUG is off)");
	if (!devpm_power_has("/sys/power/state", "freeze"))
		SKIP(return, "no s2idle: /sys/power/state has no 'freeze'");
	r = devpm_mock_load(false, why, sizeof(why));
	if (r > 0)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, r) TH_LOG("%s", why);
	for (i = 0; i < NDEV; i++) {
		o.async = i == 0 || i == NDEV - 1;
		ASSERT_EQ(0, devpm_mock_create(i, &o))
			TH_LOG("devpm_mock.%d: %s", i, devpm_error());
	}
	self->t = devpm_sleep_trace_start_glob(MOCK_GLOB);
	if (!self->t)
		SKIP(return, "needs the power trace events: %s",
		     devpm_error());
	/* platform: late and noirq run, and nothing really sleeps. */
	ASSERT_EQ(0, devpm_pm_test_set("platform"))
		TH_LOG("%s", devpm_error());

	devpm_subtest_begin(&sub, "suspend_error_rolls_back");
	for (i = 0; i < NSTEP; i++) {
		struct step_ctx x = { .self = self, .s = i };
		char dev[32];

		snprintf(dev, sizeof(dev), "devpm_mock.%d", BAD(i));
		devpm_block_run(&sub, dev, step_one, &x);
	}
	DEVPM_SUBTEST_END(&sub);
}

DEVPM_TEST_MAIN(info)
