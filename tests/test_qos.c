// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qos.c - lib/qos/qos.c: the QoS trace pairing, the refusal and resume
 * verdicts on trace text in the 6.1 formats (include/trace/events/
 * power.h, rpm.h), cpuidle usage verdicts and the invalid-value check on
 * fake sysfs trees.  Each verdict is shown to fail on the trace or tree a
 * broken kernel (or the mock's planted qos_ignore bug) would leave.
 */
#include "devpm.h"
#include "qos/qos.h"
#include "kselftest_harness.h"
#include "fake_tree.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define DEV "devpm_mock.0"

/* Parse lines into ev[]; aborts the test on a line that does not parse. */
static size_t parse(const char *const *lines, struct devpm_event *ev,
		    size_t max)
{
	size_t n = 0;

	for (; *lines && n < max; lines++) {
		if (devpm_trace_parse_line(*lines, &ev[n])) {
			fprintf(stderr, "unparsed: %s\n", *lines);
			abort();
		}
		n++;
	}
	return n;
}

/* Kernel requests 100 and 300, user 200, then removals (one by one). */
static const char *const aggregate_trace[] = {
	"sh-90 [000] ..... 50.000100: dev_pm_qos_add_request: device=" DEV " type=DEV_PM_QOS_RESUME_LATENCY new_value=100",
	"sh-90 [000] ..... 50.000101: pm_qos_update_target: action=ADD_REQ prev_value=2147483647 curr_value=100",
	"sh-90 [000] ..... 50.000200: dev_pm_qos_add_request: device=" DEV " type=DEV_PM_QOS_RESUME_LATENCY new_value=300",
	"sh-90 [000] ..... 50.000201: pm_qos_update_target: action=ADD_REQ prev_value=100 curr_value=100",
	/* Another list in between: the CPU latency one. */
	"cat-91 [000] ..... 50.000250: pm_qos_update_request: CPU_DMA_LATENCY value=20",
	"cat-91 [000] ..... 50.000251: pm_qos_update_target: action=UPDATE_REQ prev_value=2000000000 curr_value=20",
	"sh-90 [000] ..... 50.000300: dev_pm_qos_update_request: device=" DEV " type=DEV_PM_QOS_RESUME_LATENCY new_value=200",
	"sh-90 [000] ..... 50.000301: pm_qos_update_target: action=UPDATE_REQ prev_value=100 curr_value=100",
	/* Unchanged value: no aggregate follows. */
	"sh-90 [000] ..... 50.000350: dev_pm_qos_update_request: device=" DEV " type=DEV_PM_QOS_RESUME_LATENCY new_value=200",
	"sh-90 [000] ..... 50.000400: dev_pm_qos_remove_request: device=" DEV " type=DEV_PM_QOS_RESUME_LATENCY new_value=-1",
	"sh-90 [000] ..... 50.000401: pm_qos_update_target: action=REMOVE_REQ prev_value=100 curr_value=200",
	"sh-90 [000] ..... 50.000500: dev_pm_qos_update_request: device=" DEV " type=DEV_PM_QOS_FLAGS new_value=1",
	"sh-90 [000] ..... 50.000501: pm_qos_update_flags: action=UPDATE_REQ prev_value=0x0 curr_value=0x1",
	NULL
};

TEST(updates_pair_with_their_aggregate)
{
	struct devpm_event ev[32];
	struct devpm_qos_update u[16];
	char msg[256];
	size_t n = parse(aggregate_trace, ev, 32), k;

	k = devpm_qos_updates(ev, n, DEV, "DEV_PM_QOS_RESUME_LATENCY", 0, u,
			      16);
	ASSERT_EQ(5, k);
	EXPECT_STREQ("add", u[0].req);
	EXPECT_EQ(100, u[0].value);
	EXPECT_TRUE(u[0].changed);
	EXPECT_EQ(2147483647, u[0].prev);
	EXPECT_EQ(100, u[0].curr);
	EXPECT_EQ(100, u[1].curr);
	/* The CPU list's aggregate is not taken for the device's. */
	EXPECT_EQ(200, u[2].value);
	EXPECT_EQ(100, u[2].curr);
	EXPECT_FALSE(u[3].changed);
	EXPECT_STREQ("remove", u[4].req);
	EXPECT_EQ(-1, u[4].value);
	EXPECT_EQ(200, u[4].curr);
	EXPECT_EQ(1, devpm_qos_check_aggregate(u, 5, 200, msg, sizeof(msg)));
	/* Negative control: a kernel keeping the removed 100 fails. */
	EXPECT_EQ(0, devpm_qos_check_aggregate(u, 5, 300, msg, sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, "aggregate is 200"));
	EXPECT_NE(NULL, strstr(msg, "minimum 300"));
	/* An unchanged request has no aggregate to judge. */
	EXPECT_EQ(-ENOENT, devpm_qos_check_aggregate(u, 4, 200, msg,
						      sizeof(msg)));
	EXPECT_EQ(-ENOENT, devpm_qos_check_aggregate(u, 0, 200, msg,
						      sizeof(msg)));
	/* Flags and the CPU list are told apart by type. */
	k = devpm_qos_updates(ev, n, DEV, "DEV_PM_QOS_FLAGS", 0, u, 16);
	ASSERT_EQ(1, k);
	EXPECT_FALSE(u[0].changed);
	k = devpm_qos_updates(ev, n, NULL, "CPU", 0, u, 16);
	ASSERT_EQ(1, k);
	EXPECT_EQ(20, u[0].value);
	EXPECT_EQ(20, u[0].curr);
	/* Another device sees nothing; a later window sees the tail. */
	EXPECT_EQ(0, devpm_qos_updates(ev, n, "devpm_mock.1", NULL, 0, u,
				       16));
	EXPECT_EQ(2, devpm_qos_updates(ev, n, DEV, NULL, 50000400, u, 16));
}

static const char *const refusal_trace[] = {
	"sh-90 [000] d..1. 60.000100: rpm_idle: " DEV " flags-5 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"sh-90 [000] d..1. 60.000102: rpm_return_int: rpm_idle+0x4e/0x1f0:" DEV " ret=-1",
	"kworker/0:1-9 [000] d..1. 60.100100: rpm_suspend: " DEV " flags-d cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"kworker/0:1-9 [000] d..1. 60.100102: rpm_return_int: rpm_suspend+0x10/0x5e0:" DEV " ret=-1",
	"sh-90 [000] d..1. 60.200100: rpm_idle: devpm_mock.1 flags-5 cnt-0  dep-0  auto-1 p-0 irq-0 child-0",
	"sh-90 [000] d..1. 60.200102: rpm_return_int: rpm_idle+0x4e/0x1f0:devpm_mock.1 ret=-1",
	"sh-90 [000] d..1. 60.300102: rpm_return_int: rpm_resume+0x4e/0x6f0:" DEV " ret=-1",
	"sh-90 [000] d..1. 60.300200: rpm_return_int: rpm_idle+0x4e/0x1f0:" DEV " ret=-11",
	NULL
};

TEST(refusals_counted_per_device_and_errno)
{
	struct devpm_event ev[16];
	size_t n = parse(refusal_trace, ev, 16);

	EXPECT_EQ(2, devpm_qos_refusals(ev, n, DEV, -EPERM, 0));
	EXPECT_EQ(1, devpm_qos_refusals(ev, n, DEV, -EPERM, 60100000));
	EXPECT_EQ(1, devpm_qos_refusals(ev, n, "devpm_mock.1", -EPERM, 0));
	/* Negative control: a device refused for another reason only. */
	EXPECT_EQ(0, devpm_qos_refusals(ev, n, DEV, -EPERM, 60200000));
	EXPECT_EQ(1, devpm_qos_refusals(ev, n, DEV, -EAGAIN, 0));
}

/* control=on resumes: a synchronous rpm_resume, 5100 us (deep state). */
static const char *const resume_trace[] = {
	"sh-90 [000] d..1. 70.000000: rpm_resume: " DEV " flags-1 cnt-1  dep-0  auto-0 p-0 irq-0 child-0",
	"sh-90 [000] d..1. 70.000010: rpm_return_int: rpm_resume+0x4e/0x6f0:" DEV " ret=0",
	"sh-90 [000] d..1. 70.100000: rpm_resume: " DEV " flags-0 cnt-1  dep-0  auto-0 p-0 irq-0 child-0",
	"sh-90 [000] d..1. 70.105100: rpm_return_int: rpm_resume+0x4e/0x6f0:" DEV " ret=0",
	"sh-90 [000] d..1. 70.200000: rpm_resume: " DEV " flags-0 cnt-1  dep-0  auto-0 p-0 irq-0 child-0",
	"sh-90 [000] d..1. 70.200004: rpm_return_int: rpm_resume+0x4e/0x6f0:" DEV " ret=1",
	NULL
};

TEST(resume_limit_verdict)
{
	struct devpm_event ev[16];
	size_t n = parse(resume_trace, ev, 16);
	uint64_t us = 0;
	char msg[256];

	/* The async call and the already-active one are no resume. */
	ASSERT_EQ(0, devpm_qos_resume_us(ev, n, DEV, 0, UINT64_MAX, &us));
	EXPECT_EQ(5100, us);
	EXPECT_EQ(-ENOENT, devpm_qos_resume_us(ev, n, DEV, 70150000,
					       UINT64_MAX, &us));
	EXPECT_EQ(1, devpm_qos_limit_verdict(DEV, 10000, 5100, true, "deep",
					     msg, sizeof(msg)));
	/* Negative control: qos_ignore's deep state under a 1000 us limit. */
	EXPECT_EQ(0, devpm_qos_limit_verdict(DEV, 1000, 5100, true, "deep",
					     msg, sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, DEV));
	EXPECT_NE(NULL, strstr(msg, "5100 us"));
	EXPECT_NE(NULL, strstr(msg, "limit 1000 us"));
	EXPECT_NE(NULL, strstr(msg, "deep"));
	EXPECT_EQ(-ENOENT, devpm_qos_limit_verdict(DEV, 1000, 0, false, "",
						   msg, sizeof(msg)));
}

/* Lines of fixtures/trace/qemu-6.1/<name>; the count, aborts if absent. */
static size_t load(const char *name, struct devpm_event *ev, size_t max)
{
	char p[PATH_MAX], line[1024];
	size_t n = 0;
	FILE *f;

	snprintf(p, sizeof(p), "%s/trace/qemu-6.1/%s", fixtures_dir(), name);
	f = fopen(p, "r");
	if (!f) {
		fprintf(stderr, "%s: %s\n", p, strerror(errno));
		abort();
	}
	while (n < max && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!devpm_trace_parse_line(line, &ev[n]))
			n++;
	}
	fclose(f);
	return n;
}

/*
 * Recorded in QEMU with the mock's qos_ignore bug: limit 1000 us, the
 * device suspended into its 5000 us deep state anyway, control=on resumed
 * it.  The verdict must fail on it, naming device, limit and resume.
 */
TEST(recorded_qos_ignore_fails)
{
	struct devpm_event ev[64];
	struct devpm_qos_update u[4];
	size_t n = load("qos-ignore.txt", ev, 64);
	uint64_t us = 0, last_resume = 0;
	char msg[256];
	size_t i;

	ASSERT_LT(10, n);
	ASSERT_EQ(1, devpm_qos_updates(ev, n, DEV, NULL, 0, u, 4));
	EXPECT_EQ(1000, u[0].value);
	EXPECT_EQ(1000, u[0].curr);
	/* The measured resume is the last one, after the limit. */
	for (i = 0; i < n; i++)
		if (ev[i].type == DEVPM_EV_RPM_RESUME)
			last_resume = ev[i].ts_us;
	ASSERT_EQ(0, devpm_qos_resume_us(ev, n, DEV, last_resume, UINT64_MAX,
					 &us));
	EXPECT_LT(5000, us);
	EXPECT_EQ(0, devpm_qos_limit_verdict(DEV, 1000, us, true, "deep", msg,
					     sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, DEV ": resume took"));
	EXPECT_NE(NULL, strstr(msg, "limit 1000 us"));
	/* Above both states the same resume is within the limit. */
	EXPECT_EQ(1, devpm_qos_limit_verdict(DEV, 20000, us, true, "deep",
					     msg, sizeof(msg)));
}

/* Recorded: n/a, a resume, the idle check refused with -EPERM. */
TEST(recorded_na_refusal)
{
	struct devpm_event ev[32];
	struct devpm_qos_update u[4];
	size_t n = load("qos-na-refusal.txt", ev, 32);

	ASSERT_LT(8, n);
	ASSERT_EQ(2, devpm_qos_updates(ev, n, DEV, NULL, 0, u, 4));
	EXPECT_EQ(0, u[0].value);
	EXPECT_EQ(0, u[0].curr);
	EXPECT_EQ(DEVPM_QOS_NO_CONSTRAINT, u[1].curr);
	EXPECT_EQ(1, devpm_qos_refusals(ev, n, DEV, -EPERM, 0));
	/* Negative control: from the restore of "0" on nothing refuses. */
	EXPECT_EQ(0, devpm_qos_refusals(ev, n, DEV, -EPERM, u[1].ts_us));
}

/* Recorded: 100 and 300 (kernel), 200 (user), then removals. */
TEST(recorded_aggregate_is_the_minimum)
{
	static const int want[] = { 100, 100, 100, 200, 300,
				    DEVPM_QOS_NO_CONSTRAINT };
	struct devpm_event ev[32];
	struct devpm_qos_update u[8];
	size_t n = load("qos-aggregate.txt", ev, 32), k, i;
	char msg[256];

	k = devpm_qos_updates(ev, n, DEV, "DEV_PM_QOS_RESUME_LATENCY", 0, u,
			      8);
	ASSERT_EQ(6, k);
	for (i = 0; i < k; i++)
		EXPECT_EQ(1, devpm_qos_check_aggregate(u, i + 1, want[i], msg,
						       sizeof(msg))) {
			TH_LOG("step %zu: %s", i, msg);
		}
	/* Negative control: 300 where the kernel says 200 after -100. */
	EXPECT_EQ(0, devpm_qos_check_aggregate(u, 4, 300, msg, sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, "remove request -1"));
}

TEST(cpu_latency_hex_is_never_binary)
{
	char buf[32];

	ASSERT_EQ(0, devpm_cpu_latency_hex(100, buf, sizeof(buf)));
	EXPECT_STREQ("64\n", buf);
	ASSERT_EQ(0, devpm_cpu_latency_hex(1000, buf, sizeof(buf)));
	EXPECT_STREQ("03e8\n", buf);	/* "3e8\n" would be 4 bytes */
	ASSERT_EQ(0, devpm_cpu_latency_hex(-2, buf, sizeof(buf)));
	EXPECT_STREQ("-2\n", buf);
	ASSERT_EQ(0, devpm_cpu_latency_hex(-16, buf, sizeof(buf)));
	EXPECT_STREQ("-010\n", buf);
}

FIXTURE(tree) {
	char *root;
	char jdir[UNIT_PATH_MAX];
};

static void put_cpu(const char *root, int cpu, const unsigned long *usage)
{
	static const char *const names[] = { "MOCK-C1", "MOCK-C2", "MOCK-C3" };
	static const char *const lat[] = { "2", "50", "500" };
	char p[256], v[32];
	int s;

	for (s = 0; s < 3; s++) {
		snprintf(p, sizeof(p),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/usage",
			 cpu, s);
		snprintf(v, sizeof(v), "%lu", usage[s]);
		tree_put(root, p, v);
		snprintf(p, sizeof(p),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency",
			 cpu, s);
		tree_put(root, p, lat[s]);
		snprintf(p, sizeof(p),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
			 cpu, s);
		tree_put(root, p, names[s]);
	}
}

FIXTURE_SETUP(tree)
{
	self->root = tree_new();
	snprintf(self->jdir, sizeof(self->jdir), "%s/journal", self->root);
	tree_dir(self->root, "/sys/devices/system/cpu/cpu2");	/* no idle */
	ASSERT_EQ(0, devpm_set_sysfs_root(self->root));
	setenv("DEVPM_JOURNAL_DIR", self->jdir, 1);
	unsetenv("DEVPM_JOURNAL");
	unsetenv("DEVPM_ALLOW_DISK");
	devpm_safety_reset();
}

FIXTURE_TEARDOWN(tree)
{
	devpm_journal_close();
	devpm_set_sysfs_root(NULL);
	tree_rm(self->root);
}

TEST_F(tree, cpuidle_limit_verdict)
{
	unsigned long u0[3] = { 10, 20, 30 }, u1[3] = { 5, 5, 5 };
	unsigned long g0[3] = { 40, 20, 30 }, g1[3] = { 5, 9, 5 };
	struct devpm_cpuidle b, a;
	char msg[256], d[256];

	put_cpu(self->root, 0, u0);
	put_cpu(self->root, 1, u1);
	ASSERT_EQ(0, devpm_cpuidle_read(&b));
	ASSERT_EQ(2, b.ncpus);
	EXPECT_EQ(0, b.cpu[0]);
	EXPECT_EQ(1, b.cpu[1]);
	ASSERT_EQ(3, b.nstates);
	EXPECT_STREQ("MOCK-C2", b.name[1]);
	EXPECT_EQ(500, b.latency_us[2]);
	/* Nothing moved: no verdict. */
	EXPECT_EQ(-EAGAIN, devpm_cpuidle_limit_verdict(&b, &b, ~0ULL, 20, msg,
						       sizeof(msg), d,
						       sizeof(d)));
	/* cpu0 used C1 only, cpu1 entered C2 (50 us) under a 20 us limit. */
	put_cpu(self->root, 0, g0);
	put_cpu(self->root, 1, g1);
	ASSERT_EQ(0, devpm_cpuidle_read(&a));
	EXPECT_EQ(1, devpm_cpuidle_limit_verdict(&b, &a, 1, 20, msg,
						 sizeof(msg), d, sizeof(d)));
	EXPECT_STREQ("cpu0: MOCK-C1+30 MOCK-C2+0 MOCK-C3+0", d);
	/* Negative control: the limit broken on cpu1 is named. */
	EXPECT_EQ(0, devpm_cpuidle_limit_verdict(&b, &a, ~0ULL, 20, msg,
						 sizeof(msg), d, sizeof(d)));
	EXPECT_NE(NULL, strstr(msg, "cpu1: MOCK-C2 (exit latency 50 us) entered 4 times under a 20 us limit"));
	EXPECT_EQ(4, devpm_cpuidle_growth_above(&b, &a, ~0ULL, 20));
	EXPECT_EQ(0, devpm_cpuidle_growth_above(&b, &a, ~0ULL, 50));
	EXPECT_EQ(1, devpm_cpuidle_limit_verdict(&b, &a, ~0ULL, 50, msg,
						 sizeof(msg), d, sizeof(d)));
}

TEST_F(tree, no_cpuidle_is_enoent)
{
	struct devpm_cpuidle c;

	EXPECT_EQ(-ENOENT, devpm_cpuidle_read(&c));
}

#define RLAT "/sys/devices/platform/m/power/pm_qos_resume_latency_us"

static const struct devpm_qos_bad bad[] = {
	{ "-1", -EINVAL, NULL },
	{ "junk", -EINVAL, NULL },
};

TEST_F(tree, check_values_fails_on_a_file_that_accepts_junk)
{
	char msg[256], log[256];

	/* A regular file takes any write: the check must say so. */
	tree_put(self->root, RLAT, "0");
	ASSERT_EQ(0, devpm_journal_open_owner(self->jdir));
	EXPECT_EQ(0, devpm_qos_check_values(RLAT, bad, 2, msg, sizeof(msg),
					    log, sizeof(log)));
	EXPECT_NE(NULL, strstr(msg, "writing '-1' gave accepted, expected EINVAL"));
	/* And the old value was put back. */
	EXPECT_STREQ("0", tree_val(self->root, RLAT));
	/* Accepted values are checked against their read-back. */
	{
		const struct devpm_qos_bad ok[] = { { "100", 0, "100" } };
		const struct devpm_qos_bad wrong[] = { { "100", 0, "n/a" } };

		EXPECT_EQ(1, devpm_qos_check_values(RLAT, ok, 1, msg,
						    sizeof(msg), log,
						    sizeof(log)));
		EXPECT_STREQ("'100':accepted", log);
		EXPECT_EQ(0, devpm_qos_check_values(RLAT, wrong, 1, msg,
						    sizeof(msg), NULL, 0));
		EXPECT_NE(NULL, strstr(msg, "reads back '100', expected 'n/a'"));
	}
	EXPECT_EQ(-ENOENT, devpm_qos_check_values(RLAT "x", bad, 2, msg,
						   sizeof(msg), NULL, 0));
}

TEST_F(tree, qos_devices_found_by_walk)
{
	const char *const files[] = { "pm_qos_resume_latency_us",
				      "pm_qos_latency_tolerance_us", NULL };
	struct devpm_qos_path *paths;
	int n;

	tree_put(self->root, "/sys/devices/system/cpu/cpu0/power/pm_qos_resume_latency_us", "0");
	tree_put(self->root, "/sys/devices/pci0000:00/0000:00:04.0/power/pm_qos_latency_tolerance_us", "auto");
	tree_put(self->root, "/sys/devices/pci0000:00/0000:00:05.0/power/control", "on");
	tree_link(self->root, "/sys/devices/pci0000:00/0000:00:05.0/loop",
		  "../0000:00:04.0");
	n = devpm_qos_devices(files, &paths);
	ASSERT_EQ(2, n);
	EXPECT_STREQ("/sys/devices/pci0000:00/0000:00:04.0", paths[0].path);
	EXPECT_STREQ("/sys/devices/system/cpu/cpu0", paths[1].path);
	free(paths);
}

TEST_HARNESS_MAIN
