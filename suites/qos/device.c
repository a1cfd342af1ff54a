// SPDX-License-Identifier: GPL-2.0-only
/*
 * device.c - PM QoS per device: the resume-latency limit and the
 * NO_POWER_OFF flag as runtime PM honours them, on a devpm_mock device
 * (both exposed: dev_pm_qos_expose_latency_limit(), _expose_flags()) and
 * on USB hub ports whose power is switchable.
 *
 * The kernel's own record decides: rpm_return_int -EPERM is
 * rpm_check_suspend_allowed() refusing because the aggregate resume
 * latency is 0 (drivers/base/power/runtime.c); pm_qos_update_target's
 * curr_value is the aggregate (kernel/power/qos.c); a resume's time is
 * rpm_resume to its rpm_return_int.  The sysfs value is inverted:
 * writing "n/a" requests 0 (never suspend), writing "0" removes the user
 * constraint (drivers/base/power/sysfs.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "harness/test.h"
#include "mock/mock.h"
#include "mock/qos_bench.h"
#include "qos/qos.h"
#include "trace/transition.h"
#include "qos_suite.h"

static const struct devpm_test_info info = {
	.suite = "qos",
	.timeout_s = 90,
	.needs = {
		.root = true,
		.kconfigs = (const char *const[]){ "CONFIG_PM", NULL },
		.tracefs = true,
	},
};

/* Made once in the parent (QOS_TEST_MAIN), shared by every case. */
static struct devpm_qos_bench shared;

static void shared_setup(void)
{
	devpm_qos_bench_init(&shared);
	devpm_qos_bench_setup(&shared, false);
}

static void shared_cleanup(void)
{
	devpm_qos_bench_fini(&shared);
}

FIXTURE(qos_dev) {
	off_t mark;
	struct devpm_qos_bench m;
};

FIXTURE_SETUP(qos_dev)
{
	self->mark = devpm_case_setup();
	self->m = shared;	/* the child's copy: its events are its own */
}

FIXTURE_TEARDOWN(qos_dev)
{
	devpm_case_teardown(self->mark);
}

/*
 * After a kick: the device must stay active through DEVPM_QOS_BENCH_HOLD_MS,
 * and the trace must show rpm_check_suspend_allowed()'s -EPERM; else the
 * device's block ends failed with the reason.
 */
static void expect_held(struct devpm_block *b, struct devpm_qos_bench *m,
			uint64_t from_us, const char *what)
{
	struct devpm_wait_result res;
	const struct devpm_event *ev;
	size_t n;
	int r, refused;

	r = devpm_wait_status(&m->d, m->t, "suspended", DEVPM_QOS_BENCH_HOLD_MS, &res);
	if (!r)
		devpm_block_abort(b,
				"%s: suspended %llu us after control=auto, within %d ms (3 autosuspend delays of %d ms)",
				what, (unsigned long long)res.waited_us,
				DEVPM_QOS_BENCH_HOLD_MS,
				DEVPM_QOS_BENCH_AUTOSUSPEND_MS);
	if (r != -ETIMEDOUT)
		devpm_block_abort(b, "%s: %s", what, devpm_error());
	ev = devpm_trace_read(m->t, 0, &n);
	refused = devpm_qos_refusals(ev, n, m->d.name, -EPERM, from_us);
	devpm_note("%s: %s, still %s after %d ms; rpm_return_int -EPERM x%d; diagnosis: %s",
		   m->d.name, what, res.status, DEVPM_QOS_BENCH_HOLD_MS, refused, res.why);
	if (strcmp(res.status, "active"))
		devpm_block_abort(b, "%s: status %s, expected active", what,
				res.status);
	if (!refused)
		devpm_block_abort(b,
				"%s: stayed active but no rpm_return_int -EPERM (QoS refusal) in the trace",
				what);
	devpm_metric(m->d.name, "eperm_refusals", refused);
}

/* After a kick: the device must suspend, else its block ends failed. */
static void expect_suspends(struct devpm_block *b,
			    struct devpm_qos_bench *m, uint64_t from_us,
			    const char *what)
{
	struct devpm_wait_result res;
	const struct devpm_event *ev;
	size_t n;
	int refused;

	if (devpm_wait_status_why(&m->d, m->t, "suspended",
				  DEVPM_QOS_BENCH_SUSPEND_MS, &res))
		devpm_block_abort(b, "%s: not suspended in %d ms: %s", what,
				DEVPM_QOS_BENCH_SUSPEND_MS, res.why);
	ev = devpm_trace_read(m->t, 0, &n);
	refused = devpm_qos_refusals(ev, n, m->d.name, -EPERM, from_us);
	devpm_note("%s: %s, suspended %llu us after control=auto (traced: %s), -EPERM x%d",
		   m->d.name, what, (unsigned long long)res.waited_us,
		   res.traced ? "yes" : "no", refused);
	if (refused)
		devpm_block_abort(b,
				"%s: suspended, yet rpm_return_int -EPERM traced %d times",
				what, refused);
}

static void na_blocks_one(struct devpm_block *b, void *arg)
{
	struct devpm_qos_bench *m = arg;
	uint64_t t0;

	devpm_trace_clear(m->t);
	t0 = devpm_now_us();
	if (devpm_dev_knob_write(&m->d, "pm_qos_resume_latency_us", "n/a") ||
	    devpm_qos_bench_kick(m))
		devpm_block_abort(b, "%s", devpm_error());
	expect_held(b, m, t0, "n/a (latency 0)");
}

TEST_F(qos_dev, resume_latency_na_blocks_suspend)
{
	struct devpm_subtest s;

	if (devpm_qos_bench_ready(&self->m))
		SKIP(return, "%s", self->m.why);
	devpm_subtest_begin(&s, "resume_latency_na_blocks_suspend");
	devpm_block_run(&s, self->m.d.name, na_blocks_one, &self->m);
	DEVPM_SUBTEST_END(&s);
}

static void zero_one(struct devpm_block *b, void *arg)
{
	struct devpm_qos_bench *m = arg;
	char v[32] = "";
	uint64_t t0;

	/* From n/a, so that "0" is a real write. */
	if (devpm_dev_knob_write(&m->d, "pm_qos_resume_latency_us", "n/a") ||
	    devpm_dev_knob_write(&m->d, "pm_qos_resume_latency_us", "0") ||
	    devpm_dev_attr_read(&m->d, "pm_qos_resume_latency_us", v, sizeof(v)))
		devpm_block_abort(b, "%s", devpm_error());
	devpm_note("%s: pm_qos_resume_latency_us reads '%s' after writing 0",
		   m->d.name, v);
	if (strcmp(v, "0"))
		devpm_block_abort(b,
				"pm_qos_resume_latency_us reads '%s' after writing 0",
				v);
	devpm_trace_clear(m->t);
	t0 = devpm_now_us();
	if (devpm_qos_bench_kick(m))
		devpm_block_abort(b, "%s", devpm_error());
	expect_suspends(b, m, t0, "0 (no constraint)");
}

TEST_F(qos_dev, resume_latency_zero_is_no_constraint)
{
	struct devpm_subtest s;

	if (devpm_qos_bench_ready(&self->m))
		SKIP(return, "%s", self->m.why);
	devpm_subtest_begin(&s, "resume_latency_zero_is_no_constraint");
	devpm_block_run(&s, self->m.d.name, zero_one, &self->m);
	DEVPM_SUBTEST_END(&s);
}

static void next_suspend_one(struct devpm_block *b, void *arg)
{
	struct devpm_qos_bench *m = arg;
	const struct devpm_event *ev;
	struct devpm_wait_result res;
	struct devpm_call c[16];
	size_t n, k, i;
	int r, resumes = 0;
	uint64_t t0;

	devpm_trace_clear(m->t);
	t0 = devpm_now_us();
	if (devpm_dev_knob_write(&m->d, "pm_qos_resume_latency_us", "n/a"))
		devpm_block_abort(b, "%s", devpm_error());
	/* A QoS write calls no pm_runtime_*: nothing may resume it. */
	r = devpm_wait_status(&m->d, m->t, "active", 2 * DEVPM_QOS_BENCH_AUTOSUSPEND_MS,
			      &res);
	ev = devpm_trace_read(m->t, 0, &n);
	k = devpm_rpm_calls(ev, n, m->d.name, t0, UINT64_MAX, c, 16);
	for (i = 0; i < k && i < 16; i++)
		resumes += c[i].type == DEVPM_EV_RPM_RESUME;
	devpm_note("%s: n/a written while suspended: %s %d ms later, %d rpm_resume calls traced",
		   m->d.name, res.status, 2 * DEVPM_QOS_BENCH_AUTOSUSPEND_MS, resumes);
	if (r != -ETIMEDOUT || resumes)
		devpm_block_abort(b,
				"writing n/a while suspended resumed it (status %s, %d rpm_resume calls)",
				res.status, resumes);
	devpm_trace_clear(m->t);
	t0 = devpm_now_us();
	if (devpm_qos_bench_kick(m))
		devpm_block_abort(b, "%s", devpm_error());
	expect_held(b, m, t0, "after the next resume");
}

TEST_F(qos_dev, resume_latency_applies_on_next_suspend)
{
	struct devpm_subtest s;

	if (devpm_qos_bench_ready(&self->m))
		SKIP(return, "%s", self->m.why);
	devpm_subtest_begin(&s, "resume_latency_applies_on_next_suspend");
	devpm_block_run(&s, self->m.d.name, next_suspend_one, &self->m);
	DEVPM_SUBTEST_END(&s);
}

static void kernel_request_one(struct devpm_block *b, void *arg)
{
	struct devpm_qos_bench *m = arg;
	char v[32] = "", q[32] = "";
	uint64_t t0;

	devpm_trace_clear(m->t);
	t0 = devpm_now_us();
	if (devpm_mock_qos_add(DEVPM_QOS_BENCH_ID, 0, 0) < 0 ||
	    devpm_dev_attr_read(&m->d, "pm_qos_resume_latency_us", v, sizeof(v)) ||
	    devpm_mock_get(DEVPM_QOS_BENCH_ID, "qos_value", q, sizeof(q)) < 0)
		devpm_block_abort(b, "%s", devpm_error());
	devpm_note("%s: kernel request 0: sysfs pm_qos_resume_latency_us '%s', dev_pm_qos_read_value %s",
		   m->d.name, v, q);
	if (strcmp(v, "0"))
		devpm_block_abort(b,
				"sysfs shows '%s' with only a kernel request: expected 0 (no user constraint)",
				v);
	if (devpm_qos_bench_kick(m) < 0)
		devpm_block_abort(b, "%s", devpm_error());
	expect_held(b, m, t0, "kernel request 0");
	devpm_trace_clear(m->t);
	t0 = devpm_now_us();
	if (devpm_mock_qos_remove(DEVPM_QOS_BENCH_ID, 0) < 0 || devpm_qos_bench_kick(m) < 0)
		devpm_block_abort(b, "%s", devpm_error());
	expect_suspends(b, m, t0, "kernel request removed");
}

TEST_F(qos_dev, kernel_request_blocks_suspend)
{
	struct devpm_subtest s;

	if (devpm_qos_bench_ready(&self->m))
		SKIP(return, "%s", self->m.why);
	devpm_subtest_begin(&s, "kernel_request_blocks_suspend");
	devpm_block_run(&s, self->m.d.name, kernel_request_one, &self->m);
	DEVPM_SUBTEST_END(&s);
}

/* One step of qos_aggregates_minimum and the aggregate it must give. */
enum agg_op { KADD, KREMOVE, USER };
struct agg_step {
	enum agg_op op;
	int handle;
	int value;		/* µs; USER 0 = no constraint */
	int expect;
};

static const struct agg_step agg_steps[] = {
	{ KADD, 0, 100, 100 },
	{ KADD, 1, 300, 100 },
	{ USER, 0, 200, 100 },
	{ KREMOVE, 0, 0, 200 },
	{ USER, 0, 0, 300 },
	{ KREMOVE, 1, 0, DEVPM_QOS_NO_CONSTRAINT },
};

static int agg_do(const struct agg_step *st, const struct devpm_dev *d)
{
	char v[16];

	switch (st->op) {
	case KADD:
		return devpm_mock_qos_add(DEVPM_QOS_BENCH_ID, st->handle, st->value);
	case KREMOVE:
		return devpm_mock_qos_remove(DEVPM_QOS_BENCH_ID, st->handle);
	default:
		snprintf(v, sizeof(v), "%d", st->value);
		return devpm_dev_knob_write(d, "pm_qos_resume_latency_us", v);
	}
}

static const char *agg_name(const struct agg_step *st, char *buf, size_t len)
{
	static const char *const ops[] = { "kernel add", "kernel remove",
					   "user" };

	snprintf(buf, len, "%s h%d %d", ops[st->op], st->handle, st->value);
	return buf;
}

/* One step on m's device; the block ends failed when it is wrong. */
static void agg_step_judge(struct devpm_block *b, struct devpm_qos_bench *m,
			   const struct agg_step *st)
{
	struct devpm_qos_update u[16];
	const struct devpm_event *ev;
	char msg[256], name[48], q[32];
	uint64_t t0 = devpm_now_us(), end = t0 + 1000000;
	size_t n, k;
	int r;

	agg_name(st, name, sizeof(name));
	if (agg_do(st, &m->d) < 0)
		devpm_block_abort(b, "%s: %s", name, devpm_error());
	/* The events are in the buffer when the write returns. */
	do {
		ev = devpm_trace_read(m->t, 10, &n);
		k = devpm_qos_updates(ev, n, m->d.name,
				      "DEV_PM_QOS_RESUME_LATENCY", t0, u, 16);
	} while ((!k || !u[k - 1].changed) && devpm_now_us() < end);
	r = devpm_qos_check_aggregate(u, k < 16 ? k : 16, st->expect, msg,
				      sizeof(msg));
	if (devpm_mock_get(DEVPM_QOS_BENCH_ID, "qos_value", q, sizeof(q)) < 0)
		snprintf(q, sizeof(q), "?");
	devpm_note("%s: %s: %s; dev_pm_qos_read_value %s", m->d.name, name,
		   msg, q);
	if (r > 0 && atoi(q) != st->expect)
		devpm_block_abort(b,
				"%s: traced aggregate %d but dev_pm_qos_read_value() says %s",
				name, st->expect, q);
	if (r <= 0 && strstr(msg, name))
		devpm_block_abort(b, "%s", msg);
	if (r <= 0)
		devpm_block_abort(b, "%s: %s", name, msg);
}

static void aggregates_one(struct devpm_block *b, void *arg)
{
	size_t i;

	for (i = 0; i < sizeof(agg_steps) / sizeof(agg_steps[0]); i++)
		agg_step_judge(b, arg, &agg_steps[i]);
}

TEST_F(qos_dev, qos_aggregates_minimum)
{
	struct devpm_subtest s;

	if (devpm_qos_bench_ready(&self->m))
		SKIP(return, "%s", self->m.why);
	devpm_subtest_begin(&s, "qos_aggregates_minimum");
	devpm_block_run(&s, self->m.d.name, aggregates_one, &self->m);
	DEVPM_SUBTEST_END(&s);
}

struct port_ctx {
	struct devpm_dev d;
	struct devpm_trace *t;
};

/* usb_port_runtime_suspend() returns -EAGAIN while the flag is set. */
static void port_one(struct devpm_block *b, void *arg)
{
	struct port_ctx *c = arg;
	struct devpm_wait_result res;
	const struct devpm_event *ev;
	size_t n;
	uint64_t at, t0;
	int r;

	devpm_trace_add_dev(c->t, c->d.name);
	t0 = devpm_now_us();
	if (devpm_dev_knob_write(&c->d, "pm_qos_no_power_off", "1") ||
	    devpm_dev_knob_write(&c->d, "control", "auto"))
		devpm_block_abort(b, "%s", devpm_error());
	r = devpm_wait_status(&c->d, c->t, "suspended", 500, &res);
	ev = devpm_trace_read(c->t, 0, &n);
	at = devpm_rpm_suspended_at(ev, n, c->d.name, t0, UINT64_MAX, NULL);
	devpm_note("%s: pm_qos_no_power_off=1, control=auto: %s after 500 ms",
		   c->d.name, res.status);
	if (!r || at)
		devpm_block_abort(b,
				"port powered off (runtime-suspended) with pm_qos_no_power_off=1");
}

/* USB hub ports: the exposed flag keeps a switchable port powered. */
static void hub_ports(struct devpm_subtest *s, struct devpm_trace *t)
{
	/* Every port has runtime-PM callbacks (usb_port_runtime_*). */
	static const char *const files[] = { "control", NULL };
	struct devpm_qos_path *paths;
	int i, np, nports = 0, ports = 0;

	np = devpm_qos_devices(files, &paths);
	for (i = 0; i < np; i++) {
		struct port_ctx c = { .t = t };
		char k[DEVPM_PATH_MAX + 32];

		if (!strstr(strrchr(paths[i].path, '/'), "-port"))
			continue;
		nports++;
		snprintf(k, sizeof(k), "%s/power/pm_qos_no_power_off",
			 paths[i].path);
		if (!devpm_exists(k) || devpm_dev_open(&c.d, paths[i].path) < 0)
			continue;
		ports++;
		devpm_block_run(s, c.d.name, port_one, &c);
	}
	if (np > 0)
		free(paths);
	if (!ports)
		devpm_subtest_skip(s, "usb-hub-ports",
			       "%d USB hub ports, none power-switchable (no pm_qos_no_power_off: usb_hub_create_port_device() exposes it only when hub_is_port_power_switchable())",
			       nports);
}

static void no_power_off_one(struct devpm_block *b, void *arg)
{
	struct devpm_qos_bench *m = arg;
	struct devpm_qos_update u[8];
	const struct devpm_event *ev;
	char f1[16] = "", f0[16] = "";
	size_t n, k;
	uint64_t t0, us = 0;
	int resumed;

	devpm_trace_clear(m->t);
	t0 = devpm_now_us();
	if (devpm_dev_knob_write(&m->d, "pm_qos_no_power_off", "1") ||
	    devpm_mock_get(DEVPM_QOS_BENCH_ID, "qos_flags", f1, sizeof(f1)) < 0 ||
	    devpm_dev_knob_write(&m->d, "pm_qos_no_power_off", "0") ||
	    devpm_mock_get(DEVPM_QOS_BENCH_ID, "qos_flags", f0, sizeof(f0)) < 0)
		devpm_block_abort(b, "%s", devpm_error());
	devpm_trace_poll(m->t, 10);
	ev = devpm_trace_read(m->t, 0, &n);
	/* dev_pm_qos_update_flags(): pm_runtime_get_sync() first. */
	resumed = devpm_rpm_resumes(ev, n, m->d.name, t0, UINT64_MAX, NULL, 0);
	devpm_qos_resume_us(ev, n, m->d.name, t0, UINT64_MAX, &us);
	k = devpm_qos_updates(ev, n, m->d.name, "DEV_PM_QOS_FLAGS", t0, u, 8);
	devpm_note("%s: pm_qos_no_power_off 1 then 0: %d resumes traced (%llu us), %zu flag requests traced, dev_pm_qos_flags(NO_POWER_OFF) '%s' then '%s'",
		   m->d.name, resumed, (unsigned long long)us, k, f1, f0);
	if (resumed < 1)
		devpm_block_abort(b,
				"writing pm_qos_no_power_off=1 to a suspended device traced no completed rpm_resume");
	if (k < 2 || u[0].value != 1 || u[1].value != 0)
		devpm_block_abort(b,
				"flag requests traced: %zu (first %d), expected 1 then 0",
				k, k ? u[0].value : -1);
	if (strcmp(f1, "all") || strcmp(f0, "none"))
		devpm_block_abort(b,
				"dev_pm_qos_flags() gave '%s' with the flag set and '%s' cleared (expected all, none)",
				f1, f0);
}

TEST_F(qos_dev, no_power_off_flag)
{
	struct devpm_qos_bench *m = &self->m;
	struct devpm_subtest s;

	if (devpm_qos_bench_ready(m))
		SKIP(return, "%s", m->why);
	devpm_subtest_begin(&s, "no_power_off_flag");
	devpm_block_run(&s, m->d.name, no_power_off_one, m);
	hub_ports(&s, m->t);
	DEVPM_SUBTEST_END(&s);
}

/* The message without its "<dev>: " (the line names the device). */
static const char *qos_undev(const char *msg, const char *dev)
{
	size_t n = strlen(dev);

	return !strncmp(msg, dev, n) && !strncmp(msg + n, ": ", 2) ?
	       msg + n + 2 : msg;
}

/* Resume-latency limits against the mock's two state costs. */
#define SHALLOW_US	50
#define DEEP_US		20000

static const long limits_us[] = { 10000, 50000 };

/* msg, without the device's name, ends b failed. */
static void limit_abort(struct devpm_block *b,
			const struct devpm_qos_bench *m, const char *msg)
{
	devpm_block_abort(b, "%s", qos_undev(msg, m->d.name));
}

/* One limit: suspend under it, resume, judge; else b ends failed. */
static void limit_once(struct devpm_block *b, struct devpm_qos_bench *m,
		       long limit)
{
	struct devpm_wait_result res;
	const struct devpm_event *ev;
	char msg[384], v[16], key[48], state[16] = "";
	uint64_t t0, us = 0;
	size_t n;
	int r;

	snprintf(v, sizeof(v), "%ld", limit);
	/* Active, the limit, then idle: it suspends under the limit. */
	if (devpm_dev_knob_write(&m->d, "control", "on") ||
	    devpm_dev_knob_write(&m->d, "pm_qos_resume_latency_us", v) ||
	    devpm_dev_knob_write(&m->d, "control", "auto"))
		limit_abort(b, m, devpm_error());
	if (devpm_wait_status_why(&m->d, m->t, "suspended",
				  DEVPM_QOS_BENCH_SUSPEND_MS, &res)) {
		snprintf(msg, sizeof(msg), "limit %ld us: not suspended: %s",
			 limit, res.why);
		limit_abort(b, m, msg);
	}
	devpm_mock_get(DEVPM_QOS_BENCH_ID, "last_state", state, sizeof(state));
	devpm_trace_clear(m->t);
	t0 = devpm_now_us();
	if (devpm_dev_knob_write(&m->d, "control", "on"))
		limit_abort(b, m, devpm_error());
	devpm_trace_poll(m->t, 10);
	ev = devpm_trace_read(m->t, 0, &n);
	r = devpm_qos_resume_us(ev, n, m->d.name, t0, UINT64_MAX, &us);
	r = devpm_qos_limit_verdict(m->d.name, limit, us, !r, state, msg,
				    sizeof(msg));
	devpm_note("%s", msg);
	snprintf(key, sizeof(key), "resume_us_at_%ld", limit);
	if (r >= 0)
		devpm_metric(m->d.name, key, (double)us);
	if (r <= 0)
		limit_abort(b, m, msg);
	/* The state's declared cost must fit too. */
	if ((!strcmp(state, "deep") && DEEP_US > limit) ||
	    (!strcmp(state, "shallow") && SHALLOW_US > limit)) {
		snprintf(msg, sizeof(msg),
			 "%s: entered %s (resume cost %d us) under a %ld us limit",
			 m->d.name, state,
			 !strcmp(state, "deep") ? DEEP_US : SHALLOW_US, limit);
		limit_abort(b, m, msg);
	}
}

static void limit_one(struct devpm_block *b, void *arg)
{
	struct devpm_qos_bench *m = arg;
	const char *bug = getenv("DEVPM_QOS_BUG");
	char states[32];
	size_t i;

	snprintf(states, sizeof(states), "%d %d", SHALLOW_US, DEEP_US);
	if (devpm_mock_set(DEVPM_QOS_BENCH_ID, "states", states) < 0)
		devpm_block_abort(b, "states: %s", devpm_error());
	/* The negative control, by hand: DEVPM_QOS_BUG=qos_ignore. */
	if (bug && bug[0]) {
		devpm_note("planted bug '%s' (DEVPM_QOS_BUG): this case must FAIL",
			   bug);
		if (devpm_mock_bug(DEVPM_QOS_BENCH_ID, bug) < 0)
			devpm_block_abort(b, "bug %s: %s", bug, devpm_error());
	}
	devpm_note("%s: states shallow %d us, deep %d us", m->d.name,
		   SHALLOW_US, DEEP_US);
	for (i = 0; i < sizeof(limits_us) / sizeof(limits_us[0]); i++)
		limit_once(b, m, limits_us[i]);
}

TEST_F(qos_dev, resume_latency_limit_honoured)
{
	struct devpm_subtest s;

	if (devpm_qos_bench_ready(&self->m))
		SKIP(return, "%s", self->m.why);
	devpm_subtest_begin(&s, "resume_latency_limit_honoured");
	devpm_block_run(&s, self->m.d.name, limit_one, &self->m);
	DEVPM_SUBTEST_END(&s);
}

QOS_TEST_MAIN(info, shared_setup, shared_cleanup)
