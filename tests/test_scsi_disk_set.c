// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_scsi_disk_set.c - a disk that dropped out in a phase run on many
 * disks (lib/bus/scsi/scsi_disk_set.c) is reported by its own block: a FAIL naming
 * its block device with the drop's reason, or a SKIP; a disk still on goes
 * on through the block.
 */
#include "bus/scsi/scsi.h"
#include "bus/scsi/scsi_disk_set.h"
#include "judge/block.h"
#include "judge/subtest.h"
#include "kselftest_harness.h"
#include "unit.h"

static int after;	/* how often code after an ending call ran */

static void one(struct devpm_block *b, void *arg)
{
	struct devpm_test_disk *x = arg;

	devpm_test_disk_check(b, x);
	if (!strcmp(x->d->block, "sde")) {
		devpm_test_disk_abort(b, x, "usage %ld after %d cycles, %ld before",
				      2L, 10, 1L);
		after++;
	}
	devpm_block_pass(b, "%s: still on", x->d->block);
}

TEST(dropped_disks_end_their_own_block)
{
	static struct devpm_scsi_disk d[5];
	static struct devpm_test_disk x[5];
	char file[] = "/tmp/devpm-unit-diskset-XXXXXX", out[4096];
	struct devpm_subtest s;
	int fd = mkstemp(file), saved, i, ret;

	close(fd);
	for (i = 0; i < 5; i++) {
		snprintf(d[i].name, sizeof(d[i].name), "%d:0:0:0", i);
		snprintf(d[i].block, sizeof(d[i].block), "sd%c", 'a' + i);
		x[i].d = &d[i];
		x[i].on = true;
	}
	devpm_test_disk_drop(&x[1], "not suspended within 2125 ms");
	devpm_test_disk_drop_skip(&x[2], "usage count unreadable");
	/* The cycles write x->why themselves: dropping with it keeps it. */
	snprintf(x[3].why, sizeof(x[3].why), "cycle 3: 2 resumes");
	devpm_test_disk_drop(&x[3], x[3].why);
	after = 0;
	saved = unit_capture_begin(1, file);
	devpm_subtest_begin(&s, "case");
	for (i = 0; i < 5; i++)
		devpm_block_run(&s, d[i].name, one, &x[i]);
	ret = devpm_subtest_end(&s);
	unit_capture_end(1, saved, file, out, sizeof(out));
	unlink(file);
	EXPECT_EQ(1, ret);
	EXPECT_EQ(0, after);
	EXPECT_FALSE(x[1].on);
	EXPECT_TRUE(x[2].skip);
	/* Negative control: a disk still on is not ended by the check. */
	ASSERT_HAS(out, "    # sda: still on\n    ok 1 0:0:0:0\n");
	ASSERT_HAS(out, "    # sdb: not suspended within 2125 ms\n    not ok 2 1:0:0:0\n");
	ASSERT_HAS(out, "    ok 3 2:0:0:0 # SKIP usage count unreadable\n");
	ASSERT_HAS(out, "    # sdd: cycle 3: 2 resumes\n    not ok 4 3:0:0:0\n");
	ASSERT_HAS(out, "    # sde: usage 2 after 10 cycles, 1 before\n    not ok 5 4:0:0:0\n    1..5\n");
	ASSERT_HASNT(out, "sdb: still on");
}

TEST_HARNESS_MAIN
