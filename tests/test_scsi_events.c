// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_scsi_events.c - runtime-PM transitions and SCSI commands read from
 * trace lines captured in the QEMU guest (Debian 6.1): lib/trace/transition.c and
 * the event side of lib/bus/scsi/scsi.c.  Each check has its opposite: an async
 * request, a resume of an active device, a re-armed timer and a busy
 * suspend attempt all return 0 and must not count.
 */
#include "devpm.h"
#include "bus/scsi/scsi.h"
#include "trace/transition.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#define MAXEV 512

struct evs {
	struct devpm_event ev[MAXEV];
	size_t n;
};

static int load(struct evs *e, const char *name)
{
	char path[PATH_MAX], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace/%s", fixtures_dir(), name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	e->n = 0;
	while (e->n < MAXEV && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!devpm_trace_parse_line(line, &e->ev[e->n]))
			e->n++;
	}
	fclose(f);
	return 0;
}

static uint64_t us(double s)
{
	return (uint64_t)(s * 1e6 + 0.5);
}

FIXTURE(ev) {
	struct evs *e;
};

FIXTURE_SETUP(ev)
{
	self->e = calloc(1, sizeof(*self->e));
	ASSERT_NE(NULL, self->e);
}

FIXTURE_TEARDOWN(ev)
{
	free(self->e);
}

/* A read of a suspended scsi_debug disk: host, target, disk, once each. */
TEST_F(ev, resume_chain_counted_once_in_order)
{
	struct evs *e = self->e;
	uint64_t h, t, d, from = us(19.8984), to = us(19.8990);

	ASSERT_EQ(0, load(e, "qemu-6.1/scsi-debug.txt"));
	ASSERT_GT(e->n, 80);
	/* Two async requests and the worker's resume: one transition. */
	EXPECT_EQ(1, devpm_rpm_resumes(e->ev, e->n, "14:0:0:0", from, to,
				       &d, 1));
	EXPECT_EQ(us(19.898756), d);
	EXPECT_EQ(1, devpm_rpm_resumes(e->ev, e->n, "target14:0:0", from, to,
				       &t, 1));
	EXPECT_EQ(1, devpm_rpm_resumes(e->ev, e->n, "host14", from, to, &h,
				       1));
	EXPECT_LT(h, t);
	EXPECT_LT(t, d);
	/* Negative: a window before the worker ran holds only requests. */
	EXPECT_EQ(0, devpm_rpm_resumes(e->ev, e->n, "14:0:0:0", from,
				       us(19.898590), NULL, 0));
	/* Negative: another device's name finds nothing. */
	EXPECT_EQ(0, devpm_rpm_resumes(e->ev, e->n, "14:0:0:1", from, to,
				       NULL, 0));
}

/* Pairing survives the suspend request nested inside the resume. */
TEST_F(ev, calls_pair_with_nested_returns)
{
	struct evs *e = self->e;
	struct devpm_call c[16];
	size_t n;

	ASSERT_EQ(0, load(e, "qemu-6.1/scsi-debug.txt"));
	n = devpm_rpm_calls(e->ev, e->n, "14:0:0:0", us(19.8986), us(19.8988),
			    c, 16);
	ASSERT_GE(n, 4);
	/*
	 * flags-2 resume at .898601 returns at .898756, after the nested
	 * flags-9 suspend request (.898692 -> .898709).
	 */
	EXPECT_EQ(DEVPM_EV_RPM_RESUME, c[0].type);
	EXPECT_EQ(DEVPM_RPM_NOWAIT, c[0].flags);
	EXPECT_EQ(us(19.898756), c[0].ret_us);
	EXPECT_EQ(0, c[0].ret);
	EXPECT_EQ(DEVPM_EV_RPM_SUSPEND, c[1].type);
	EXPECT_EQ(us(19.898709), c[1].ret_us);
}

/*
 * While a command hangs, the autosuspend timer fires and the busy suspend
 * attempt returns 0 each time; only the last suspend is the real one.
 */
TEST_F(ev, busy_suspend_attempts_are_not_the_suspend)
{
	struct evs *e = self->e;
	uint64_t dur, at;

	ASSERT_EQ(0, load(e, "qemu-6.1/scsi-debug.txt"));
	at = devpm_rpm_suspended_at(e->ev, e->n, "14:0:0:0", us(22.9),
				    us(24.3), &dur);
	EXPECT_EQ(us(24.203000), at);
	EXPECT_EQ(us(24.203000) - us(24.202523), dur);
	/* Then its target and its host. */
	EXPECT_EQ(us(24.203055), devpm_rpm_suspended_at(e->ev, e->n,
			"target14:0:0", us(22.9), us(24.3), NULL));
	EXPECT_EQ(us(24.203070), devpm_rpm_suspended_at(e->ev, e->n,
			"host14", us(22.9), us(24.3), NULL));
	/* Negative: re-armed timers (flags-9) alone are no suspend. */
	EXPECT_EQ(0, devpm_rpm_suspended_at(e->ev, e->n, "14:0:0:0",
					    us(24.077), us(24.2024), NULL));
	EXPECT_EQ(0, devpm_rpm_suspended_at(e->ev, e->n, "14:0:0:1", 0,
					    us(30), NULL));
}

/* i801: SMBus transfers resume it; the delay runs from the last put. */
TEST_F(ev, i801_transfer_resume_and_put)
{
	struct evs *e = self->e;
	const char *dev = "0000:00:1f.3";
	uint64_t put, at, dur;

	ASSERT_EQ(0, load(e, "qemu-6.1/i801-smbus.txt"));
	/* The first transfer found it suspended: one resume. */
	EXPECT_EQ(1, devpm_rpm_resumes(e->ev, e->n, dev, us(11.0618),
				       us(11.0628), NULL, 0));
	/* Negative: the second found it active (ret=1): none. */
	EXPECT_EQ(0, devpm_rpm_resumes(e->ev, e->n, dev, us(11.1208),
				       us(11.1211), NULL, 0));
	put = devpm_rpm_last_put(e->ev, e->n, dev, us(11.0), us(11.3));
	EXPECT_EQ(us(11.121066), put);
	/* The timer re-armed at 11.313 (flags-9) does not count. */
	at = devpm_rpm_suspended_at(e->ev, e->n, dev, us(11.0), us(11.4),
				    &dur);
	EXPECT_EQ(us(11.373565), at);
	/* Started 250.4 ms after the put: delay 200 ms + 25% slack. */
	EXPECT_GE(at - dur - put, 250000);
	EXPECT_LE(at - dur - put, 253000);
	EXPECT_EQ(0, devpm_rpm_last_usage(e->ev, e->n, dev, us(11.0),
					  us(11.4)));
	EXPECT_EQ(-1, devpm_rpm_last_usage(e->ev, e->n, "i2c-0", 0, us(99)));
}

/* Times are the trace's: a host that completed late is seen late. */
TEST_F(ev, late_parent_resume_is_seen_late)
{
	struct evs *e = self->e;
	uint64_t h, d, from = us(19.8984), to = us(19.8990);
	size_t i;

	ASSERT_EQ(0, load(e, "qemu-6.1/scsi-debug.txt"));
	for (i = 0; i < e->n; i++)
		if (e->ev[i].type == DEVPM_EV_RPM_RETURN &&
		    !strcmp(e->ev[i].dev, "host14") &&
		    e->ev[i].ts_us == us(19.898659))
			e->ev[i].ts_us = us(19.898800);
	ASSERT_EQ(1, devpm_rpm_resumes(e->ev, e->n, "host14", from, to, &h,
				       1));
	ASSERT_EQ(1, devpm_rpm_resumes(e->ev, e->n, "14:0:0:0", from, to, &d,
				       1));
	EXPECT_GT(h, d);
	/* A resume that never returned is no resume. */
	for (i = 0; i < e->n; i++)
		if (e->ev[i].type == DEVPM_EV_RPM_RETURN &&
		    !strcmp(e->ev[i].dev, "host14"))
			strcpy(e->ev[i].dev, "host99");
	EXPECT_EQ(0, devpm_rpm_resumes(e->ev, e->n, "host14", from, to, NULL,
				       0));
}

/* With rpm_status (6.9+), the status events decide. */
TEST(status_events_decide)
{
	static const char *const lines[] = {
		"  kworker/0:1-10 [000] d..1.  5.000000: rpm_status: sda status=RPM_RESUMING",
		"  kworker/0:1-10 [000] d..1.  5.000100: rpm_status: sda status=RPM_ACTIVE",
		"  kworker/0:1-10 [000] d..1.  5.100000: rpm_status: sda status=RPM_SUSPENDING",
		"  kworker/0:1-10 [000] d..1.  5.100200: rpm_status: sda status=RPM_ACTIVE",
		"  kworker/0:1-10 [000] d..1.  5.200000: rpm_status: sda status=RPM_SUSPENDING",
		"  kworker/0:1-10 [000] d..1.  5.200300: rpm_status: sda status=RPM_SUSPENDED",
		NULL
	};
	struct devpm_event ev[8];
	size_t n = 0;
	uint64_t at[4];

	for (n = 0; lines[n]; n++)
		ASSERT_EQ(0, devpm_trace_parse_line(lines[n], &ev[n]));
	ASSERT_TRUE(devpm_rpm_has_status(ev, n, "sda"));
	/* A failed suspend (suspending -> active) is no resume. */
	EXPECT_EQ(1, devpm_rpm_resumes(ev, n, "sda", 0, us(10), at, 4));
	EXPECT_EQ(us(5.0001), at[0]);
	EXPECT_EQ(us(5.2003), devpm_rpm_suspended_at(ev, n, "sda", 0, us(10),
						     NULL));
	EXPECT_EQ(0, devpm_rpm_suspended_at(ev, n, "sda", 0, us(5.15), NULL));
}

TEST(scsi_commands_parse)
{
	static const char *const sync =
		"     kworker/0:3-96      [000] .....    24.202760: scsi_dispatch_cmd_start: host_no=14 channel=0 id=0 lun=0 data_sgl=0 prot_sgl=0 prot_op=SCSI_PROT_NORMAL driver_tag=148 scheduler_tag=209 cmnd=(SYNCHRONIZE_CACHE - raw=35 00 00 00 00 00 00 00 00 00)";
	static const char *const done =
		"     kworker/0:5-459     [000] .....    24.202903: scsi_dispatch_cmd_done: host_no=14 channel=0 id=0 lun=0 data_sgl=0 prot_sgl=0 prot_op=SCSI_PROT_NORMAL driver_tag=148 scheduler_tag=209 cmnd=(SYNCHRONIZE_CACHE - raw=35 00 00 00 00 00 00 00 00 00) result=(driver=DRIVER_OK host=DID_OK message=COMMAND_COMPLETE status=SAM_STAT_GOOD)";
	static const char *const tmo =
		"    kworker/0:1H-38      [000] .....    24.046239: scsi_dispatch_cmd_timeout: host_no=14 channel=0 id=0 lun=0 data_sgl=1 prot_sgl=0 prot_op=SCSI_PROT_NORMAL driver_tag=146 scheduler_tag=208 cmnd=(READ_10 lba=800 txlen=8 protect=0 raw=28 00 00 00 03 20 00 00 08 00) result=(driver=DRIVER_OK host=DID_OK message=COMMAND_COMPLETE status=SAM_STAT_GOOD)";
	struct devpm_scsi_disk d = { .host_no = 14 };
	struct devpm_event ev;
	struct devpm_scsi_cmd c;

	ASSERT_EQ(0, devpm_trace_parse_line(sync, &ev));
	ASSERT_EQ(0, devpm_scsi_parse(&ev, &c));
	EXPECT_EQ(DEVPM_SCSI_START, c.kind);
	EXPECT_EQ(0x35, c.opcode);
	EXPECT_STREQ("SYNCHRONIZE_CACHE", c.op);
	EXPECT_EQ(-1, c.lba);
	EXPECT_TRUE(devpm_scsi_op_is_sync(c.opcode));
	EXPECT_FALSE(devpm_scsi_op_is_write(c.opcode));
	EXPECT_TRUE(devpm_scsi_cmd_is(&c, &d));
	d.lun = 1;	/* negative: another LUN of the same target */
	EXPECT_FALSE(devpm_scsi_cmd_is(&c, &d));

	ASSERT_EQ(0, devpm_trace_parse_line(done, &ev));
	ASSERT_EQ(0, devpm_scsi_parse(&ev, &c));
	EXPECT_EQ(DEVPM_SCSI_DONE, c.kind);
	EXPECT_STREQ("SAM_STAT_GOOD", c.status);

	ASSERT_EQ(0, devpm_trace_parse_line(tmo, &ev));
	ASSERT_EQ(0, devpm_scsi_parse(&ev, &c));
	EXPECT_EQ(DEVPM_SCSI_TIMEOUT, c.kind);
	EXPECT_EQ(0x28, c.opcode);
	EXPECT_EQ(800, c.lba);
	EXPECT_TRUE(devpm_scsi_op_is_read(c.opcode));

	/* Negative: an rpm event is not a SCSI command. */
	ASSERT_EQ(0, devpm_trace_parse_line(
		"  kworker/0:3-96 [000] d..1. 24.203070: rpm_return_int: rpm_suspend+0x1e8/0x720:host14 ret=0",
		&ev));
	EXPECT_EQ(-EINVAL, devpm_scsi_parse(&ev, &c));
}

TEST(write_opcodes)
{
	EXPECT_TRUE(devpm_scsi_op_is_write(0x2a));	/* WRITE(10) */
	EXPECT_TRUE(devpm_scsi_op_is_write(0x8a));	/* WRITE(16) */
	EXPECT_FALSE(devpm_scsi_op_is_write(0x28));	/* READ(10) */
	EXPECT_FALSE(devpm_scsi_op_is_read(0x2a));
	EXPECT_TRUE(devpm_scsi_op_is_sync(0x91));
	EXPECT_FALSE(devpm_scsi_op_is_sync(0x00));	/* TEST UNIT READY */
}

TEST(pattern_names_seed_and_offset)
{
	unsigned char a[4096], b[4096];

	devpm_pattern_fill(a, sizeof(a), 3);
	EXPECT_EQ(-1, devpm_pattern_check(a, sizeof(a), 3));
	/* Negative: one flipped byte is found where it is. */
	a[1234] ^= 0x10;
	EXPECT_EQ(1234, devpm_pattern_check(a, sizeof(a), 3));
	a[1234] ^= 0x10;
	/* Negative: another seed, or a block read from elsewhere, differs. */
	EXPECT_EQ(0, devpm_pattern_check(a, sizeof(a), 4));
	devpm_pattern_fill(b, sizeof(b), 3);
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	EXPECT_NE(-1, devpm_pattern_check(a + 16, sizeof(a) - 16, 3));
	/* Zeros (a read that returned nothing) never pass. */
	memset(b, 0, sizeof(b));
	EXPECT_EQ(0, devpm_pattern_check(b, sizeof(b), 3));
}

TEST_HARNESS_MAIN
