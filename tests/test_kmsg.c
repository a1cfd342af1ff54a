// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kmsg.c - kernel splats are recognised, quiet lines are not, new
 * taint flags are named (lib/core/kmsg.c); records are read from a fake
 * /dev/kmsg (a FIFO) and from the real one.
 */
#include <time.h>

#include "devpm.h"
#include "kselftest_harness.h"
#include "unit.h"

TEST(splats_are_bad)
{
	static const char *const lines[] = {
		"WARNING: CPU: 0 PID: 123 at drivers/base/power/runtime.c:1234 rpm_suspend+0x1a/0x2b0",
		"------------[ cut here ]------------",
		"BUG: kernel NULL pointer dereference, address: 0000000000000008",
		"BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580",
		"Oops: 0002 [#1] PREEMPT SMP NOPTI",
		"Call Trace:",
		"kernel BUG at drivers/usb/core/hub.c:1234!",
		"general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] SMP PTI",
		"WARNING: possible circular locking dependency detected",
		"lockdep bfs error:-1",
		"INFO: task kworker/u4:2:87 blocked for more than 120 seconds.",
		"Kernel panic - not syncing: Fatal exception",
		"UBSAN: array-index-out-of-bounds in drivers/base/power/main.c:10:5",
		"BUG: KASAN: use-after-free in rpm_resume+0x24/0x3c0",
		"refcount_t: underflow; use-after-free.",
	};
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		if (!devpm_kmsg_is_bad(lines[i]))
			TH_LOG("not seen as bad: %s", lines[i]);
		ASSERT_TRUE(devpm_kmsg_is_bad(lines[i]));
	}
}

/* The line a failure quotes: the one naming file and function wins. */
TEST(bad_rank_prefers_file_and_function)
{
	EXPECT_EQ(3, devpm_kmsg_bad_rank("WARNING: CPU: 0 PID: 123 at drivers/base/power/runtime.c:1234 rpm_suspend+0x1a/0x2b0"));
	EXPECT_EQ(3, devpm_kmsg_bad_rank("WARNING: CPU: 0 PID: 93 at /build/devpm_mock/callbacks.c:160 mock_runtime_suspend+0x5a/0xd0 [devpm_mock]"));
	EXPECT_EQ(2, devpm_kmsg_bad_rank("kernel BUG at drivers/usb/core/hub.c:1234!"));
	EXPECT_EQ(2, devpm_kmsg_bad_rank("BUG: KASAN: use-after-free in rpm_resume+0x24/0x3c0"));
	EXPECT_EQ(1, devpm_kmsg_bad_rank("Oops: 0002 [#1] PREEMPT SMP NOPTI"));
	EXPECT_EQ(1, devpm_kmsg_bad_rank("WARNING: possible circular locking dependency detected"));
	EXPECT_EQ(0, devpm_kmsg_bad_rank("------------[ cut here ]------------"));
	EXPECT_EQ(0, devpm_kmsg_bad_rank("Call Trace:"));
	EXPECT_EQ(0, devpm_kmsg_bad_rank("e1000e 0000:00:02.0: link up"));
}

TEST(quiet_lines_are_not_bad)
{
	static const char *const lines[] = {
		"usb 1-1: new high-speed USB device number 2 using xhci_hcd",
		"PM: suspend entry (s2idle)",
		"PM: suspend exit",
		"ACPI Warning: SystemIO range 0x0000000000000B00-0x0000000000000B08 conflicts with OpRegion",
		"ata1: SATA link up 1.5 Gbps (SStatus 113 SControl 300)",
		"sd 0:0:0:0: [sda] Synchronizing SCSI cache",
		"INFO: task list follows",
		"i801_smbus 0000:00:1f.3: SMBus using PCI interrupt",
		"e1000e 0000:00:02.0 eth0: NIC Link is Up 1000 Mbps Full Duplex",
		"devpm_mock: loading out-of-tree module taints kernel.",
		"Debug warning: this is not a splat",
		"",
	};
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		if (devpm_kmsg_is_bad(lines[i]))
			TH_LOG("seen as bad: %s", lines[i]);
		ASSERT_FALSE(devpm_kmsg_is_bad(lines[i]));
	}
}

TEST(new_taint_flags)
{
	char buf[32];

	devpm_taint_new(0, 1L << 9, buf, sizeof(buf));
	ASSERT_STREQ("W", buf);
	devpm_taint_new(0, (1L << 7) | (1L << 9), buf, sizeof(buf));
	ASSERT_STREQ("DW", buf);
	/* Out-of-tree and unsigned modules are ours: ignored. */
	devpm_taint_new(0, (1L << 12) | (1L << 13), buf, sizeof(buf));
	ASSERT_STREQ("", buf);
	devpm_taint_new(1L << 9, (1L << 9) | (1L << 12) | (1L << 4), buf,
			sizeof(buf));
	ASSERT_STREQ("M", buf);
	/* Old flags are not new; flags that went away are not either. */
	devpm_taint_new(1L << 9, 1L << 9, buf, sizeof(buf));
	ASSERT_STREQ("", buf);
	devpm_taint_new(1L << 9, 0, buf, sizeof(buf));
	ASSERT_STREQ("", buf);
	devpm_taint_new(0, 1, buf, sizeof(buf));
	ASSERT_STREQ("P", buf);
	devpm_taint_new(0, (1L << 14) | (1L << 18), buf, sizeof(buf));
	ASSERT_STREQ("LN", buf);
	devpm_taint_new(0, 1L << 20, buf, sizeof(buf));
	ASSERT_STREQ("?", buf);
	/* Unknown (a failed read) is not "new". */
	devpm_taint_new(-EIO, 1L << 9, buf, sizeof(buf));
	ASSERT_STREQ("", buf);
	/* A short buffer is cut, not overrun. */
	devpm_taint_new(0, (1L << 7) | (1L << 9) | (1L << 10), buf, 2);
	ASSERT_STREQ("D", buf);
}

FIXTURE(tree) {
	char root[UNIT_PATH_MAX];
};

FIXTURE_SETUP(tree)
{
	ASSERT_EQ(0, unit_mkdtemp(self->root, sizeof(self->root)));
	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
}

FIXTURE_TEARDOWN(tree)
{
	devpm_set_sysfs_root(NULL);
	unit_rm_rf(self->root);
}

TEST_F(tree, taint_read)
{
	ASSERT_EQ(-ENOENT, devpm_taint_read());
	ASSERT_EQ(0, unit_put(self->root, "proc/sys/kernel/tainted", "12800\n"));
	ASSERT_EQ(12800, devpm_taint_read());
	ASSERT_EQ(0, unit_put(self->root, "proc/sys/kernel/tainted", "bad\n"));
	ASSERT_EQ(-EINVAL, devpm_taint_read());
}

struct seen {
	int n;
	char lines[8][256];
};

static void collect(const char *line, void *arg)
{
	struct seen *s = arg;

	if (s->n < 8)
		snprintf(s->lines[s->n], sizeof(s->lines[0]), "%s", line);
	s->n++;
}

/* Records as /dev/kmsg gives them, through a FIFO in the tree. */
TEST_F(tree, drain_parses_records_skips_continuations)
{
	static const char recs[] =
		"6,100,5000000,-;usb 1-1: new device\n"
		" SUBSYSTEM=usb\n"
		" DEVICE=c189:1;odd but allowed\n"
		"4,101,5000100,-,caller=T1;WARNING: CPU: 0 PID: 1 at x.c:1 f+0x0/0x1\n"
		"no separator here\n";
	struct devpm_kmsg *k;
	struct seen s = { 0 };
	char p[UNIT_PATH_MAX];
	int w;

	ASSERT_EQ(0, unit_mkdir(self->root, "dev"));
	snprintf(p, sizeof(p), "%s/dev/kmsg", self->root);
	ASSERT_EQ(0, mkfifo(p, 0600));
	k = devpm_kmsg_open();
	ASSERT_NE(NULL, k);
	ASSERT_LE(0, devpm_kmsg_fd(k));
	w = open(p, O_WRONLY | O_NONBLOCK);
	ASSERT_LE(0, w);
	/* Nothing yet: the drain does not block. */
	ASSERT_EQ(0, devpm_kmsg_drain(k, collect, &s));
	ASSERT_EQ((ssize_t)strlen(recs), write(w, recs, strlen(recs)));
	ASSERT_EQ(2, devpm_kmsg_drain(k, collect, &s));
	ASSERT_EQ(2, s.n);
	ASSERT_STREQ("usb 1-1: new device", s.lines[0]);
	ASSERT_STREQ("WARNING: CPU: 0 PID: 1 at x.c:1 f+0x0/0x1", s.lines[1]);
	ASSERT_FALSE(devpm_kmsg_is_bad(s.lines[0]));
	ASSERT_TRUE(devpm_kmsg_is_bad(s.lines[1]));
	close(w);
	devpm_kmsg_close(k);
}

TEST_F(tree, open_without_kmsg_fails_with_reason)
{
	ASSERT_EQ(NULL, devpm_kmsg_open());
	ASSERT_HAS(devpm_error(), "/dev/kmsg");
	ASSERT_EQ(-EBADF, devpm_kmsg_drain(NULL, NULL, NULL));
}

struct find {
	const char *needle;
	char found[256];
};

static void find_line(const char *line, void *arg)
{
	struct find *f = arg;

	if (strstr(line, f->needle))
		snprintf(f->found, sizeof(f->found), "%s", line);
}

/* The real log: a line we write is read back once, and only after open. */
TEST(real_kmsg_reads_what_is_logged_after_open)
{
	char before[128], after[128];
	struct find f = { 0 };
	struct devpm_kmsg *k;
	int fd;

	devpm_set_sysfs_root(NULL);
	/* With its newline, or the record waits for a continuation. */
	snprintf(before, sizeof(before), "devpm-unit %d.%ld before open\n",
		 getpid(), (long)time(NULL));
	snprintf(after, sizeof(after), "devpm-unit %d.%ld after open\n",
		 getpid(), (long)time(NULL));
	fd = open("/dev/kmsg", O_WRONLY);
	if (fd < 0)
		SKIP(return, "cannot write /dev/kmsg: %s", strerror(errno));
	ASSERT_EQ((ssize_t)strlen(before), write(fd, before, strlen(before)));
	k = devpm_kmsg_open();
	if (!k)
		SKIP(return, "%s", devpm_error());
	before[strlen(before) - 1] = '\0';
	f.needle = before;
	devpm_kmsg_drain(k, find_line, &f);
	ASSERT_STREQ("", f.found);

	ASSERT_EQ((ssize_t)strlen(after), write(fd, after, strlen(after)));
	after[strlen(after) - 1] = '\0';
	f.needle = after;
	ASSERT_LE(1, devpm_kmsg_drain(k, find_line, &f));
	ASSERT_STREQ(after, f.found);
	ASSERT_FALSE(devpm_kmsg_is_bad(f.found));
	/* Read once. */
	f.found[0] = '\0';
	devpm_kmsg_drain(k, find_line, &f);
	ASSERT_STREQ("", f.found);
	devpm_kmsg_close(k);
	close(fd);
}

TEST_HARNESS_MAIN
