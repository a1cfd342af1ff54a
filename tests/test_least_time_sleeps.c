// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_least_time_sleeps.c - lib/trace/least_time_sleeps.c and lib/trace/kernel_sleep.c: which of
 * the kernel's sleeps a case's floor counts.  A sleep counts only when
 * its task was inside a runtime resume or suspend (rpm_resume or
 * rpm_suspend up to its rpm_return_int) or a libata link reset when it
 * called; another task's sleep at the same moment, the same task's sleep
 * after the return, and a sleep before a window whose start the trace
 * missed must not.  And the perf records the sleeps come from: a sample,
 * a lost count, a malformed record.
 */
#include "devpm.h"
#include "trace/kernel_sleep.h"
#include "trace/least_time_sleeps.h"
#include "kselftest_harness.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#define AHCI "0000:00:1f.2"
#define PORT "ata1"
#define MAX_EV 16
#define MAX_SPANS 16

struct trace {
	struct devpm_event ev[MAX_EV];
	size_t n;
};

struct spans {
	uint64_t from[MAX_SPANS], len[MAX_SPANS];
	size_t n;
};

static void add(struct trace *t, const char *line)
{
	if (t->n == MAX_EV || devpm_trace_parse_line(line, &t->ev[t->n])) {
		fprintf(stderr, "unparsed: %s\n", line);
		abort();
	}
	t->n++;
}

static void span(uint64_t from, uint64_t len, void *ctx)
{
	struct spans *s = ctx;

	if (s->n < MAX_SPANS) {
		s->from[s->n] = from;
		s->len[s->n] = len;
		s->n++;
	}
}

static size_t count(const struct trace *t, const struct devpm_kernel_sleep *s,
		    size_t ns, struct spans *out)
{
	memset(out, 0, sizeof(*out));
	return devpm_least_time_sleeps_spans(t->ev, t->n, s, ns, span, out);
}

/* kworker 40 resumes AHCI (its parent first), returns at 5.5 s. */
static void resume(struct trace *t)
{
	memset(t, 0, sizeof(*t));
	add(t, "kworker/0:1-40 [000] ..... 5.000000: rpm_resume: " PORT
	       " flags-4 cnt-1 dep-0 auto-1 p-0 irq-0 child-0");
	add(t, "kworker/0:1-40 [000] ..... 5.000010: rpm_resume: " AHCI
	       " flags-4 cnt-1 dep-0 auto-1 p-0 irq-0 child-0");
	add(t, "kworker/0:1-40 [000] ..... 5.100000: rpm_return_int: rpm_resume+0x1b8/0x5f0:"
	       AHCI " ret=0");
	add(t, "kworker/0:1-40 [000] ..... 5.150000: rpm_idle: " AHCI
	       " flags-2 cnt-0 dep-0 auto-1 p-0 irq-0 child-1");
	add(t, "kworker/0:1-40 [000] ..... 5.150010: rpm_return_int: rpm_idle+0x9c/0x2b0:"
	       AHCI " ret=-11");
	add(t, "kworker/0:1-40 [000] ..... 5.500000: rpm_return_int: rpm_resume+0x1b8/0x5f0:"
	       PORT " ret=0");
}

/* Inside the outer call, after the nested parent's return too: counted. */
TEST(sleep_inside_a_resume_counts)
{
	struct devpm_kernel_sleep s[] = {
		{ 40, 5050000, 10000, 0 },		/* parent's D3 delay */
		{ 40, 5200000, 40000, 0 },		/* after rpm_idle's return */
	};
	struct spans out;
	struct trace t;

	resume(&t);
	ASSERT_EQ(2, count(&t, s, 2, &out));
	EXPECT_EQ(5050000ULL, out.from[0]);
	EXPECT_EQ(10000ULL, out.len[0]);
	EXPECT_EQ(5200000ULL, out.from[1]);
	EXPECT_EQ(40000ULL, out.len[1]);
}

/* Negative controls: not the task in the window, or not in it. */
TEST(sleep_outside_its_tasks_window_does_not_count)
{
	struct devpm_kernel_sleep s[] = {
		{ 41, 5050000, 10000, 0 },		/* another task, same time */
		{ 40, 4900000, 10000, 0 },		/* before the call */
		{ 40, 5500000, 10000, 0 },		/* at the return */
		{ 40, 6000000, 200000, 0 },	/* after it */
	};
	struct spans out;
	struct trace t;

	resume(&t);
	EXPECT_EQ(0, count(&t, s, 4, &out));
	EXPECT_EQ(0, count(&t, s, 0, &out));
}

/* A sleep that would outlast its window is counted up to the window's end. */
TEST(sleep_clipped_to_its_window)
{
	struct devpm_kernel_sleep s[] = { { 40, 5490000, 200000, 0 } };
	struct spans out;
	struct trace t;

	resume(&t);
	ASSERT_EQ(1, count(&t, s, 1, &out));
	EXPECT_EQ(10000ULL, out.len[0]);
}

/* A return whose call the trace missed opens nothing. */
TEST(window_begun_before_the_trace_does_not_count)
{
	struct devpm_kernel_sleep s[] = { { 40, 5050000, 10000, 0 } };
	struct spans out;
	struct trace t;

	memset(&t, 0, sizeof(t));
	add(&t, "kworker/0:1-40 [000] ..... 5.100000: rpm_return_int: rpm_resume+0x1b8/0x5f0:"
		AHCI " ret=0");
	EXPECT_EQ(0, count(&t, s, 1, &out));
	/* Still inside when the trace was read: counted in full. */
	add(&t, "kworker/0:1-40 [000] ..... 5.200000: rpm_suspend: " AHCI
		" flags-c cnt-0 dep-0 auto-1 p-0 irq-0 child-0");
	s[0].at_us = 5300000;
	ASSERT_EQ(1, count(&t, s, 1, &out));
	EXPECT_EQ(10000ULL, out.len[0]);
}

/*
 * libata's EH thread, after a port's runtime resume scheduled it: the
 * link resume's 200 ms and the debounce's 5 ms steps count, a sleep of
 * the EH thread after the reset does not (6.1 formats, libata.h).
 */
TEST(ata_link_reset_sleeps_count)
{
	struct devpm_kernel_sleep s[] = {
		{ 71, 5010000, 200000, 0 },	/* sata_link_resume() */
		{ 71, 5215000, 5000, 0 },		/* sata_link_debounce() */
		{ 71, 5400000, 50000, 0 },		/* after the reset */
		{ 72, 5010000, 200000, 0 },	/* another port's EH: no window */
	};
	struct spans out;
	struct trace t;

	memset(&t, 0, sizeof(t));
	add(&t, "scsi_eh_0-71 [001] ..... 5.000000: ata_link_hardreset_begin: ata_port=1 deadline=4294937296 classes=[unknown,unknown]");
	add(&t, "scsi_eh_0-71 [001] ..... 5.330000: ata_link_hardreset_end: ata_port=1 rc=0 class=[ATA,unknown]");
	ASSERT_EQ(2, count(&t, s, 4, &out));
	EXPECT_EQ(200000ULL, out.len[0]);
	EXPECT_EQ(5215000ULL, out.from[1]);
	EXPECT_EQ(5000ULL, out.len[1]);
}

/*
 * usbcore's hub work (hub_event() entry and return, from kprobes): the
 * debounce's sleeps inside count, the same worker's after the return and
 * another task's during it do not, nor does a return without its entry.
 */
TEST(hub_work_sleeps_count)
{
	struct devpm_kernel_sleep s[] = {
		{ 30, 3900000, 25000, 0 },	/* in a call whose entry */
		{ 30, 4000000, 0, -1 },		/* ... the probes missed */
		{ 30, 4100000, 25000, 0 },	/* after it */
		{ 30, 5000000, 0, 1 },		/* hub_event() entered */
		{ 30, 5010000, 25000, 0 },	/* hub_port_debounce() */
		{ 31, 5020000, 25000, 0 },	/* another task */
		{ 30, 5040000, 25000, 0 },
		{ 30, 5100000, 0, -1 },		/* returned */
		{ 30, 5200000, 25000, 0 },	/* after it */
	};
	struct spans out;
	struct trace t;

	memset(&t, 0, sizeof(t));
	ASSERT_EQ(2, count(&t, s, 9, &out));
	EXPECT_EQ(5010000ULL, out.from[0]);
	EXPECT_EQ(5040000ULL, out.from[1]);
	EXPECT_EQ(25000ULL, out.len[1]);
}

/* perf records: TID, TIME, REGS_INTR with one register. */
struct sample {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t time, abi, reg;
};

/* A sample of thread tid of process tid - 1000 (its tgid). */
static struct sample sample(uint32_t tid, uint64_t ns, uint64_t arg)
{
	struct sample r = {
		.h = { PERF_RECORD_SAMPLE, 0, sizeof(r) },
		.pid = tid - 1000, .tid = tid, .time = ns, .abi = 2,
		.reg = arg,
	};

	return r;
}

TEST(perf_sample_is_read)
{
	struct sample r = sample(1071, 5010000123ULL, 200);
	struct devpm_kernel_sleep s;
	uint64_t lost = 0;

	ASSERT_EQ(1, devpm_kernel_sleep_parse_record(&r, sizeof(r), 1000, &s,
					       &lost));
	/* The thread, as trace lines name it; not its process. */
	EXPECT_EQ(1071, s.pid);
	EXPECT_EQ(5010000ULL, s.at_us);
	EXPECT_EQ(200000ULL, s.len_us);
	EXPECT_EQ(0ULL, lost);
	/* usleep_range_state()'s min is in µs already. */
	r = sample(1071, 5010000123ULL, 5000);
	ASSERT_EQ(1, devpm_kernel_sleep_parse_record(&r, sizeof(r), 1, &s, &lost));
	EXPECT_EQ(5000ULL, s.len_us);
	/* A window's edge: no argument taken, whatever the register. */
	r = sample(1030, 5010000123ULL, 1ULL << 60);
	ASSERT_EQ(1, devpm_kernel_sleep_parse_record(&r, sizeof(r), 0, &s, &lost));
	EXPECT_EQ(0ULL, s.len_us);
	EXPECT_EQ(5010000ULL, s.at_us);
}

TEST(perf_lost_and_malformed_records)
{
	struct {
		struct perf_event_header h;
		uint64_t id, lost;
	} l = { { PERF_RECORD_LOST, 0, sizeof(l) }, 1, 7 };
	struct sample r = sample(1071, 5010000123ULL, 200);
	struct devpm_kernel_sleep s;
	uint64_t lost = 0;

	EXPECT_EQ(0, devpm_kernel_sleep_parse_record(&l, sizeof(l), 1000, &s,
					       &lost));
	EXPECT_EQ(7ULL, lost);
	/* The size the header says, or nothing. */
	EXPECT_EQ(-EINVAL, devpm_kernel_sleep_parse_record(&r, sizeof(r) - 8, 1000,
						     &s, &lost));
	r.h.size = sizeof(r) - 8;
	EXPECT_EQ(-EINVAL, devpm_kernel_sleep_parse_record(&r, sizeof(r) - 8, 1000,
						     &s, &lost));
	/* No registers (abi 0): no length, not a sleep. */
	r = sample(1071, 5010000123ULL, 200);
	r.abi = 0;
	EXPECT_EQ(0, devpm_kernel_sleep_parse_record(&r, sizeof(r), 1000, &s,
					       &lost));
	/* A "delay" beyond a day is a garbled argument. */
	r = sample(1071, 5010000123ULL, 1ULL << 40);
	EXPECT_EQ(-EINVAL, devpm_kernel_sleep_parse_record(&r, sizeof(r), 1000, &s,
						     &lost));
}

/*
 * A program attaches only to probes its parent runner named: not to
 * another process's, nor to a descriptor that is no perf event.
 */
TEST(attach_only_to_the_runners_probes)
{
	struct devpm_kernel_sleep_probe *p = NULL;
	char v[128];
	int fd[2];

	ASSERT_EQ(0, pipe(fd));
	unsetenv(DEVPM_KERNEL_SLEEP_ENV);
	EXPECT_EQ(-ENOENT, devpm_kernel_sleep_attach(&p));
	snprintf(v, sizeof(v), "%d %d:1000", (int)getpid(), fd[0]);
	setenv(DEVPM_KERNEL_SLEEP_ENV, v, 1);
	EXPECT_EQ(-ENOENT, devpm_kernel_sleep_attach(&p));	/* not our parent */
	snprintf(v, sizeof(v), "%d %d:1000", (int)getppid(), fd[0]);
	setenv(DEVPM_KERNEL_SLEEP_ENV, v, 1);
	EXPECT_EQ(-EINVAL, devpm_kernel_sleep_attach(&p));	/* a pipe */
	EXPECT_NE(NULL, strstr(devpm_error(), "names no probe of devpm run"));
	snprintf(v, sizeof(v), "%d 9999:7", (int)getppid());
	setenv(DEVPM_KERNEL_SLEEP_ENV, v, 1);
	EXPECT_EQ(-EINVAL, devpm_kernel_sleep_attach(&p));	/* no such unit */
	snprintf(v, sizeof(v), "%d", (int)getppid());
	setenv(DEVPM_KERNEL_SLEEP_ENV, v, 1);
	EXPECT_EQ(-EINVAL, devpm_kernel_sleep_attach(&p));	/* no probe */
	EXPECT_EQ(NULL, p);
	unsetenv(DEVPM_KERNEL_SLEEP_ENV);
	close(fd[0]);
	close(fd[1]);
}

TEST_HARNESS_MAIN
