// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress.c - many suspend cycles, each with one wakeup event from
 * devpm_mock at a random point and offset: no event may be lost, no
 * suspend may hang, the kernel may not WARN (the runner fails the case on
 * a splat in the log).
 *
 * A mix of cycles (the seed picks them; DEVPM_SEED=N replays a run):
 *   65 %  pm_test=freezer, event after PM_SUSPEND_PREPARE (~20 ms)
 *   27 %  s2idle, event in prepare or suspend: aborts (mostly cheap: the
 *         mock device suspends first, so little is resumed)
 *    8 %  s2idle, hard event in suspend_late or suspend_noirq: every
 *         device suspends and resumes (~0.1 s under TCG where the
 *         environment set QEMU's controllers aside; ~1.7 s with them)
 * Cycles: 100, or DEVPM_STRESS_CYCLES (the stress profile's 2000).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/test.h"
#include "mock/mock.h"
#include "mock/mock_cycle.h"
#include "sleep/wake_account.h"
#include "sleep/wake_env.h"
#include "wakeup_suite.h"

#define MOCK_ID		0
#define CYCLES		100
#define CYCLES_STRESS	2000
#define CYCLE_BOUND_S	2	/* a cycle's share of the program timeout */
#define HARNESS_S	(60 + CYCLES_STRESS * CYCLE_BOUND_S)

static struct devpm_test_info info = {
	.suite = "wakeup",
	.timeout_s = 60 + CYCLES * CYCLE_BOUND_S,
	/* Its cycles judge only the events and devices it makes. */
	.sleep_scope = DEVPM_SLEEP_OWN_DEVICES,
	.needs = {
		.root = true,
		.sleep = true,
		.files = (const char *const[]){ "/sys/power/wakeup_count",
						"/sys/power/suspend_stats",
						NULL },
	},
};

static long ncycles = CYCLES;

/* The cycle count, and the program's timeout to match (--needs). */
__attribute__((constructor)) static void stress_scale(void)
{
	const char *n = getenv("DEVPM_STRESS_CYCLES");

	if (n && atol(n) > 0)
		ncycles = atol(n);
	info.timeout_s = 60 + ncycles * CYCLE_BOUND_S;
}

FIXTURE(stress) {
	off_t mark;
	struct devpm_wake_env env;
	struct devpm_mock_cycle m;
};

FIXTURE_SETUP(stress)
{
	const char *bug = getenv("DEVPM_MOCK_BUG");
	char why[256];
	int r;

	self->m.qfd = -1;
	self->mark = devpm_case_setup();
	ASSERT_EQ(0, devpm_wake_env_init(&self->env)) TH_LOG("%s", devpm_error());
	r = devpm_mock_cycle_open(&self->m, MOCK_ID, &self->env, why, sizeof(why));
	if (r == 1)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, r) TH_LOG("%s", devpm_error());
	if (bug && bug[0]) {
		devpm_note("planted bug: devpm_mock.%d %s", MOCK_ID, bug);
		ASSERT_EQ(0, devpm_mock_bug(MOCK_ID, bug))
			TH_LOG("%s", devpm_error());
	}
}

FIXTURE_TEARDOWN(stress)
{
	devpm_mock_cycle_close(&self->m);
	devpm_case_teardown(self->mark);
}

/* xorshift64*: the same seed, the same cycles on any libc. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void pick(const struct devpm_wake_env *e, uint64_t *rs, struct devpm_mock_cycle_shot *s)
{
	static const char *const dev[] = { "prepare", "suspend" };
	static const char *const late[] = { "suspend_late", "suspend_noirq" };
	unsigned int r = next(rs) % 100;

	memset(s, 0, sizeof(*s));
	if (r < 65) {
		s->point = "pm_prepare";
		s->off_us = next(rs) % 20000;
		s->how = DEVPM_HOW_PM_TEST;
		s->level = "freezer";
		s->kind = next(rs) % 2 ? DEVPM_MOCK_HARD : DEVPM_MOCK_SOFT;
		s->handshake = next(rs) % 2;
		return;
	}
	if (r < 92) {
		s->point = dev[next(rs) % 2];
		s->off_us = next(rs) % 3000;
		s->kind = next(rs) % 2 ? DEVPM_MOCK_HARD : DEVPM_MOCK_SOFT;
		s->handshake = s->kind == DEVPM_MOCK_SOFT;
		s->level = "devices";
	} else {
		s->point = late[next(rs) % 2];
		s->off_us = next(rs) % 1000;
		s->kind = DEVPM_MOCK_HARD;
		s->level = "platform";
	}
	/* Without the agent nothing would wake a lost event's sleep. */
	s->how = e->agent ? DEVPM_HOW_SELF : DEVPM_HOW_PM_TEST;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The runner's bound (info.timeout_s, scaled) is the one that counts. */
TEST_F_TIMEOUT(stress, stress_random_injection, HARNESS_S)
{
	const char *env_seed = getenv("DEVPM_SEED");
	uint64_t seed, rs, *cyc;
	unsigned long real = 0;
	long i, done = 0;
	struct devpm_mock_cycle_res r;
	struct devpm_mock_cycle_shot s;

	seed = env_seed ? strtoull(env_seed, NULL, 0) :
		(uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	if (!seed)
		seed = 1;
	devpm_note("seed %llu (DEVPM_SEED=%llu replays this run), %ld cycles",
		   (unsigned long long)seed, (unsigned long long)seed,
		   ncycles);
	cyc = calloc(ncycles, sizeof(*cyc));
	ASSERT_NE(NULL, cyc);
	rs = seed;
	for (i = 0; i < ncycles; i++) {
		pick(&self->env, &rs, &s);
		devpm_note("point %ld: %s+%ld", i, s.point, s.off_us);
		if (devpm_mock_cycle_cycle(&self->m, &s, &r)) {
			TH_LOG("cycle %ld (%s+%ld): %s", i, s.point, s.off_us,
			       devpm_error());
			DEVPM_CASE_FAIL(_metadata);
			break;
		}
		cyc[done++] = r.cycle_us;
		real += s.how != DEVPM_HOW_PM_TEST;
	}
	qsort(cyc, done, sizeof(*cyc), cmp_u64);
	devpm_note("%ld cycles (%lu real s2idle, %lu pm_test): aborted %lu, woke %lu, slept %lu; produced %lu, consumed %lu, lost %lu",
		   done, real, done - real,
		   self->m.tally.outcome[DEVPM_WAKE_ABORTED],
		   self->m.tally.outcome[DEVPM_WAKE_WOKE],
		   self->m.tally.outcome[DEVPM_WAKE_SLEPT],
		   self->m.tally.produced, self->m.tally.consumed,
		   self->m.tally.lost);
	devpm_metric("-", "cycles", done);
	devpm_metric("-", "aborted", self->m.tally.outcome[DEVPM_WAKE_ABORTED]);
	devpm_metric("-", "woke", self->m.tally.outcome[DEVPM_WAKE_WOKE]);
	devpm_metric("-", "slept", self->m.tally.outcome[DEVPM_WAKE_SLEPT]);
	devpm_metric("-", "lost", self->m.tally.lost);
	if (done) {
		devpm_metric("-", "cycle_p50_us", cyc[done / 2]);
		devpm_metric("-", "cycle_p99_us", cyc[(done * 99) / 100]);
	}
	free(cyc);
	EXPECT_EQ(ncycles, done);
	EXPECT_EQ(0, self->m.tally.lost)
		TH_LOG("%lu of %lu events lost (seed %llu); first: %s",
		       self->m.tally.lost, self->m.tally.produced,
		       (unsigned long long)seed, self->m.tally.first_lost);
}

DEVPM_TEST_MAIN(info)
