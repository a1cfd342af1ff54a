// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_wait.c - lib/rpm/wait.c in its polling mode, on a fake tree where a
 * thread plays the kernel: it flips runtime_status after a delay (or never).
 */
#include "devpm.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#define DEV "/sys/devices/pci0000:00/0000:00:02.0"

struct flipper {
	const char *root;
	int after_ms;
	uint64_t flipped_us;
	pthread_t th;
};

static void *flip(void *arg)
{
	struct flipper *f = arg;
	struct timespec ts = {
		.tv_sec = f->after_ms / 1000,
		.tv_nsec = (long)(f->after_ms % 1000) * 1000000,
	};
	char tmp[PATH_MAX], dst[PATH_MAX];
	FILE *fp;

	nanosleep(&ts, NULL);
	/* A rename makes the change atomic, as a sysfs read would see it. */
	snprintf(tmp, sizeof(tmp), "%s%s/power/.runtime_status", f->root, DEV);
	snprintf(dst, sizeof(dst), "%s%s/power/runtime_status", f->root, DEV);
	fp = fopen(tmp, "w");
	if (!fp)
		abort();
	fputs("suspended\n", fp);
	fclose(fp);
	f->flipped_us = devpm_now_us();
	if (rename(tmp, dst))
		abort();
	return NULL;
}

static char *setup(struct __test_metadata *_metadata, struct devpm_dev *d,
		   const char *control)
{
	char *root = tree_new();

	tree_device(root, DEV, "pci", "e1000e", control, "active",
		    !strcmp(control, "on") ? 1 : 0, 0);
	ASSERT_EQ(0, devpm_set_sysfs_root(root));
	ASSERT_EQ(0, devpm_dev_open(d, DEV));
	return root;
}

TEST(poll_sees_the_flip)
{
	struct devpm_wait_result res;
	struct flipper f = { .after_ms = 50 };
	struct devpm_dev d;
	char *root = setup(_metadata, &d, "auto");

	f.root = root;
	ASSERT_EQ(0, pthread_create(&f.th, NULL, flip, &f));
	ASSERT_EQ(0, devpm_wait_status(&d, NULL, "suspended", 2000, &res));
	pthread_join(f.th, NULL);
	EXPECT_TRUE(res.reached);
	EXPECT_FALSE(res.traced);
	EXPECT_STREQ("suspended", res.status);
	EXPECT_EQ(res.at_us - res.start_us, res.waited_us);
	/* Seen after the flip, and within one back-off step (16 ms) of it. */
	EXPECT_LE(f.flipped_us, res.at_us);
	EXPECT_GT(f.flipped_us + 16000 + 20000, res.at_us);
	EXPECT_LE(50000, (long)res.waited_us);
	EXPECT_GT(200000, (long)res.waited_us);
	EXPECT_STREQ("", res.why);
	tree_rm(root);
}

TEST(timeout_names_control_on)
{
	struct devpm_wait_result res;
	struct devpm_dev d;
	char *root = setup(_metadata, &d, "on");
	uint64_t t0 = devpm_now_us();

	EXPECT_EQ(-ETIMEDOUT, devpm_wait_status(&d, NULL, "suspended", 300,
						&res));
	EXPECT_FALSE(res.reached);
	EXPECT_STREQ("active", res.status);
	/* Bounded: not before the timeout, not long after it. */
	EXPECT_LE(300000, (long)res.waited_us);
	EXPECT_GT(300000 + 100000, (long)(devpm_now_us() - t0));
	EXPECT_NE(NULL, strstr(res.why, "still active after 300 ms"));
	EXPECT_NE(NULL, strstr(res.why, "control=on")) {
		TH_LOG("why: %s", res.why);
	}
	tree_rm(root);
}

TEST(timeout_with_control_auto_blames_something_else)
{
	struct devpm_wait_result res;
	struct devpm_dev d;
	char *root = setup(_metadata, &d, "auto");

	/* Negative control for the one above: the same wait, control=auto. */
	EXPECT_EQ(-ETIMEDOUT, devpm_wait_status(&d, NULL, "suspended", 100,
						&res));
	EXPECT_EQ(NULL, strstr(res.why, "control=on")) {
		TH_LOG("why: %s", res.why);
	}
	EXPECT_NE(0, res.why[0]);
	tree_rm(root);
}

TEST(already_there_returns_at_once)
{
	struct devpm_wait_result res;
	struct devpm_dev d;
	char *root = setup(_metadata, &d, "auto");

	ASSERT_EQ(0, devpm_wait_status(&d, NULL, "active", 1000, &res));
	EXPECT_TRUE(res.reached);
	EXPECT_GT(10000, (long)res.waited_us);
	tree_rm(root);
}

TEST(no_status_file_fails_fast)
{
	struct devpm_wait_result res;
	struct devpm_dev d;
	char *root = setup(_metadata, &d, "auto");
	char p[PATH_MAX];
	uint64_t t0;

	snprintf(p, sizeof(p), "%s%s/power/runtime_status", root, DEV);
	ASSERT_EQ(0, unlink(p));
	t0 = devpm_now_us();
	EXPECT_EQ(-ENOENT, devpm_wait_status(&d, NULL, "suspended", 5000,
					     &res));
	EXPECT_GT(100000, (long)(devpm_now_us() - t0));
	EXPECT_NE(NULL, strstr(devpm_error(), "no power/runtime_status"));
	/* Negative control for the _why variant: the plain wait leaves why. */
	EXPECT_STREQ("", res.why);
	EXPECT_EQ(-ENOENT, devpm_wait_status_why(&d, NULL, "suspended", 5000,
						 &res));
	EXPECT_NE(NULL, strstr(res.why, "waiting for suspended: "));
	EXPECT_NE(NULL, strstr(res.why, "no power/runtime_status"));
	tree_rm(root);
}

static bool after_calls(void *arg)
{
	int *n = arg;

	return --*n <= 0;
}

static bool never(void *arg)
{
	(void)arg;
	return false;
}

TEST(poll_until)
{
	uint64_t t0;
	int n = 4;

	/* Back-off 1, 2, 4 ms: true on the 4th call, well within 1 s. */
	t0 = devpm_now_us();
	EXPECT_TRUE(devpm_poll_until(after_calls, &n, 1000));
	EXPECT_EQ(0, n);
	EXPECT_GT(100000, (long)(devpm_now_us() - t0));
	/* Never true: false after the timeout, not much later. */
	t0 = devpm_now_us();
	EXPECT_FALSE(devpm_poll_until(never, NULL, 150));
	EXPECT_LE(150000, (long)(devpm_now_us() - t0));
	EXPECT_GT(250000, (long)(devpm_now_us() - t0));
}

/*
 * The captured 6.18 trace: 0000:00:00.0 suspended (rpm_status SUSPENDED at
 * 963.455316, rpm_suspend returned 0 at .455318), then resumed (ACTIVE at
 * .458296, rpm_resume returned 0 at .458299); 0000:00:01.0's rpm_resume
 * returned 1 (already active).  with_status=false drops the rpm_status
 * events: what a 6.1 kernel shows.
 */
static size_t load_trace(struct devpm_event *ev, size_t max, bool with_status)
{
	char p[PATH_MAX], line[1024];
	size_t n = 0;
	FILE *f;

	snprintf(p, sizeof(p), "%s/trace/host-6.18-pci-control.txt",
		 fixtures_dir());
	f = fopen(p, "r");
	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (devpm_trace_parse_line(line, &ev[n]))
			continue;
		if (with_status || ev[n].type != DEVPM_EV_RPM_STATUS)
			n++;
	}
	fclose(f);
	return n;
}

#define HB "0000:00:00.0"

TEST(traced_at_with_rpm_status)
{
	struct devpm_event ev[64];
	uint64_t at = 0;
	size_t n = load_trace(ev, 64, true);

	ASSERT_EQ(21, (int)n);
	/* Up to the suspend's return: SUSPENDED is when it got there. */
	EXPECT_EQ(1, devpm_wait_traced_at(ev, 10, HB, "suspended", &at));
	EXPECT_EQ(963455316ULL, at);
	/* After the resume the newest status is ACTIVE. */
	EXPECT_EQ(0, devpm_wait_traced_at(ev, n, HB, "suspended", &at));
	EXPECT_EQ(1, devpm_wait_traced_at(ev, n, HB, "active", &at));
	EXPECT_EQ(963458296ULL, at);
	/* Nothing for another device, or another status. */
	EXPECT_EQ(0, devpm_wait_traced_at(ev, n, "0000:00:09.0", "active",
					  &at));
	EXPECT_EQ(0, devpm_wait_traced_at(ev, n, HB, "resuming", &at));
}

TEST(traced_at_from_returns)
{
	struct devpm_event ev[64];
	uint64_t at = 0;
	size_t n = load_trace(ev, 64, false);

	ASSERT_EQ(17, (int)n);
	/* idle, return, idle, return, suspend, (pci0000:00), return 0. */
	EXPECT_EQ(1, devpm_wait_traced_at(ev, 8, HB, "suspended", &at));
	EXPECT_EQ(963455318ULL, at);
	/* The suspend call without its return yet: wait for it. */
	EXPECT_EQ(-EAGAIN, devpm_wait_traced_at(ev, 5, HB, "suspended", &at));
	/* A later successful resume ends the suspended stretch. */
	EXPECT_EQ(0, devpm_wait_traced_at(ev, n, HB, "suspended", &at));
	EXPECT_EQ(1, devpm_wait_traced_at(ev, n, HB, "active", &at));
	EXPECT_EQ(963458299ULL, at);
	/* rpm_resume returned 1: already active, no transition to time. */
	EXPECT_EQ(0, devpm_wait_traced_at(ev, n, "0000:00:01.0", "active",
					  &at));
}

TEST(traced_at_stale_suspend_and_failed_resume)
{
	struct devpm_event ev[8];
	uint64_t at = 0;
	static const char *const lines[] = {
		"a-1 [000] ..... 1.000000: rpm_suspend: d flags-a cnt-0 dep-0 auto-1 p-0 irq-0 child-0",
		"a-1 [000] ..... 1.000100: rpm_return_int: rpm_suspend+0x1/0x2:d ret=0",
		/* A resume that failed leaves it suspended. */
		"a-1 [000] ..... 2.000000: rpm_resume: d flags-0 cnt-1 dep-1 auto-1 p-0 irq-0 child-0",
		"a-1 [000] ..... 2.000010: rpm_return_int: rpm_resume+0x1/0x2:d ret=-13",
		/* A resume that worked: the old suspend is stale. */
		"a-1 [000] ..... 3.000000: rpm_resume: d flags-0 cnt-1 dep-0 auto-1 p-0 irq-0 child-0",
		"a-1 [000] ..... 3.000200: rpm_return_int: rpm_resume+0x1/0x2:d ret=0",
		/* A new suspend whose return is not written yet. */
		"a-1 [000] ..... 4.000000: rpm_suspend: d flags-a cnt-0 dep-0 auto-1 p-0 irq-0 child-0",
	};
	size_t i;

	for (i = 0; i < 7; i++)
		ASSERT_EQ(0, devpm_trace_parse_line(lines[i], &ev[i]));
	EXPECT_EQ(1, devpm_wait_traced_at(ev, 4, "d", "suspended", &at));
	EXPECT_EQ(1000100ULL, at);
	EXPECT_EQ(0, devpm_wait_traced_at(ev, 6, "d", "suspended", &at));
	EXPECT_EQ(-EAGAIN, devpm_wait_traced_at(ev, 7, "d", "suspended", &at));
	EXPECT_EQ(1, devpm_wait_traced_at(ev, 6, "d", "active", &at));
	EXPECT_EQ(3000200ULL, at);
}

TEST_HARNESS_MAIN
