// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_system_sleep.c - lib/sleep/system_sleep.c on a fake /sys/power: the
 * pm_test levels, journaled knob writes (pm_test_delay 0 first, put
 * back by the restore), the CONFIG_PM_DEBUG-off message, suspend_stats.
 */
#include "devpm.h"
#include "sleep/system_sleep.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>


FIXTURE(pw) {
	char *root;
	char jdir[UNIT_PATH_MAX];
};

FIXTURE_SETUP(pw)
{
	self->root = tree_new();
	ASSERT_EQ(0, tree_use(self->root, self->jdir, sizeof(self->jdir)));
	tree_put(self->root, "/sys/power/state", "freeze mem disk");
	tree_put(self->root, "/sys/power/mem_sleep", "s2idle [deep]");
	tree_put(self->root, "/sys/power/pm_test",
		 "[none] core processors platform devices freezer");
	tree_put(self->root, DEVPM_PM_TEST_DELAY, "5");
}

FIXTURE_TEARDOWN(pw)
{
	tree_unuse(self->root);
}

TEST_F(pw, levels_listed)
{
	struct devpm_pm_level lv[8];
	int cur = -2;

	ASSERT_EQ(6, devpm_pm_test_levels(lv, 8, &cur));
	EXPECT_STREQ("none", lv[0].name);
	EXPECT_STREQ("freezer", lv[5].name);
	EXPECT_EQ(0, cur);
	/* At most max. */
	EXPECT_EQ(2, devpm_pm_test_levels(lv, 2, NULL));
	EXPECT_TRUE(devpm_power_has("/sys/power/mem_sleep", "deep"));
	EXPECT_TRUE(devpm_power_has("/sys/power/mem_sleep", "s2idle"));
	EXPECT_FALSE(devpm_power_has("/sys/power/mem_sleep", "shallow"));
	EXPECT_TRUE(devpm_power_has("/sys/power/state", "freeze"));
	EXPECT_FALSE(devpm_power_has("/sys/power/state", "standby"));
}

TEST_F(pw, set_level_journaled)
{
	off_t mark = devpm_journal_mark();

	ASSERT_EQ(0, devpm_pm_test_set("devices")) TH_LOG("%s", devpm_error());
	EXPECT_STREQ("devices", tree_val(self->root, "/sys/power/pm_test"));
	EXPECT_STREQ("0", tree_val(self->root, DEVPM_PM_TEST_DELAY));
	ASSERT_LE(0, devpm_journal_restore_since(mark));
	/* The choice list is journaled as its bracketed word. */
	EXPECT_STREQ("none", tree_val(self->root, "/sys/power/pm_test"));
	EXPECT_STREQ("5", tree_val(self->root, DEVPM_PM_TEST_DELAY));
	/* "none" leaves the delay alone. */
	ASSERT_EQ(0, devpm_pm_test_set("none"));
	EXPECT_STREQ("5", tree_val(self->root, DEVPM_PM_TEST_DELAY));
}

/* CONFIG_PM_DEBUG off: no pm_test, and the message says so. */
TEST_F(pw, no_pm_debug)
{
	struct devpm_pm_level lv[8];
	char p[UNIT_PATH_MAX];

	snprintf(p, sizeof(p), "%s/sys/power/pm_test", self->root);
	ASSERT_EQ(0, unlink(p));
	EXPECT_EQ(-ENOENT, devpm_pm_test_levels(lv, 8, NULL));
	EXPECT_NE(NULL, strstr(devpm_error(), "CONFIG_PM_DEBUG"));
	EXPECT_EQ(-ENOENT, devpm_pm_test_set("devices"));
	EXPECT_NE(NULL, strstr(devpm_error(), "CONFIG_PM_DEBUG"));
	/* Nothing was written on the way. */
	EXPECT_STREQ("5", tree_val(self->root, DEVPM_PM_TEST_DELAY));
}

TEST_F(pw, suspend_stats)
{
	static const char *const nums[] = {
		"success", "fail", "failed_freeze", "failed_prepare",
		"failed_suspend", "failed_suspend_late",
		"failed_suspend_noirq", "failed_resume", "failed_resume_early",
		"failed_resume_noirq",
	};
	struct devpm_suspend_stats s;
	char p[128], v[8];
	size_t i;

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		snprintf(p, sizeof(p), "/sys/power/suspend_stats/%s", nums[i]);
		snprintf(v, sizeof(v), "%zu", i);
		tree_put(self->root, p, v);
	}
	tree_put(self->root, "/sys/power/suspend_stats/last_failed_errno",
		 "-5");
	tree_put(self->root, "/sys/power/suspend_stats/last_failed_dev",
		 "devpm_mock.3");
	/* 6.1 prints "" for suspend_late (suspend_step_name()). */
	tree_put(self->root, "/sys/power/suspend_stats/last_failed_step", "");
	ASSERT_EQ(0, devpm_suspend_stats_read(&s)) TH_LOG("%s", devpm_error());
	EXPECT_EQ(0, s.success);
	EXPECT_EQ(1, s.fail);
	EXPECT_EQ(5, s.failed_suspend_late);
	EXPECT_EQ(9, s.failed_resume_noirq);
	EXPECT_EQ(-5, s.last_failed_errno);
	EXPECT_STREQ("devpm_mock.3", s.last_failed_dev);
	EXPECT_STREQ("", s.last_failed_step);
	EXPECT_EQ(5, devpm_suspend_stats_failed(&s, "suspend_late"));
	EXPECT_EQ(3, devpm_suspend_stats_failed(&s, "prepare"));
	EXPECT_EQ(-1, devpm_suspend_stats_failed(&s, "nonsense"));
	/* A file missing: an error naming it, not zeros. */
	snprintf(p, sizeof(p), "%s/sys/power/suspend_stats/fail", self->root);
	ASSERT_EQ(0, unlink(p));
	EXPECT_EQ(-ENOENT, devpm_suspend_stats_read(&s));
	EXPECT_NE(NULL, strstr(devpm_error(), "suspend_stats/fail"));
}

TEST_HARNESS_MAIN
