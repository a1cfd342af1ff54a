// SPDX-License-Identifier: GPL-2.0-only
/*
 * rules.c - negative controls of the verdict rules (lib/verdict.c) in the
 * guest: devpm_mock devices made before `devpm run` took its baseline
 * (qemu/init, DEVPM_QEMU_PLANTED=1) get one planted bug each, and the
 * generic cases must fail exactly the buggy ones, naming them:
 *
 *	devpm_mock.0	clean				passes
 *	devpm_mock.1	leak_on_resume			usage drifts: FAIL
 *	devpm_mock.2	runtime_resume_eio		status error: FAIL
 *	devpm_mock.3	runtime_suspend_eio		status error: FAIL
 *
 * Only `make qemu-planted` boots this program (qemu/run.sh --planted).
 */
#include "test.h"

#define NMOCK 4

static const char *const bugs[NMOCK] = {
	"none", "leak_on_resume", "runtime_resume_eio", "runtime_suspend_eio",
};

static const struct devpm_test_info info = {
	.suite = "planted",
	.timeout_s = 120,
	.needs = { .root = true, .files = (const char *const[]){
			DEVPM_MOCK_CTL, NULL } },
};

FIXTURE(planted) {
	off_t mark;
};

FIXTURE_SETUP(planted)
{
	self->mark = devpm_case_setup();
}

FIXTURE_TEARDOWN(planted)
{
	int i;

	/* The bugs go; what they did stays for the verdict to see. */
	for (i = 0; i < NMOCK; i++)
		devpm_mock_bug(i, "none");
	devpm_case_teardown(self->mark);
}

/* Nothing planted yet: every mock device suspends as at baseline. */
TEST_F(planted, idle_devices_suspend)
{
	struct devpm_wait_result w;
	struct devpm_sub s;
	struct devpm_dev d;
	int i;

	devpm_sub_begin(&s, "idle_devices_suspend");
	for (i = 0; i < NMOCK; i++) {
		if (devpm_mock_dev(i, &d) < 0) {
			devpm_sub_fail(&s, "devpm_mock", "devpm_mock.%d: %s", i,
				       devpm_error());
			continue;
		}
		if (devpm_wait_status_why(&d, NULL, "suspended", 2000, &w))
			devpm_sub_fail(&s, d.name, "%s", w.why);
		else
			devpm_sub_pass(&s, d.name, "suspended");
	}
	DEVPM_SUB_END(&s);
}

/* Each device with its bug, cycled by control (rule 4). */
TEST_F(planted, usage_balanced_after_cycles)
{
	struct devpm_cycle c;
	struct devpm_sub s;
	struct devpm_dev d;
	int i, r;

	devpm_sub_begin(&s, "usage_balanced_after_cycles");
	for (i = 0; i < NMOCK; i++) {
		if (devpm_mock_dev(i, &d) < 0 || devpm_mock_bug(i, bugs[i])) {
			devpm_sub_fail(&s, "devpm_mock", "devpm_mock.%d: %s", i,
				       devpm_error());
			continue;
		}
		r = devpm_cycle_control(&d, NULL, DEVPM_CYCLES_MIN, 2000, &c);
		if (r)
			devpm_sub_fail(&s, d.name, "%s (driver %s)",
				       c.why[0] ? c.why : devpm_error(),
				       d.driver);
		else
			devpm_sub_pass(&s, d.name,
				       "%d control cycles, usage %ld as at baseline",
				       c.done, c.usage);
	}
	DEVPM_SUB_END(&s);
}

DEVPM_TEST_MAIN(info)
