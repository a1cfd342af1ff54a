// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pci.c - lib/bus/pci/pci.c (libpci on a fake sysfs tree: identity, PM
 * capability, PMCSR states), lib/bus/pci/pci_role.c (the three roles and the
 * contradictions of power/ that are failures), lib/rpm/subtree.c (allow a
 * subtree through the journal, put it back), lib/bus/pci/vfio.c (eligibility,
 * and a bind whose journal undo unbinds and clears driver_override), and
 * lib/bus/pci/pci_set.c (the PCI suite's choice of the devices that take part).
 */
#include <fcntl.h>

#include "devpm.h"
#include "bus/pci/pci.h"
#include "bus/pci/pci_role.h"
#include "bus/pci/pci_set.h"
#include "bus/pci/vfio.h"
#include "rpm/subtree.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#define NIC "/sys/devices/pci0000:00/0000:00:05.0"
#define SMB "/sys/devices/pci0000:00/0000:00:1f.3"
#define PORT "/sys/devices/pci0000:00/0000:00:04.0"
#define AHCI PORT "/0000:01:00.0"
#define ATA AHCI "/ata1"
#define HOST ATA "/host0"
#define SDEV HOST "/target0:0:0/0:0:0:0"
#define PM_CAP 0xc8

/* 256 bytes of config space: ids, header type, capability list. */
static void write_config(const char *root, const char *dev, unsigned int vendor,
		   unsigned int device, unsigned int class, int hdr,
		   int pm_cap, unsigned int pmcsr, size_t len)
{
	unsigned char c[256] = { 0 };
	char p[UNIT_PATH_MAX], v[32];
	int fd;

	c[0] = vendor & 0xff;
	c[1] = vendor >> 8;
	c[2] = device & 0xff;
	c[3] = device >> 8;
	c[9] = class & 0xff;		/* prog-if */
	c[10] = (class >> 8) & 0xff;
	c[11] = class >> 16;
	c[14] = hdr;
	if (pm_cap) {
		c[6] = 0x10;			/* status: capability list */
		c[0x34] = 0x40;
		c[0x40] = 0x05;			/* MSI, then PM */
		c[0x41] = pm_cap;
		c[pm_cap] = 0x01;
		c[pm_cap + 2] = 0x03;		/* PMC: version 3 */
		c[pm_cap + 3] = 0x40;		/* PME from D3hot */
		c[pm_cap + 4] = pmcsr & 0xff;
		c[pm_cap + 5] = pmcsr >> 8;
	}
	snprintf(p, sizeof(p), "%s%s/config", root, dev);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, c, len) != (ssize_t)len || close(fd))
		abort();
	snprintf(p, sizeof(p), "%s/vendor", dev);
	snprintf(v, sizeof(v), "0x%04x", vendor);
	tree_put(root, p, v);
	snprintf(p, sizeof(p), "%s/device", dev);
	snprintf(v, sizeof(v), "0x%04x", device);
	tree_put(root, p, v);
	snprintf(p, sizeof(p), "%s/class", dev);
	snprintf(v, sizeof(v), "0x%06x", class);
	tree_put(root, p, v);
}

FIXTURE(pci) {
	char *tree;
	struct devpm_pci *pci;
};

FIXTURE_SETUP(pci)
{
	self->tree = tree_new();
	tree_device(self->tree, NIC, "pci", "e1000e", "on", "active", 2, 0);
	write_config(self->tree, NIC, 0x8086, 0x10d3, 0x020000, 0, PM_CAP, 0x0008,
	       256);
	tree_device(self->tree, SMB, "pci", "i801_smbus", "auto", "suspended",
		    0, 0);
	write_config(self->tree, SMB, 0x8086, 0x2930, 0x0c0500, 0, 0, 0, 256);
	tree_device(self->tree, PORT, "pci", "pcieport", "auto", "active", 0,
		    1);
	write_config(self->tree, PORT, 0x1b36, 0x000c, 0x060400, 1, 0, 0, 256);
	ASSERT_EQ(0, devpm_set_sysfs_root(self->tree));
	self->pci = devpm_pci_open();
	ASSERT_TRUE(self->pci != NULL) TH_LOG("%s", devpm_error());
}

FIXTURE_TEARDOWN(pci)
{
	devpm_pci_close(self->pci);
	devpm_set_sysfs_root(NULL);
	tree_rm(self->tree);
}

TEST_F(pci, info_and_pm_capability)
{
	struct devpm_pci_info in;

	ASSERT_EQ(0, devpm_pci_info(self->pci, "0000:00:05.0", &in))
		TH_LOG("%s", devpm_error());
	EXPECT_EQ(0x8086, in.vendor);
	EXPECT_EQ(0x10d3, in.device);
	EXPECT_EQ(0x0200, in.class_code);
	EXPECT_EQ(PM_CAP, in.pm_cap);
	EXPECT_EQ(0x4003, in.pmc);
	EXPECT_TRUE(in.d3hot_pme);
	EXPECT_FALSE(in.bridge);
	EXPECT_STREQ("", in.class_name);	/* names only on request */
	devpm_pci_names(self->pci, &in);
	EXPECT_STREQ("Ethernet controller", in.class_name);
	EXPECT_NE(NULL, strstr(in.name, "82574L"));

	/* Negative controls: no PM capability; a bridge. */
	ASSERT_EQ(0, devpm_pci_info(self->pci, "0000:00:1f.3", &in));
	EXPECT_EQ(0, in.pm_cap);
	EXPECT_FALSE(in.bridge);
	ASSERT_EQ(0, devpm_pci_info(self->pci, "0000:00:04.0", &in));
	EXPECT_TRUE(in.bridge);
	EXPECT_EQ(0x0604, in.class_code);
}

TEST_F(pci, pmcsr_states)
{
	unsigned int csr;

	EXPECT_EQ(DEVPM_PCI_D0, devpm_pci_pmcsr(self->pci, "0000:00:05.0",
						&csr));
	EXPECT_EQ(0x0008, csr);
	write_config(self->tree, NIC, 0x8086, 0x10d3, 0x020000, 0, PM_CAP, 0x000b,
	       256);
	EXPECT_EQ(DEVPM_PCI_D3HOT, devpm_pci_pmcsr(self->pci, "0000:00:05.0",
						   &csr));
	EXPECT_EQ(0x000b, csr);
	/* A function in D3cold reads all ones. */
	write_config(self->tree, NIC, 0x8086, 0x10d3, 0x020000, 0, PM_CAP, 0xffff,
	       256);
	EXPECT_EQ(DEVPM_PCI_D3COLD, devpm_pci_pmcsr(self->pci, "0000:00:05.0",
						    NULL));
	/* No capability, or no device: errors, not a state. */
	EXPECT_EQ(-ENODEV, devpm_pci_pmcsr(self->pci, "0000:00:1f.3", NULL));
	EXPECT_EQ(-ENOENT, devpm_pci_pmcsr(self->pci, "0000:00:09.0", NULL));
	EXPECT_NE(NULL, strstr(devpm_error(), "0000:00:09.0"));
}

TEST_F(pci, unreadable_config_is_an_error)
{
	struct devpm_pci_info in;
	unsigned char buf[256];

	/* 64 bytes only (what a non-root reader gets): no capability list. */
	write_config(self->tree, NIC, 0x8086, 0x10d3, 0x020000, 0, PM_CAP, 0x0008,
	       64);
	EXPECT_GT(0, devpm_pci_info(self->pci, "0000:00:05.0", &in));
	EXPECT_NE(NULL, strstr(devpm_error(), "capability list unreadable"));
	EXPECT_GT(0, devpm_pci_read_config(self->pci, "0000:00:05.0", buf,
					   sizeof(buf)));
	EXPECT_EQ(0, devpm_pci_read_config(self->pci, "0000:00:05.0", buf,
					   64));
	EXPECT_EQ(0x86, buf[0]);
}

TEST_F(pci, names_and_states)
{
	int d, b, s, f;

	EXPECT_EQ(0, devpm_pci_parse_name("0000:00:1f.3", &d, &b, &s, &f));
	EXPECT_EQ(0x1f, s);
	EXPECT_EQ(3, f);
	EXPECT_EQ(-EINVAL, devpm_pci_parse_name("00:1f.3", &d, &b, &s, &f));
	EXPECT_EQ(-EINVAL, devpm_pci_parse_name("0000:00:20.0", &d, &b, &s,
						&f));
	EXPECT_EQ(-EINVAL, devpm_pci_parse_name("0000:00:1f.3x", &d, &b, &s,
						&f));
	EXPECT_STREQ("D3hot", devpm_pci_dstate_name(DEVPM_PCI_D3HOT));
	EXPECT_EQ(DEVPM_PCI_D3COLD, devpm_pci_dstate_parse("D3cold"));
	EXPECT_EQ(-1, devpm_pci_dstate_parse("unknown"));
}

/* A device model entry without a tree, for the role rules. */
static struct devpm_dev dev(const char *driver, const char *control,
			    const char *status, long usage, bool have_usage)
{
	struct devpm_dev d = { .bus = "pci", .name = "0000:00:05.0" };

	snprintf(d.driver, sizeof(d.driver), "%s", driver);
	d.rpm.have_control = true;
	snprintf(d.rpm.control, sizeof(d.rpm.control), "%s", control);
	d.rpm.have_status = true;
	snprintf(d.rpm.status, sizeof(d.rpm.status), "%s", status);
	d.rpm.have_usage = have_usage;
	d.rpm.usage = usage;
	d.rpm.have_enabled = have_usage;
	snprintf(d.rpm.enabled, sizeof(d.rpm.enabled), "%s",
		 !strcmp(control, "on") ? "forbidden" : "enabled");
	return d;
}

TEST(roles)
{
	struct devpm_pci_role_info r;
	struct devpm_dev d;

	d = dev("", "on", "active", 1, true);
	ASSERT_EQ(0, devpm_pci_role(&d, &r));
	EXPECT_EQ(DEVPM_PCI_UNBOUND, r.role);
	EXPECT_TRUE(r.consistent);

	d = dev("e1000e", "on", "active", 2, true);
	devpm_pci_role(&d, &r);
	EXPECT_EQ(DEVPM_PCI_HELD, r.role);
	EXPECT_EQ(1, r.held);
	EXPECT_NE(NULL, strstr(r.why, "local_pci_probe"));

	d = dev("xhci_hcd", "auto", "active", 2, true);
	devpm_pci_role(&d, &r);
	EXPECT_EQ(DEVPM_PCI_HELD, r.role);
	EXPECT_EQ(2, r.held);

	d = dev("ahci", "auto", "suspended", 0, true);
	devpm_pci_role(&d, &r);
	EXPECT_EQ(DEVPM_PCI_CAPABLE, r.role);
	EXPECT_TRUE(r.consistent);
	EXPECT_STREQ("runtime-PM-capable", devpm_pci_role_name(r.role));
}

TEST(role_contradictions_fail)
{
	struct devpm_pci_role_info r;
	struct devpm_dev d;

	/* control=on takes a reference: usage 0 cannot be. */
	d = dev("ahci", "on", "active", 0, true);
	devpm_pci_role(&d, &r);
	EXPECT_FALSE(r.consistent);
	EXPECT_NE(NULL, strstr(r.why, "runtime_usage 0"));
	/* control=on resumes synchronously: never suspended. */
	d = dev("ahci", "on", "suspended", 1, true);
	devpm_pci_role(&d, &r);
	EXPECT_FALSE(r.consistent);
	d = dev("ahci", "auto", "error", 0, true);
	devpm_pci_role(&d, &r);
	EXPECT_FALSE(r.consistent);
	d = dev("ahci", "auto", "unsupported", 0, true);
	devpm_pci_role(&d, &r);
	EXPECT_FALSE(r.consistent);
	EXPECT_NE(NULL, strstr(r.why, "disabled"));
	/* Not PCI at all. */
	snprintf(d.bus, sizeof(d.bus), "usb");
	EXPECT_EQ(-EINVAL, devpm_pci_role(&d, &r));
}

TEST(roles_without_runtime_usage)
{
	struct devpm_pci_role_info r;
	struct devpm_dev d;

	d = dev("ahci", "auto", "suspended", 0, false);
	devpm_pci_role(&d, &r);
	EXPECT_EQ(DEVPM_PCI_CAPABLE, r.role);
	d = dev("virtio-pci", "on", "active", 0, false);
	devpm_pci_role(&d, &r);
	EXPECT_EQ(DEVPM_PCI_UNKNOWN, r.role);
	EXPECT_NE(NULL, strstr(r.why, "CONFIG_PM_ADVANCED_DEBUG"));
	/* The trace's count after control=auto decides. */
	devpm_pci_role_from_count(&d, 1, &r);
	EXPECT_EQ(DEVPM_PCI_HELD, r.role);
	devpm_pci_role_from_count(&d, 0, &r);
	EXPECT_EQ(DEVPM_PCI_CAPABLE, r.role);
	d = dev("", "on", "active", 0, false);
	devpm_pci_role(&d, &r);
	EXPECT_EQ(DEVPM_PCI_UNBOUND, r.role);
}

/* ahci behind a port: ata1 (on) > host0 (on) > 0:0:0:0 (on, delay -1). */
FIXTURE(sub) {
	char *tree;
	char dir[UNIT_PATH_MAX];
};

FIXTURE_SETUP(sub)
{
	char *t;

	self->tree = t = tree_new();
	tree_device(t, PORT, "pci", "pcieport", "auto", "active", 0, 1);
	tree_device(t, AHCI, "pci", "ahci", "on", "active", 2, 1);
	tree_device(t, ATA, NULL, NULL, "on", "active", 1, 1);
	tree_device(t, HOST, "scsi", NULL, "on", "active", 1, 1);
	tree_device(t, SDEV, "scsi", "sd", "on", "active", 1, 0);
	tree_put(t, SDEV "/power/autosuspend_delay_ms", "-1");
	ASSERT_EQ(0, tree_use(t, self->dir, sizeof(self->dir)));
	ASSERT_EQ(0, devpm_journal_open_owner(NULL)) TH_LOG("%s",
							   devpm_error());
}

FIXTURE_TEARDOWN(sub)
{
	tree_unuse(self->tree);
}

static void get(const char *root, const char *kpath, char *buf, size_t len)
{
	buf[0] = '\0';
	unit_get(root, kpath + 1, buf, len);
	buf[strcspn(buf, "\n")] = '\0';
}

TEST_F(sub, allow_then_undo)
{
	struct devpm_subtree_undo undo = { 0 };
	struct devpm_dev top, *list;
	char v[64];
	size_t n;
	long delay = -5;

	ASSERT_EQ(0, devpm_dev_open(&top, AHCI));
	ASSERT_EQ(0, devpm_subtree_list(&top, &list, &n));
	EXPECT_EQ(3, n);
	EXPECT_STREQ("ata1", list[0].name);	/* parents first */
	free(list);

	ASSERT_EQ(0, devpm_subtree_allow(&top, false, &delay, &undo))
		TH_LOG("%s", devpm_error());
	EXPECT_EQ(20, delay);
	get(self->tree, ATA "/power/control", v, sizeof(v));
	EXPECT_STREQ("auto", v);
	get(self->tree, SDEV "/power/control", v, sizeof(v));
	EXPECT_STREQ("auto", v);
	get(self->tree, SDEV "/power/autosuspend_delay_ms", v, sizeof(v));
	EXPECT_STREQ("20", v);
	/* Negative control: the top itself was not asked for. */
	get(self->tree, AHCI "/power/control", v, sizeof(v));
	EXPECT_STREQ("on", v);
	EXPECT_EQ(4, undo.n);
	/* Levels count from the top: ata1 is 1 below AHCI, however deep. */
	for (n = 0; n < undo.n; n++)
		if (strstr(undo.k[n].path, "/ata1/power/control"))
			EXPECT_EQ(1, undo.k[n].depth);

	ASSERT_EQ(0, devpm_subtree_undo(&undo));
	EXPECT_EQ(0, undo.n);
	get(self->tree, ATA "/power/control", v, sizeof(v));
	EXPECT_STREQ("on", v);
	get(self->tree, SDEV "/power/autosuspend_delay_ms", v, sizeof(v));
	EXPECT_STREQ("-1", v);
}

TEST_F(sub, journal_restores_without_undo)
{
	struct devpm_dev top;
	char v[64];
	off_t mark = devpm_journal_mark();

	ASSERT_EQ(0, devpm_dev_open(&top, AHCI));
	ASSERT_EQ(0, devpm_subtree_allow(&top, true, NULL, NULL));
	get(self->tree, AHCI "/power/control", v, sizeof(v));
	EXPECT_STREQ("auto", v);
	EXPECT_LE(0, devpm_journal_restore_since(mark));
	get(self->tree, AHCI "/power/control", v, sizeof(v));
	EXPECT_STREQ("on", v);
	get(self->tree, HOST "/power/control", v, sizeof(v));
	EXPECT_STREQ("on", v);
	get(self->tree, SDEV "/power/autosuspend_delay_ms", v, sizeof(v));
	EXPECT_STREQ("-1", v);
}

TEST_F(sub, protected_subtree_is_refused)
{
	struct devpm_dev top;
	char v[64];

	tree_put(self->tree, "/proc/self/mountinfo",
		 "27 1 8:0 / / rw - ext4 /dev/sda rw");
	tree_dir(self->tree, SDEV "/block/sda");
	ASSERT_EQ(0, unit_link(self->tree, "sys/dev/block/8:0",
		"../../devices/pci0000:00/0000:00:04.0/0000:01:00.0/ata1/host0/target0:0:0/0:0:0:0/block/sda"));
	devpm_safety_reset();
	ASSERT_EQ(0, devpm_dev_open(&top, AHCI));
	EXPECT_EQ(-EPERM, devpm_subtree_allow(&top, false, NULL, NULL));
	EXPECT_NE(NULL, strstr(devpm_error(), "--allow-disk"));
	get(self->tree, ATA "/power/control", v, sizeof(v));
	EXPECT_STREQ("on", v);
	/* With --allow-disk it goes ahead. */
	setenv("DEVPM_ALLOW_DISK", "1", 1);
	EXPECT_EQ(0, devpm_subtree_allow(&top, false, NULL, NULL));
	unsetenv("DEVPM_ALLOW_DISK");
	get(self->tree, ATA "/power/control", v, sizeof(v));
	EXPECT_STREQ("auto", v);
}

#define NVME "/sys/devices/pci0000:00/0000:00:06.0"

TEST_F(sub, vfio_eligibility)
{
	struct devpm_dev d;
	char why[256];

	tree_device(self->tree, NVME, "pci", NULL, "on", "active", 1, 0);
	ASSERT_EQ(0, devpm_dev_open(&d, NVME));
	EXPECT_FALSE(devpm_vfio_eligible(&d, 0x60, false, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "IOMMU"));
	ASSERT_EQ(0, unit_link(self->tree, (NVME "/iommu_group") + 1,
			       "../../../kernel/iommu_groups/6"));
	EXPECT_TRUE(devpm_vfio_eligible(&d, 0x60, false, why, sizeof(why)));
	/* Negative controls. */
	EXPECT_FALSE(devpm_vfio_eligible(&d, 0, false, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "no PM capability"));
	EXPECT_FALSE(devpm_vfio_eligible(&d, 0x60, true, why, sizeof(why)));
	setenv("DEVPM_PCI_VFIO", "0", 1);
	EXPECT_FALSE(devpm_vfio_eligible(&d, 0x60, false, why, sizeof(why)));
	unsetenv("DEVPM_PCI_VFIO");
}

TEST_F(sub, vfio_bind_is_undone)
{
	struct devpm_dev d;
	char v[64];
	off_t mark;

	tree_device(self->tree, NVME, "pci", NULL, "on", "active", 1, 0);
	tree_put(self->tree, NVME "/driver_override", "(null)");
	tree_put(self->tree, "/sys/bus/pci/drivers_probe", "");
	tree_put(self->tree, "/sys/bus/pci/drivers/vfio-pci/unbind", "");
	tree_dir(self->tree, "/sys/module/vfio_pci");
	ASSERT_EQ(0, devpm_dev_open(&d, NVME));
	mark = devpm_journal_mark();
	/* Nothing binds in a tree: the bind is written, then found wanting. */
	EXPECT_EQ(-ENODEV, devpm_vfio_bind(&d));
	EXPECT_NE(NULL, strstr(devpm_error(), "not bound to vfio-pci"));
	get(self->tree, NVME "/driver_override", v, sizeof(v));
	EXPECT_STREQ("vfio-pci", v);
	get(self->tree, "/sys/bus/pci/drivers_probe", v, sizeof(v));
	EXPECT_STREQ("0000:00:06.0", v);
	EXPECT_LE(0, devpm_journal_restore_since(mark));
	get(self->tree, "/sys/bus/pci/drivers/vfio-pci/unbind", v, sizeof(v));
	EXPECT_STREQ("0000:00:06.0", v);
	/* Cleared as `echo > driver_override` clears it: a lone newline. */
	unit_get(self->tree, (NVME "/driver_override") + 1, v, sizeof(v));
	EXPECT_STREQ("\n", v);
	/* Negative control: a bound device is never taken. */
	tree_device(self->tree, NIC, "pci", "e1000e", "on", "active", 2, 0);
	ASSERT_EQ(0, devpm_dev_open(&d, NIC));
	EXPECT_EQ(-EBUSY, devpm_vfio_bind(&d));
}

#define XHCI "/sys/devices/pci0000:00/0000:00:02.0"

static bool want_cap(const struct devpm_pci_dev *p, char *why, size_t len)
{
	if (p->info.pm_cap)
		return true;
	snprintf(why, len, "wanted: a PM capability");
	return false;
}

/* Who takes part: the suite's rules against a fake machine. */
TEST_F(sub, suite_parts)
{
	struct devpm_pci_set s;
	struct devpm_pci_dev *p;
	char *t = self->tree;

	write_config(t, PORT, 0x1b36, 0x000c, 0x060400, 1, 0, 0, 256);
	write_config(t, AHCI, 0x8086, 0x2922, 0x010601, 0, 0, 0, 256);
	tree_device(t, XHCI, "pci", "xhci_hcd", "on", "active", 3, 2);
	write_config(t, XHCI, 0x1b36, 0x000d, 0x0c0330, 0, 0, 0, 256);
	tree_device(t, XHCI "/usb1", "usb", "usb", "auto", "active", 0, 1);
	tree_device(t, XHCI "/usb2", "usb", "usb", "auto", "active", 0, 1);
	tree_device(t, NVME, "pci", NULL, "on", "active", 1, 0);
	write_config(t, NVME, 0x1b36, 0x0010, 0x010802, 0, PM_CAP, 0, 256);
	tree_device(t, SMB, "pci", "i801_smbus", "auto", "suspended", 0, 0);
	write_config(t, SMB, 0x8086, 0x2930, 0x0c0500, 0, 0, 0, 256);

	ASSERT_EQ(0, devpm_pci_set_open(&s)) TH_LOG("%s", devpm_error());
	EXPECT_EQ(NULL, s.t);	/* no tracefs in a tree: waits poll */
	ASSERT_EQ(5, s.n);
	devpm_pci_set_parts(&s, false, NULL);

	/* ahci: usage held by its active port, which control=on keeps. */
	p = devpm_pci_set_find(&s, "0000:01:00.0");
	ASSERT_TRUE(p != NULL);
	EXPECT_TRUE(p->busy);
	EXPECT_TRUE(p->part);
	/* xhci: as many references as active children, none forbidden. */
	p = devpm_pci_set_find(&s, "0000:00:02.0");
	EXPECT_FALSE(p->busy);
	EXPECT_FALSE(p->part);
	EXPECT_NE(NULL, strstr(p->skip, "holds 2 usage references"));
	/* A bridge without PM capability never idles. */
	p = devpm_pci_set_find(&s, "0000:00:04.0");
	EXPECT_FALSE(p->part);
	EXPECT_TRUE(p->no_bridge_d3);
	p = devpm_pci_set_find(&s, "0000:00:06.0");
	EXPECT_TRUE(p->part);	/* unbound */
	p = devpm_pci_set_find(&s, "0000:00:1f.3");
	EXPECT_TRUE(p->part);	/* capable */
	devpm_pci_set_close(&s);

	/* Negative controls: the port let go, and a case's own choice. */
	tree_put(t, ATA "/power/control", "auto");
	ASSERT_EQ(0, devpm_pci_set_open(&s));
	devpm_pci_set_parts(&s, false, want_cap);
	p = devpm_pci_set_find(&s, "0000:01:00.0");
	EXPECT_FALSE(p->busy);
	EXPECT_FALSE(p->part);
	p = devpm_pci_set_find(&s, "0000:00:1f.3");
	EXPECT_FALSE(p->part);
	EXPECT_STREQ("wanted: a PM capability", p->skip);
	p = devpm_pci_set_find(&s, "0000:00:06.0");
	EXPECT_TRUE(p->part);
	devpm_pci_set_close(&s);
}

TEST_HARNESS_MAIN
