// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_safety.c - the devices under a mounted filesystem are protected and
 * their knobs refused without --allow-disk (lib/core/safety.c), on a fake tree
 * with a fake mountinfo, and on this machine's own root filesystem.
 */
#include <limits.h>
#include <sys/sysmacros.h>

#include "devpm.h"
#include "kselftest_harness.h"
#include "unit.h"

#define PCI "/sys/devices/pci0000:00"
#define DISK PCI "/0000:00:02.0"			/* holds / */
#define VDA DISK "/virtio1/block/vda"
#define SIB PCI "/0000:00:03.0"				/* sibling */
#define HOME PCI "/0000:00:04.0"			/* under dm-0 */
#define SDB HOME "/host0/target0:0:0/0:0:0:0/block/sdb"

FIXTURE(mnt) {
	char root[UNIT_PATH_MAX];
	char journal_dir[UNIT_PATH_MAX];
};

FIXTURE_SETUP(mnt)
{
	char *r = self->root;

	ASSERT_EQ(0, unit_mkdtemp(self->root, sizeof(self->root)));
	snprintf(self->journal_dir, sizeof(self->journal_dir), "%s/j", r);
	ASSERT_EQ(0, unit_put(r, "proc/self/mountinfo",
		"22 27 0:21 / /proc rw,relatime - proc none rw\n"
		"27 1 254:1 / / rw,relatime - ext4 /dev/vda1 rw\n"
		"40 27 253:0 / /home rw - xfs /dev/mapper/home rw\n"
		"45 23 0:13 / /sys/kernel/tracing rw - tracefs nodev rw\n"));
	ASSERT_EQ(0, unit_mkdir(r, (VDA "/vda1") + 1));
	ASSERT_EQ(0, unit_link(r, "sys/dev/block/254:1",
		"../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda/vda1"));
	ASSERT_EQ(0, unit_mkdir(r, "sys/devices/virtual/block/dm-0/slaves"));
	ASSERT_EQ(0, unit_link(r, "sys/dev/block/253:0",
			       "../../devices/virtual/block/dm-0"));
	ASSERT_EQ(0, unit_mkdir(r, (SDB "/sdb2") + 1));
	ASSERT_EQ(0, unit_link(r, "sys/devices/virtual/block/dm-0/slaves/sdb2",
		"../../../../pci0000:00/0000:00:04.0/host0/target0:0:0/0:0:0:0/block/sdb/sdb2"));
	ASSERT_EQ(0, unit_put(r, (DISK "/power/control") + 1, "on\n"));
	ASSERT_EQ(0, unit_put(r, (SIB "/power/control") + 1, "on\n"));
	ASSERT_EQ(0, unit_link(r, "sys/bus/pci/devices/0000:00:02.0",
			       "../../../devices/pci0000:00/0000:00:02.0"));
	ASSERT_EQ(0, devpm_set_sysfs_root(r));
	devpm_safety_reset();
	unsetenv("DEVPM_ALLOW_DISK");
	setenv("DEVPM_JOURNAL_DIR", self->journal_dir, 1);
	unsetenv("DEVPM_JOURNAL");
}

FIXTURE_TEARDOWN(mnt)
{
	unit_rm_rf(self->root);
}

TEST_F(mnt, mounted_disk_and_ancestors_are_protected)
{
	const char *const devs[] = {
		PCI, DISK, DISK "/virtio1", VDA, VDA "/vda1", DISK "/",
		"/sys/bus/pci/devices/0000:00:02.0",	/* a link to DISK */
	};
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		why[0] = '\0';
		if (!devpm_dev_protected(devs[i], why, sizeof(why)))
			TH_LOG("%s not protected", devs[i]);
		ASSERT_TRUE(devpm_dev_protected(devs[i], why, sizeof(why)));
		ASSERT_STREQ("/dev/vda1 holds / (mounted)", why);
	}
}

TEST_F(mnt, siblings_and_lookalikes_are_not)
{
	const char *const devs[] = {
		SIB, DISK "/virtio", DISK "/virtio1/other", PCI "/0000:00:02",
		VDA "/vda2", "/sys/devices/platform/serial8250",
	};
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		strcpy(why, "stale");
		if (devpm_dev_protected(devs[i], why, sizeof(why)))
			TH_LOG("%s protected: %s", devs[i], why);
		ASSERT_FALSE(devpm_dev_protected(devs[i], why, sizeof(why)));
		ASSERT_STREQ("", why);
	}
}

TEST_F(mnt, device_mapper_slaves_are_protected)
{
	char why[256];

	ASSERT_TRUE(devpm_dev_protected(HOME, why, sizeof(why)));
	ASSERT_STREQ("/dev/mapper/home holds /home (mounted)", why);
	ASSERT_TRUE(devpm_dev_protected("/sys/devices/virtual/block/dm-0",
					NULL, 0));
	/* Without the slave link the disk under dm-0 is free. */
	ASSERT_EQ(0, unlink(strcat(strcpy(why, self->root),
		  "/sys/devices/virtual/block/dm-0/slaves/sdb2")));
	/* The set is cached until reset. */
	ASSERT_TRUE(devpm_dev_protected(HOME, NULL, 0));
	devpm_safety_reset();
	ASSERT_FALSE(devpm_dev_protected(HOME, NULL, 0));
}

TEST_F(mnt, tree_without_mountinfo_protects_nothing)
{
	char p[UNIT_PATH_MAX];

	snprintf(p, sizeof(p), "%s/proc/self/mountinfo", self->root);
	ASSERT_EQ(0, unlink(p));
	devpm_safety_reset();
	ASSERT_FALSE(devpm_dev_protected(DISK, NULL, 0));
}

TEST_F(mnt, swap_and_btrfs_block_nodes_are_protected)
{
	char p[UNIT_PATH_MAX], why[256];

	/* A node only a block device can be: needs mknod (root). */
	snprintf(p, sizeof(p), "%s/dev/sdc2", self->root);
	ASSERT_EQ(0, unit_mkdir(self->root, "dev"));
	if (mknod(p, S_IFBLK | 0600, makedev(8, 34)))
		SKIP(return, "cannot mknod a fake block node: %s",
		     strerror(errno));
	snprintf(p, sizeof(p), "%s/dev/sdd1", self->root);
	ASSERT_EQ(0, mknod(p, S_IFBLK | 0600, makedev(8, 49)));
	ASSERT_EQ(0, unit_put(self->root, "dev/swapfile", ""));
	ASSERT_EQ(0, unit_put(self->root, "proc/swaps",
		"Filename\tType\tSize\tUsed\tPriority\n"
		"/dev/sdc2 partition 1048572 0 -2\n"
		"/dev/swapfile file 1024 0 -3\n"));
	ASSERT_EQ(0, unit_link(self->root, "sys/dev/block/8:34",
		"../../devices/pci0000:00/0000:00:06.0/ata1/block/sdc/sdc2"));
	ASSERT_EQ(0, unit_mkdir(self->root,
		"sys/devices/pci0000:00/0000:00:06.0/ata1/block/sdc/sdc2"));
	/* btrfs: anonymous 0:N in mountinfo, the real device is the source. */
	ASSERT_EQ(0, unit_put(self->root, "proc/self/mountinfo",
		"50 1 0:45 / /data rw - btrfs /dev/sdd1 rw\n"));
	ASSERT_EQ(0, unit_link(self->root, "sys/dev/block/8:49",
		"../../devices/pci0000:00/0000:00:07.0/ata2/block/sdd/sdd1"));
	ASSERT_EQ(0, unit_mkdir(self->root,
		"sys/devices/pci0000:00/0000:00:07.0/ata2/block/sdd/sdd1"));
	devpm_safety_reset();

	ASSERT_TRUE(devpm_dev_protected(PCI "/0000:00:06.0", why, sizeof(why)));
	ASSERT_STREQ("/dev/sdc2 holds swap", why);
	ASSERT_TRUE(devpm_dev_protected(PCI "/0000:00:07.0", why, sizeof(why)));
	ASSERT_STREQ("/dev/sdd1 holds /data (mounted)", why);
	/* The old mountinfo is gone: the virtio disk is free now. */
	ASSERT_FALSE(devpm_dev_protected(DISK, NULL, 0));
}

TEST_F(mnt, zfs_root_protects_every_block_device_said_once)
{
	char why[512], err[4096], file[UNIT_PATH_MAX];
	int saved;

	/* zfs: no block node, an anonymous 0:N; pool members unknowable. */
	ASSERT_EQ(0, unit_put(self->root, "proc/self/mountinfo",
		"22 27 0:21 / /proc rw,relatime - proc proc rw\n"
		"27 1 0:25 / / rw,relatime - zfs rpool/ROOT/debian rw\n"));
	ASSERT_EQ(0, unit_link(self->root, "sys/class/block/vda",
		"../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda"));
	ASSERT_EQ(0, unit_link(self->root, "sys/class/block/sdb",
		"../../devices/pci0000:00/0000:00:04.0/host0/target0:0:0/0:0:0:0/block/sdb"));
	devpm_safety_reset();
	snprintf(file, sizeof(file), "%s/stderr", self->root);
	saved = unit_capture_begin(2, file);
	ASSERT_TRUE(devpm_dev_protected(DISK, why, sizeof(why)));
	ASSERT_TRUE(devpm_dev_protected(HOME, NULL, 0));
	unit_capture_end(2, saved, file, err, sizeof(err));
	ASSERT_HAS(why, "cannot tell which block devices hold / (zfs rpool/ROOT/debian)");
	/* Said once, whatever the number of questions. */
	ASSERT_HAS(err, "every block device counts as holding it");
	ASSERT_EQ(strlen(err), (size_t)(strchr(err, '\n') - err + 1));
	/* Devices with no block device below stay testable. */
	ASSERT_FALSE(devpm_dev_protected(SIB, NULL, 0));

	/*
	 * Negative control: an initramfs root (rootfs, as in devpm's QEMU
	 * image) or a tmpfs at 0:N says nothing of disks.
	 */
	ASSERT_EQ(0, unit_put(self->root, "proc/self/mountinfo",
		"1 1 0:2 / / rw - rootfs rootfs rw\n"
		"27 1 0:25 / /tmp rw - tmpfs tmpfs rw\n"));
	devpm_safety_reset();
	ASSERT_FALSE(devpm_dev_protected(DISK, NULL, 0));
	ASSERT_FALSE(devpm_dev_protected(HOME, NULL, 0));
}

TEST_F(mnt, every_member_of_a_mounted_btrfs_is_protected)
{
	char why[256];

	/* Two-device btrfs: mountinfo names vda1 only; sdb2 is a member. */
	ASSERT_EQ(0, unit_put(self->root, "proc/self/mountinfo",
		"50 1 0:45 / / rw - btrfs /dev/vda1 rw\n"));
	ASSERT_EQ(0, unit_link(self->root, "sys/fs/btrfs/fsid-1/devices/vda1",
		"../../../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda/vda1"));
	ASSERT_EQ(0, unit_link(self->root, "sys/fs/btrfs/fsid-1/devices/sdb2",
		"../../../../devices/pci0000:00/0000:00:04.0/host0/target0:0:0/0:0:0:0/block/sdb/sdb2"));
	devpm_safety_reset();
	ASSERT_TRUE(devpm_dev_protected(HOME, why, sizeof(why)));
	ASSERT_STREQ("/dev/vda1 holds / (mounted)", why);
	ASSERT_TRUE(devpm_dev_protected(DISK, NULL, 0));
	ASSERT_FALSE(devpm_dev_protected(SIB, NULL, 0));

	/* Negative control: an ext4 / does not pull in btrfs members. */
	ASSERT_EQ(0, unit_put(self->root, "proc/self/mountinfo",
		"27 1 254:1 / / rw - ext4 /dev/vda1 rw\n"));
	devpm_safety_reset();
	ASSERT_TRUE(devpm_dev_protected(DISK, NULL, 0));
	ASSERT_FALSE(devpm_dev_protected(HOME, NULL, 0));
}

TEST_F(mnt, knob_write_refuses_protected_unless_allow_disk)
{
	char buf[64];

	ASSERT_EQ(-EPERM, devpm_knob_write(DISK "/power/control", "auto"));
	ASSERT_HAS(devpm_error(), "refusing to write " DISK "/power/control");
	ASSERT_HAS(devpm_error(), "/dev/vda1 holds / (mounted)");
	ASSERT_HAS(devpm_error(), "--allow-disk");
	ASSERT_EQ(0, devpm_read_str(DISK "/power/control", buf, sizeof(buf)));
	ASSERT_STREQ("on", buf);
	/* Through a bus link too. */
	ASSERT_EQ(-EPERM, devpm_knob_write(
		"/sys/bus/pci/devices/0000:00:02.0/power/control", "auto"));
	/* A sibling is fine. */
	ASSERT_EQ(0, devpm_knob_write(SIB "/power/control", "auto"));
	ASSERT_EQ(0, devpm_read_str(SIB "/power/control", buf, sizeof(buf)));
	ASSERT_STREQ("auto", buf);

	setenv("DEVPM_ALLOW_DISK", "1", 1);
	ASSERT_EQ(0, devpm_knob_write(DISK "/power/control", "auto"));
	ASSERT_EQ(0, devpm_read_str(DISK "/power/control", buf, sizeof(buf)));
	ASSERT_STREQ("auto", buf);
	ASSERT_EQ(2, devpm_journal_restore_all());
	ASSERT_EQ(0, devpm_read_str(DISK "/power/control", buf, sizeof(buf)));
	ASSERT_STREQ("on", buf);
}

TEST(allow_flags_need_exactly_1)
{
	unsetenv("DEVPM_ALLOW_SLEEP");
	unsetenv("DEVPM_ALLOW_DISK");
	ASSERT_FALSE(devpm_allow_sleep());
	ASSERT_FALSE(devpm_allow_disk());
	setenv("DEVPM_ALLOW_SLEEP", "1", 1);
	setenv("DEVPM_ALLOW_DISK", "1", 1);
	ASSERT_TRUE(devpm_allow_sleep());
	ASSERT_TRUE(devpm_allow_disk());
	setenv("DEVPM_ALLOW_SLEEP", "0", 1);
	setenv("DEVPM_ALLOW_DISK", "yes", 1);
	ASSERT_FALSE(devpm_allow_sleep());
	ASSERT_FALSE(devpm_allow_disk());
}

TEST(is_root_is_euid_0)
{
	ASSERT_EQ(geteuid() == 0, devpm_is_root());
}

/* This machine: the device under / is protected, its parent too. */
TEST(real_root_filesystem_device_is_protected)
{
	char link[64], dev[PATH_MAX], why[256], *slash;
	struct stat st;

	devpm_set_sysfs_root(NULL);
	devpm_safety_reset();
	ASSERT_EQ(0, stat("/", &st));
	if (!major(st.st_dev))
		SKIP(return, "/ is not on a block device (%u:%u)",
		     major(st.st_dev), minor(st.st_dev));
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	if (!realpath(link, dev))
		SKIP(return, "no %s", link);
	ASSERT_TRUE(devpm_dev_protected(dev, why, sizeof(why)));
	TH_LOG("%s: %s", dev, why);
	ASSERT_HAS(why, "holds / (mounted)");
	slash = strrchr(dev, '/');
	*slash = '\0';
	ASSERT_TRUE(devpm_dev_protected(dev, NULL, 0));
	ASSERT_FALSE(devpm_dev_protected("/sys/devices/devpm-no-such-device",
					 NULL, 0));
}

TEST_HARNESS_MAIN
