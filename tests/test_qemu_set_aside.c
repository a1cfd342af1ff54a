// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qemu_set_aside.c - qemu/guest/set_aside.c, the environment hook's
 * work, against a fake tree: which PCI devices a window sets aside
 * (journaled, the xHCI's hub ports held first), what is still bound, and
 * the return checks: a controller left without its driver, or a usb
 * device that did not come back, fails the window's end and a case's
 * settle (the negative controls).
 */
#include <stdlib.h>

#include "devpm.h"
#include "guest/set_aside.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#define XHCI "/sys/devices/pci0000:00/0000:00:01.0"
#define USB1 XHCI "/usb1"
#define RH USB1 "/1-0:1.0"
#define HUB USB1 "/1-3"
#define HUBI HUB "/1-3:1.0"
#define AHCI "/sys/devices/pci0000:00/0000:00:1f.2"
#define SDA AHCI "/ata1/host0/target0:0:0/0:0:0:0"
#define NIC "/sys/devices/pci0000:00/0000:00:04.0"
#define SMBUS "/sys/devices/pci0000:00/0000:00:1f.3"
#define DRV "/sys/bus/pci/drivers/"

static const char *const drivers[] = { "xhci_hcd", "ahci", "e1000e", NULL };

FIXTURE(quiet) {
	char *tree;
	char dir[UNIT_PATH_MAX];
};

static void driver_files(const char *root, const char *drv)
{
	char p[UNIT_PATH_MAX];

	snprintf(p, sizeof(p), DRV "%s/bind", drv);
	tree_put(root, p, "");
	snprintf(p, sizeof(p), DRV "%s/unbind", drv);
	tree_put(root, p, "");
}

FIXTURE_SETUP(quiet)
{
	char *r;

	self->tree = tree_new();
	r = self->tree;
	tree_device(r, XHCI, "pci", "xhci_hcd", "auto", "active", 2, 1);
	tree_device(r, USB1, "usb", "usb", "auto", "active", 0, 1);
	tree_device(r, RH, "usb", "hub", NULL, "active", 0, 0);
	tree_put(r, RH "/usb1-port1/power/control", "auto");
	tree_put(r, RH "/usb1-port3/power/control", "auto");
	tree_device(r, HUB, "usb", "usb", "auto", "active", 0, 0);
	tree_device(r, HUBI, "usb", "hub", NULL, "active", 0, 0);
	tree_put(r, HUBI "/1-3-port1/power/control", "auto");
	tree_device(r, AHCI, "pci", "ahci", "on", "active", 1, 1);
	tree_device(r, SDA, "scsi", "sd", "on", "active", 1, 0);
	tree_device(r, NIC, "pci", "e1000e", "on", "active", 1, 0);
	tree_device(r, SMBUS, "pci", "i801_smbus", "auto", "suspended", 0,
		    0);
	driver_files(r, "xhci_hcd");
	driver_files(r, "ahci");
	driver_files(r, "e1000e");
	driver_files(r, "i801_smbus");
	ASSERT_EQ(0, tree_use(r, self->dir, sizeof(self->dir)));
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	/* A case's settle judges against the baseline: this tree's. */
	unsetenv(DEVPM_BASELINE_ENV);
	devpm_baseline_reset();
}

FIXTURE_TEARDOWN(quiet)
{
	tree_unuse(self->tree);
}

/* What the kernel does on an unbind the fake tree cannot: the link goes. */
static void unbound(const char *root, const char *dev)
{
	char p[UNIT_PATH_MAX];

	snprintf(p, sizeof(p), "%s%s/driver", root, dev);
	unlink(p);
}

TEST_F(quiet, unbinds_the_three_drivers_journaled_and_holds_ports)
{
	struct set_aside q;
	char list[512], why[256];

	EXPECT_EQ(3, set_aside_bound(drivers, list, sizeof(list)));
	EXPECT_NE(NULL, strstr(list, "0000:00:01.0 (xhci_hcd)"));
	ASSERT_EQ(3, set_aside_begin(&q, drivers));
	EXPECT_STREQ("0000:00:01.0", tree_val(self->tree, DRV "xhci_hcd/unbind"));
	EXPECT_STREQ("0000:00:1f.2", tree_val(self->tree, DRV "ahci/unbind"));
	EXPECT_STREQ("0000:00:04.0", tree_val(self->tree, DRV "e1000e/unbind"));
	/* Negative: a driver that is not one of them is left alone. */
	EXPECT_STREQ("", tree_val(self->tree, DRV "i801_smbus/unbind"));
	/* Every hub's ports, the root hub's and the external hub's. */
	EXPECT_STREQ("on", tree_val(self->tree, RH "/usb1-port1/power/control"));
	EXPECT_STREQ("on", tree_val(self->tree, RH "/usb1-port3/power/control"));
	EXPECT_STREQ("on", tree_val(self->tree, HUBI "/1-3-port1/power/control"));
	EXPECT_EQ(4, q.before.usb);	/* 2 devices, 2 interfaces */
	EXPECT_EQ(1, q.before.scsi);
	unbound(self->tree, XHCI);
	unbound(self->tree, AHCI);
	unbound(self->tree, NIC);
	/* What a program in the window sees: nothing bound. */
	EXPECT_EQ(0, set_aside_bound(drivers, list, sizeof(list)));
	EXPECT_STREQ("", list);
	/* The "kernel" binds them as the journal writes bind. */
	tree_device(self->tree, XHCI, "pci", "xhci_hcd", "auto", "active", 2,
		    1);
	tree_device(self->tree, AHCI, "pci", "ahci", "on", "active", 1, 1);
	tree_device(self->tree, NIC, "pci", "e1000e", "on", "active", 1, 0);
	EXPECT_EQ(0, set_aside_end(&q, 200, why, sizeof(why)))
		TH_LOG("%s", why);
	EXPECT_STREQ("0000:00:1f.2", tree_val(self->tree, DRV "ahci/bind"));
	EXPECT_STREQ("auto", tree_val(self->tree, HUBI "/1-3-port1/power/control"));
}

TEST_F(quiet, a_controller_left_unbound_fails_the_return)
{
	struct set_aside q;
	char why[256];

	ASSERT_EQ(3, set_aside_begin(&q, drivers));
	unbound(self->tree, AHCI);
	EXPECT_EQ(1, set_aside_end(&q, 100, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "0000:00:1f.2 is not bound to ahci"))
		TH_LOG("%s", why);
}

TEST_F(quiet, a_usb_device_not_back_fails_the_return)
{
	struct set_aside q;
	char p[UNIT_PATH_MAX], why[256];

	ASSERT_EQ(3, set_aside_begin(&q, drivers));
	snprintf(p, sizeof(p), "%s/sys/bus/usb/devices/1-3", self->tree);
	unlink(p);
	EXPECT_EQ(1, set_aside_end(&q, 100, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "usb devices (want")) TH_LOG("%s", why);
}

TEST_F(quiet, a_program_sees_what_is_still_bound)
{
	char list[512];

	unbound(self->tree, XHCI);
	unbound(self->tree, NIC);
	EXPECT_EQ(1, set_aside_bound(drivers, list, sizeof(list)));
	EXPECT_STREQ("0000:00:1f.2 (ahci)", list);
}

TEST_F(quiet, a_bus_the_kernel_lacks_counts_no_device)
{
	struct bus_count c;
	char p[UNIT_PATH_MAX];

	bus_count_read(&c);
	EXPECT_EQ(4, c.usb);
	EXPECT_EQ(1, c.scsi);
	/*
	 * No /sys/bus/usb: 0, not a walk of every device for a "usb"
	 * subsystem link (which finds the 4 again, and took 160 ms on a
	 * host).
	 */
	snprintf(p, sizeof(p), "%s/sys/bus/usb", self->tree);
	unit_rm_rf(p);
	bus_count_read(&c);
	EXPECT_EQ(0, c.usb);
	EXPECT_EQ(1, c.scsi);
}

TEST_F(quiet, a_case_settles_when_its_devices_are_back)
{
	char why[256];

	ASSERT_NE(NULL, devpm_baseline());
	EXPECT_EQ(0, set_aside_settle(drivers, 100, why, sizeof(why)))
		TH_LOG("%s", why);
}

/* Negative: a usb device of the baseline below a bound xHCI is missing. */
TEST_F(quiet, a_device_not_back_fails_a_case_settle)
{
	char p[UNIT_PATH_MAX], why[256];

	ASSERT_NE(NULL, devpm_baseline());
	snprintf(p, sizeof(p), "%s%s", self->tree, HUB);
	unit_rm_rf(p);
	EXPECT_EQ(1, set_aside_settle(drivers, 100, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "2 of the 4 usb and scsi devices below 0000:00:01.0 (xhci_hcd)"))
		TH_LOG("%s", why);
}

/* A controller set aside (unbound) has nothing to wait for. */
TEST_F(quiet, a_controller_set_aside_is_not_waited_for)
{
	char p[UNIT_PATH_MAX], why[256];

	ASSERT_NE(NULL, devpm_baseline());
	unbound(self->tree, XHCI);
	snprintf(p, sizeof(p), "%s%s", self->tree, HUB);
	unit_rm_rf(p);
	EXPECT_EQ(0, set_aside_settle(drivers, 100, why, sizeof(why)))
		TH_LOG("%s", why);
}

TEST_HARNESS_MAIN
