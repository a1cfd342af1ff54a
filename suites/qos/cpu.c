// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpu.c - PM QoS for CPUs: a latency limit keeps cpuidle out of every
 * state whose exit latency exceeds it, through /dev/cpu_dma_latency (all
 * CPUs) and through one CPU's power/pm_qos_resume_latency_us (that CPU).
 *
 * drivers/cpuidle/governor.c: cpuidle_governor_latency_req() is the
 * minimum of the CPU device's resume latency and cpu_latency_qos_limit();
 * the menu governor (governors/menu.c: menu_select()) returns state 0 when
 * the limit is below state 1's exit latency and skips every state whose
 * exit latency exceeds it.  A state's usage counter (cpuidle/stateN/usage)
 * is the kernel's record of each entry.  Without a cpuidle driver the
 * mock one (devpm_mock cpuidle=1: 2, 50 and 500 µs) is registered.
 *
 * Windows are short: each waits, with back-off, until some state within
 * the limit has been entered MIN_ENTRIES times (the CPU was idle), not for
 * a fixed time.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "harness/test.h"
#include "mock/mock.h"
#include "qos/qos.h"
#include "qos_suite.h"

static const struct devpm_test_info info = {
	.suite = "qos",
	.timeout_s = 60,
	.needs = {
		.root = true,
		.kconfigs = (const char *const[]){ "CONFIG_CPU_IDLE", NULL },
	},
};

#define MIN_ENTRIES	20	/* idle entries that make a window */
#define WINDOW_MS	1000	/* bound on a window */
#define CPUIDLE_DIR	"/sys/devices/system/cpu/cpuidle"

FIXTURE(qos_cpu) {
	off_t mark;
	struct devpm_cpuidle base;
	struct devpm_trace *t;
	char why[256];
	bool ok;
};

/* A cpuidle driver (the mock's if none) under the menu governor. */
static int cpuidle_setup(char *why, size_t len)
{
	char drv[64], gov[64], avail[256] = "", reg[8] = "";
	int r;

	devpm_cpuidle_driver(drv, sizeof(drv), gov, sizeof(gov));
	if (!drv[0] || !strcmp(drv, "none")) {
		r = devpm_mock_load(true, why, len);
		if (r)
			return r < 0 ? (snprintf(why, len, "devpm_mock: %s",
						 devpm_error()), 1) : 1;
		devpm_read_str("/sys/module/devpm_mock/parameters/cpuidle_registered",
			       reg, sizeof(reg));
		devpm_cpuidle_driver(drv, sizeof(drv), gov, sizeof(gov));
		if (strcmp(reg, "1") || !drv[0] || !strcmp(drv, "none")) {
			snprintf(why, len,
				 "no cpuidle driver, and devpm_mock cpuidle=1 registered none (cpuidle_registered '%s')",
				 reg);
			return 1;
		}
	}
	if (strcmp(gov, "menu")) {
		devpm_read_str(CPUIDLE_DIR "/available_governors", avail,
			       sizeof(avail));
		if (!strstr(avail, "menu") ||
		    devpm_knob_write(CPUIDLE_DIR "/current_governor",
				     "menu") < 0) {
			snprintf(why, len,
				 "governor %s; menu not available (%s)", gov,
				 avail);
			return 1;
		}
	}
	devpm_note("cpuidle driver %s, governor menu", drv);
	return 0;
}

/* Made once in the parent (QOS_TEST_MAIN), shared by every case. */
static struct {
	bool ok;
	char why[256];
	struct devpm_cpuidle base;
	struct devpm_trace *t;
} shared;

static void shared_setup(void)
{
	static const char *const devs[] = { "-", NULL };

	if (cpuidle_setup(shared.why, sizeof(shared.why)))
		return;
	if (devpm_cpuidle_read(&shared.base) < 0) {
		snprintf(shared.why, sizeof(shared.why), "%s", devpm_error());
		return;
	}
	if (shared.base.nstates < 2) {
		snprintf(shared.why, sizeof(shared.why),
			 "%d cpuidle state: no state to keep out",
			 shared.base.nstates);
		return;
	}
	shared.t = devpm_trace_start(devs);
	if (shared.t && devpm_qos_trace_events(shared.t) < 0) {
		devpm_trace_stop(shared.t);
		shared.t = NULL;
	}
	shared.ok = true;
}

static void shared_cleanup(void)
{
	devpm_trace_stop(shared.t);
}

FIXTURE_SETUP(qos_cpu)
{
	self->mark = devpm_case_setup();
	self->ok = shared.ok;
	snprintf(self->why, sizeof(self->why), "%s", shared.why);
	self->base = shared.base;
	self->t = shared.t;
	if (self->t) {
		devpm_trace_poll(self->t, 0);
		devpm_trace_clear(self->t);
	}
}

FIXTURE_TEARDOWN(qos_cpu)
{
	devpm_case_teardown(self->mark);
}

struct window {
	struct devpm_cpuidle b, a;
	uint64_t mask;
	long limit;
	bool above;	/* wait for states above the limit instead */
};

static unsigned long long grown(const struct window *w, bool above)
{
	unsigned long long all = 0;
	int i, s;

	for (i = 0; i < w->a.ncpus; i++) {
		if (i >= 64 || !((w->mask >> i) & 1))
			continue;
		for (s = 0; s < w->a.nstates; s++)
			all += w->a.usage[i][s] - w->b.usage[i][s];
	}
	return above ? devpm_cpuidle_growth_above(&w->b, &w->a, w->mask,
						   w->limit) :
		       all - devpm_cpuidle_growth_above(&w->b, &w->a, w->mask,
							w->limit);
}

static bool window_done(void *arg)
{
	struct window *w = arg;

	if (devpm_cpuidle_read(&w->a) < 0)
		return true;
	if (w->above)
		return grown(w, true) > 0;
	return grown(w, false) >= MIN_ENTRIES;
}

/*
 * The idle periods a window is made of: twice the deepest state's target
 * residency, 2-16 ms.  Each sleep of the test is one, long enough for
 * every state, so a state above the limit is left out by the limit, not
 * for want of time; a poll's back-off (up to 16 ms each, and each poll
 * a dozen sysfs reads) made a window of 20 take 0.2-0.3 s.
 */
static int idle_step_ms(const struct devpm_cpuidle *c)
{
	long us = 0;
	int s, ms;

	for (s = 0; s < c->nstates; s++)
		if (c->residency_us[s] > us)
			us = c->residency_us[s];
	ms = (int)((2 * us + 999) / 1000);
	return ms < 2 ? 2 : ms > 16 ? 16 : ms;
}

/* Snapshot, idle until the window is made (or its bound), snapshot. */
static void window_run(struct window *w)
{
	uint64_t t0 = devpm_now_us(), end = t0 + WINDOW_MS * 1000ULL;
	struct timespec step;
	int ms;

	devpm_cpuidle_read(&w->b);
	w->a = w->b;
	ms = idle_step_ms(&w->b);
	step = (struct timespec){ ms / 1000, (ms % 1000) * 1000000L };
	while (!window_done(w) && devpm_now_us() < end)
		nanosleep(&step, NULL);
	devpm_note("window %llu ms (limit %ld us, idle %d ms a step)",
		   (unsigned long long)(devpm_now_us() - t0) / 1000,
		   w->limit, ms);
}

/* Limits between states: below state 1, and below the deepest. */
static long limit_below(const struct devpm_cpuidle *c, int state)
{
	return (c->latency_us[state - 1] + c->latency_us[state]) / 2;
}

/* The value the kernel traced for our last CPU latency request. */
static int traced_cpu_value(struct devpm_trace *t, uint64_t from, int *v)
{
	struct devpm_qos_update u[16];
	const struct devpm_event *ev;
	size_t n, k;

	ev = devpm_trace_read(t, 10, &n);
	k = devpm_qos_updates(ev, n, NULL, "CPU", from, u, 16);
	if (!k)
		return -ENOENT;
	*v = u[(k < 16 ? k : 16) - 1].value;
	return 0;
}

/*
 * Hold limit through fd in one write form, judge every CPU; fail[i] gets
 * the first broken verdict of CPU i.  0, or -1 when nothing could be
 * judged (msg says why).
 */
static int hold_and_judge(struct devpm_trace *t, int fd, bool binary,
			  long limit, char (*fail)[256], char *msg,
			  size_t len)
{
	struct window w = { .limit = limit, .mask = ~0ULL };
	char text[32], m[256], d[512];
	int32_t agg = 0;
	uint64_t t0 = devpm_now_us();
	int i, r, traced = -1;

	if (binary) {
		r = devpm_cpu_latency_write_s32(fd, (int32_t)limit);
		snprintf(text, sizeof(text), "s32 %ld", limit);
	} else {
		r = devpm_cpu_latency_hex((int32_t)limit, text, sizeof(text));
		if (!r)
			r = devpm_cpu_latency_write_str(fd, text);
		text[strcspn(text, "\n")] = '\0';
	}
	if (r < 0 || devpm_cpu_latency_read(fd, &agg) < 0) {
		snprintf(msg, len, "%s", devpm_error());
		return -1;
	}
	if (t && traced_cpu_value(t, t0, &traced) == 0 && traced != limit) {
		snprintf(msg, len,
			 "wrote '%s': the kernel traced request value %d, not %ld",
			 text, traced, limit);
		return -1;
	}
	if (agg > limit) {
		snprintf(msg, len, "wrote '%s': aggregate %d above it", text,
			 agg);
		return -1;
	}
	window_run(&w);
	for (i = 0; i < w.a.ncpus; i++) {
		r = devpm_cpuidle_limit_verdict(&w.b, &w.a, 1ULL << i, limit,
						m, sizeof(m), d, sizeof(d));
		devpm_note("cpu_dma_latency '%s' (traced %d, aggregate %d): %s",
			   text, traced, agg, d);
		if (r == 0 && !fail[i][0])
			snprintf(fail[i], 256, "'%s' held: %s", text, m);
		if (r < 0 && !fail[i][0])
			devpm_note("cpu%d: %s", w.a.cpu[i], m);
	}
	return 0;
}

/* One CPU's verdict on the held limits and the fd's close. */
struct held_cpu {
	const char *fail;	/* the first broken verdict, or "" */
	unsigned long long back;	/* deep entries after the close */
	long l1;
};

static void held_cpu_one(struct devpm_block *b, void *arg)
{
	const struct held_cpu *c = arg;

	if (c->fail[0])
		devpm_block_abort(b, "%s", c->fail);
	if (!c->back)
		devpm_block_abort(b,
				"no state above %ld us entered within %d ms of closing the fd",
				c->l1, WINDOW_MS);
}

TEST_F(qos_cpu, cpu_dma_latency_limits_idle)
{
	char fail[DEVPM_CPUIDLE_MAX_CPUS][256], msg[256];
	struct window w;
	struct devpm_subtest s;
	long l1, l2;
	int i, fd;
	unsigned long long back;

	if (!self->ok)
		SKIP(return, "%s", self->why);
	memset(fail, 0, sizeof(fail));
	devpm_subtest_begin(&s, "cpu_dma_latency_limits_idle");
	l1 = limit_below(&self->base, 1);
	l2 = limit_below(&self->base, self->base.nstates - 1);
	fd = devpm_cpu_latency_open();
	if (fd < 0) {
		devpm_subtest_skip(&s, "cpu_dma_latency", "%s", devpm_error());
		DEVPM_SUBTEST_END(&s);
		return;
	}
	/* Both write forms: a 4-byte s32, then hex text of another length. */
	if (hold_and_judge(self->t, fd, true, l1, fail, msg, sizeof(msg)) ||
	    hold_and_judge(self->t, fd, false, l2, fail, msg, sizeof(msg))) {
		close(fd);
		devpm_subtest_fail(&s, "cpu_dma_latency", "%s", msg);
		DEVPM_SUBTEST_END(&s);
		return;
	}
	close(fd);	/* the request goes with the fd */
	w = (struct window){ .limit = l1, .mask = ~0ULL, .above = true };
	window_run(&w);
	back = devpm_cpuidle_growth_above(&w.b, &w.a, ~0ULL, l1);
	devpm_note("after close: states above %ld us entered %llu times",
		   l1, back);
	for (i = 0; i < w.a.ncpus; i++) {
		struct held_cpu c = { .fail = fail[i], .back = back,
				      .l1 = l1 };
		char name[16];

		snprintf(name, sizeof(name), "cpu%d", w.a.cpu[i]);
		devpm_block_run(&s, name, held_cpu_one, &c);
	}
	devpm_metric("-", "deep_entries_after_close", (double)back);
	DEVPM_SUBTEST_END(&s);
}

/* One CPU's resume-latency limit, and the case around it. */
struct resume_ctx {
	struct devpm_trace *t;
	char name[16];		/* the limited CPU */
	char k[DEVPM_PATH_MAX];	/* its pm_qos_resume_latency_us */
	char v[16];
	long limit;
	int cpu0;
	bool stop;		/* no limit to judge the other CPUs under */
	unsigned long long g;	/* another CPU's deep entries */
};

/* The limit keeps the CPU out of deeper states; its removal lets them back. */
static void limited_cpu_one(struct devpm_block *b, void *arg)
{
	struct resume_ctx *c = arg;
	struct devpm_qos_update u[8];
	const struct devpm_event *ev;
	struct window w;
	char m[256], d[512];
	uint64_t t0;
	size_t n, nu;
	int r;

	c->stop = true;
	t0 = devpm_now_us();
	if (devpm_knob_write(c->k, c->v) < 0)
		devpm_block_abort(b, "%s", devpm_error());
	if (c->t) {
		ev = devpm_trace_read(c->t, 10, &n);
		nu = devpm_qos_updates(ev, n, c->name,
				       "DEV_PM_QOS_RESUME_LATENCY", t0, u, 8);
		r = devpm_qos_check_aggregate(u, nu < 8 ? nu : 8, c->limit, m,
					      sizeof(m));
		devpm_note("%s: %s", c->name, m);
		if (r <= 0)
			devpm_block_abort(b, "%s", m);
	}
	c->stop = false;
	w = (struct window){ .limit = c->limit, .mask = 1 };
	window_run(&w);
	r = devpm_cpuidle_limit_verdict(&w.b, &w.a, 1, c->limit, m, sizeof(m),
					d, sizeof(d));
	devpm_note("%s pm_qos_resume_latency_us %ld: %s", c->name, c->limit,
		   d);
	if (r <= 0)
		devpm_block_abort(b, "%s", m);
	/* Back to no constraint: the deeper states return. */
	devpm_knob_write(c->k, "0");
	w = (struct window){ .limit = c->limit, .mask = 1, .above = true };
	window_run(&w);
	devpm_note("%s: limit removed: states above %ld us entered %llu times",
		   c->name, c->limit,
		   devpm_cpuidle_growth_above(&w.b, &w.a, 1, c->limit));
	if (!devpm_cpuidle_growth_above(&w.b, &w.a, 1, c->limit))
		devpm_block_abort(b,
				"no state above %ld us entered within %d ms of removing the limit",
				c->limit, WINDOW_MS);
}

/* A busy CPU may not idle deeply: only all-none is wrong. */
static void other_cpu_one(struct devpm_block *b, void *arg)
{
	const struct resume_ctx *c = arg;

	if (!c->g)
		devpm_block_skip(b,
			       "entered no state above %ld us in the window (busy?)",
			       c->limit);
}

TEST_F(qos_cpu, cpu_resume_latency_limits_idle)
{
	struct resume_ctx c = { .t = self->t };
	struct window w;
	struct devpm_subtest s;
	char name[16];
	int i;

	if (!self->ok)
		SKIP(return, "%s", self->why);
	devpm_subtest_begin(&s, "cpu_resume_latency_limits_idle");
	c.limit = limit_below(&self->base, 1);
	c.cpu0 = self->base.cpu[0];
	snprintf(c.name, sizeof(c.name), "cpu%d", c.cpu0);
	snprintf(c.k, sizeof(c.k),
		 "/sys/devices/system/cpu/%s/power/pm_qos_resume_latency_us",
		 c.name);
	snprintf(c.v, sizeof(c.v), "%ld", c.limit);
	devpm_block_run(&s, c.name, limited_cpu_one, &c);
	if (c.stop) {
		DEVPM_SUBTEST_END(&s);
		return;
	}
	/* The other CPUs keep their deeper states under cpu0's limit. */
	if (self->base.ncpus < 2) {
		devpm_subtest_skip(&s, "other-cpus",
			       "one CPU with cpuidle states: no other CPU to show unaffected");
		DEVPM_SUBTEST_END(&s);
		return;
	}
	if (devpm_knob_write(c.k, c.v) < 0) {
		devpm_subtest_fail(&s, c.name, "%s", devpm_error());
		DEVPM_SUBTEST_END(&s);
		return;
	}
	w = (struct window){ .limit = c.limit, .mask = ~1ULL, .above = true };
	window_run(&w);
	for (i = 1; i < w.a.ncpus; i++) {
		c.g = devpm_cpuidle_growth_above(&w.b, &w.a, 1ULL << i,
						 c.limit);
		snprintf(name, sizeof(name), "cpu%d", w.a.cpu[i]);
		devpm_note("%s under cpu%d's limit: states above %ld us +%llu",
			   name, c.cpu0, c.limit, c.g);
		devpm_block_run(&s, name, other_cpu_one, &c);
	}
	DEVPM_SUBTEST_END(&s);
}

QOS_TEST_MAIN(info, shared_setup, shared_cleanup)
