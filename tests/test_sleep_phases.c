// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sleep_phases.c - lib/trace/sleep_phases.c (a cycle's phase and side
 * spans, the phases seen) and lib/sleep/sleep_cycle_cache.c (a cycle saved by one
 * case, read back by the next; a file another user may write is refused).
 */
#include "devpm.h"
#include "sleep/sleep_cycle_cache.h"
#include "trace/sleep_phases.h"
#include "trace/sleep_trace.h"
#include "kselftest_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


static void span(struct devpm_sleep_cycle *c, enum devpm_pm_phase ph,
		 uint64_t b, uint64_t e)
{
	c->phase[ph].begin_us = b;
	c->phase[ph].end_us = e;
}

TEST(phase_and_side_spans)
{
	struct devpm_sleep_cycle c;
	char buf[128];

	memset(&c, 0, sizeof(c));
	EXPECT_EQ(0ULL, devpm_sleep_side_us(&c, true));
	EXPECT_EQ(0ULL, devpm_sleep_side_us(&c, false));
	devpm_sleep_phases_seen(&c, buf, sizeof(buf));
	EXPECT_STREQ("none", buf);

	span(&c, DEVPM_PH_PREPARE, 1000, 1100);
	span(&c, DEVPM_PH_SUSPEND, 1100, 1500);
	/* No noirq phase seen: the side ends with the last one seen. */
	EXPECT_EQ(100ULL, devpm_sleep_phase_us(&c, DEVPM_PH_PREPARE));
	EXPECT_EQ(500ULL, devpm_sleep_side_us(&c, true));
	EXPECT_EQ(0ULL, devpm_sleep_phase_us(&c, DEVPM_PH_SUSPEND_NOIRQ));
	/* An end before its begin (lost events) is no span. */
	span(&c, DEVPM_PH_SUSPEND_LATE, 1600, 1550);
	EXPECT_EQ(0ULL, devpm_sleep_phase_us(&c, DEVPM_PH_SUSPEND_LATE));

	span(&c, DEVPM_PH_RESUME_NOIRQ, 5000, 5200);
	span(&c, DEVPM_PH_COMPLETE, 6000, 6300);
	EXPECT_EQ(1300ULL, devpm_sleep_side_us(&c, false));
	devpm_sleep_phases_seen(&c, buf, sizeof(buf));
	EXPECT_STREQ("prepare,suspend,suspend_late,resume_noirq,complete", buf)
		TH_LOG("phase names: %s", buf);
}

FIXTURE(cache) {
	char dir[64];
	char journal[96];
};

FIXTURE_SETUP(cache)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/devpm-cc-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->journal, sizeof(self->journal), "%s/journal",
		 self->dir);
	setenv("DEVPM_JOURNAL", self->journal, 1);
}

FIXTURE_TEARDOWN(cache)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("%s left behind", self->dir);
	unsetenv("DEVPM_JOURNAL");
}

TEST_F(cache, saved_then_read_back)
{
	struct devpm_sleep_cycle_meta m = { .level = "platform", .state = "freeze",
				      .ret = 0, .success_before = 4,
				      .success_after = 5, .wall_us = 123456,
				      .name = "bench.on" }, mm;
	struct devpm_sleep_cycle c, d;

	memset(&c, 0, sizeof(c));
	span(&c, DEVPM_PH_PREPARE, 1000, 1100);
	span(&c, DEVPM_PH_COMPLETE, 9000, 9400);
	/* Nothing saved yet: the caller runs the cycle. */
	EXPECT_EQ(-1, devpm_sleep_cycle_cache_load("on", &d, &mm));
	devpm_sleep_cycle_cache_save("on", &c, &m);
	ASSERT_EQ(0, devpm_sleep_cycle_cache_load("on", &d, &mm));
	EXPECT_STREQ("platform", mm.level);
	EXPECT_STREQ("bench.on", mm.name);
	EXPECT_EQ(5, mm.success_after);
	EXPECT_EQ(123456ULL, mm.wall_us);
	EXPECT_EQ(400ULL, devpm_sleep_phase_us(&d, DEVPM_PH_COMPLETE));
	devpm_sleep_cycle_free(&d);
	/* Another name is another cycle. */
	EXPECT_EQ(-1, devpm_sleep_cycle_cache_load("off", &d, NULL));
}

TEST_F(cache, file_others_may_write_is_refused)
{
	struct devpm_sleep_cycle_meta m = { .level = "none", .state = "freeze",
				      .name = "real" };
	struct devpm_sleep_cycle c, d;
	char p[256];

	memset(&c, 0, sizeof(c));
	devpm_sleep_cycle_cache_save("real", &c, &m);
	ASSERT_EQ(0, devpm_sleep_cycle_cache_load("real", &d, NULL));
	devpm_sleep_cycle_free(&d);
	snprintf(p, sizeof(p), "%s/async-cycle-%d-real.meta", self->dir,
		 (int)getppid());
	ASSERT_EQ(0, chmod(p, 0620));
	EXPECT_EQ(-1, devpm_sleep_cycle_cache_load("real", &d, NULL));
}

TEST_HARNESS_MAIN
