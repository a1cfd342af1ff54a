// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_least_time.c - lib/trace/least_time.c (the union of the kernel delays a case waits
 * out), lib/trace/wait_latency.c (percentiles of the waits' lag) and what
 * devpm_wait_status() adds to both, on a fake tree.
 */
#include "devpm.h"
#include "trace/wait_latency.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>


#define DEV "/sys/devices/pci0000:00/0000:00:1f.3"
#define MS 1000ULL

TEST(floor_is_the_union_of_the_delays)
{
	uint64_t t0;

	devpm_least_time_begin();
	t0 = devpm_now_us();
	EXPECT_EQ(0ULL, devpm_least_time_us());
	/* Two devices waiting out their delays at once count once. */
	devpm_least_time_add(t0 + 1000 * MS, 100 * MS);
	devpm_least_time_add(t0 + 1050 * MS, 100 * MS);
	EXPECT_EQ(150 * MS, devpm_least_time_us());
	/* A parent's delay after its child's counts in full. */
	devpm_least_time_add_before(t0 + 1350 * MS, 200);
	EXPECT_EQ(350 * MS, devpm_least_time_us());
	/* Inside what is counted already: nothing more. */
	devpm_least_time_add(t0 + 1010 * MS, 10 * MS);
	EXPECT_EQ(350 * MS, devpm_least_time_us());
	/* No delay, or a negative one (autosuspend off): nothing. */
	devpm_least_time_add_before(t0 + 5000 * MS, 0);
	devpm_least_time_add_before(t0 + 5000 * MS, -1);
	EXPECT_EQ(350 * MS, devpm_least_time_us());
	/* Before the case began is not the case's. */
	devpm_least_time_add(t0 - 500 * MS, 400 * MS);
	EXPECT_EQ(350 * MS, devpm_least_time_us());
	devpm_least_time_add(t0 - 500 * MS, 600 * MS);
	EXPECT_GE(460 * MS, devpm_least_time_us());
	EXPECT_LE(450 * MS, devpm_least_time_us());
	/* A new case starts from nothing. */
	devpm_least_time_begin();
	EXPECT_EQ(0ULL, devpm_least_time_us());
}

TEST(floor_table_full_keeps_the_sum)
{
	uint64_t t0;
	int i;

	devpm_least_time_begin();
	t0 = devpm_now_us() + 1000 * MS;
	/* Disjoint spans, more than the table holds. */
	for (i = 0; i < 1000; i++)
		devpm_least_time_add(t0 + (uint64_t)i * 10 * MS, 5 * MS);
	EXPECT_EQ(1000 * 5 * MS, devpm_least_time_us());
}

TEST(floor_report_line)
{
	char file[] = "/tmp/devpm-floor-out-XXXXXX", buf[256];
	int fd = mkstemp(file), saved;

	ASSERT_LE(0, fd);
	close(fd);
	devpm_least_time_begin();
	devpm_least_time_add(devpm_now_us() + 10 * MS, 1500);
	saved = unit_capture_begin(1, file);
	devpm_least_time_report();
	unit_capture_end(1, saved, file, buf, sizeof(buf));
	unlink(file);
	EXPECT_STREQ("# METRIC - floor_ms=1.500\n", buf);
}

TEST(wait_lag_percentiles)
{
	char file[] = "/tmp/devpm-lag-out-XXXXXX", buf[256];
	int fd = mkstemp(file), saved, i;
	uint64_t us;

	ASSERT_LE(0, fd);
	close(fd);
	devpm_wait_latency_begin();
	EXPECT_EQ(-ENODATA, devpm_wait_latency_pct(50, &us));
	/* No sample, no line: a case without traced waits says nothing. */
	saved = unit_capture_begin(1, file);
	devpm_wait_latency_report();
	unit_capture_end(1, saved, file, buf, sizeof(buf));
	EXPECT_STREQ("", buf);
	for (i = 100; i >= 1; i--)
		devpm_wait_latency_add(1000000, 1000000 + (uint64_t)i * 100);
	/* Seen before the traced time (clock skew) counts as no lag. */
	devpm_wait_latency_add(1000000, 999000);
	EXPECT_EQ(101U, devpm_wait_latency_count());
	ASSERT_EQ(0, devpm_wait_latency_pct(50, &us));
	EXPECT_EQ(5000ULL, us);
	ASSERT_EQ(0, devpm_wait_latency_pct(99, &us));
	EXPECT_EQ(9900ULL, us);
	ASSERT_EQ(0, devpm_wait_latency_pct(0, &us));
	EXPECT_EQ(0ULL, us);
	saved = unit_capture_begin(1, file);
	devpm_wait_latency_report();
	unit_capture_end(1, saved, file, buf, sizeof(buf));
	unlink(file);
	EXPECT_STREQ("# METRIC - wait_lag_us_p50=5000.000\n"
		     "# METRIC - wait_lag_us_p99=9900.000\n", buf);
	devpm_wait_latency_begin();
	EXPECT_EQ(0U, devpm_wait_latency_count());
}

/* A device that is suspended already, with an autosuspend delay. */
static char *tree_with_delay(struct __test_metadata *_metadata,
			     struct devpm_dev *d, const char *status,
			     const char *delay)
{
	char *root = tree_new();

	tree_device(root, DEV, "pci", "i801_smbus", "auto", status, 0, 0);
	if (delay)
		tree_put(root, DEV "/power/autosuspend_delay_ms", delay);
	EXPECT_EQ(0, devpm_set_sysfs_root(root));
	EXPECT_EQ(0, devpm_dev_open(d, DEV));
	return root;
}

TEST(wait_adds_nothing_when_it_did_not_wait)
{
	struct devpm_wait_result res;
	struct devpm_dev d;
	char *root = tree_with_delay(_metadata, &d, "suspended", "1000");

	devpm_least_time_begin();
	devpm_wait_latency_begin();
	ASSERT_EQ(0, devpm_wait_status(&d, NULL, "suspended", 500, &res));
	EXPECT_EQ(0ULL, devpm_least_time_us());
	EXPECT_EQ(0U, devpm_wait_latency_count());
	devpm_set_sysfs_root("");
	tree_rm(root);
}

/*
 * A chain: the wait was on the hub, its child had suspended by the time
 * the wait looked at it.  The child's traced suspend still waited out the
 * child's delay; a suspend the wait neither waited for nor traced (it was
 * suspended before) adds nothing.
 */
TEST(traced_suspend_adds_its_delay_without_a_wait)
{
	struct devpm_wait_result res = { .reached = true };
	struct devpm_dev d;
	char *root = tree_with_delay(_metadata, &d, "suspended", "100");
	uint64_t t0;

	devpm_least_time_begin();
	t0 = devpm_now_us();
	res.at_us = t0 + 500 * MS;
	devpm_wait_floor(&d, "suspended", false, &res);
	EXPECT_EQ(0ULL, devpm_least_time_us());
	res.traced = true;
	devpm_wait_floor(&d, "suspended", false, &res);
	EXPECT_EQ(100 * MS, devpm_least_time_us());
	/* The same suspend seen by a second wait counts once. */
	devpm_wait_floor(&d, "suspended", true, &res);
	EXPECT_EQ(100 * MS, devpm_least_time_us());
	/* A resume waits out no delay; a wait not reached adds here nothing. */
	res.at_us = t0 + 900 * MS;
	devpm_wait_floor(&d, "active", true, &res);
	res.reached = false;
	devpm_wait_floor(&d, "suspended", true, &res);
	EXPECT_EQ(100 * MS, devpm_least_time_us());
	devpm_set_sysfs_root("");
	tree_rm(root);
}

TEST(timeout_waits_out_the_delay)
{
	struct devpm_wait_result res;
	struct devpm_dev d;
	char *root = tree_with_delay(_metadata, &d, "active", "100");
	uint64_t f;

	devpm_least_time_begin();
	ASSERT_EQ(-ETIMEDOUT,
		  devpm_wait_status(&d, NULL, "suspended", 300, &res));
	/* The last 100 ms of the wait: the delay it had to see pass. */
	f = devpm_least_time_us();
	EXPECT_EQ(100 * MS, f);
	devpm_set_sysfs_root("");
	tree_rm(root);
}

TEST(timeout_without_autosuspend_adds_nothing)
{
	struct devpm_wait_result res;
	struct devpm_dev d;
	char *root = tree_with_delay(_metadata, &d, "active", NULL);

	devpm_least_time_begin();
	ASSERT_EQ(-ETIMEDOUT,
		  devpm_wait_status(&d, NULL, "suspended", 100, &res));
	EXPECT_EQ(0ULL, devpm_least_time_us());
	devpm_set_sysfs_root("");
	tree_rm(root);
}

TEST_HARNESS_MAIN
