// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sleep_verdict.c - the system-sleep verdicts on recorded cycles
 * (fixtures/trace/qemu-6.1/): lib/trace/sleep_fault.c collects the
 * callbacks' errors, lib/judge/sleep_verdict.c judges them once
 * (the judging case fails, any other case is blamed and skips, a fault
 * the case asks for or of its own device is not judged, the run's record
 * and the final re-check), lib/sleep/sleep_devices.c judges each device
 * (its error, parent and supplier order, the resume budget).  Each rule
 * on a planted bug's cycle and, as its negative control, on a clean one.
 */
#include "devpm.h"
#include "judge/run_record.h"
#include "judge/sleep_verdict.h"
#include "sleep/sleep_devices.h"
#include "trace/pm_print_times.h"
#include "trace/sleep_fault.h"
#include "trace/sleep_trace.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXEV 4096
#define MOCK "/sys/devices/platform/devpm_mock_ctl"
#define JUDGED "async/sleep/real_device_timing"

struct evs {
	struct devpm_event ev[MAXEV];
	size_t n;
};

static int load(struct evs *e, const char *name)
{
	char path[PATH_MAX], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace/qemu-6.1/%s", fixtures_dir(),
		 name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	e->n = 0;
	while (e->n < MAXEV && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!devpm_trace_parse_line(line, &e->ev[e->n]))
			e->n++;
	}
	fclose(f);
	return 0;
}

/* The events as the verdict's watch would have read them. */
static void feed(const struct evs *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		devpm_verdict_event(&e->ev[i]);
}

static int line(struct evs *e, const char *text)
{
	if (e->n == MAXEV || devpm_trace_parse_line(text, &e->ev[e->n]))
		return -EINVAL;
	e->n++;
	return 0;
}

FIXTURE(sv) {
	char *root;
	char jdir[PATH_MAX];
	char rec[PATH_MAX];
	struct evs *e;
	struct devpm_sleep_cycle c;
};

FIXTURE_SETUP(sv)
{
	self->e = calloc(1, sizeof(*self->e));
	ASSERT_NE(NULL, self->e);
	memset(&self->c, 0, sizeof(self->c));
	self->root = tree_new();
	tree_device(self->root, MOCK "/devpm_mock.60", "platform",
		    "devpm_mock", "auto", "suspended", 0, 0);
	tree_device(self->root, MOCK "/devpm_mock.62", "platform",
		    "devpm_mock", "auto", "suspended", 0, 0);
	tree_device(self->root, "/sys/devices/pci0000:00/0000:00:04.0", "pci",
		    "e1000e", "on", "active", 1, 0);
	ASSERT_EQ(0, tree_use(self->root, self->jdir, sizeof(self->jdir)));
	unsetenv(DEVPM_BASELINE_ENV);
	devpm_baseline_reset();
	ASSERT_NE(NULL, devpm_baseline());
	snprintf(self->rec, sizeof(self->rec), "%s/verdicts.tsv", self->root);
	devpm_run_record_path(self->rec);
	devpm_run_record_program("async", "build/suites/async/sleep");
	devpm_run_record_case("a_case");
	devpm_verdict_forget();
	devpm_sleep_verdict_case_begin();
}

FIXTURE_TEARDOWN(sv)
{
	devpm_sleep_cycle_free(&self->c);
	devpm_verdict_forget();
	devpm_sleep_verdict_case_begin();
	devpm_run_record_path(NULL);
	devpm_baseline_reset();
	tree_unuse(self->root);
	free(self->e);
}

struct seen {
	int n;
	char dev[128], why[640];
};

static void seen_one(void *arg, const char *dev, const char *why)
{
	struct seen *s = arg;

	s->n++;
	snprintf(s->dev, sizeof(s->dev), "%s", dev);
	snprintf(s->why, sizeof(s->why), "%s", why);
}

/*
 * A machine's device refuses: outside the judging case the cycle names
 * it (device, driver, phase, errno), blames the case once and records
 * the fault; the final re-check fails it until a case judged it.
 */
TEST_F(sv, refusal_blames_outside_the_judge)
{
	struct devpm_sleep_culprit v[4];
	struct devpm_sleep_mark m;
	struct seen s = { 0 };
	const char *f[2] = { "devpm_mock.60", "system sleep" };
	char who[256], shrt[256];

	devpm_sleep_verdict_mark(&m);
	ASSERT_EQ(0, load(self->e, "planted-suspend-ebusy.txt"));
	feed(self->e);
	ASSERT_EQ(1, devpm_sleep_verdict_cycle(&m, -EBUSY, NULL, v, 4));
	EXPECT_STREQ("devpm_mock.60 (devpm_mock): suspend returned -16 (EBUSY): system sleep refused",
		     v[0].why);
	EXPECT_EQ(DEVPM_PH_SUSPEND, v[0].phase);
	EXPECT_STREQ("system sleep refused by devpm_mock.60 (devpm_mock): suspend returned -16 (EBUSY): system sleep refused; judged in " JUDGED,
		     devpm_sleep_blame());
	devpm_sleep_blame_short(shrt, sizeof(shrt));
	EXPECT_STREQ("not judged: system sleep refused by devpm_mock.60 (devpm_mock) (the case says more)",
		     shrt);
	EXPECT_TRUE(devpm_run_record_find("fault", "devpm_mock.60", who,
					  sizeof(who)));
	EXPECT_STREQ("async/sleep/a_case", who);
	ASSERT_EQ(1, devpm_sleep_verdict_unjudged(seen_one, &s));
	EXPECT_STREQ("devpm_mock.60", s.dev);
	EXPECT_STREQ("devpm_mock.60 (devpm_mock): suspend returned -16 (EBUSY): system sleep refused, in a cycle of async/sleep/a_case; no case judged it (" JUDGED " did not run or did not see it)",
		     s.why);
	/* Judged by a case: the re-check names it no more. */
	ASSERT_EQ(0, devpm_run_record("judged", f, 2));
	s.n = 0;
	EXPECT_EQ(0, devpm_sleep_verdict_unjudged(seen_one, &s));
}

/*
 * A cycle another case saved (the cycle cache) is judged the same when a
 * case reads it back: the refusal blames; a clean one does not.
 */
TEST_F(sv, saved_cycle_replayed)
{
	ASSERT_EQ(0, load(self->e, "s2idle-cycle.txt"));
	ASSERT_EQ(0, devpm_sleep_cycle_parse(self->e->ev, self->e->n,
					     &self->c));
	EXPECT_EQ(0, devpm_sleep_verdict_replay(&self->c, 0));
	EXPECT_STREQ("", devpm_sleep_blame());
	devpm_sleep_cycle_free(&self->c);
	ASSERT_EQ(0, load(self->e, "planted-suspend-ebusy.txt"));
	ASSERT_EQ(0, devpm_sleep_cycle_parse(self->e->ev, self->e->n,
					     &self->c));
	EXPECT_EQ(1, devpm_sleep_verdict_replay(&self->c, -EBUSY));
	EXPECT_STREQ("system sleep refused by devpm_mock.60 (devpm_mock): suspend returned -16 (EBUSY): system sleep refused; judged in " JUDGED,
		     devpm_sleep_blame());
}

/* In the judging case the same cycle blames nobody: its lines judge. */
TEST_F(sv, judge_is_not_blamed)
{
	struct devpm_sleep_mark m;

	devpm_sleep_verdict_own();
	devpm_sleep_verdict_mark(&m);
	ASSERT_EQ(0, load(self->e, "planted-suspend-ebusy.txt"));
	feed(self->e);
	EXPECT_EQ(1, devpm_sleep_verdict_cycle(&m, -EBUSY, NULL, NULL, 0));
	EXPECT_STREQ("", devpm_sleep_blame());
}

/*
 * Negative controls: a fault the case asks for (alarmtimer's), one of a
 * device the case made (not in the baseline), a clean cycle, a prepare
 * that returns 1 (no error): no culprit, no blame.
 */
TEST_F(sv, not_the_machines_fault)
{
	struct devpm_sleep_mark m;

	devpm_sleep_expect_fault("devpm_mock.60");
	devpm_sleep_verdict_mark(&m);
	ASSERT_EQ(0, load(self->e, "planted-suspend-ebusy.txt"));
	feed(self->e);
	EXPECT_EQ(0, devpm_sleep_verdict_cycle(&m, -EBUSY, NULL, NULL, 0));

	devpm_sleep_verdict_case_begin();
	devpm_sleep_verdict_mark(&m);
	self->e->n = 0;
	ASSERT_EQ(0, line(self->e, "p-1 [000] ..... 10.000001: suspend_resume: dpm_prepare[2] begin"));
	ASSERT_EQ(0, line(self->e, "p-1 [000] ..... 10.000002: device_pm_callback_end: e1000e 0000:00:04.0, err=1"));
	ASSERT_EQ(0, line(self->e, "p-1 [000] ..... 10.000003: suspend_resume: dpm_prepare[2] end"));
	ASSERT_EQ(0, line(self->e, "p-1 [000] ..... 10.000004: suspend_resume: dpm_suspend[2] begin"));
	ASSERT_EQ(0, line(self->e, "p-1 [000] ..... 10.000005: device_pm_callback_end: devpm_mock devpm_mock.7, err=-5"));
	ASSERT_EQ(0, line(self->e, "p-1 [000] ..... 10.000006: suspend_resume: dpm_suspend[2] end"));
	feed(self->e);
	EXPECT_EQ(0, devpm_sleep_verdict_cycle(&m, -EIO, NULL, NULL, 0));

	devpm_sleep_verdict_mark(&m);
	ASSERT_EQ(0, load(self->e, "s2idle-cycle.txt"));
	feed(self->e);
	EXPECT_EQ(0, devpm_sleep_verdict_cycle(&m, 0, NULL, NULL, 0));
	EXPECT_STREQ("", devpm_sleep_blame());
	EXPECT_FALSE(devpm_run_record_find("fault", "devpm_mock.60", NULL, 0));
}

/*
 * A resume-side error does not refuse the sleep: noted outside the
 * judging case, never a blame; recorded for the re-check.
 */
TEST_F(sv, resume_error_noted)
{
	struct devpm_sleep_culprit v[4];
	struct devpm_sleep_mark m;
	int n;

	devpm_sleep_verdict_mark(&m);
	ASSERT_EQ(0, load(self->e, "planted-resume.txt"));
	feed(self->e);
	n = devpm_sleep_verdict_cycle(&m, 0, NULL, v, 4);
	ASSERT_EQ(1, n);
	EXPECT_STREQ("devpm_mock.60 (devpm_mock): resume returned -5 (EIO): not resumed with the system",
		     v[0].why);
	EXPECT_STREQ("", devpm_sleep_blame());
	EXPECT_TRUE(devpm_run_record_find("fault", "devpm_mock.60", NULL, 0));
	/*
	 * In a cycle that failed anyway (a case's own device refused), the
	 * rollback's resume error takes suspend_stats' last_failed_dev: the
	 * case could not test what it looks for there.
	 */
	devpm_sleep_verdict_mark(&m);
	feed(self->e);
	ASSERT_EQ(1, devpm_sleep_verdict_cycle(&m, -EIO, NULL, NULL, 0));
	EXPECT_STREQ("system sleep rolled back with an error by devpm_mock.60 (devpm_mock): resume returned -5 (EIO): not resumed with the system; judged in " JUDGED,
		     devpm_sleep_blame());
}

/*
 * Without the trace: suspend_stats' last_failed_dev names the device when
 * a device's step counter moved; a device the case made is not judged.
 */
TEST_F(sv, suspend_stats_names_it_without_trace)
{
	struct devpm_sleep_counted k = { .failed = true,
					 .dev = "devpm_mock.60",
					 .step = "suspend_noirq", .err = -16 };
	struct devpm_sleep_culprit v[2];
	struct devpm_sleep_mark m;

	devpm_sleep_verdict_mark(&m);
	ASSERT_EQ(1, devpm_sleep_verdict_cycle(&m, -EBUSY, &k, v, 2));
	EXPECT_STREQ("devpm_mock.60 (devpm_mock): suspend_noirq returned -16 (EBUSY): system sleep refused",
		     v[0].why);
	devpm_sleep_verdict_case_begin();
	snprintf(k.dev, sizeof(k.dev), "devpm_mock.9");
	EXPECT_EQ(0, devpm_sleep_verdict_cycle(&m, -EBUSY, &k, NULL, 0));
	k.failed = false;
	snprintf(k.dev, sizeof(k.dev), "devpm_mock.60");
	EXPECT_EQ(0, devpm_sleep_verdict_cycle(&m, -EBUSY, &k, NULL, 0));
}

/* Each device of the judging case: its own callback's error. */
TEST_F(sv, device_error)
{
	char why[512];

	ASSERT_EQ(0, load(self->e, "planted-suspend-ebusy.txt"));
	ASSERT_EQ(0, devpm_sleep_cycle_parse(self->e->ev, self->e->n,
					     &self->c));
	ASSERT_EQ(1, devpm_sleep_dev_error(&self->c, "devpm_mock.60", why,
					   sizeof(why)));
	EXPECT_STREQ("devpm_mock.60 (devpm_mock): suspend returned -16 (EBUSY): system sleep refused",
		     why);
	devpm_sleep_cycle_free(&self->c);
	ASSERT_EQ(0, load(self->e, "s2idle-cycle.txt"));
	ASSERT_EQ(0, devpm_sleep_cycle_parse(self->e->ev, self->e->n,
					     &self->c));
	EXPECT_EQ(0, devpm_sleep_dev_error(&self->c, "usb1", why,
					   sizeof(why)));
}

/*
 * The resume budget: the planted slow resume over it names device,
 * phase and time; under a larger budget, or none, it passes.
 */
TEST_F(sv, resume_budget)
{
	char why[512];

	ASSERT_EQ(0, load(self->e, "planted-resume.txt"));
	ASSERT_EQ(0, devpm_sleep_cycle_parse(self->e->ev, self->e->n,
					     &self->c));
	ASSERT_EQ(1, devpm_sleep_dev_budget(&self->c, "devpm_mock.62",
					    1000000, why, sizeof(why)));
	EXPECT_EQ(0, strncmp(why, "devpm_mock.62 (devpm_mock): resume took 15",
			     strlen("devpm_mock.62 (devpm_mock): resume took 15")))
		TH_LOG("%s", why);
	EXPECT_NE(NULL, strstr(why, "us, over the resume budget 1000000 us"));
	EXPECT_EQ(0, devpm_sleep_dev_budget(&self->c, "devpm_mock.62",
					    3000000, why, sizeof(why)));
	EXPECT_EQ(0, devpm_sleep_dev_budget(&self->c, "devpm_mock.62", 0, why,
					    sizeof(why)));
	/* A quick device under the tight budget too. */
	EXPECT_EQ(0, devpm_sleep_dev_budget(&self->c, "devpm_mock.60",
					    1000000, why, sizeof(why)));
}

/* The last callback of dev in phase ph (for moving it in time). */
static struct devpm_pm_cb *cb_of(struct devpm_sleep_cycle *c,
				 enum devpm_pm_phase ph, const char *dev)
{
	size_t i;

	for (i = c->ncb; i-- > 0;)
		if (c->cb[i].phase == ph && !strcmp(c->cb[i].dev, dev))
			return &c->cb[i];
	return NULL;
}

/*
 * Parent and child, supplier and consumer: the recorded USB chain keeps
 * its order; a child whose suspend is moved after its parent's, or a
 * link the other way round, is named with the phase.
 */
TEST_F(sv, device_order)
{
	struct devpm_devlink fwd = { "usb1", "1-3" };
	struct devpm_devlink back = { "00:00", "0000:00:04.0" };
	struct devpm_pm_cb *child, *parent;
	char why[512];
	int checked = 0;

	ASSERT_EQ(0, load(self->e, "s2idle-cycle.txt"));
	ASSERT_EQ(0, devpm_sleep_cycle_parse(self->e->ev, self->e->n,
					     &self->c));
	EXPECT_EQ(0, devpm_sleep_dev_order(&self->c, "1-3.1", NULL, 0, why,
					   sizeof(why), &checked));
	EXPECT_LT(0, checked);
	EXPECT_EQ(0, devpm_sleep_dev_order(&self->c, "usb1", NULL, 0, why,
					   sizeof(why), &checked));
	checked = 0;
	EXPECT_EQ(0, devpm_sleep_dev_order(&self->c, "1-3", &fwd, 1, why,
					   sizeof(why), &checked));
	EXPECT_EQ(4, checked);	/* parent and link: suspend and resume */
	ASSERT_EQ(1, devpm_sleep_dev_order(&self->c, "0000:00:04.0", &back, 1,
					   why, sizeof(why), &checked));
	EXPECT_EQ(0, strncmp(why, "suspend order broken with its supplier 00:00: ",
			     strlen("suspend order broken with its supplier 00:00: ")))
		TH_LOG("%s", why);
	/* The child's suspend moved after its parent's began. */
	child = cb_of(&self->c, DEVPM_PH_SUSPEND, "1-3.1");
	parent = cb_of(&self->c, DEVPM_PH_SUSPEND, "1-3");
	ASSERT_NE(NULL, child);
	ASSERT_NE(NULL, parent);
	child->start_us = parent->start_us + 10;
	child->end_us = parent->end_us + 10;
	ASSERT_EQ(1, devpm_sleep_dev_order(&self->c, "1-3.1", NULL, 0, why,
					   sizeof(why), &checked));
	EXPECT_EQ(0, strncmp(why, "suspend order broken with its parent 1-3: ",
			     strlen("suspend order broken with its parent 1-3: ")))
		TH_LOG("%s", why);
}

/* /sys/class/devlink: links the PM core orders, a dormant one not. */
TEST_F(sv, devlinks)
{
	struct devpm_devlink *l;
	size_t n;

	tree_put(self->root, "/sys/class/devlink/platform:a--platform:b/status",
		 "active");
	tree_link(self->root, "/sys/class/devlink/platform:a--platform:b/supplier",
		  "../../../devices/platform/a");
	tree_link(self->root, "/sys/class/devlink/platform:a--platform:b/consumer",
		  "../../../devices/platform/b");
	tree_put(self->root, "/sys/class/devlink/platform:c--platform:d/status",
		 "dormant");
	tree_link(self->root, "/sys/class/devlink/platform:c--platform:d/supplier",
		  "../../../devices/platform/c");
	tree_link(self->root, "/sys/class/devlink/platform:c--platform:d/consumer",
		  "../../../devices/platform/d");
	ASSERT_EQ(0, devpm_devlinks_read(&l, &n));
	ASSERT_EQ(1U, n);
	EXPECT_STREQ("a", l[0].supplier);
	EXPECT_STREQ("b", l[0].consumer);
	free(l);
}

/* The kernel's pm_print_times records of a cycle, saved and read back. */
TEST(prints_round_trip)
{
	struct devpm_pm_prints p = { 0 }, q = { 0 };
	FILE *f = tmpfile();

	ASSERT_NE(NULL, f);
	devpm_pm_prints_line("usb 1-3: PM: calling usb_dev_suspend+0x0/0x20 @ 113, parent: usb1", &p);
	devpm_pm_prints_line("usb 1-3: PM: usb_dev_suspend+0x0/0x20 returned 0 after 4712 usecs", &p);
	ASSERT_EQ(1U, p.n);
	ASSERT_EQ(0, devpm_pm_prints_save(&p, f));
	rewind(f);
	ASSERT_EQ(0, devpm_pm_prints_load(f, &q));
	ASSERT_EQ(1U, q.n);
	EXPECT_STREQ("usb 1-3", q.rec[0].who);
	EXPECT_STREQ("usb_dev_suspend", q.rec[0].func);
	EXPECT_EQ(113, q.rec[0].pid);
	EXPECT_EQ(4712ULL, q.rec[0].usecs);
	/* A malformed record is refused. */
	rewind(f);
	fputs("rec\tnot enough\n", f);
	rewind(f);
	devpm_pm_prints_free(&q);
	EXPECT_EQ(-EINVAL, devpm_pm_prints_load(f, &q));
	fclose(f);
	devpm_pm_prints_free(&p);
}

TEST_HARNESS_MAIN
