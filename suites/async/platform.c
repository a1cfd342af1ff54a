// SPDX-License-Identifier: GPL-2.0-only
/*
 * platform.c - system sleep of the machine's own devices: a real s2idle
 * cycle timed per device and checked against the kernel's own
 * pm_print_times figures, and every pm_test level entered and left.
 *
 * Timing comes from the power:device_pm_callback_start/end and
 * power:suspend_resume trace events (lib/sleep_trace.h); the kernel's
 * view from the "calling ... / returned ... after N usecs" lines that
 * /sys/power/pm_print_times=1 makes initcall_debug_start() and
 * initcall_debug_report() (drivers/base/power/main.c) log.
 */
#include "test.h"
#include "async_suite.h"

#define SLOWEST		5

static const struct devpm_test_info info = {
	.suite = "async",
	.timeout_s = 90,
	.needs = {
		.root = true,
		.sleep = true,
		.tracefs = true,
		.kconfigs = (const char *const[]){ "CONFIG_PM_SLEEP", NULL },
		.files = (const char *const[]){ "/sys/power/state", NULL },
	},
};

FIXTURE(plat) {
	off_t mark;
	struct devpm_trace *t;
	struct devpm_kmsg *k;
	struct devpm_sleep_cycle c;
	struct devpm_pm_prints pr;
	char why[512];
};

FIXTURE_SETUP(plat)
{
	self->mark = devpm_case_setup();
	self->k = NULL;
	memset(&self->c, 0, sizeof(self->c));
	memset(&self->pr, 0, sizeof(self->pr));
	self->t = devpm_sleep_trace_start(NULL);
	if (!self->t)
		snprintf(self->why, sizeof(self->why), "%s", devpm_error());
}

FIXTURE_TEARDOWN(plat)
{
	devpm_sleep_cycle_free(&self->c);
	devpm_pm_prints_free(&self->pr);
	devpm_kmsg_close(self->k);
	devpm_trace_stop(self->t);
	devpm_case_teardown(self->mark);
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

/*
 * Every traced callback of dev outside prepare/complete against the
 * kernel's record: 0 all agree, 1 not (why says the first that does
 * not).  kern gets "phase=us ..." of the kernel's figures.
 */
static int agree(const struct devpm_sleep_cycle *c,
		 const struct devpm_pm_prints *pr, const char *dev,
		 char *kern, size_t klen, char *why, size_t len)
{
	size_t i, used = 0;
	int bad = 0;
	char w[256];

	kern[0] = '\0';
	for (i = 0; i < c->ncb; i++) {
		const struct devpm_pm_cb *cb = &c->cb[i];
		const struct devpm_pm_print *k;
		const char *ph = devpm_pm_phase_name(cb->phase);

		if (strcmp(cb->dev, dev) || cb->phase == DEVPM_PH_PREPARE ||
		    cb->phase == DEVPM_PH_COMPLETE)
			continue;
		k = devpm_pm_print_for(pr, c, cb);
		if (!k) {
			if (!bad++)
				snprintf(why, len, "%s: no pm_print_times record of the kernel for it",
					 ph);
			continue;
		}
		if (used < klen)
			used += snprintf(kern + used, klen - used, "%s%s=%llu",
					 used ? " " : "", ph,
					 (unsigned long long)k->usecs);
		if (devpm_pm_print_agree(devpm_pm_cb_dur(cb), k->usecs, w,
					 sizeof(w))) {
			if (!bad++)
				snprintf(why, len, "%s %s: %s", ph, k->func, w);
		} else if (k->pid && k->pid != cb->pid) {
			if (!bad++)
				snprintf(why, len, "%s: the kernel ran it in pid %d, the trace says lane %d",
					 ph, k->pid, cb->pid);
		} else if (k->err != cb->err) {
			if (!bad++)
				snprintf(why, len, "%s: the kernel says it returned %d, the trace %d",
					 ph, k->err, cb->err);
		}
	}
	return bad ? 1 : 0;
}

TEST_F(plat, real_device_timing)
{
	struct devpm_suspend_stats before, after;
	struct devtime *d;
	struct devpm_sub sub;
	char list[512], kern[512], why[512];
	uint64_t wall;
	size_t i, n;
	int ret, r;

	if (!self->t)
		SKIP(return, "needs the power trace events: %s", self->why);
	if (!devpm_power_has("/sys/power/state", "freeze"))
		SKIP(return, "no s2idle: /sys/power/state has no 'freeze'");
	if (host_wake_setup(why, sizeof(why)))
		SKIP(return, "%s", why);
	/* A real sleep: no pm_test level. */
	if (devpm_exists("/sys/power/pm_test"))
		ASSERT_EQ(0, devpm_pm_test_set("none"))
			TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_knob_write("/sys/power/pm_print_times", "1"))
		TH_LOG("%s", devpm_error());
	self->k = devpm_kmsg_open();
	ASSERT_NE(NULL, self->k) TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_suspend_stats_read(&before))
		TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, host_wake_arm("freeze", why, sizeof(why)))
		TH_LOG("%s", why);
	r = devpm_sleep_traced(self->t, "freeze", &ret, &wall, &self->c);
	ASSERT_EQ(0, ret) TH_LOG("s2idle: %s", strerror(-ret));
	ASSERT_EQ(0, r) TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_suspend_stats_read(&after));
	ASSERT_EQ(before.success + 1, after.success)
		TH_LOG("suspend_stats/success %ld -> %ld: no sleep counted",
		       before.success, after.success);
	ASSERT_LE(0, devpm_kmsg_drain(self->k, devpm_pm_prints_line,
				      &self->pr));
	devpm_sleep_timeline_print(&self->c, "real_device_timing.1");

	d = calloc(self->c.ncb, sizeof(*d));
	ASSERT_NE(NULL, d);
	n = collect(&self->c, d, self->c.ncb);
	devpm_note("cycle %llu ms: suspend %llu us (prepare %llu, suspend %llu, late %llu, noirq %llu), resume %llu us (noirq %llu, early %llu, resume %llu, complete %llu); %zu callbacks, %zu kernel records",
		   (unsigned long long)wall / 1000,
		   (unsigned long long)side_us(&self->c, true),
		   (unsigned long long)phase_us(&self->c, DEVPM_PH_PREPARE),
		   (unsigned long long)phase_us(&self->c, DEVPM_PH_SUSPEND),
		   (unsigned long long)phase_us(&self->c, DEVPM_PH_SUSPEND_LATE),
		   (unsigned long long)phase_us(&self->c, DEVPM_PH_SUSPEND_NOIRQ),
		   (unsigned long long)side_us(&self->c, false),
		   (unsigned long long)phase_us(&self->c, DEVPM_PH_RESUME_NOIRQ),
		   (unsigned long long)phase_us(&self->c, DEVPM_PH_RESUME_EARLY),
		   (unsigned long long)phase_us(&self->c, DEVPM_PH_RESUME),
		   (unsigned long long)phase_us(&self->c, DEVPM_PH_COMPLETE),
		   self->c.ncb, self->pr.n);
	devpm_metric("-", "suspend_us", side_us(&self->c, true));
	devpm_metric("-", "resume_us", side_us(&self->c, false));
	for (i = 0; i < DEVPM_PH_NR; i++) {
		char key[48];

		snprintf(key, sizeof(key), "%s_us", devpm_pm_phase_name(i));
		devpm_metric("-", key, phase_us(&self->c, i));
	}
	devpm_metric("-", "cycle_ms", wall / 1000.0);

	devpm_sub_begin(&sub, "real_device_timing");
	for (i = 0; i < n; i++) {
		int ph;

		if (!d[i].timed)
			continue;	/* prepare/complete only: no record */
		phase_list(&d[i], list, sizeof(list));
		r = agree(&self->c, &self->pr, d[i].dev, kern, sizeof(kern),
			  why, sizeof(why));
		devpm_note("%s (%s): trace %s; kernel %s", d[i].dev,
			   d[i].driver[0] ? d[i].driver : "-", list,
			   kern[0] ? kern : "none");
		for (ph = 0; ph < DEVPM_PH_NR; ph++) {
			char key[48];

			if (!d[i].us[ph])
				continue;
			snprintf(key, sizeof(key), "%s_us",
				 devpm_pm_phase_name(ph));
			devpm_metric(d[i].dev, key, d[i].us[ph]);
		}
		if (r)
			devpm_sub_fail(&sub, d[i].dev, "%s (%s)", why,
				       d[i].driver[0] ? d[i].driver : "no driver");
		else
			devpm_sub_pass(&sub, d[i].dev, "%s", "");
	}
	qsort(d, n, sizeof(*d), by_total);
	for (i = 0; i < n && i < SLOWEST; i++) {
		phase_list(&d[i], list, sizeof(list));
		devpm_note("slowest %zu: %s (%s) %llu us: %s", i + 1, d[i].dev,
			   d[i].driver[0] ? d[i].driver : "-",
			   (unsigned long long)d[i].total, list);
	}
	free(d);
	DEVPM_SUB_END(&sub);
}

/* The phases a pm_test level runs (kernel/power/suspend.c). */
static unsigned int level_phases(const char *level)
{
	if (!strcmp(level, "freezer"))
		return 0;	/* enter_state(): before any device */
	if (!strcmp(level, "devices"))	/* suspend_devices_and_enter() */
		return 1u << DEVPM_PH_PREPARE | 1u << DEVPM_PH_SUSPEND |
		       1u << DEVPM_PH_RESUME | 1u << DEVPM_PH_COMPLETE;
	return (1u << DEVPM_PH_NR) - 1;
}

static unsigned int seen_phases(const struct devpm_sleep_cycle *c)
{
	unsigned int m = 0;
	int i;

	for (i = 0; i < DEVPM_PH_NR; i++)
		if (c->phase[i].begin_us && c->phase[i].end_us)
			m |= 1u << i;
	return m;
}

/*
 * s2idle refuses core and processors (enter_state(): -EAGAIN); those
 * levels go through mem with mem_sleep deep, which they never enter:
 * core stops after syscore_suspend(), before ->enter.
 */
static const char *level_state(const char *level, char *why, size_t len)
{
	if (strcmp(level, "core") && strcmp(level, "processors"))
		return "freeze";
	if (!devpm_power_has("/sys/power/state", "mem") ||
	    !devpm_power_has("/sys/power/mem_sleep", "deep")) {
		snprintf(why, len, "s2idle refuses pm_test=%s (-EAGAIN) and there is no deep mem_sleep to test it with",
			 level);
		return NULL;
	}
	if (devpm_knob_write("/sys/power/mem_sleep", "deep")) {
		snprintf(why, len, "%s", devpm_error());
		return NULL;
	}
	return "mem";
}

TEST_F(plat, pm_test_levels)
{
	struct devpm_suspend_stats before, after;
	struct devpm_sub sub;
	struct devpm_pm_level lv[12];
	char why[512], seen[128];
	bool wake_ok, has_core = false;
	uint64_t wall;
	int i, n, r, ret;

	n = devpm_pm_test_levels(lv, 12, NULL);
	if (n == -ENOENT)
		SKIP(return, "%s", devpm_error());
	ASSERT_LT(0, n) TH_LOG("/sys/power/pm_test: %s", devpm_error());
	ASSERT_TRUE(devpm_exists(DEVPM_PM_TEST_DELAY))
		TH_LOG("no %s: each level would wait its default 5 s",
		       DEVPM_PM_TEST_DELAY);
	if (!self->t)
		SKIP(return, "needs the power trace events: %s", self->why);
	wake_ok = !host_wake_setup(why, sizeof(why));
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

	devpm_sub_begin(&sub, "pm_test_levels");
	for (i = 0; i < n; i++) {
		const char *state = level_state(lv[i].name, why, sizeof(why));
		char cycle[64];
		unsigned int want;

		if (!state) {
			devpm_sub_skip(&sub, lv[i].name, "%s", why);
			continue;
		}
		if (!strcmp(lv[i].name, "none")) {
			if (!wake_ok) {
				devpm_sub_skip(&sub, lv[i].name, "%s", why);
				continue;
			}
			if (host_wake_arm(state, why, sizeof(why))) {
				devpm_sub_fail(&sub, lv[i].name, "%s", why);
				continue;
			}
		}
		if (devpm_pm_test_set(lv[i].name) ||
		    devpm_suspend_stats_read(&before)) {
			devpm_sub_fail(&sub, lv[i].name, "%s", devpm_error());
			continue;
		}
		r = devpm_sleep_traced(self->t, state, &ret, &wall,
				       &self->c);
		if (devpm_suspend_stats_read(&after))
			after.success = -1;
		want = level_phases(lv[i].name);
		phases_seen(&self->c, seen, sizeof(seen));
		devpm_note("pm_test=%s with state %s: returned %s after %llu ms; phases %s",
			   lv[i].name, state, ret ? strerror(-ret) : "0",
			   (unsigned long long)wall / 1000, seen);
		snprintf(cycle, sizeof(cycle), "pm_test_levels.%s", lv[i].name);
		devpm_sleep_timeline_print(&self->c, cycle);
		if (ret)
			devpm_sub_fail(&sub, lv[i].name, "writing %s to /sys/power/state: %s",
				       state, strerror(-ret));
		else if (after.success != before.success + 1)
			devpm_sub_fail(&sub, lv[i].name, "suspend_stats/success %ld -> %ld",
				       before.success, after.success);
		else if (r && r != -ENOENT)
			devpm_sub_fail(&sub, lv[i].name, "trace: %s",
				       devpm_error());
		else if (seen_phases(&self->c) != want)
			devpm_sub_fail(&sub, lv[i].name, "phases %s, want %s",
				       seen, want ? (want == 0xff ? "all eight" :
				       "prepare,suspend,resume,complete") : "none");
		else
			devpm_sub_pass(&sub, lv[i].name, "%s", "");
		devpm_metric(lv[i].name, "cycle_ms", wall / 1000.0);
		devpm_sleep_cycle_free(&self->c);
	}
	DEVPM_SUB_END(&sub);
}

DEVPM_TEST_MAIN(info)
