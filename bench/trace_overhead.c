// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_overhead.c - what devpm's tracing costs the kernel it measures:
 * the runtime resume of one devpm_mock device with a fixed 5 ms
 * runtime_resume delay, timed around its synchronous control=on write
 * (pm_runtime_forbid() calls rpm_resume(): drivers/base/power/runtime.c),
 * 20 times with devpm's trace instance on (the rpm events enabled and
 * filtered to the device, as every suite runs) and 20 times with no trace,
 * in alternating blocks of 5 in the same boot.  The medians must differ
 * by at most 5 % (issue #17).  A bench program (suite "bench"), not part
 * of the default run: `make qemu-bench`.
 */
#include <stdlib.h>
#include <time.h>

#include "harness/test.h"
#include "mock/mock.h"

#define CYCLES		20	/* per mode */
#define BLOCK		5	/* cycles of one mode in a row */
#define RESUME_US	5000	/* the mock's runtime_resume delay */
#define AS_MS		10	/* its autosuspend delay */
#define WAIT_MS		2000
#define LIMIT_PCT	5.0

static const struct devpm_test_info info = {
	.suite = "bench",
	.timeout_s = 120,
	.needs = {
		.root = true,
		.tracefs = true,
		.kconfigs = (const char *const[]){ "CONFIG_PM", NULL },
	},
};

FIXTURE(trace) {
	off_t mark;
	char why[512];
	int loaded;
};

FIXTURE_SETUP(trace)
{
	self->mark = devpm_case_setup();
	self->loaded = devpm_mock_load(false, self->why, sizeof(self->why));
	if (self->loaded < 0)
		TH_LOG("devpm_mock_load: %s", devpm_error());
}

FIXTURE_TEARDOWN(trace)
{
	devpm_case_teardown(self->mark);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ull + ts.tv_nsec / 1000;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/*
 * One cycle: let the device autosuspend, then time its resume.  0 with
 * *us set, or -errno with why filled.
 */
static int cycle(struct devpm_dev *d, const char *control, uint64_t *us,
		 char *why, size_t len)
{
	struct devpm_wait_result res;
	uint64_t t0;
	int r;

	r = devpm_knob_write(control, "auto");
	if (!r)
		r = devpm_wait_status_why(d, NULL, "suspended", WAIT_MS, &res);
	if (r) {
		snprintf(why, len, "%s", res.why[0] ? res.why : devpm_error());
		return r;
	}
	t0 = now_us();
	r = devpm_knob_write(control, "on");
	*us = now_us() - t0;
	if (r)
		snprintf(why, len, "control=on: %s", devpm_error());
	return r;
}

TEST_F(trace, resume_trace_on_off)
{
	static const char *const devs[] = { "devpm_mock.0", NULL };
	struct devpm_mock_opts o = { .parent = DEVPM_MOCK_NO_PARENT,
				     .async = 1, .autosuspend_ms = AS_MS };
	uint64_t on[CYCLES], off[CYCLES], us;
	size_t non = 0, noff = 0;
	struct devpm_trace *t = NULL;
	char control[DEVPM_PATH_MAX], why[768];
	double mon, moff, pct;
	struct devpm_dev d;
	int i;

	ASSERT_LE(0, self->loaded);
	if (self->loaded)
		SKIP(return, "%s", self->why);
	ASSERT_EQ(0, devpm_mock_create(0, &o))
		TH_LOG("create devpm_mock.0: %s", devpm_error());
	ASSERT_EQ(0, devpm_mock_set_cb(0, DEVPM_MOCK_RUNTIME_RESUME,
				       RESUME_US, 0))
		TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_mock_dev(0, &d));
	ASSERT_EQ(0, devpm_dev_attr(&d, "control", control, sizeof(control)));
	for (i = 0; i < 2 * CYCLES; i++) {
		bool traced = (i / BLOCK) % 2;

		if (traced && !t) {
			t = devpm_trace_start(devs);
			ASSERT_NE(NULL, t)
				TH_LOG("trace: %s", devpm_error());
		} else if (!traced && t) {
			devpm_trace_stop(t);
			t = NULL;
		}
		ASSERT_EQ(0, cycle(&d, control, &us, why, sizeof(why)))
			TH_LOG("devpm_mock.0 cycle %d: %s", i, why);
		if (traced)
			on[non++] = us;
		else
			off[noff++] = us;
		/* Keep the trace's buffer from filling. */
		if (t)
			devpm_trace_poll(t, 0);
	}
	if (t)
		devpm_trace_stop(t);
	/* Every resume waited out the mock's delay (negative control). */
	mon = median(on, non);
	moff = median(off, noff);
	EXPECT_LE(RESUME_US, off[0]);
	EXPECT_LE(RESUME_US, on[0]);
	pct = (mon - moff) * 100.0 / moff;
	devpm_metric("-", "resume_trace_on_us_p50", mon);
	devpm_metric("-", "resume_trace_off_us_p50", moff);
	devpm_metric("-", "trace_overhead_pct", pct);
	devpm_note("devpm_mock.0 runtime resume (delay %d us), median of %zu: trace on %.0f us (%llu-%llu), off %.0f us (%llu-%llu): %+.1f %%",
		   RESUME_US, non, mon, (unsigned long long)on[0],
		   (unsigned long long)on[non - 1], moff,
		   (unsigned long long)off[0],
		   (unsigned long long)off[noff - 1], pct);
	EXPECT_GE(LIMIT_PCT, pct > 0 ? pct : -pct)
		TH_LOG("devpm_mock.0 (driver devpm_mock): trace on %.0f us vs off %.0f us: %+.1f %%, limit %.0f %%",
		       mon, moff, pct, LIMIT_PCT);
}

DEVPM_TEST_MAIN(info)
