// SPDX-License-Identifier: GPL-2.0-only
/*
 * rules.c - negative controls of the verdict rules (lib/judge/verdict.c) in the
 * guest: devpm_mock devices made before `devpm run` took its baseline
 * (qemu/init, DEVPM_QEMU_PLANTED=1) get one planted bug each, and the
 * generic cases must fail exactly the buggy ones, naming them:
 *
 *	devpm_mock.0	clean				passes
 *	devpm_mock.1	leak_on_resume			usage drifts: FAIL
 *	devpm_mock.2	runtime_resume_eio		status error: FAIL
 *	devpm_mock.3	runtime_suspend_eio		status error: FAIL
 *
 * and suspends_after_probe makes devpm_mock.5 with probe_ref=late: the
 * probe's reference dropped seconds late, so it must fail rule 6 while
 * the clean 0..3 (no bug planted yet) pass it.  autosuspend_on_time makes
 * devpm_mock.6 (delay 400 ms) with late_suspend: suspended delay * 1.5
 * after it was idle, it must fail the autosuspend judgment
 * (rpm/autosuspend_timer.h) while the clean devpm_mock.0 passes it.
 * kernel_warn_quoted, last, plants warn_on_suspend in devpm_mock.0: it
 * suspends as ever, but its runtime_suspend WARNs, and the runner must
 * fail the case quoting the
 * "WARNING: CPU: N PID: N at .../callbacks.c:N mock_runtime_suspend+.."
 * line (lib/core/kmsg.c: devpm_kmsg_bad_rank), not "[ cut here ]".
 *
 * Only `make qemu-planted` boots this program (qemu/run.sh --planted).
 */
#include "harness/test.h"
#include "judge/probe_idle.h"
#include "rpm/autosuspend_timer.h"
#include "judge/usage_cycle.h"
#include "mock/mock.h"

#define NMOCK 4
/* Rule 6's planted bug: probe's reference dropped long after the limit. */
#define LATE_MOCK	5
#define LATE_MS		1500
/* The late autosuspend: 400 ms * 1.5 is 100 ms past 400 ms + 25 %. */
#define SLOW_MOCK	6
#define SLOW_DELAY_MS	400

static const char *const bugs[NMOCK] = {
	"none", "leak_on_resume", "runtime_resume_eio", "runtime_suspend_eio",
};

static const struct devpm_test_info info = {
	.suite = "planted",
	.timeout_s = 120,
	.needs = { .root = true, .files = (const char *const[]){
			DEVPM_MOCK_CTL, NULL } },
};

FIXTURE(planted) {
	off_t mark;
	bool late_made;		/* devpm_mock.LATE_MOCK, journaled */
	bool slow_made;		/* devpm_mock.SLOW_MOCK, journaled */
};

FIXTURE_SETUP(planted)
{
	self->mark = devpm_case_setup();
}

FIXTURE_TEARDOWN(planted)
{
	char p[DEVPM_PATH_MAX];
	int i;

	/* The bugs go; what they did stays for the verdict to see. */
	for (i = 0; i < NMOCK; i++)
		devpm_mock_bug(i, "none");
	if (self->slow_made)
		devpm_mock_bug(SLOW_MOCK, "none");
	devpm_case_teardown(self->mark);
	/* The restore deletes what the case made: see that it did. */
	if (!self->late_made)
		return;
	if (devpm_mock_path(LATE_MOCK, p, sizeof(p)) != -ENOENT) {
		TH_LOG("devpm_mock.%d still there after the journal restore",
		       LATE_MOCK);
		DEVPM_CASE_FAIL(_metadata);
	} else {
		devpm_note("devpm_mock.%d deleted by the journal restore",
			   LATE_MOCK);
	}
}

/* Nothing planted yet: every mock device suspends as at baseline. */
TEST_F(planted, idle_devices_suspend)
{
	struct devpm_wait_result w;
	struct devpm_subtest s;
	struct devpm_dev d;
	int i;

	devpm_subtest_begin(&s, "idle_devices_suspend");
	for (i = 0; i < NMOCK; i++) {
		if (devpm_mock_dev(i, &d) < 0) {
			devpm_subtest_fail(&s, "devpm_mock", "devpm_mock.%d: %s", i,
				       devpm_error());
			continue;
		}
		if (devpm_wait_status_why(&d, NULL, "suspended", 2000, &w))
			devpm_subtest_fail(&s, d.name, "%s", w.why);
		else
			devpm_subtest_pass(&s, d.name, "suspended");
	}
	DEVPM_SUBTEST_END(&s);
}

struct probe_arg {
	int id;
	struct devpm_dev d;
};

static int reprobe_mock(void *arg)
{
	return devpm_mock_reprobe(*(const int *)arg);
}

static void probe_one(struct devpm_block *b, void *arg)
{
	struct probe_arg *p = arg;
	struct devpm_probe_idle res;

	if (devpm_probe_idle(&p->d, reprobe_mock, &p->id, &res))
		devpm_block_abort(b, "%s", res.why);
	devpm_block_pass(b, "suspended %llu ms after its probe returned (limit %d ms)",
		       res.waited_ms, res.limit_ms);
}

/*
 * Rule 6: after a reprobe every mock must suspend within its delay + the
 * bound; devpm_mock.5 (journaled, gone at teardown) keeps probe's
 * reference.  Before usage_balanced_after_cycles: 0..3 are clean here.
 */
TEST_F(planted, suspends_after_probe)
{
	static const int ids[] = { 0, 1, 2, 3, LATE_MOCK };
	const struct devpm_mock_opts late = {
		.parent = DEVPM_MOCK_NO_PARENT, .async = 1,
		.probe_ref_ms = LATE_MS,
	};
	struct probe_arg p;
	struct devpm_subtest s;
	size_t i;

	devpm_subtest_begin(&s, "suspends_after_probe");
	if (devpm_mock_create(LATE_MOCK, &late))
		devpm_subtest_fail(&s, "devpm_mock", "devpm_mock.%d: %s",
			       LATE_MOCK, devpm_error());
	else
		self->late_made = true;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		p.id = ids[i];
		if (devpm_mock_dev(p.id, &p.d) < 0) {
			devpm_subtest_fail(&s, "devpm_mock", "devpm_mock.%d: %s",
				       p.id, devpm_error());
			continue;
		}
		devpm_block_run(&s, p.d.name, probe_one, &p);
	}
	DEVPM_SUBTEST_END(&s);
}

/* Each device with its bug, cycled by control (rule 4). */
TEST_F(planted, usage_balanced_after_cycles)
{
	struct devpm_usage_cycle c;
	struct devpm_subtest s;
	struct devpm_dev d;
	int i, r;

	devpm_subtest_begin(&s, "usage_balanced_after_cycles");
	for (i = 0; i < NMOCK; i++) {
		if (devpm_mock_dev(i, &d) < 0 || devpm_mock_bug(i, bugs[i])) {
			devpm_subtest_fail(&s, "devpm_mock", "devpm_mock.%d: %s", i,
				       devpm_error());
			continue;
		}
		r = devpm_usage_cycle_control(&d, NULL, DEVPM_CYCLES_MIN, 2000, &c);
		if (r)
			devpm_subtest_fail(&s, d.name, "%s (driver %s)",
				       c.why[0] ? c.why : devpm_error(),
				       d.driver);
		else
			devpm_subtest_pass(&s, d.name,
				       "%d control cycles, usage %ld as at baseline",
				       c.done, c.usage);
	}
	DEVPM_SUBTEST_END(&s);
}

struct slow_arg {
	int id;
	struct devpm_dev d;
};

/* control on, then auto: judged as every suite judges an autosuspend. */
static void on_time_one(struct devpm_block *b, void *arg)
{
	const char *const names[] = { ((struct slow_arg *)arg)->d.name, NULL };
	struct slow_arg *s = arg;
	struct devpm_autosuspend a;
	struct devpm_wait_result w;
	struct devpm_trace *t;
	char ctl[DEVPM_PATH_MAX], why[512], line[256];
	uint64_t from;
	int r;

	t = devpm_trace_start(names);
	if (!t)
		devpm_block_skip(b, "no trace: %s", devpm_error());
	devpm_block_defer_trace_stop(b, t);
	if (devpm_autosuspend_trace(t) < 0)
		devpm_block_skip(b, "no hrtimer events: %s", devpm_error());
	if (devpm_dev_attr(&s->d, "control", ctl, sizeof(ctl)) < 0)
		devpm_block_abort(b, "%s", devpm_error());
	/* From suspended: a probe's timer still running would suspend it. */
	if (devpm_wait_status_why(&s->d, t, "suspended", 2000, &w))
		devpm_block_abort(b, "%s", w.why);
	from = devpm_now_us();
	if (devpm_knob_write(ctl, "on") || devpm_knob_write(ctl, "auto"))
		devpm_block_abort(b, "control: %s", devpm_error());
	r = devpm_wait_autosuspend(&s->d, t, from, &a, &w, why, sizeof(why));
	if (r)
		devpm_block_abort(b, "%s (driver %s): %s", s->d.name,
				  s->d.driver, why);
	devpm_autosuspend_line(&a, line, sizeof(line));
	devpm_block_pass(b, "%s (delay %d ms)", line, a.delay_ms);
}

/*
 * The autosuspend judgment's negative control: devpm_mock.6 suspends
 * delay * 1.5 after it was idle (late_suspend) and must fail; the clean
 * devpm_mock.0 must pass.
 */
TEST_F(planted, autosuspend_on_time)
{
	const struct devpm_mock_opts slow = {
		.parent = DEVPM_MOCK_NO_PARENT, .async = 1,
		.autosuspend_ms = SLOW_DELAY_MS,
	};
	static const int ids[] = { 0, SLOW_MOCK };
	struct slow_arg a;
	struct devpm_subtest s;
	size_t i;

	devpm_subtest_begin(&s, "autosuspend_on_time");
	if (devpm_mock_create(SLOW_MOCK, &slow) ||
	    devpm_mock_bug(SLOW_MOCK, "late_suspend"))
		devpm_subtest_fail(&s, "devpm_mock", "devpm_mock.%d: %s",
				   SLOW_MOCK, devpm_error());
	else
		self->slow_made = true;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		a.id = ids[i];
		if (devpm_mock_dev(a.id, &a.d) < 0) {
			devpm_subtest_fail(&s, "devpm_mock", "devpm_mock.%d: %s",
					   a.id, devpm_error());
			continue;
		}
		devpm_block_run(&s, a.d.name, on_time_one, &a);
	}
	DEVPM_SUBTEST_END(&s);
}

/*
 * A driver's WARN during a case that passes its own checks: the runner
 * fails it for the kernel (the case says nothing of the WARN itself).
 */
TEST_F(planted, kernel_warn_quoted)
{
	struct devpm_usage_cycle c;
	struct devpm_subtest s;
	struct devpm_dev d;

	devpm_subtest_begin(&s, "kernel_warn_quoted");
	if (devpm_mock_dev(0, &d) < 0 || devpm_mock_bug(0, "warn_on_suspend")) {
		devpm_subtest_fail(&s, "devpm_mock", "devpm_mock.0: %s",
			       devpm_error());
	} else if (devpm_usage_cycle_control(&d, NULL, 1, 2000, &c)) {
		devpm_subtest_fail(&s, d.name, "%s", c.why[0] ? c.why :
				   devpm_error());
	} else {
		devpm_subtest_pass(&s, d.name, "resumed and suspended (its runtime_suspend WARNed)");
	}
	DEVPM_SUBTEST_END(&s);
}

DEVPM_TEST_MAIN(info)
