// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_wakeup.c - lib/sleep/system_sleep.c, lib/sleep/wakeup_source.c and lib/sleep/wake_account.c
 * against a fake /sys/power and /sys/class/wakeup: suspend_stats and
 * their difference, the wakeup_count handshake, pm_test through the
 * journal, the --allow-sleep gate, wakeup source snapshots, and the
 * accounting that must count an event the PM core never saw (the mock's
 * lost_wakeup bug) as lost.
 */
#include "devpm.h"
#include "sleep/system_sleep.h"
#include "sleep/wake_account.h"
#include "sleep/wakeup_source.h"
#include "kselftest_harness.h"
#include "unit.h"

FIXTURE(sl) {
	char tmp[UNIT_PATH_MAX], tree[UNIT_PATH_MAX], dir[UNIT_PATH_MAX];
};

static int put_stats(const char *tree, long success, long fail,
		     long freeze, long suspend, const char *dev,
		     const char *step)
{
	char v[32];
	int r = 0;

#define PUT(f, x) do { snprintf(v, sizeof(v), "%ld\n", (long)(x)); \
	r |= unit_put(tree, "sys/power/suspend_stats/" f, v); } while (0)
	PUT("success", success);
	PUT("fail", fail);
	PUT("failed_freeze", freeze);
	PUT("failed_prepare", 0);
	PUT("failed_suspend", suspend);
	PUT("failed_suspend_late", 0);
	PUT("failed_suspend_noirq", 0);
	PUT("failed_resume", 0);
	PUT("failed_resume_early", 0);
	PUT("failed_resume_noirq", 0);
	PUT("last_failed_errno", fail ? -16 : 0);
#undef PUT
	r |= unit_put(tree, "sys/power/suspend_stats/last_failed_dev", dev);
	r |= unit_put(tree, "sys/power/suspend_stats/last_failed_step", step);
	return r;
}

static int put_ws(const char *tree, int id, const char *name,
		  unsigned long events, unsigned long active, long act_ms)
{
	char rel[128], v[32];
	int r;

	snprintf(rel, sizeof(rel), "sys/class/wakeup/wakeup%d/name", id);
	r = unit_put(tree, rel, name);
	snprintf(rel, sizeof(rel), "sys/class/wakeup/wakeup%d/event_count",
		 id);
	snprintf(v, sizeof(v), "%lu\n", events);
	r |= unit_put(tree, rel, v);
	snprintf(rel, sizeof(rel), "sys/class/wakeup/wakeup%d/active_count",
		 id);
	snprintf(v, sizeof(v), "%lu\n", active);
	r |= unit_put(tree, rel, v);
	snprintf(rel, sizeof(rel),
		 "sys/class/wakeup/wakeup%d/active_time_ms", id);
	snprintf(v, sizeof(v), "%ld\n", act_ms);
	r |= unit_put(tree, rel, v);
	return r;
}

FIXTURE_SETUP(sl)
{
	ASSERT_EQ(0, unit_mkdtemp(self->tmp, sizeof(self->tmp)));
	snprintf(self->tree, sizeof(self->tree), "%s/tree", self->tmp);
	snprintf(self->dir, sizeof(self->dir), "%s/j", self->tmp);
	ASSERT_EQ(0, put_stats(self->tree, 3, 1, 1, 0, "\n", "freeze\n"));
	ASSERT_EQ(0, unit_put(self->tree, "sys/power/wakeup_count", "41\n"));
	ASSERT_EQ(0, unit_put(self->tree, "sys/power/state",
			      "freeze mem\n"));
	ASSERT_EQ(0, unit_put(self->tree, "sys/power/pm_test",
			      "[none] core processors platform devices freezer\n"));
	ASSERT_EQ(0, unit_put(self->tree,
			      "sys/module/suspend/parameters/pm_test_delay",
			      "5\n"));
	ASSERT_EQ(0, devpm_set_sysfs_root(self->tree));
	setenv("DEVPM_JOURNAL_DIR", self->dir, 1);
	unsetenv("DEVPM_JOURNAL");
	unsetenv("DEVPM_ALLOW_SLEEP");
	devpm_safety_reset();
}

FIXTURE_TEARDOWN(sl)
{
	devpm_journal_close();
	devpm_set_sysfs_root(NULL);
	unit_rm_rf(self->tmp);
}

TEST_F(sl, stats_read_and_diff)
{
	struct devpm_suspend_stats a, b;
	char d[256];

	ASSERT_EQ(0, devpm_suspend_stats_read(&a));
	EXPECT_EQ(3, a.success);
	EXPECT_EQ(1, a.fail);
	EXPECT_STREQ("freeze", a.last_failed_step);
	/* Nothing changed: empty. */
	ASSERT_EQ(0, devpm_suspend_stats_diff(&a, &a, d, sizeof(d)));
	EXPECT_STREQ("", d);
	/* A suspend that failed at a device. */
	ASSERT_EQ(0, put_stats(self->tree, 3, 2, 1, 1, "alarmtimer.0.auto\n",
			       "suspend\n"));
	ASSERT_EQ(0, devpm_suspend_stats_read(&b));
	ASSERT_EQ(0, devpm_suspend_stats_diff(&a, &b, d, sizeof(d)));
	EXPECT_STREQ("fail+1 failed_suspend+1 last_failed_step=suspend last_failed_errno=-16 last_failed_dev=alarmtimer.0.auto",
		     d);
	/* A success names no failure. */
	ASSERT_EQ(0, put_stats(self->tree, 4, 2, 1, 1, "alarmtimer.0.auto\n",
			       "suspend\n"));
	ASSERT_EQ(0, devpm_suspend_stats_read(&a));
	ASSERT_EQ(0, devpm_suspend_stats_diff(&b, &a, d, sizeof(d)));
	EXPECT_STREQ("success+1", d);
	/* Too small a buffer is an error, never a cut string. */
	EXPECT_EQ(-ENAMETOOLONG, devpm_suspend_stats_diff(&a, &b, d, 8));
	EXPECT_STREQ("", d);
}

TEST_F(sl, stats_missing)
{
	struct devpm_suspend_stats s;

	unit_rm_rf(self->tree);
	EXPECT_EQ(-ENOENT, devpm_suspend_stats_read(&s));
}

TEST_F(sl, wakeup_count)
{
	unsigned long c = 0;
	char v[64];

	ASSERT_EQ(0, devpm_wakeup_count_read(&c, 100));
	EXPECT_EQ(41, c);
	ASSERT_EQ(0, devpm_wakeup_handshake(&c, 100));
	ASSERT_EQ(0, unit_get(self->tree, "sys/power/wakeup_count", v,
			      sizeof(v)));
	EXPECT_STREQ("41", v);
	/* Not a count. */
	ASSERT_EQ(0, unit_put(self->tree, "sys/power/wakeup_count", "x\n"));
	EXPECT_EQ(-EINVAL, devpm_wakeup_count_read(&c, 100));
}

TEST_F(sl, pm_test_journaled)
{
	char v[128];

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_pm_test_set("devices"));
	ASSERT_EQ(0, unit_get(self->tree, "sys/power/pm_test", v, sizeof(v)));
	EXPECT_STREQ("devices", v);
	ASSERT_EQ(0, unit_get(self->tree,
			      "sys/module/suspend/parameters/pm_test_delay",
			      v, sizeof(v)));
	EXPECT_STREQ("0", v);
	/* Both come back. */
	ASSERT_LE(2, devpm_journal_restore_all());
	ASSERT_EQ(0, unit_get(self->tree, "sys/power/pm_test", v, sizeof(v)));
	EXPECT_STREQ("none", v);
	ASSERT_EQ(0, unit_get(self->tree,
			      "sys/module/suspend/parameters/pm_test_delay",
			      v, sizeof(v)));
	EXPECT_STREQ("5", v);
	/* Without CONFIG_PM_SLEEP_DEBUG: a clear error. */
	ASSERT_EQ(0, unlink(strcat(strcpy(v, self->tree),
				   "/sys/power/pm_test")));
	EXPECT_EQ(-ENOENT, devpm_pm_test_set("freezer"));
	EXPECT_NE(NULL, strstr(devpm_error(), "CONFIG_PM_SLEEP_DEBUG"));
}

TEST_F(sl, enter_needs_allow_sleep)
{
	struct devpm_sleep s;
	char v[64];

	devpm_least_time_begin();
	EXPECT_EQ(-EPERM, devpm_sleep_attempt("freeze", &s));
	EXPECT_NE(NULL, strstr(devpm_error(), "--allow-sleep"));
	/* Refused: nothing the kernel did counts in the case's floor. */
	EXPECT_EQ(0ULL, devpm_least_time_us());
	ASSERT_EQ(0, unit_get(self->tree, "sys/power/state", v, sizeof(v)));
	EXPECT_STREQ("freeze mem\n", v);
	/* Allowed: the state is written, stats read around it. */
	setenv("DEVPM_ALLOW_SLEEP", "1", 1);
	EXPECT_EQ(0, devpm_sleep_attempt("freeze", &s));
	ASSERT_EQ(0, unit_get(self->tree, "sys/power/state", v, sizeof(v)));
	EXPECT_STREQ("freeze", v);
	EXPECT_EQ(3, s.before.success);
	EXPECT_FALSE(devpm_sleep_failed(&s));
	EXPECT_EQ(-1, s.wake_irq);
	/* The write's span is the kernel's: in the floor. */
	EXPECT_LT(0ULL, devpm_least_time_us());
	EXPECT_GE(s.end_us - s.start_us, devpm_least_time_us());
	unsetenv("DEVPM_ALLOW_SLEEP");
}

TEST_F(sl, wakeup_sources)
{
	struct devpm_wakeup_source *a = NULL, *b = NULL;
	size_t na, nb;
	char d[256];

	ASSERT_EQ(0, put_ws(self->tree, 10, "devpm_mock.0", 5, 5, 0));
	ASSERT_EQ(0, put_ws(self->tree, 2, "alarmtimer.0.auto", 1, 1, 0));
	ASSERT_EQ(0, put_ws(self->tree, 3, "eventpoll", 7, 7, 0));
	ASSERT_EQ(0, devpm_wakeup_sources_read(&a, &na));
	ASSERT_EQ(3, na);
	/* Sorted numerically by id. */
	EXPECT_STREQ("wakeup2", a[0].id);
	EXPECT_STREQ("wakeup10", a[2].id);
	ASSERT_NE(NULL, devpm_wakeup_source_find(a, na, "devpm_mock.0"));
	EXPECT_EQ(5, devpm_wakeup_source_find(a, na, "devpm_mock.0")->
		  event_count);
	EXPECT_EQ(NULL, devpm_wakeup_source_find(a, na, "devpm_mock.1"));
	/* Two events of the mock, one new source, one source active. */
	ASSERT_EQ(0, put_ws(self->tree, 10, "devpm_mock.0", 7, 7, 0));
	ASSERT_EQ(0, put_ws(self->tree, 11, "event4", 1, 1, 12));
	ASSERT_EQ(0, devpm_wakeup_sources_read(&b, &nb));
	ASSERT_EQ(0, devpm_wakeup_sources_diff(a, na, b, nb, d, sizeof(d)));
	EXPECT_STREQ("devpm_mock.0(+2) event4(+1)", d);
	ASSERT_EQ(0, devpm_wakeup_sources_active(b, nb, d, sizeof(d)));
	EXPECT_STREQ("event4 (no device) active 12 ms", d);
	/* Negative control: no change, nothing named. */
	ASSERT_EQ(0, devpm_wakeup_sources_diff(b, nb, b, nb, d, sizeof(d)));
	EXPECT_STREQ("", d);
	free(a);
	free(b);
}

/* wakeupN's device: a link to it, and the device's driver link. */
static int put_ws_dev(const char *tree, int id, const char *dev,
		      const char *driver)
{
	char rel[128], t[256];
	int r;

	snprintf(rel, sizeof(rel), "sys/class/wakeup/wakeup%d/device", id);
	snprintf(t, sizeof(t), "../../../devices/platform/%s", dev);
	r = unit_link(tree, rel, t);
	snprintf(rel, sizeof(rel), "sys/devices/platform/%s/driver", dev);
	snprintf(t, sizeof(t), "../../../bus/platform/drivers/%s", driver);
	return r | unit_link(tree, rel, t);
}

/*
 * A source of a device active for longer than DEVPM_WAKE_HELD_MS with no
 * event since the snapshot before is held, named with its device and
 * driver; a busy one (its events grew), a short hold, and a source
 * without a device are not.
 */
TEST_F(sl, wakeup_source_held)
{
	struct devpm_wakeup_source *a = NULL, *b = NULL;
	const struct devpm_wakeup_source *w;
	size_t na, nb;
	char why[512];

	ASSERT_EQ(0, put_ws(self->tree, 1, "devpm_mock.60", 1, 1, 40000));
	ASSERT_EQ(0, put_ws_dev(self->tree, 1, "devpm_mock.60", "devpm_mock"));
	ASSERT_EQ(0, put_ws(self->tree, 2, "busy.0", 5, 1, 40000));
	ASSERT_EQ(0, put_ws_dev(self->tree, 2, "busy.0", "busydrv"));
	ASSERT_EQ(0, put_ws(self->tree, 3, "short.0", 1, 1, 1500));
	ASSERT_EQ(0, put_ws_dev(self->tree, 3, "short.0", "shortdrv"));
	ASSERT_EQ(0, put_ws(self->tree, 4, "eventpoll", 1, 1, 90000));
	ASSERT_EQ(0, devpm_wakeup_sources_read(&a, &na));
	ASSERT_EQ(4, na);
	EXPECT_STREQ("devpm_mock.60", a[0].dev);
	EXPECT_STREQ("devpm_mock", a[0].driver);
	EXPECT_STREQ("", a[3].dev);
	/* busy.0 reports events meanwhile. */
	ASSERT_EQ(0, put_ws(self->tree, 2, "busy.0", 9, 1, 45000));
	ASSERT_EQ(0, devpm_wakeup_sources_read(&b, &nb));
	w = devpm_wakeup_source_held(b, nb, a, na);
	ASSERT_NE(NULL, w);
	EXPECT_STREQ("devpm_mock.60", w->name);
	devpm_wakeup_source_held_words(w, why, sizeof(why));
	EXPECT_STREQ("devpm_mock.60 (devpm_mock): wakeup source devpm_mock.60 held active 40000 ms with no event (event_count 1), limit 5000 ms: system sleep blocked for every wakeup_count user",
		     why);
	/* Negative controls: relaxed, nothing held; busy.0 alone is busy. */
	ASSERT_EQ(0, put_ws(self->tree, 1, "devpm_mock.60", 1, 1, 0));
	free(b);
	ASSERT_EQ(0, devpm_wakeup_sources_read(&b, &nb));
	EXPECT_EQ(NULL, devpm_wakeup_source_held(b, nb, a, na));
	/* Against no snapshot, busy.0's hold alone makes it held. */
	w = devpm_wakeup_source_held(b, nb, NULL, 0);
	ASSERT_NE(NULL, w);
	EXPECT_STREQ("busy.0", w->name);
	free(a);
	free(b);
}

TEST_F(sl, outcome)
{
	struct devpm_sleep s = { .wake_irq = -1 };

	s.before.fail = s.after.fail = 1;
	EXPECT_EQ(DEVPM_WAKE_WOKE, devpm_wake_outcome_of(&s, false, 4));
	EXPECT_EQ(DEVPM_WAKE_SLEPT, devpm_wake_outcome_of(&s, true, 4));
	s.wake_irq = 4;
	EXPECT_EQ(DEVPM_WAKE_SLEPT, devpm_wake_outcome_of(&s, false, 4));
	s.err = -EBUSY;
	EXPECT_EQ(DEVPM_WAKE_ABORTED, devpm_wake_outcome_of(&s, false, 4));
	s.err = 0;
	s.after.fail = 2;
	EXPECT_EQ(DEVPM_WAKE_ABORTED, devpm_wake_outcome_of(&s, false, 4));
	EXPECT_STREQ("aborted", devpm_wake_outcome_name(DEVPM_WAKE_ABORTED));
	EXPECT_STREQ("slept", devpm_wake_outcome_name(DEVPM_WAKE_SLEPT));
}

TEST_F(sl, tally_correct_device)
{
	struct devpm_wake_tally t = { 0 };
	uint64_t seq[2] = { 1, 2 };

	EXPECT_EQ(0, devpm_wake_tally_cycle(&t, "suspend+0", 1, seq, 1, 1,
					    DEVPM_WAKE_ABORTED));
	EXPECT_EQ(0, devpm_wake_tally_cycle(&t, "suspend+100", 1, seq + 1, 1,
					    1, DEVPM_WAKE_WOKE));
	EXPECT_EQ(2, t.cycles);
	EXPECT_EQ(2, t.produced);
	EXPECT_EQ(2, t.consumed);
	EXPECT_EQ(0, t.lost);
	EXPECT_EQ(1, t.outcome[DEVPM_WAKE_ABORTED]);
	EXPECT_STREQ("", t.first_lost);
}

/* The mock's lost_wakeup bug: queued for user space, PM core not told. */
TEST_F(sl, tally_lost_wakeup)
{
	struct devpm_wake_tally t = { 0 };
	uint64_t seq[2] = { 1, 2 };

	EXPECT_EQ(0, devpm_wake_tally_cycle(&t, "prepare+0", 1, seq, 1, 1,
					    DEVPM_WAKE_ABORTED));
	EXPECT_EQ(1, devpm_wake_tally_cycle(&t, "suspend_noirq+50", 1,
					    seq + 1, 1, 0,
					    DEVPM_WAKE_SLEPT));
	EXPECT_EQ(1, t.lost);
	EXPECT_STREQ("suspend_noirq+50: 1 produced, 1 not reported to the PM core, 0 not read by user space",
		     t.first_lost);
}

/* An event user space never read: a gap in the sequence, or no record. */
TEST_F(sl, tally_unread)
{
	struct devpm_wake_tally t = { 0 };
	uint64_t seq[2] = { 1, 3 };

	/* Records 1 and 3 read: 2 was produced and never read. */
	EXPECT_EQ(1, devpm_wake_tally_cycle(&t, "suspend+0", 0, seq, 2, 3,
					    DEVPM_WAKE_ABORTED));
	EXPECT_EQ(3, t.produced);
	/* Fired, reported, no record at all. */
	EXPECT_EQ(1, devpm_wake_tally_cycle(&t, "suspend+5", 1, NULL, 0, 1,
					    DEVPM_WAKE_WOKE));
	EXPECT_EQ(2, t.lost);
	EXPECT_STREQ("suspend+0: 3 produced, 0 not reported to the PM core, 1 not read by user space",
		     t.first_lost);
}

TEST_HARNESS_MAIN
