// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_usb_rh_leak.c - lib/bus/usb/usb_rh_leak.c: a root hub's leak is the
 * kernel's xhci_reset() one only with the reinit seen and exactly as many
 * port resumes left open; the usage against a recorded baseline.
 */
#include "devpm.h"
#include "bus/usb/usb_rh_leak.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <stdlib.h>


TEST(explained_only_by_matching_counts)
{
	EXPECT_TRUE(devpm_usb_rh_leak_explained(1, 1, true));
	EXPECT_TRUE(devpm_usb_rh_leak_explained(2, 2, true));
	/* Negative controls: every other combination stays a leak. */
	EXPECT_FALSE(devpm_usb_rh_leak_explained(1, 1, false));	/* no reinit */
	EXPECT_FALSE(devpm_usb_rh_leak_explained(1, 0, true));	/* ends balanced */
	EXPECT_FALSE(devpm_usb_rh_leak_explained(2, 1, true));	/* one more */
	EXPECT_FALSE(devpm_usb_rh_leak_explained(1, -1, true));	/* not counted */
	EXPECT_FALSE(devpm_usb_rh_leak_explained(0, 0, true));	/* no leak */
}

FIXTURE(rh) {
	char *root;
	char jdir[UNIT_PATH_MAX];
};

FIXTURE_SETUP(rh)
{
	self->root = tree_new();
	ASSERT_EQ(0, tree_use(self->root, self->jdir, sizeof(self->jdir)));
	tree_put(self->root, "/sys/devices/pci0000:00/0000:00:01.0/usb1/power/runtime_usage", "0");
	tree_put(self->root, "/sys/devices/pci0000:00/0000:00:01.0/usb1/power/runtime_status", "suspended");
	tree_put(self->root, "/sys/devices/pci0000:00/0000:00:01.0/usb1/power/control", "auto");
	tree_link(self->root, "/sys/bus/usb/devices/usb1",
		  "../../../devices/pci0000:00/0000:00:01.0/usb1");
	devpm_baseline_reset();
	unsetenv(DEVPM_BASELINE_ENV);
	ASSERT_NE(NULL, devpm_baseline()) TH_LOG("%s", devpm_error());
}

FIXTURE_TEARDOWN(rh)
{
	devpm_baseline_reset();
	tree_unuse(self->root);
}

TEST_F(rh, usage_against_baseline)
{
	long now, base;

	EXPECT_EQ(0, devpm_usb_rh_leak("usb1", 200, &now, &base));
	EXPECT_EQ(0, base);
	tree_put(self->root, "/sys/devices/pci0000:00/0000:00:01.0/usb1/power/runtime_usage", "1");
	EXPECT_EQ(1, devpm_usb_rh_leak("usb1", 200, &now, &base));
	EXPECT_EQ(1, now);
	EXPECT_EQ(0, devpm_usb_rh_leak("usb9", 200, &now, &base));	/* unknown */
}

TEST(watch_without_pmu_explains_nothing)
{
	struct devpm_usb_rh_watch w;
	char jdir[UNIT_PATH_MAX];
	char *root = tree_new();

	ASSERT_EQ(0, tree_use(root, jdir, sizeof(jdir)));
	devpm_usb_rh_watch_start(&w);	/* a recorded tree: no live kernel */
	EXPECT_EQ(-1, devpm_usb_rh_watch_open(&w));
	devpm_usb_rh_watch_stop(&w);
	tree_unuse(root);
}

TEST_HARNESS_MAIN
