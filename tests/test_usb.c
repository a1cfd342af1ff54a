// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_usb.c - lib/bus/usb/usb.c, usb_bus.c, rpm_order.c, input.c and gadget.c
 * against a fake tree and captured traces: which entries are USB devices,
 * what blocks autosuspend, what is journaled, what a host controller's
 * probe references explain, the order of hub and child transitions, the
 * USB core's refusals, and the key-sequence judge.  Each with a negative
 * control.
 */
#include <linux/input.h>

#include "devpm.h"
#include "bus/input/input.h"
#include "bus/usb/gadget.h"
#include "bus/usb/usb.h"
#include "bus/usb/usb_bus.h"
#include "rpm/rpm_order.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#define XHCI "/sys/devices/pci0000:00/0000:00:02.0"
#define USB1 XHCI "/usb1"
#define HUB USB1 "/1-3"
#define KBD HUB "/1-3.1"
#define STOR USB1 "/1-4"
#define SD STOR "/1-4:1.0/host13/target13:0:0/13:0:0:0"
#define BAD USB1 "/1-5"
#define AHCI "/sys/devices/pci0000:00/0000:00:1f.2"
#define SDA AHCI "/ata1/host0/target0:0:0/0:0:0:0"

FIXTURE(usb) {
	char *tree;
	char dir[UNIT_PATH_MAX];
};

static void usb_dev(const char *root, const char *kpath, const char *ctl,
		    int devnum, const char *cls, const char *vendor,
		    const char *serial)
{
	char p[UNIT_PATH_MAX], v[64];

	tree_device(root, kpath, "usb", "usb", ctl, "active", 0, 0);
	snprintf(p, sizeof(p), "%s/uevent", kpath);
	tree_put(root, p, "MAJOR=189\nDEVTYPE=usb_device\nDRIVER=usb");
#define ATTR(a, val) do { \
	snprintf(p, sizeof(p), "%s/" a, kpath); \
	tree_put(root, p, val); \
} while (0)
	ATTR("busnum", "1");
	snprintf(v, sizeof(v), "%d", devnum);
	ATTR("devnum", v);
	ATTR("idVendor", vendor);
	ATTR("idProduct", "0001");
	ATTR("bDeviceClass", cls);
	ATTR("serial", serial);
	snprintf(v, sizeof(v), "189:%d", devnum - 1);
	ATTR("dev", v);
	ATTR("power/autosuspend_delay_ms", !strcmp(cls, "09") ? "0" : "2000");
	ATTR("power/wakeup", "enabled");
#undef ATTR
}

static void usb_intf(const char *root, const char *kpath, const char *drv,
		     const char *autosuspend)
{
	char p[UNIT_PATH_MAX];

	tree_device(root, kpath, "usb", drv, NULL, "suspended", 0, 0);
	snprintf(p, sizeof(p), "%s/uevent", kpath);
	tree_put(root, p, "DEVTYPE=usb_interface");
	snprintf(p, sizeof(p), "%s/supports_autosuspend", kpath);
	tree_put(root, p, autosuspend);
}

static void scsi_disk(const char *root, const char *sdev, const char *blk,
		      const char *devno)
{
	char p[UNIT_PATH_MAX], host[UNIT_PATH_MAX], tgt[UNIT_PATH_MAX];
	char t[UNIT_PATH_MAX];

	snprintf(tgt, sizeof(tgt), "%s", sdev);
	*strrchr(tgt, '/') = '\0';
	snprintf(host, sizeof(host), "%s", tgt);
	*strrchr(host, '/') = '\0';
	tree_device(root, host, "scsi", NULL, "auto", "active", 0, 1);
	tree_device(root, tgt, "scsi", NULL, "auto", "active", 0, 1);
	tree_device(root, sdev, "scsi", "sd", "on", "active", 2, 0);
	snprintf(p, sizeof(p), "%s/power/autosuspend_delay_ms", sdev);
	tree_put(root, p, "-1");
	snprintf(p, sizeof(p), "%s/block/%s/dev", sdev, blk);
	tree_put(root, p, devno);
	snprintf(p, sizeof(p), "/sys/dev/block/%s", devno);
	snprintf(t, sizeof(t), "../../devices%s/block/%s",
		 sdev + strlen("/sys/devices"), blk);
	tree_link(root, p, t);
}

FIXTURE_SETUP(usb)
{
	char *r;

	self->tree = tree_new();
	r = self->tree;
	tree_device(r, XHCI, "pci", "xhci_hcd", "on", "active", 3, 1);
	usb_dev(r, USB1, "auto", 1, "09", "1d6b", "0000:00:02.0");
	usb_intf(r, USB1 "/1-0:1.0", "hub", "1");
	usb_dev(r, HUB, "auto", 4, "09", "0409", "314159");
	usb_intf(r, HUB "/1-3:1.0", "hub", "1");
	usb_dev(r, KBD, "on", 5, "00", "0627", "kbd1");
	usb_intf(r, KBD "/1-3.1:1.0", "usbhid", "1");
	tree_put(r, KBD "/1-3.1:1.0/0003:0627:0001.0003/input/input4/event3/dev",
		 "13:67");
	tree_link(r, "/sys/class/input/event3",
		  "../../devices/pci0000:00/0000:00:02.0/usb1/1-3/1-3.1/1-3.1:1.0/0003:0627:0001.0003/input/input4/event3");
	tree_put(r, "/sys/devices/platform/i8042/serio0/input/input0/event0/dev",
		 "13:64");
	tree_link(r, "/sys/class/input/event0",
		  "../../devices/platform/i8042/serio0/input/input0/event0");
	usb_dev(r, STOR, "on", 2, "00", "46f4", "stor");
	usb_intf(r, STOR "/1-4:1.0", "usb-storage", "1");
	scsi_disk(r, SD, "sdd", "8:48");
	tree_device(r, AHCI, "pci", "ahci", "on", "active", 1, 1);
	scsi_disk(r, SDA, "sda", "8:0");
	usb_dev(r, BAD, "on", 6, "ff", "1234", "bad");
	usb_intf(r, BAD "/1-5:1.0", "foo", "0");
	ASSERT_EQ(0, tree_use(r, self->dir, sizeof(self->dir)));
}

FIXTURE_TEARDOWN(usb)
{
	tree_unuse(self->tree);
}

TEST_F(usb, lists_devices_not_interfaces)
{
	struct devpm_usb *u, x;
	struct devpm_dev d;
	size_t n;

	ASSERT_EQ(0, devpm_usb_list(&u, &n));
	ASSERT_EQ(5, n);
	EXPECT_STREQ("usb1", u[0].dev.name);
	EXPECT_TRUE(u[0].root_hub);
	EXPECT_TRUE(u[0].hub);
	EXPECT_STREQ("", u[0].parent);
	EXPECT_STREQ("1-3", u[1].dev.name);
	EXPECT_TRUE(u[1].hub);
	EXPECT_FALSE(u[1].root_hub);
	EXPECT_STREQ("usb1", u[1].parent);
	EXPECT_STREQ("1-3.1", u[2].dev.name);
	EXPECT_FALSE(u[2].hub);
	EXPECT_STREQ("1-3", u[2].parent);
	EXPECT_EQ(1, u[2].busnum);
	EXPECT_EQ(5, u[2].devnum);
	EXPECT_EQ(0x627, u[2].vendor);
	EXPECT_STREQ("kbd1", u[2].serial);
	EXPECT_STREQ("1-4", u[3].dev.name);
	EXPECT_STREQ("1-5", u[4].dev.name);
	free(u);
	/* Negative: an interface and a PCI device are no USB devices. */
	ASSERT_EQ(0, devpm_dev_open(&d, KBD "/1-3.1:1.0"));
	EXPECT_EQ(-ENODEV, devpm_usb_from_dev(&d, &x));
	ASSERT_EQ(0, devpm_dev_open(&d, XHCI));
	EXPECT_EQ(-ENODEV, devpm_usb_from_dev(&d, &x));
}

TEST_F(usb, node_and_controller)
{
	struct devpm_usb u;
	struct devpm_dev hc;
	char node[64];

	ASSERT_EQ(0, devpm_usb_open("1-3.1", &u));
	ASSERT_EQ(0, devpm_usb_node(&u, node, sizeof(node)));
	EXPECT_STREQ("/dev/bus/usb/001/005", node);
	/* Only a root hub has a controller. */
	EXPECT_EQ(-EINVAL, devpm_usb_controller(&u, &hc));
	ASSERT_EQ(0, devpm_usb_open("usb1", &u));
	ASSERT_EQ(0, devpm_usb_controller(&u, &hc));
	EXPECT_STREQ("0000:00:02.0", hc.name);
	EXPECT_STREQ("xhci_hcd", hc.driver);
}

TEST_F(usb, blocker_is_a_bound_driver_without_autosuspend)
{
	char why[256], drv[UNIT_PATH_MAX];
	struct devpm_usb u;

	ASSERT_EQ(0, devpm_usb_open("1-5", &u));
	EXPECT_EQ(1, devpm_usb_blocker(&u, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "1-5:1.0"));
	EXPECT_NE(NULL, strstr(why, "foo"));
	/* Negative: drivers with autosuspend; an unbound interface. */
	ASSERT_EQ(0, devpm_usb_open("1-3.1", &u));
	EXPECT_EQ(0, devpm_usb_blocker(&u, why, sizeof(why)));
	EXPECT_STREQ("", why);
	snprintf(drv, sizeof(drv), "%s%s", self->tree, BAD "/1-5:1.0/driver");
	unlink(drv);
	ASSERT_EQ(0, devpm_usb_open("1-5", &u));
	EXPECT_EQ(0, devpm_usb_blocker(&u, why, sizeof(why)));
}

TEST_F(usb, below_and_owns)
{
	struct devpm_usb hub, kbd;

	ASSERT_EQ(0, devpm_usb_open("1-3", &hub));
	ASSERT_EQ(0, devpm_usb_open("1-3.1", &kbd));
	EXPECT_TRUE(devpm_usb_below(&hub, KBD));
	EXPECT_TRUE(devpm_usb_below(&hub, HUB));
	EXPECT_TRUE(devpm_usb_owns(&kbd, KBD "/1-3.1:1.0/0003:0627:0001.0003"));
	EXPECT_TRUE(devpm_usb_owns(&hub, HUB "/1-3:1.0/1-3-port1"));
	/* Negative: a child device's interface, a look-alike sibling. */
	EXPECT_FALSE(devpm_usb_owns(&hub, KBD "/1-3.1:1.0/input"));
	EXPECT_FALSE(devpm_usb_below(&hub, USB1 "/1-30"));
	EXPECT_FALSE(devpm_usb_owns(&hub, USB1 "/1-30/1-30:1.0"));
	EXPECT_FALSE(devpm_usb_owns(&hub, HUB));
}

TEST_F(usb, allow_autosuspend_reaches_the_disk_and_is_journaled)
{
	struct devpm_usb u;

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_usb_open("1-4", &u));
	ASSERT_EQ(0, devpm_usb_allow_autosuspend(&u, 100, 20));
	EXPECT_STREQ("auto", tree_val(self->tree, STOR "/power/control"));
	EXPECT_STREQ("100",
		     tree_val(self->tree, STOR "/power/autosuspend_delay_ms"));
	EXPECT_STREQ("auto", tree_val(self->tree, SD "/power/control"));
	EXPECT_STREQ("20",
		     tree_val(self->tree, SD "/power/autosuspend_delay_ms"));
	/* Negative: a disk that is not below it is left alone. */
	EXPECT_STREQ("on", tree_val(self->tree, SDA "/power/control"));
	EXPECT_STREQ("-1",
		     tree_val(self->tree, SDA "/power/autosuspend_delay_ms"));
	ASSERT_EQ(4, devpm_journal_restore_all());
	EXPECT_STREQ("on", tree_val(self->tree, STOR "/power/control"));
	EXPECT_STREQ("2000", tree_val(self->tree,
				      STOR "/power/autosuspend_delay_ms"));
	EXPECT_STREQ("on", tree_val(self->tree, SD "/power/control"));
	EXPECT_STREQ("-1",
		     tree_val(self->tree, SD "/power/autosuspend_delay_ms"));
}

TEST_F(usb, allow_autosuspend_refuses_a_mounted_disk)
{
	struct devpm_usb u;

	tree_put(self->tree, "/proc/self/mountinfo",
		 "36 35 8:48 / /mnt rw,relatime - ext4 /dev/sdd rw");
	devpm_safety_reset();
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_usb_open("1-4", &u));
	EXPECT_EQ(-EPERM, devpm_usb_allow_autosuspend(&u, 100, 20));
	EXPECT_STREQ("on", tree_val(self->tree, SD "/power/control"));
	/* Negative: the keyboard holds no filesystem. */
	ASSERT_EQ(0, devpm_usb_open("1-3.1", &u));
	EXPECT_EQ(0, devpm_usb_allow_autosuspend(&u, 100, 20));
	EXPECT_STREQ("auto", tree_val(self->tree, KBD "/power/control"));
}

static const struct devpm_usb_item *item(const struct devpm_usb_bus *b,
					 const char *name)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (!strcmp(b->it[i].u.dev.name, name))
			return &b->it[i];
	return NULL;
}

TEST_F(usb, bus_load_takes_out_what_cannot_suspend)
{
	static const char *const asleep[] = { USB1, HUB, KBD, BAD };
	struct devpm_usb_bus b;
	const struct devpm_usb_item *it;
	char p[UNIT_PATH_MAX];
	size_t i;

	for (i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/power/runtime_status", asleep[i]);
		tree_put(self->tree, p, "suspended");
	}
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_usb_bus_load(&b, 0, 20, false));
	ASSERT_EQ(5, b.n);
	EXPECT_TRUE(item(&b, "1-3")->ok);
	EXPECT_TRUE(item(&b, "1-3.1")->ok);
	EXPECT_STREQ("auto", tree_val(self->tree, KBD "/power/control"));
	/* A driver without autosuspend: a skip, and its hub cannot either. */
	it = item(&b, "1-5");
	EXPECT_FALSE(it->ok);
	EXPECT_FALSE(it->failed);
	EXPECT_NE(NULL, strstr(it->why, "does not support autosuspend"));
	it = item(&b, "usb1");
	EXPECT_FALSE(it->ok);
	EXPECT_FALSE(it->failed);
	EXPECT_NE(NULL, strstr(it->why, "1-5 below it cannot suspend"));
	/* Negative: 1-4 stays active although allowed: a failure. */
	it = item(&b, "1-4");
	EXPECT_FALSE(it->ok);
	EXPECT_TRUE(it->failed);
	EXPECT_NE(NULL, strstr(it->why, "not suspended"));
	devpm_usb_bus_free(&b);
}

static int after_still_in;	/* blocks that went on past the check */

static void item_one(struct devpm_block *b, void *arg)
{
	devpm_usb_item_still_in(b, arg);
	after_still_in++;
	devpm_block_pass(b, "still in");
}

TEST(item_taken_out_ends_its_block_with_its_reason)
{
	struct devpm_usb_item it[3] = { { .ok = true } };
	char file[] = "/tmp/devpm-unit-usbitem-XXXXXX", out[2048];
	struct devpm_subtest s;
	int fd = mkstemp(file), saved, i;

	close(fd);
	snprintf(it[0].u.dev.name, sizeof(it[0].u.dev.name), "1-1");
	snprintf(it[1].u.dev.name, sizeof(it[1].u.dev.name), "1-2");
	snprintf(it[2].u.dev.name, sizeof(it[2].u.dev.name), "1-3");
	devpm_usb_item_out(&it[1], true, "idle, not suspended: %s",
			   "control=on");
	devpm_usb_item_out(&it[2], false, "no autosuspend in %s", "btusb");
	saved = unit_capture_begin(1, file);
	devpm_subtest_begin(&s, "case");
	for (i = 0; i < 3; i++)
		devpm_block_run(&s, it[i].u.dev.name, item_one, &it[i]);
	EXPECT_EQ(1, devpm_subtest_end(&s));
	unit_capture_end(1, saved, file, out, sizeof(out));
	unlink(file);
	/* Negative control: the item still in goes on and passes. */
	ASSERT_HAS(out, "    # still in\n    ok 1 1-1\n");
	ASSERT_HAS(out, "    # idle, not suspended: control=on\n    not ok 2 1-2\n");
	ASSERT_HAS(out, "    ok 3 1-3 # SKIP no autosuspend in btusb\n");
	EXPECT_EQ(1, after_still_in);
}

TEST(hcd_hold_explains_only_the_probe_references)
{
	char why[512];

	/* QEMU's xhci: no PM capability, usage 2 with control=auto. */
	EXPECT_EQ(1, devpm_usb_hcd_hold("xhci_hcd", false, false, 2, why,
					sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "no PCI PM capability"));
	EXPECT_NE(NULL, strstr(why, "xhci_pci_probe"));
	EXPECT_EQ(1, devpm_usb_hcd_hold("ehci-pci", false, false, 1, why,
					sizeof(why)));
	EXPECT_EQ(NULL, strstr(why, "xhci_pci_probe"));
	EXPECT_EQ(1, devpm_usb_hcd_hold("xhci_hcd", false, false, -1, why,
					sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "unreadable"));
	/* Negative: one more reference, or a controller with PME. */
	EXPECT_EQ(0, devpm_usb_hcd_hold("xhci_hcd", false, false, 3, why,
					sizeof(why)));
	EXPECT_EQ(0, devpm_usb_hcd_hold("xhci_hcd", true, true, 0, why,
					sizeof(why)));
	EXPECT_EQ(0, devpm_usb_hcd_hold("xhci_hcd", true, true, 1, why,
					sizeof(why)));
	EXPECT_EQ(0, devpm_usb_hcd_hold("ehci-pci", false, false, 2, why,
					sizeof(why)));
}

/* Captured in the QEMU guest (6.1): control=on of 1-3.1 below hub 1-3. */
static const char *const resume_lines[] = {
	"sh-165 [000] d..1.    11.240308: rpm_resume: 1-3.1 flags-0 cnt-1  dep-0  auto-0 p-0 irq-0 child-0",
	"sh-165 [000] d..1.    11.240873: rpm_resume: 1-3 flags-0 cnt-1  dep-0  auto-1 p-0 irq-0 child-0",
	"sh-165 [000] d..1.    11.240898: rpm_resume: usb1 flags-0 cnt-1  dep-0  auto-1 p-0 irq-0 child-0",
	"sh-165 [000] dN.1.    11.251330: rpm_return_int: rpm_resume+0x2e8/0x830:usb1 ret=0",
	"sh-165 [000] dN.1.    11.365660: rpm_idle: usb1 flags-5 cnt-0  dep-0  auto-1 p-0 irq-0 child-1",
	"sh-165 [000] dN.1.    11.365663: rpm_return_int: rpm_idle+0xfa/0x350:usb1 ret=-16",
	"sh-165 [000] dN.1.    11.365668: rpm_return_int: rpm_resume+0x2e8/0x830:1-3 ret=0",
	"sh-165 [000] d..1.    11.433408: rpm_return_int: rpm_resume+0x2e8/0x830:1-3.1 ret=0",
	NULL
};

/* And back to auto: 1-3.1, then 1-3, then usb1 (re-armed timers too). */
static const char *const suspend_lines[] = {
	"sh-165 [000] d..1.    11.605301: rpm_idle: 1-3.1 flags-9 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"sh-165 [000] dN.1.    11.605515: rpm_return_int: rpm_idle+0x27f/0x350:1-3.1 ret=0",
	"kworker/0:3-95 [000] d..1.    11.605608: rpm_idle: 1-3.1 flags-2 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"kworker/0:3-95 [000] d..1.    11.605626: rpm_suspend: 1-3.1 flags-8 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"kworker/0:3-95 [000] d..1.    11.634557: rpm_idle: 1-3 flags-1 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"kworker/0:3-95 [000] d..1.    11.634610: rpm_return_int: rpm_idle+0x27f/0x350:1-3 ret=0",
	"kworker/0:3-95 [000] d..1.    11.634621: rpm_return_int: rpm_suspend+0x1e8/0x720:1-3.1 ret=0",
	"kworker/0:3-95 [000] d..1.    11.634633: rpm_return_int: rpm_idle+0xfa/0x350:1-3.1 ret=-16",
	"kworker/0:3-95 [000] d..1.    11.634654: rpm_idle: 1-3 flags-2 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"kworker/0:3-95 [000] d..1.    11.634668: rpm_suspend: 1-3 flags-8 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"kworker/0:3-95 [000] d..1.    11.634684: rpm_return_int: rpm_suspend+0x1e8/0x720:1-3 ret=0",
	"kworker/0:3-95 [000] d..1.    11.634688: rpm_return_int: rpm_idle+0xfa/0x350:1-3 ret=-16",
	"<idle>-0 [000] d.h2.    11.697292: rpm_suspend: 1-3 flags-9 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"<idle>-0 [000] dNh2.    11.697450: rpm_return_int: rpm_suspend+0x1e8/0x720:1-3 ret=0",
	"kworker/0:3-95 [000] d..1.    11.697612: rpm_suspend: 1-3 flags-a cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"kworker/0:3-95 [000] d..1.    11.739423: rpm_return_int: rpm_suspend+0x1e8/0x720:1-3 ret=0",
	"kworker/0:3-95 [000] d..1.    11.804321: rpm_suspend: usb1 flags-a cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"kworker/0:3-95 [000] d..1.    11.804605: rpm_return_int: rpm_suspend+0x1e8/0x720:usb1 ret=0",
	NULL
};

/* Made up: the hub suspends while its child is still active. */
static const char *const early_parent_lines[] = {
	"kworker/0:3-95 [000] d..1.    11.500000: rpm_suspend: 1-3 flags-a cnt-0  dep-0  auto-1 p-0 irq-0 child-1",
	"kworker/0:3-95 [000] d..1.    11.500100: rpm_return_int: rpm_suspend+0x1e8/0x720:1-3 ret=0",
	"kworker/0:3-95 [000] d..1.    11.600000: rpm_suspend: 1-3.1 flags-8 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"kworker/0:3-95 [000] d..1.    11.600200: rpm_return_int: rpm_suspend+0x1e8/0x720:1-3.1 ret=0",
	NULL
};

/* An open gadget keyboard without remote wakeup (4-1), control=auto. */
static const char *const refusal_lines[] = {
	"sh-164 [000] d..1.    10.527607: rpm_idle: 4-1 flags-8 cnt-1  dep-0  auto-0 p-0 irq-0 child-0",
	"sh-164 [000] d..1.    10.527615: rpm_return_int: rpm_idle+0xfa/0x350:4-1 ret=-11",
	"sh-164 [000] d..1.    10.527859: rpm_idle: 4-1 flags-9 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"sh-164 [000] dN.1.    10.528044: rpm_return_int: rpm_idle+0x27f/0x350:4-1 ret=0",
	"kworker/0:3-95 [000] d..1.    10.528198: rpm_idle: 4-1 flags-2 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"kworker/0:3-95 [000] d..1.    10.528527: rpm_return_int: rpm_idle+0xfa/0x350:4-1 ret=-16",
	NULL
};

static size_t parse(const char *const *lines, struct devpm_event *ev)
{
	size_t n = 0;

	for (; lines[n]; n++)
		if (devpm_trace_parse_line(lines[n], &ev[n]))
			abort();
	return n;
}

TEST(hub_suspends_after_its_children)
{
	static const char *const kids[] = { "1-3.1" };
	static const char *const none[] = { "1-3.2" };
	struct devpm_event ev[32];
	struct devpm_order o;
	char why[256];
	size_t n = parse(suspend_lines, ev);

	/* 1-3's last suspend returning 0 is the real one, not the re-arm. */
	ASSERT_EQ(0, devpm_order_suspend(ev, n, "1-3", kids, 1, 0, UINT64_MAX,
					 &o, why, sizeof(why)));
	EXPECT_EQ(11739423, o.parent_us);
	EXPECT_EQ(11634621, o.child_us);
	EXPECT_STREQ("1-3.1", o.child);
	/* Negative: a parent that went first; a child that never did. */
	n = parse(early_parent_lines, ev);
	EXPECT_EQ(1, devpm_order_suspend(ev, n, "1-3", kids, 1, 0, UINT64_MAX,
					 &o, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "before its child 1-3.1"));
	EXPECT_EQ(-ENODATA, devpm_order_suspend(ev, n, "1-3", none, 1, 0,
						UINT64_MAX, &o, why,
						sizeof(why)));
}

TEST(child_resume_resumes_the_hub_first)
{
	struct devpm_event ev[16];
	struct devpm_order o;
	char why[256];
	size_t n = parse(resume_lines, ev);

	ASSERT_EQ(0, devpm_order_resume(ev, n, "1-3", "1-3.1", 0, UINT64_MAX,
					&o, why, sizeof(why)));
	EXPECT_EQ(11365668, o.parent_us);
	EXPECT_EQ(11433408, o.child_us);
	ASSERT_EQ(0, devpm_order_resume(ev, n, "usb1", "1-3", 0, UINT64_MAX,
					&o, why, sizeof(why)));
	/* Negative: the child done before its parent. */
	ev[7].ts_us = 11300000;
	EXPECT_EQ(1, devpm_order_resume(ev, n, "1-3", "1-3.1", 0, UINT64_MAX,
					&o, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "before its parent 1-3"));
	/* Negative: a parent resumed before the child asked. */
	n = parse(resume_lines, ev);
	ev[1].ts_us = 11240000;
	EXPECT_EQ(-ENODATA, devpm_order_resume(ev, n, "1-3", "1-3.1", 0,
					       UINT64_MAX, &o, why,
					       sizeof(why)));
}

TEST(idle_refused_only_without_a_suspend)
{
	struct devpm_event ev[32];
	uint64_t last;
	size_t n = parse(refusal_lines, ev);

	EXPECT_EQ(1, devpm_order_idle_refused(ev, n, "4-1", 0, UINT64_MAX,
					      &last));
	EXPECT_EQ(10528527, last);
	/*
	 * Negative: an idle check that did ask for a suspend (1-3.1), and
	 * one refused because usage was held (cnt-1, not counted).
	 */
	n = parse(suspend_lines, ev);
	EXPECT_EQ(0, devpm_order_idle_refused(ev, n, "1-3.1", 0, UINT64_MAX,
					      NULL));
	n = parse(refusal_lines, ev);
	EXPECT_EQ(0, devpm_order_idle_refused(ev, 2, "4-1", 0, UINT64_MAX,
					      NULL));
}

TEST(qcodes_map_to_evdev_and_hid)
{
	EXPECT_EQ(KEY_A, devpm_input_qcode_key("a"));
	EXPECT_EQ(KEY_Z, devpm_input_qcode_key("z"));
	EXPECT_EQ(KEY_7, devpm_input_qcode_key("7"));
	EXPECT_EQ(0x04, devpm_input_qcode_hid("a"));
	EXPECT_EQ(0x1d, devpm_input_qcode_hid("z"));
	EXPECT_EQ(0x1e, devpm_input_qcode_hid("1"));
	EXPECT_EQ(0x27, devpm_input_qcode_hid("0"));
	/* Negative: what does not map. */
	EXPECT_EQ(-EINVAL, devpm_input_qcode_key("shift"));
	EXPECT_EQ(-EINVAL, devpm_input_qcode_key("A"));
	EXPECT_EQ(-EINVAL, devpm_input_qcode_hid(""));
}

TEST(only_presses_and_releases_are_keys)
{
	struct input_event e = { .type = EV_KEY, .code = KEY_B, .value = 1 };
	struct devpm_key k;

	e.input_event_sec = 2;
	e.input_event_usec = 5;
	ASSERT_TRUE(devpm_input_key_event(&e, &k));
	EXPECT_EQ(KEY_B, k.code);
	EXPECT_EQ(1, k.value);
	EXPECT_EQ(2000005, k.ts_us);
	e.value = 0;
	EXPECT_TRUE(devpm_input_key_event(&e, &k));
	/* Negative: an autorepeat, a scan code, a sync. */
	e.value = 2;
	EXPECT_FALSE(devpm_input_key_event(&e, &k));
	e = (struct input_event){ .type = EV_MSC, .code = MSC_SCAN,
				  .value = 1 };
	EXPECT_FALSE(devpm_input_key_event(&e, &k));
	e = (struct input_event){ .type = EV_SYN };
	EXPECT_FALSE(devpm_input_key_event(&e, &k));
}

TEST(key_sequence_once_each_in_order)
{
	struct devpm_key k[8] = {
		{ KEY_A, 1, 1 }, { KEY_A, 0, 2 }, { KEY_B, 1, 3 },
		{ KEY_B, 0, 4 }, { KEY_C, 1, 5 }, { KEY_C, 0, 6 },
		{ KEY_C, 1, 7 }, { KEY_C, 0, 8 },
	};
	char why[256];

	EXPECT_EQ(0, devpm_input_check_keys(k, 6, "abc", why, sizeof(why)));
	/* Negative: a key twice, a lost release, the order swapped. */
	EXPECT_EQ(1, devpm_input_check_keys(k, 8, "abc", why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "extra event 7 (KEY_C 1)"));
	EXPECT_EQ(1, devpm_input_check_keys(k, 5, "abc", why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "lost from event 6 (KEY_C 0)"));
	EXPECT_EQ(1, devpm_input_check_keys(k + 2, 4, "ab", why,
					    sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "event 1: KEY_B 1, expected KEY_A 1"));
	EXPECT_EQ(-EINVAL, devpm_input_check_keys(k, 2, "!", why,
						  sizeof(why)));
}

TEST_F(usb, evdev_nodes_below_a_device)
{
	struct devpm_input_node ev[4];
	char kp[UNIT_PATH_MAX];

	ASSERT_EQ(1, devpm_input_find(KBD, ev, 4));
	EXPECT_STREQ("event3", ev[0].name);
	ASSERT_EQ(0, devpm_input_dev_path("event3", kp, sizeof(kp)));
	EXPECT_STREQ(KBD "/1-3.1:1.0/0003:0627:0001.0003/input/input4", kp);
	ASSERT_EQ(1, devpm_input_find(USB1, ev, 4));
	/* Negative: not below the storage device; not an evdev name. */
	EXPECT_EQ(0, devpm_input_find(STOR, ev, 4));
	EXPECT_EQ(-EINVAL, devpm_input_dev_path("mouse0", kp, sizeof(kp)));
}

TEST_F(usb, gadget_binds_only_a_free_dummy_udc)
{
	struct devpm_gadget_cfg c = { .keyboard = true };
	struct devpm_gadget g;

	/* No configfs usb_gadget. */
	EXPECT_EQ(-ENODEV, devpm_gadget_create(&c, &g));
	EXPECT_NE(NULL, strstr(devpm_error(), "libcomposite"));
	tree_dir(self->tree, DEVPM_GADGET_DIR);
	/* A real UDC is never used; a busy dummy one neither. */
	tree_put(self->tree, "/sys/class/udc/fe980000.usb/function", "");
	tree_put(self->tree, "/sys/class/udc/dummy_udc.0/function", "g1");
	EXPECT_EQ(-ENODEV, devpm_gadget_create(&c, &g));
	EXPECT_NE(NULL, strstr(devpm_error(), "no free dummy_udc"));
	EXPECT_FALSE(unit_exists(self->tree,
				 "sys/kernel/config/usb_gadget/devpm"));
}

TEST_F(usb, gadget_steps_are_undone_even_when_one_fails)
{
	struct devpm_gadget_cfg c = { .keyboard = true };
	struct devpm_gadget g;
	char p[UNIT_PATH_MAX];

	tree_dir(self->tree, DEVPM_GADGET_DIR);
	tree_put(self->tree, "/sys/class/udc/dummy_udc.0/function", "");
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	/* A plain directory has no idVendor file: the second step fails. */
	EXPECT_EQ(-ENOENT, devpm_gadget_create(&c, &g));
	snprintf(p, sizeof(p), "%s%s", self->tree, g.dir);
	EXPECT_EQ(0, access(p, F_OK));
	EXPECT_EQ(1, devpm_journal_restore_all());
	EXPECT_NE(0, access(p, F_OK));
}

TEST_F(usb, journal_unlinks_what_it_linked)
{
	char link[UNIT_PATH_MAX];

	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	tree_link(self->tree, "/sys/kernel/config/x/c.1/hid.0", "../../hid.0");
	snprintf(link, sizeof(link), "%s/sys/kernel/config/x/c.1/hid.0",
		 self->tree);
	ASSERT_EQ(0, devpm_journal_undo_unlink("/sys/kernel/config/x/c.1/hid.0"));
	/* Negative: one already gone is no error. */
	ASSERT_EQ(0, devpm_journal_undo_unlink("/sys/kernel/config/x/gone"));
	EXPECT_EQ(2, devpm_journal_restore_all());
	EXPECT_NE(0, access(link, F_OK));
	EXPECT_EQ(-EINVAL, devpm_journal_undo_unlink("relative/link"));
}

TEST_HARNESS_MAIN
