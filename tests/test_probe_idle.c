// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_probe_idle.c - lib/judge/probe_idle.c (rule 6) on a fake tree, where the
 * reprobe callback plays the driver core: a driver that let go of its
 * device in probe (the device suspends) passes; one that keeps probe's
 * reference fails naming device, driver, time waited, limit and the hold;
 * a hold the kernel honours (control=on) is not the driver's; a reprobe
 * that fails is an error, not a verdict.
 */
#include "devpm.h"
#include "judge/probe_idle.h"
#include "rpm/autosuspend_timer.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>


#define CTL "/sys/devices/platform/devpm_mock_ctl"
#define DEV CTL "/devpm_mock.5"

struct prober {
	const char *root;
	const char *status;	/* written by the "probe", NULL: none */
	int ret;
	int calls;
};

static int fake_reprobe(void *arg)
{
	struct prober *p = arg;

	p->calls++;
	if (p->ret)
		return devpm_fail(-p->ret, "devpm_mock reprobe '5': %s",
				  strerror(-p->ret));
	if (p->status)
		tree_put(p->root, DEV "/power/runtime_status", p->status);
	return 0;
}

FIXTURE(probe) {
	char *root;
	struct devpm_dev d;
	struct prober p;
};

static void make_dev(struct __test_metadata *_metadata,
		     FIXTURE_DATA(probe) *self, const char *control, int usage)
{
	tree_device(self->root, DEV, "platform", "devpm_mock", control,
		    "active", usage, 0);
	tree_put(self->root, DEV "/power/autosuspend_delay_ms", "100");
	ASSERT_EQ(0, devpm_dev_open(&self->d, DEV));
}

FIXTURE_SETUP(probe)
{
	self->root = tree_new();
	tree_device(self->root, CTL, "platform", NULL, NULL, "unsupported",
		    0, 0);
	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	self->p = (struct prober){ .root = self->root };
}

FIXTURE_TEARDOWN(probe)
{
	tree_rm(self->root);
}

/* Negative control: probe let go, the device suspended. */
TEST_F(probe, let_go_passes)
{
	struct devpm_probe_idle res;

	make_dev(_metadata, self, "auto", 0);
	self->p.status = "suspended";
	ASSERT_EQ(0, devpm_probe_idle(&self->d, fake_reprobe, &self->p, &res));
	EXPECT_EQ(1, self->p.calls);
	EXPECT_EQ(100, res.delay_ms);
	/* The kernel's promise: delay + 25 %, + the kernel's lag. */
	EXPECT_EQ(125 + DEVPM_AUTOSUSPEND_ALLOW_MS, res.limit_ms);
	EXPECT_STREQ("", res.why);
}

/* The planted bug: probe's reference still held at the limit. */
TEST_F(probe, held_fails_naming_all)
{
	struct devpm_probe_idle res;
	char want[160];

	make_dev(_metadata, self, "auto", 1);
	ASSERT_EQ(1, devpm_probe_idle(&self->d, fake_reprobe, &self->p, &res));
	EXPECT_GE(res.waited_ms, (unsigned long long)res.limit_ms);
	snprintf(want, sizeof(want),
		 "devpm_mock.5 (driver devpm_mock): still active %llu ms after its probe returned, limit %d ms (autosuspend_delay_ms 100 + 25 %% + %d ms): ",
		 res.waited_ms, 125 + DEVPM_AUTOSUSPEND_ALLOW_MS,
		 DEVPM_AUTOSUSPEND_ALLOW_MS);
	EXPECT_EQ(0, strncmp(res.why, want, strlen(want)))
		TH_LOG("why: %s", res.why);
	EXPECT_NE(NULL, strstr(res.why, "usage 1"))
		TH_LOG("why: %s", res.why);
}

/* control=on holds it by the user's will: 2, not the driver's bug. */
TEST_F(probe, control_on_is_honoured)
{
	struct devpm_probe_idle res;

	make_dev(_metadata, self, "on", 1);
	ASSERT_EQ(2, devpm_probe_idle(&self->d, fake_reprobe, &self->p, &res));
	EXPECT_NE(NULL, strstr(res.why, "control=on"))
		TH_LOG("why: %s", res.why);
}

TEST_F(probe, failed_reprobe_is_an_error)
{
	struct devpm_probe_idle res;

	make_dev(_metadata, self, "auto", 0);
	self->p.ret = -ENODEV;
	EXPECT_EQ(-ENODEV,
		  devpm_probe_idle(&self->d, fake_reprobe, &self->p, &res));
	EXPECT_NE(NULL, strstr(res.why, "devpm_mock.5 (driver devpm_mock): reprobe: "))
		TH_LOG("why: %s", res.why);
}

TEST_HARNESS_MAIN
