// SPDX-License-Identifier: GPL-2.0-only
/*
 * leaker.c - a program that leaks a usage reference and does not notice:
 * its case has no fixture teardown (so no verdict of its own) and reports
 * no device.  devpm_mock.4 (made before the baseline, qemu/init) gets
 * leak_on_resume and one control on -> auto cycle.  The runner's final
 * re-check (baseline/final_recheck) must fail naming devpm_mock.4.
 * Only `make qemu-planted` boots this program.
 */
#include "harness/test.h"
#include "mock/mock.h"

#define LEAKY 4

static const struct devpm_test_info info = {
	.suite = "planted",
	.timeout_s = 30,
	.needs = { .root = true, .files = (const char *const[]){
			DEVPM_MOCK_CTL, NULL } },
};

TEST(leak_unnoticed)
{
	char ctl[DEVPM_PATH_MAX];
	struct devpm_dev d;

	ASSERT_EQ(0, devpm_mock_dev(LEAKY, &d)) TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_dev_attr(&d, "control", ctl, sizeof(ctl)));
	ASSERT_EQ(0, devpm_mock_bug(LEAKY, "leak_on_resume"))
		TH_LOG("%s", devpm_error());
	/* control=on resumes it: the planted runtime_resume leaks. */
	EXPECT_EQ(0, devpm_knob_write(ctl, "on")) TH_LOG("%s", devpm_error());
	EXPECT_EQ(0, devpm_knob_write(ctl, "auto")) TH_LOG("%s", devpm_error());
	EXPECT_EQ(0, devpm_mock_bug(LEAKY, "none"));
}

DEVPM_TEST_MAIN(info)
