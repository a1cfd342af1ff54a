// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kprobe_count.c - lib/kprobe_count.c: bad input, a recorded tree
 * (no live kernel), and on a kernel with the kprobe PMU a count that
 * follows the calls made (getppid) and a function that does not exist.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "devpm.h"
#include "fake_tree.h"

TEST(bad_name)
{
	struct devpm_kcount *c = (void *)1;

	EXPECT_EQ(-EINVAL, devpm_kcount_open("", &c));
	EXPECT_EQ(NULL, c);
	EXPECT_EQ(-EINVAL, devpm_kcount_read(NULL));
	devpm_kcount_close(NULL);
}

TEST(recorded_tree_refused)
{
	char jdir[UNIT_PATH_MAX];
	char *root = tree_new();
	struct devpm_kcount *c = NULL;

	ASSERT_EQ(0, tree_use(root, jdir, sizeof(jdir)));
	tree_put(root, DEVPM_KPROBE_PMU, "6");
	EXPECT_EQ(-EOPNOTSUPP, devpm_kcount_open("__x64_sys_getppid", &c));
	EXPECT_NE(NULL, strstr(devpm_error(), "live kernel"));
	tree_unuse(root);
}

TEST(counts_calls)
{
	struct devpm_kcount *c = NULL;
	int64_t before, after;
	int i, r;

	if (access(DEVPM_KPROBE_PMU, R_OK)) {
		/* The negative path: one line naming what is missing. */
		EXPECT_EQ(-ENOENT, devpm_kcount_open("__x64_sys_getppid", &c));
		EXPECT_NE(NULL, strstr(devpm_error(), "CONFIG_KPROBE_EVENTS"));
		SKIP(return, "no kprobe PMU in this kernel (%s)",
		     DEVPM_KPROBE_PMU);
	}
	r = devpm_kcount_open("__x64_sys_getppid", &c);
	if (r == -EACCES || r == -EPERM)
		SKIP(return, "not allowed: %s", devpm_error());
	ASSERT_EQ(0, r) TH_LOG("%s", devpm_error());
	before = devpm_kcount_read(c);
	for (i = 0; i < 10; i++)
		syscall(SYS_getppid);
	after = devpm_kcount_read(c);
	EXPECT_LE(10, after - before);
	devpm_kcount_close(c);
	c = NULL;
	EXPECT_GT(0, devpm_kcount_open("devpm_no_such_function", &c));
	EXPECT_EQ(NULL, c);
}

TEST_HARNESS_MAIN
