// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_scsi.c - lib/bus/scsi/scsi.c against a fake tree: disks with their target,
 * host, libata port and PCI controller; which disks may get test data
 * (scsi_debug; others only with --allow-disk and nothing on them: no
 * mount, no holder); O_DIRECT-style I/O bounds; journaled PM knobs.
 */
#include "devpm.h"
#include "bus/scsi/scsi.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#define AHCI "/sys/devices/pci0000:00/0000:00:1f.2"
#define PORT AHCI "/ata1"
#define HOST0 PORT "/host0"
#define SDA HOST0 "/target0:0:0/0:0:0:0"
#define CDROM PORT "/host0/target0:0:1/0:0:1:0"
#define SDEBUG "/sys/devices/pseudo_0/adapter0/host2/target2:0:0/2:0:0:0"

FIXTURE(sc) {
	char *tree;
	char dir[UNIT_PATH_MAX];
};

/* host, target and sd device with a block device of `blocks` sectors. */
static void disk(const char *root, const char *sdev, const char *proc,
		 const char *blk, const char *devno, const char *driver)
{
	char p[UNIT_PATH_MAX], host[UNIT_PATH_MAX], tgt[UNIT_PATH_MAX];
	char t[UNIT_PATH_MAX];

	snprintf(tgt, sizeof(tgt), "%s", sdev);
	*strrchr(tgt, '/') = '\0';
	snprintf(host, sizeof(host), "%s", tgt);
	*strrchr(host, '/') = '\0';
	tree_device(root, host, "scsi", NULL, "auto", "active", 0, 1);
	snprintf(p, sizeof(p), "%s/scsi_host/%s/proc_name", host,
		 strrchr(host, '/') + 1);
	tree_put(root, p, proc);
	tree_device(root, tgt, "scsi", NULL, "auto", "active", 0, 1);
	tree_device(root, sdev, "scsi", driver, "on", "active", 2, 0);
	if (!blk)
		return;
	snprintf(p, sizeof(p), "%s/block/%s/dev", sdev, blk);
	tree_put(root, p, devno);
	snprintf(p, sizeof(p), "%s/block/%s/size", sdev, blk);
	tree_put(root, p, "128");	/* 64 KiB */
	snprintf(p, sizeof(p), "%s/block/%s/queue/logical_block_size", sdev,
		 blk);
	tree_put(root, p, "512");
	snprintf(p, sizeof(p), "%s/block/%s/holders", sdev, blk);
	tree_dir(root, p);
	snprintf(p, sizeof(p), "/sys/class/block/%s", blk);
	snprintf(t, sizeof(t), "../../devices%s/block/%s",
		 sdev + strlen("/sys/devices"), blk);
	tree_link(root, p, t);
	snprintf(p, sizeof(p), "/sys/dev/block/%s", devno);
	tree_link(root, p, t);
	snprintf(p, sizeof(p), "%s/scsi_disk/%s/cache_type", sdev,
		 strrchr(sdev, '/') + 1);
	tree_put(root, p, "write back");
	snprintf(p, sizeof(p), "%s/power/autosuspend_delay_ms", sdev);
	tree_put(root, p, "-1");
}

FIXTURE_SETUP(sc)
{
	self->tree = tree_new();
	tree_device(self->tree, AHCI, "pci", "ahci", "on", "active", 1, 1);
	tree_device(self->tree, PORT, NULL, NULL, "on", "active", 1, 1);
	disk(self->tree, SDA, "ahci", "sda", "8:0", "sd");
	disk(self->tree, CDROM, "ahci", NULL, NULL, "sr");
	disk(self->tree, SDEBUG, "scsi_debug", "sdb", "8:16", "sd");
	ASSERT_EQ(0, tree_use(self->tree, self->dir, sizeof(self->dir)));
}

FIXTURE_TEARDOWN(sc)
{
	tree_unuse(self->tree);
}

static const struct devpm_scsi_disk *find(const struct devpm_scsi_disk *d,
					  size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(d[i].name, name))
			return &d[i];
	return NULL;
}

TEST_F(sc, disks_with_their_chain)
{
	const struct devpm_scsi_disk *a, *b;
	struct devpm_scsi_disk *d;
	size_t n;

	ASSERT_EQ(0, devpm_scsi_disks(&d, &n));
	/* Negative: the sr device is no disk. */
	ASSERT_EQ(2, n);
	EXPECT_EQ(NULL, find(d, n, "0:0:1:0"));
	a = find(d, n, "0:0:0:0");
	b = find(d, n, "2:0:0:0");
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_STREQ("sda", a->block);
	EXPECT_STREQ("target0:0:0", a->target);
	EXPECT_STREQ("host0", a->host);
	EXPECT_STREQ(HOST0, a->host_path);
	EXPECT_STREQ("ata1", a->ata_port);
	EXPECT_STREQ(PORT, a->ata_port_path);
	EXPECT_STREQ("0000:00:1f.2", a->ctrl);
	EXPECT_FALSE(a->scsi_debug);
	EXPECT_TRUE(b->scsi_debug);
	EXPECT_EQ(2, b->host_no);
	EXPECT_STREQ("", b->ata_port);
	EXPECT_STREQ("", b->ctrl);
	EXPECT_EQ(1, devpm_scsi_write_cache(a));
	free(d);
}

TEST_F(sc, disks_below_a_device)
{
	struct devpm_scsi_disk *d;
	size_t n;

	ASSERT_EQ(0, devpm_scsi_disks(&d, &n));
	ASSERT_EQ(1, devpm_scsi_disks_below(d, n, AHCI "/"));
	EXPECT_STREQ("0:0:0:0", d[0].name);
	free(d);
	ASSERT_EQ(0, devpm_scsi_disks(&d, &n));
	EXPECT_EQ(1, devpm_scsi_disks_below(d, n, HOST0));
	free(d);
	ASSERT_EQ(0, devpm_scsi_disks(&d, &n));
	/* Negative: a sibling whose name starts alike is not a parent. */
	EXPECT_EQ(0, devpm_scsi_disks_below(d, n, PORT "0"));
	EXPECT_EQ(0, devpm_scsi_disks_below(d, n, SDA));
	free(d);
}

TEST_F(sc, ata_ports_and_atapi)
{
	char ports[4][DEVPM_PATH_MAX], name[64];

	tree_device(self->tree, AHCI "/ata2", NULL, NULL, "on", "active", 1,
		    0);
	/* Not a port: no power/ directory, or not ataN. */
	tree_dir(self->tree, AHCI "/ata3");
	tree_device(self->tree, AHCI "/atax", NULL, NULL, "on", "active", 1,
		    0);
	ASSERT_EQ(2, devpm_ata_ports(AHCI, ports[0], 4));
	EXPECT_EQ(0, strncmp(ports[0], AHCI "/ata", strlen(AHCI) + 4));
	EXPECT_EQ(0, strncmp(ports[1], AHCI "/ata", strlen(AHCI) + 4));
	tree_put(self->tree, SDA "/type", "0");
	/* Negative: a disk is no ATAPI device. */
	EXPECT_EQ(0, devpm_scsi_atapi_below(PORT, name, sizeof(name)));
	tree_put(self->tree, CDROM "/type", "5");
	ASSERT_EQ(1, devpm_scsi_atapi_below(PORT, name, sizeof(name)));
	EXPECT_STREQ("0:0:1:0", name);
	EXPECT_EQ(0, devpm_scsi_atapi_below(AHCI "/ata2", name,
					    sizeof(name)));
}

TEST_F(sc, test_data_only_where_nothing_is_lost)
{
	struct devpm_scsi_disk *d;
	char why[512];
	size_t n;

	ASSERT_EQ(0, devpm_scsi_disks(&d, &n));
	/* scsi_debug: yes; a real disk: only with --allow-disk. */
	EXPECT_TRUE(devpm_scsi_data_ok(find(d, n, "2:0:0:0"), why,
				       sizeof(why)));
	EXPECT_FALSE(devpm_scsi_data_ok(find(d, n, "0:0:0:0"), why,
					sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "--allow-disk"));
	setenv("DEVPM_ALLOW_DISK", "1", 1);
	EXPECT_TRUE(devpm_scsi_data_ok(find(d, n, "0:0:0:0"), why,
				       sizeof(why)));
	/* A holder on a partition (LVM, md): never. */
	tree_dir(self->tree, SDA "/block/sda/sda1/holders/dm-0");
	EXPECT_FALSE(devpm_scsi_data_ok(find(d, n, "0:0:0:0"), why,
					sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "dm-0"));
	unsetenv("DEVPM_ALLOW_DISK");
	free(d);
}

TEST_F(sc, mounted_disk_is_never_written)
{
	struct devpm_scsi_disk *d;
	char why[512];
	size_t n;

	tree_put(self->tree, "/proc/self/mountinfo",
		 "36 35 8:16 / /mnt rw,relatime - ext4 /dev/sdb rw");
	devpm_safety_reset();
	ASSERT_EQ(0, devpm_scsi_disks(&d, &n));
	EXPECT_FALSE(devpm_scsi_data_ok(find(d, n, "2:0:0:0"), why,
					sizeof(why)));
	EXPECT_FALSE(devpm_scsi_pm_ok(find(d, n, "2:0:0:0"), why,
				      sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "--allow-disk"));
	/* --allow-disk opens its PM knobs, never its data. */
	setenv("DEVPM_ALLOW_DISK", "1", 1);
	EXPECT_TRUE(devpm_scsi_pm_ok(find(d, n, "2:0:0:0"), why,
				     sizeof(why)));
	EXPECT_FALSE(devpm_scsi_data_ok(find(d, n, "2:0:0:0"), why,
					sizeof(why)));
	/* Negative: the other disk is not protected by it. */
	unsetenv("DEVPM_ALLOW_DISK");
	EXPECT_TRUE(devpm_scsi_pm_ok(find(d, n, "0:0:0:0"), why,
				     sizeof(why)));
	free(d);
}

TEST_F(sc, block_io_in_whole_blocks)
{
	struct devpm_blk b;
	void *buf = devpm_blk_alloc(4096);

	ASSERT_NE(NULL, buf);
	/* The fake node: a regular file of the disk's size. */
	{
		char z[65536] = { 0 };
		char p[UNIT_PATH_MAX];
		FILE *f;

		snprintf(p, sizeof(p), "%s/dev/sdb", self->tree);
		unit_mkdir(self->tree, "dev");
		f = fopen(p, "w");
		ASSERT_NE(NULL, f);
		fwrite(z, 1, sizeof(z), f);
		fclose(f);
	}
	ASSERT_EQ(0, devpm_blk_open("sdb", true, &b));
	EXPECT_EQ(512, b.lbs);
	EXPECT_EQ(65536, b.bytes);
	devpm_pattern_fill(buf, 4096, 9);
	ASSERT_EQ(0, devpm_blk_write(&b, buf, 4096, 8192));
	memset(buf, 0, 4096);
	ASSERT_EQ(0, devpm_blk_read(&b, buf, 4096, 8192));
	EXPECT_EQ(-1, devpm_pattern_check(buf, 4096, 9));
	/* Negative: not in whole blocks, or past the end. */
	EXPECT_EQ(-EINVAL, devpm_blk_read(&b, buf, 100, 0));
	EXPECT_EQ(-EINVAL, devpm_blk_read(&b, buf, 4096, 700));
	EXPECT_EQ(-EINVAL, devpm_blk_read(&b, buf, 4096, 65536));
	EXPECT_NE(NULL, strstr(devpm_error(), "beyond"));
	devpm_blk_close(&b);
	EXPECT_EQ(-EBADF, devpm_blk_read(&b, buf, 4096, 0));
	/* No node for it: a clear error. */
	EXPECT_GT(0, devpm_blk_open("sda", false, &b));
	free(buf);
}

TEST_F(sc, pm_knobs_are_journaled)
{
	struct devpm_scsi_disk *d;
	size_t n;

	ASSERT_EQ(0, devpm_scsi_disks(&d, &n));
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_scsi_rpm_set(find(d, n, "2:0:0:0"), 100, "auto"));
	EXPECT_STREQ("auto", tree_val(self->tree, SDEBUG "/power/control"));
	EXPECT_STREQ("100", tree_val(self->tree,
				     SDEBUG "/power/autosuspend_delay_ms"));
	ASSERT_EQ(2, devpm_journal_restore_all());
	EXPECT_STREQ("on", tree_val(self->tree, SDEBUG "/power/control"));
	EXPECT_STREQ("-1", tree_val(self->tree,
				    SDEBUG "/power/autosuspend_delay_ms"));
	/* Negative: a mounted disk's knobs are refused without the opt-in. */
	tree_put(self->tree, "/proc/self/mountinfo",
		 "36 35 8:16 / /mnt rw,relatime - ext4 /dev/sdb rw");
	devpm_safety_reset();
	EXPECT_EQ(-EPERM, devpm_scsi_rpm_set(find(d, n, "2:0:0:0"), 100,
					     "auto"));
	EXPECT_STREQ("on", tree_val(self->tree, SDEBUG "/power/control"));
	free(d);
}

TEST_F(sc, scsi_debug_attributes_are_journaled)
{
	tree_put(self->tree, DEVPM_SDEBUG_DRIVER "/opts", "0x0");
	ASSERT_EQ(0, devpm_journal_open_owner(self->dir));
	ASSERT_EQ(0, devpm_sdebug_set("opts", "0x2004"));
	EXPECT_STREQ("0x2004",
		     tree_val(self->tree, DEVPM_SDEBUG_DRIVER "/opts"));
	ASSERT_EQ(1, devpm_journal_restore_all());
	EXPECT_STREQ("0x0", tree_val(self->tree, DEVPM_SDEBUG_DRIVER "/opts"));
}

TEST_HARNESS_MAIN
