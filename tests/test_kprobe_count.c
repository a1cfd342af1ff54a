// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kprobe_count.c - lib/core/kprobe_count.c: bad input, a recorded tree
 * (no live kernel), and on a kernel with the kprobe PMU a count that
 * follows the calls made (getppid) and a function that does not exist.
 */
#include "devpm.h"
#include "core/kprobe_count.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>


TEST(bad_name)
{
	struct devpm_kprobe_count *c = (void *)1;

	EXPECT_EQ(-EINVAL, devpm_kprobe_count_open("", &c));
	EXPECT_EQ(NULL, c);
	EXPECT_EQ(-EINVAL, devpm_kprobe_count_read(NULL));
	devpm_kprobe_count_close(NULL);
}

TEST(recorded_tree_refused)
{
	char jdir[UNIT_PATH_MAX];
	char *root = tree_new();
	struct devpm_kprobe_count *c = NULL;

	ASSERT_EQ(0, tree_use(root, jdir, sizeof(jdir)));
	tree_put(root, DEVPM_KPROBE_PMU, "6");
	EXPECT_EQ(-EOPNOTSUPP, devpm_kprobe_count_open("__x64_sys_getppid", &c));
	EXPECT_NE(NULL, strstr(devpm_error(), "live kernel"));
	tree_unuse(root);
}

TEST(counts_calls)
{
	struct devpm_kprobe_count *c = NULL;
	int64_t before, after;
	int i, r;

	if (access(DEVPM_KPROBE_PMU, R_OK)) {
		/* The negative path: one line naming what is missing. */
		EXPECT_EQ(-ENOENT, devpm_kprobe_count_open("__x64_sys_getppid", &c));
		EXPECT_NE(NULL, strstr(devpm_error(), "CONFIG_KPROBE_EVENTS"));
		SKIP(return, "no kprobe PMU in this kernel (%s)",
		     DEVPM_KPROBE_PMU);
	}
	r = devpm_kprobe_count_open("__x64_sys_getppid", &c);
	if (r == -EACCES || r == -EPERM)
		SKIP(return, "not allowed: %s", devpm_error());
	ASSERT_EQ(0, r) TH_LOG("%s", devpm_error());
	before = devpm_kprobe_count_read(c);
	for (i = 0; i < 10; i++)
		syscall(SYS_getppid);
	after = devpm_kprobe_count_read(c);
	EXPECT_LE(10, after - before);
	devpm_kprobe_count_close(c);
	c = NULL;
	EXPECT_GT(0, devpm_kprobe_count_open("devpm_no_such_function", &c));
	EXPECT_EQ(NULL, c);
}

TEST_HARNESS_MAIN
