// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_device.c - lib/rpm/device.c against the recorded host tree and fake
 * trees: resolving device specs, snapshots, listing, children.
 */
#include "devpm.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define VBALLOON "/sys/devices/pci0000:00/0000:00:01.0"
#define VNET "/sys/devices/pci0000:00/0000:00:03.0"

static void use_recorded(struct __test_metadata *_metadata, const char *tree)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/sysfs/%s", fixtures_dir(), tree);
	ASSERT_EQ(0, devpm_set_sysfs_root(dir)) {
		TH_LOG("%s", devpm_error());
	}
}

TEST(open_by_bus_link)
{
	struct devpm_dev d;

	use_recorded(_metadata, "host-vm");
	ASSERT_EQ(0, devpm_dev_open(&d, "/sys/bus/pci/devices/0000:00:01.0")) {
		TH_LOG("%s", devpm_error());
	}
	EXPECT_STREQ(VBALLOON, d.path);
	EXPECT_STREQ("0000:00:01.0", d.name);
	EXPECT_STREQ("pci", d.bus);
	EXPECT_STREQ("virtio-pci", d.driver);
	EXPECT_STREQ("/sys/devices/pci0000:00", d.parent);
	/* A 6.18 kernel without CONFIG_PM_ADVANCED_DEBUG. */
	EXPECT_TRUE(d.rpm.have_control);
	EXPECT_STREQ("on", d.rpm.control);
	EXPECT_TRUE(d.rpm.have_status);
	EXPECT_STREQ("active", d.rpm.status);
	EXPECT_FALSE(d.rpm.have_usage);
	EXPECT_FALSE(d.rpm.have_active_kids);
	EXPECT_FALSE(d.rpm.have_enabled);
	EXPECT_FALSE(d.rpm.have_async);
	EXPECT_FALSE(d.rpm.have_autosuspend);	/* EIO: not recorded */
	EXPECT_TRUE(d.rpm.have_times);
	EXPECT_GT(d.rpm.active_ms, 0);
	EXPECT_FALSE(d.wakeup.capable);
	EXPECT_EQ(-1, d.wakeup.event_count);
}

TEST(open_by_path_and_bare_name)
{
	struct devpm_dev a, b, c;

	use_recorded(_metadata, "host-vm");
	ASSERT_EQ(0, devpm_dev_open(&a, VNET));
	ASSERT_EQ(0, devpm_dev_open(&b, "0000:00:03.0"));
	EXPECT_STREQ(a.path, b.path);
	EXPECT_STREQ("virtio-pci", b.driver);
	/* A class device found by name: net/eth0 under virtio2. */
	ASSERT_EQ(0, devpm_dev_open(&c, "eth0")) {
		TH_LOG("%s", devpm_error());
	}
	EXPECT_STREQ(VNET "/virtio2/net/eth0", c.path);
	EXPECT_STREQ("net", c.bus);
	EXPECT_STREQ("", c.driver);
	EXPECT_STREQ(VNET "/virtio2", c.parent);
	/* A platform device by bare name. */
	ASSERT_EQ(0, devpm_dev_open(&c, "serial8250"));
	EXPECT_STREQ("/sys/devices/platform/serial8250", c.path);
	EXPECT_STREQ("platform", c.bus);
	EXPECT_STREQ("serial8250", c.driver);
	/* Trailing slash and /sys/class link. */
	ASSERT_EQ(0, devpm_dev_open(&c, VNET "/"));
	EXPECT_STREQ(VNET, c.path);
	ASSERT_EQ(0, devpm_dev_open(&c, "/sys/class/net/eth0"));
	EXPECT_STREQ(VNET "/virtio2/net/eth0", c.path);
}

TEST(open_bad_specs)
{
	static const struct { const char *spec; int err; const char *msg; }
	bad[] = {
		{ "", -EINVAL, "empty device name" },
		{ "nosuchdev", -ENOENT, "no device nosuchdev" },
		{ "/sys/devices/pci0000:00/0000:00:09.0", -ENOENT,
		  "no device /sys/devices/pci0000:00/0000:00:09.0" },
		{ "/etc/passwd", -EINVAL,
		  "/etc/passwd is not a device under /sys/devices" },
		{ "/sys/devices", -EINVAL,
		  "/sys/devices is not a device under /sys/devices" },
		{ "/sys/bus/pci", -EINVAL,
		  "/sys/bus/pci is not a device under /sys/devices" },
		{ VNET "/power", -EINVAL, "no uevent or power/" },
		{ "pci0000:00/0000:00:03.0", -EINVAL, "bad device name" },
		{ "..", -EINVAL, "bad device name" },
		{ "/sys/devices/../bus/pci", -EINVAL,
		  "is not a device under /sys/devices" },
		{ "/sys/bus/pci/devices/escape", -EINVAL,
		  "is not a device under /sys/devices" },
	};
	struct devpm_dev d;
	char *root = tree_new();
	size_t i;

	tree_device(root, "/sys/devices/pci0000:00/0000:00:03.0", "pci",
		    "e1000e", "on", "active", 2, 0);
	tree_device(root, "/sys/devices/pci0000:00", NULL, NULL, "auto",
		    "unsupported", 0, 0);
	/* A link out of the root must not be followed out. */
	tree_link(root, "/sys/bus/pci/devices/escape", "/etc");
	ASSERT_EQ(0, devpm_set_sysfs_root(root));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(bad[i].err, devpm_dev_open(&d, bad[i].spec)) {
			TH_LOG("spec '%s'", bad[i].spec);
		}
		EXPECT_NE(NULL, strstr(devpm_error(), bad[i].msg)) {
			TH_LOG("spec '%s': '%s'", bad[i].spec, devpm_error());
		}
	}
	/* Positive control: the same tree opens a real device. */
	EXPECT_EQ(0, devpm_dev_open(&d, "0000:00:03.0"));
	EXPECT_STREQ("e1000e", d.driver);
	tree_rm(root);
}

/* Every attribute the full snapshot reads, each with a telling value. */
static void put_every_attribute(const char *root, const char *dev)
{
	static const char *const kv[][2] = {
		{ "power/autosuspend_delay_ms", "1000" },
		{ "power/runtime_active_time", "1234" },
		{ "power/runtime_suspended_time", "98765" },
		{ "power/pm_qos_resume_latency_us", "n/a" },
		{ "power/pm_qos_no_power_off", "1" },
		{ "power/wakeup", "enabled" },
		{ "wakeup/wakeup7/event_count", "42" },
	};
	char p[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(kv) / sizeof(kv[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dev, kv[i][0]);
		tree_put(root, p, kv[i][1]);
	}
}

TEST(snapshot_every_attribute)
{
	const char *dev = "/sys/devices/pci0000:00/0000:00:1f.3";
	struct devpm_dev d;
	char *root = tree_new();
	char p[PATH_MAX];

	tree_device(root, dev, "pci", "i801_smbus", "auto", "suspended", 0, 0);
#define PUT(attr, val) do { \
	snprintf(p, sizeof(p), "%s/%s", dev, attr); \
	tree_put(root, p, val); \
} while (0)
	put_every_attribute(root, dev);
	ASSERT_EQ(0, devpm_set_sysfs_root(root));
	ASSERT_EQ(0, devpm_dev_open(&d, dev));
	EXPECT_STREQ("auto", d.rpm.control);
	EXPECT_STREQ("suspended", d.rpm.status);
	EXPECT_TRUE(d.rpm.have_usage);
	EXPECT_EQ(0, d.rpm.usage);
	EXPECT_TRUE(d.rpm.have_active_kids);
	EXPECT_STREQ("enabled", d.rpm.enabled);
	EXPECT_TRUE(d.rpm.have_autosuspend);
	EXPECT_EQ(1000, d.rpm.autosuspend_delay_ms);
	EXPECT_TRUE(d.rpm.have_times);
	EXPECT_EQ(1234, d.rpm.active_ms);
	EXPECT_EQ(98765, d.rpm.suspended_ms);
	EXPECT_TRUE(d.rpm.have_qos_latency);
	EXPECT_TRUE(d.rpm.qos_latency_na);
	EXPECT_TRUE(d.rpm.have_no_power_off);
	EXPECT_EQ(1, d.rpm.no_power_off);
	EXPECT_STREQ("enabled", d.rpm.async);
	EXPECT_TRUE(d.wakeup.capable);
	EXPECT_TRUE(d.wakeup.enabled);
	EXPECT_EQ(42, d.wakeup.event_count);

	/* Negative controls: each value flipped is seen flipped. */
	PUT("power/pm_qos_resume_latency_us", "0");
	PUT("power/wakeup", "disabled");
	PUT("power/runtime_usage", "3");
	PUT("power/autosuspend_delay_ms", "-1");
	ASSERT_EQ(0, devpm_dev_snapshot(&d));
	EXPECT_TRUE(d.rpm.have_qos_latency);
	EXPECT_FALSE(d.rpm.qos_latency_na);
	EXPECT_EQ(0, d.rpm.qos_latency_us);
	EXPECT_TRUE(d.wakeup.capable);
	EXPECT_FALSE(d.wakeup.enabled);
	EXPECT_EQ(3, d.rpm.usage);
	EXPECT_EQ(-1, d.rpm.autosuspend_delay_ms);
	PUT("power/pm_qos_resume_latency_us", "100");
	PUT("power/wakeup", "");
	ASSERT_EQ(0, devpm_dev_snapshot(&d));
	EXPECT_EQ(100, d.rpm.qos_latency_us);
	EXPECT_FALSE(d.wakeup.capable);
#undef PUT
	/* Absent files are flagged absent. */
	snprintf(p, sizeof(p), "%s%s/power/runtime_usage", root, dev);
	ASSERT_EQ(0, unlink(p));
	snprintf(p, sizeof(p), "%s%s/power/pm_qos_resume_latency_us", root,
		 dev);
	ASSERT_EQ(0, unlink(p));
	snprintf(p, sizeof(p), "%s%s/power/control", root, dev);
	ASSERT_EQ(0, unlink(p));
	ASSERT_EQ(0, devpm_dev_snapshot(&d));
	EXPECT_FALSE(d.rpm.have_usage);
	EXPECT_FALSE(d.rpm.have_qos_latency);
	EXPECT_FALSE(d.rpm.have_control);
	EXPECT_TRUE(d.rpm.have_status);
	tree_rm(root);
}

/*
 * The baseline's list reads what the rules judge, and nothing else: the
 * same baseline entry (role, could_suspend) as the full snapshot's, for
 * every device of a recorded tree and for one with every attribute.
 */
TEST(list_rpm_reads_what_the_rules_read)
{
	const char *dev = "/sys/devices/pci0000:00/0000:00:1f.3";
	struct devpm_base_dev bf, br;
	struct devpm_dev *full, *rpm;
	size_t n, m, i;
	char *root = tree_new();

	use_recorded(_metadata, "host-vm");
	ASSERT_EQ(0, devpm_dev_list(NULL, &full, &n));
	ASSERT_EQ(0, devpm_dev_list_rpm(NULL, &rpm, &m));
	ASSERT_EQ(n, m);
	for (i = 0; i < n; i++) {
		devpm_baseline_judge(&full[i], &bf);
		devpm_baseline_judge(&rpm[i], &br);
		ASSERT_EQ(0, memcmp(&bf, &br, sizeof(bf)))
			TH_LOG("%s: role %s, %s from the rules' list",
			       full[i].path, bf.role, br.role);
	}
	free(full);
	free(rpm);

	tree_device(root, dev, "pci", "i801_smbus", "auto", "active", 0, 0);
	put_every_attribute(root, dev);
	ASSERT_EQ(0, devpm_set_sysfs_root(root));
	ASSERT_EQ(0, devpm_dev_list_rpm(NULL, &rpm, &m));
	ASSERT_EQ(1, (int)m);
	EXPECT_STREQ("auto", rpm[0].rpm.control);
	EXPECT_STREQ("active", rpm[0].rpm.status);
	EXPECT_TRUE(rpm[0].rpm.have_usage);
	EXPECT_TRUE(rpm[0].rpm.have_active_kids);
	EXPECT_STREQ("enabled", rpm[0].rpm.enabled);
	EXPECT_EQ(1000, rpm[0].rpm.autosuspend_delay_ms);
	EXPECT_TRUE(rpm[0].rpm.qos_latency_na);
	devpm_baseline_judge(&rpm[0], &br);
	EXPECT_STREQ("qos_no_suspend", br.role);
	/* Not read: */
	EXPECT_FALSE(rpm[0].rpm.have_times);
	EXPECT_FALSE(rpm[0].rpm.have_no_power_off);
	EXPECT_FALSE(rpm[0].rpm.have_async);
	EXPECT_FALSE(rpm[0].wakeup.capable);
	EXPECT_EQ(-1, rpm[0].wakeup.event_count);
	free(rpm);
	tree_rm(root);
}

TEST(status_and_vanished_device)
{
	const char *dev = "/sys/devices/platform/foo";
	struct devpm_dev d;
	char *root = tree_new();
	char p[PATH_MAX], st[16];

	tree_device(root, dev, "platform", "foo", "auto", "active", 0, 0);
	ASSERT_EQ(0, devpm_set_sysfs_root(root));
	ASSERT_EQ(0, devpm_dev_open(&d, "foo"));
	ASSERT_EQ(0, devpm_dev_status(&d, st, sizeof(st)));
	EXPECT_STREQ("active", st);
	snprintf(p, sizeof(p), "%s%s/power/runtime_status", root, dev);
	ASSERT_EQ(0, unlink(p));
	ASSERT_EQ(0, devpm_dev_status(&d, st, sizeof(st)));
	EXPECT_STREQ("", st);
	/* The device goes away: the snapshot says so. */
	snprintf(p, sizeof(p), "rm -rf '%s%s'", root, dev);
	ASSERT_EQ(0, system(p));
	EXPECT_EQ(-ENOENT, devpm_dev_snapshot(&d));
	EXPECT_NE(NULL, strstr(devpm_error(), "no device"));
	tree_rm(root);
}

TEST(list_recorded_tree)
{
	struct devpm_dev *all, *pci;
	size_t n, npci, i, j;

	use_recorded(_metadata, "host-vm");
	ASSERT_EQ(0, devpm_dev_list(NULL, &all, &n));
	/* record.sh said: 146 devices (power/ directories). */
	EXPECT_EQ(146, (int)n);
	for (i = 1; i < n; i++)
		ASSERT_LT(0, strcmp(all[i].path, all[i - 1].path));
	/* Parents come before children, and every parent is listed. */
	for (i = 0; i < n; i++) {
		if (!all[i].parent[0])
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(all[j].path, all[i].parent))
				break;
		EXPECT_LT(j, i) {
			TH_LOG("%s: parent %s not listed before it",
			       all[i].path, all[i].parent);
		}
	}
	/* The list's parent (its nearest listed ancestor) is a lookup's. */
	for (i = 0; i < n; i++) {
		struct devpm_dev one;

		ASSERT_EQ(0, devpm_dev_open(&one, all[i].path));
		EXPECT_STREQ(one.parent, all[i].parent);
		EXPECT_STREQ(one.bus, all[i].bus);
		EXPECT_STREQ(one.driver, all[i].driver);
	}
	ASSERT_EQ(0, devpm_dev_list("pci", &pci, &npci));
	EXPECT_EQ(6, (int)npci);
	for (i = 0; i < npci; i++)
		EXPECT_STREQ("pci", pci[i].bus);
	EXPECT_STREQ("/sys/devices/pci0000:00/0000:00:00.0", pci[0].path);
	EXPECT_STREQ("", pci[0].driver);	/* host bridge: unbound */
	free(pci);
	/* Negative control: an unknown bus lists nothing. */
	ASSERT_EQ(0, devpm_dev_list("nosuchbus", &pci, &npci));
	EXPECT_EQ(0, (int)npci);
	free(pci);
	free(all);
}

TEST(list_skips_links_power_and_wakeup_dirs)
{
	struct devpm_dev *l;
	char *root = tree_new();
	size_t n;

	tree_device(root, "/sys/devices/platform/a", "platform", NULL, "auto",
		    "active", 0, 0);
	/* A wakeup source under a device has power/ but is no device here. */
	tree_put(root, "/sys/devices/platform/a/wakeup/wakeup3/power/control",
		 "auto");
	tree_put(root, "/sys/devices/platform/a/wakeup/wakeup3/event_count",
		 "5");
	/* A symlink to a device must not list it twice. */
	tree_link(root, "/sys/devices/platform/a/loop", "../a");
	tree_device(root, "/sys/devices/virtual/net/lo", "net", NULL, "auto",
		    "unsupported", 0, 0);
	ASSERT_EQ(0, devpm_set_sysfs_root(root));
	ASSERT_EQ(0, devpm_dev_list(NULL, &l, &n));
	ASSERT_EQ(2, (int)n);
	EXPECT_STREQ("/sys/devices/platform/a", l[0].path);
	EXPECT_EQ(5, l[0].wakeup.event_count);
	EXPECT_STREQ("/sys/devices/virtual/net/lo", l[1].path);
	free(l);
	tree_rm(root);
}

TEST(children_are_direct_descendants_in_the_model)
{
	struct devpm_dev d, *k;
	size_t n;

	use_recorded(_metadata, "host-vm");
	ASSERT_EQ(0, devpm_dev_open(&d, VNET));
	ASSERT_EQ(0, devpm_dev_children(&d, &k, &n));
	/* virtio2 only: eth0 is its child, not ours. */
	ASSERT_EQ(1, (int)n);
	EXPECT_STREQ(VNET "/virtio2", k[0].path);
	free(k);
	ASSERT_EQ(0, devpm_dev_open(&d, "/sys/devices/pci0000:00"));
	ASSERT_EQ(0, devpm_dev_children(&d, &k, &n));
	/* Six PCI functions and the pci_bus class device. */
	EXPECT_EQ(7, (int)n);
	free(k);
	/* Negative control: a leaf has none. */
	ASSERT_EQ(0, devpm_dev_open(&d, "eth0"));
	ASSERT_EQ(0, devpm_dev_children(&d, &k, &n));
	EXPECT_EQ(0, (int)n);
	free(k);
}

TEST(attr_path)
{
	struct devpm_dev d = { .path = "/sys/devices/x" };
	char p[DEVPM_PATH_MAX], small[8];

	ASSERT_EQ(0, devpm_dev_attr(&d, "control", p, sizeof(p)));
	EXPECT_STREQ("/sys/devices/x/power/control", p);
	EXPECT_EQ(-ENAMETOOLONG, devpm_dev_attr(&d, "control", small,
						sizeof(small)));
}

TEST_HARNESS_MAIN
