// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_autosuspend_check.c - lib/rpm/autosuspend_timer.c:
 * devpm_autosuspend_check(), an autosuspend judged from the trace against
 * the kernel's promise (drivers/base/power/runtime.c: rpm_suspend(),
 * pm_runtime_autosuspend_expiration()): the edges of each limit, the
 * host's lag that must not fail, and the late suspends that must.
 */
#include "devpm.h"
#include "rpm/autosuspend_timer.h"
#include "kselftest_harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEV "devpm_mock.6"
#define ALLOW_US (DEVPM_AUTOSUSPEND_ALLOW_MS * 1000ULL)

struct trace {
	struct devpm_event ev[64];
	size_t n;
};

/* One trace line at t_us, "comm-pid" given, the event text after it. */
static void add(struct trace *t, uint64_t t_us, const char *task,
		const char *fmt, ...)
{
	char text[320], line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "%s [000] d..1. %llu.%06llu: %s", task,
		 (unsigned long long)t_us / 1000000,
		 (unsigned long long)t_us % 1000000, text);
	if (t->n == 64 || devpm_trace_parse_line(line, &t->ev[t->n])) {
		fprintf(stderr, "unparsed: %s\n", line);
		abort();
	}
	t->n++;
}

static void rpm(struct trace *t, uint64_t us, const char *task,
		const char *ev, int flags, int cnt, int rauto, int child)
{
	add(t, us, task, "%s: " DEV " flags-%x cnt-%d dep-0 auto-%d p-0 irq-0 child-%d",
	    ev, flags, cnt, rauto, child);
}

static void ret(struct trace *t, uint64_t us, const char *task,
		const char *fn, int r)
{
	add(t, us, task, "rpm_return_int: %s+0x1e8/0x720:" DEV " ret=%d", fn, r);
}

/*
 * control=on at 1.000 s (a resume: last_busy 1.000100), control=auto at
 * 1.200 s: the delay has passed, rpm_idle() suspends at once through
 * pm_wq.  The worker's rpm_suspend begins at begin_us.
 */
static void at_once(struct trace *t, uint64_t begin_us)
{
	memset(t, 0, sizeof(*t));
	rpm(t, 1000000, "sh-90", "rpm_resume", 0x4, 1, 0, 0);
	ret(t, 1000100, "sh-90", "rpm_resume", 0);
	rpm(t, 1200000, "sh-90", "rpm_idle", 0x9, 0, 1, 0);
	ret(t, 1200010, "sh-90", "rpm_idle", 0);
	rpm(t, begin_us - 10, "kworker/0:1-20", "rpm_idle", 0x2, 0, 1, 0);
	rpm(t, begin_us, "kworker/0:1-20", "rpm_suspend", 0xa, 0, 1, 0);
	ret(t, begin_us + 500, "kworker/0:1-20", "rpm_suspend", 0);
	ret(t, begin_us + 510, "kworker/0:1-20", "rpm_idle", 0);
}

/*
 * A driver's put at 5.000 s with a 200 ms delay: rpm_suspend(RPM_AUTO)
 * arms pm_suspend_timer_fn for last_busy + 200 ms (soft) .. + 50 ms
 * (hard), it fires at fired_us, queues the suspend, the worker begins it
 * at begin_us.  soft_us: the armed soft expiry (last_busy + delay).
 */
static void timed(struct trace *t, uint64_t soft_us, uint64_t fired_us,
		  uint64_t begin_us)
{
	memset(t, 0, sizeof(*t));
	rpm(t, 4990000, "dd-91", "rpm_resume", 0x4, 1, 1, 0);
	ret(t, 4990100, "dd-91", "rpm_resume", 1);
	rpm(t, 5000000, "dd-91", "rpm_suspend", 0xd, 0, 1, 0);
	add(t, 5000020, "dd-91",
	    "hrtimer_start: hrtimer=00000000a1b2c3d4 function=pm_suspend_timer_fn expires=%llu000 softexpires=%llu000 mode=ABS",
	    (unsigned long long)(soft_us + 50000),
	    (unsigned long long)soft_us);
	ret(t, 5000030, "dd-91", "rpm_suspend", 0);
	add(t, 5004000, "<idle>-0",
	    "hrtimer_expire_entry: hrtimer=00000000ffff0000 now=5004000000 function=tick_sched_timer");
	add(t, fired_us, "<idle>-0",
	    "hrtimer_expire_entry: hrtimer=00000000a1b2c3d4 now=%llu000 function=pm_suspend_timer_fn",
	    (unsigned long long)fired_us);
	rpm(t, fired_us + 5, "<idle>-0", "rpm_suspend", 0x9, 0, 1, 0);
	ret(t, fired_us + 8, "<idle>-0", "rpm_suspend", 0);
	rpm(t, begin_us, "kworker/0:1-20", "rpm_suspend", 0xa, 0, 1, 0);
	ret(t, begin_us + 900, "kworker/0:1-20", "rpm_suspend", 0);
}

static int check(struct trace *t, int delay_ms, struct devpm_autosuspend *a,
		 char *why, size_t len)
{
	return devpm_autosuspend_check(t->ev, t->n, DEV, 999000, 9000000,
				       delay_ms, a, why, len);
}

/* Its delay long passed: due when control=auto let it go. */
TEST(at_once_edges)
{
	struct devpm_autosuspend a;
	struct trace t;
	char why[512] = "";

	at_once(&t, 1200000 + ALLOW_US);
	ASSERT_EQ(0, check(&t, 50, &a, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(1200000ULL, a.idle_us);
	EXPECT_EQ(1000100ULL, a.busy_us);
	EXPECT_EQ(1200000ULL, a.due_us);
	EXPECT_EQ(0ULL, a.soft_us);
	EXPECT_STREQ("control=on", a.idle_why);
	at_once(&t, 1200000 + ALLOW_US + 1000);
	ASSERT_EQ(1, check(&t, 50, &a, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "suspend began 21.0 ms after it was idle, limit 20.0 ms (due 0.0 ms: its delay had passed"))
		TH_LOG("%s", why);
}

/* last_busy + delay after idle: due at last_busy + delay * 1.25. */
TEST(busy_recently_edges)
{
	struct devpm_autosuspend a;
	struct trace t;
	char why[512] = "";

	/* Resumed at 1.0001 s, delay 400 ms: due 1.5001 s. */
	at_once(&t, 1500100 + ALLOW_US);
	ASSERT_EQ(0, check(&t, 400, &a, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(1500100ULL, a.due_us);
	at_once(&t, 1500100 + ALLOW_US + 1000);
	ASSERT_EQ(1, check(&t, 400, &a, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "limit 320.1 ms (due 300.1 ms: last_busy + delay + 25 % slack"))
		TH_LOG("%s", why);
	EXPECT_NE(NULL, strstr(why, "no hrtimer events traced")) TH_LOG("%s", why);
}

/* Not before its delay after last_busy (RPM_AUTO checks the expiry). */
TEST(suspend_before_the_delay_fails)
{
	struct devpm_autosuspend a;
	struct trace t;
	char why[512] = "";

	at_once(&t, 1300100 - 1000);
	ASSERT_EQ(0, check(&t, 300, &a, why, sizeof(why))) TH_LOG("%s", why);
	at_once(&t, 1300100 - 1001);
	ASSERT_EQ(1, check(&t, 300, &a, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "before its autosuspend delay of 300 ms"))
		TH_LOG("%s", why);
}

/* The timer's path: the worker begins after the timer fired. */
TEST(timer_edges)
{
	struct devpm_autosuspend a;
	struct trace t;
	char why[512] = "";

	/* last_busy 5.000 s: soft 5.200, hard 5.250, fired in between. */
	timed(&t, 5200000, 5230000, 5230200);
	ASSERT_EQ(0, check(&t, 200, &a, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(5200000ULL, a.soft_us);
	EXPECT_EQ(5250000ULL, a.hard_us);
	EXPECT_EQ(5230000ULL, a.fired_us);
	EXPECT_EQ(5000000ULL, a.busy_us);
	EXPECT_EQ(5250000ULL, a.due_us);
	EXPECT_TRUE(a.timers);
	/* The worker ALLOW after the hard expiry: kept; 1 ms more: not. */
	timed(&t, 5200000, 5249000, 5250000 + ALLOW_US);
	EXPECT_EQ(0, check(&t, 200, &a, why, sizeof(why))) TH_LOG("%s", why);
	timed(&t, 5200000, 5249000, 5250000 + ALLOW_US + 1000);
	EXPECT_EQ(1, check(&t, 200, &a, why, sizeof(why)));
}

/*
 * The host held the guest's CPU: the timer fired 80 ms after its hard
 * expiry.  Interrupt delivery is no runtime-PM promise: due moves to it.
 */
TEST(timer_delivered_late_by_the_host_is_kept)
{
	struct devpm_autosuspend a;
	struct trace t;
	char why[512] = "";

	timed(&t, 5200000, 5330000, 5331000);
	EXPECT_EQ(0, check(&t, 200, &a, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(1000, a.late_us);
}

/* The kernel's slack is delay / 4: more is a broken promise. */
TEST(timer_slack_beyond_a_quarter_fails)
{
	struct devpm_autosuspend a;
	struct trace t;
	char why[512] = "";

	timed(&t, 5200000, 5230000, 5230200);
	/* 200 ms delay, 50 ms of slack: the kernel's; 40 ms delay is not. */
	EXPECT_EQ(0, check(&t, 200, &a, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(1, check(&t, 160, &a, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "armed with 50.0 ms of slack, the kernel's is delay/4 = 40.0 ms"))
		TH_LOG("%s", why);
}

/*
 * devpm_mock's late_suspend bug: its runtime_idle refuses (-EBUSY) and a
 * work item suspends it delay * 1.5 later; no timer is armed.
 */
TEST(planted_late_suspend_fails)
{
	struct devpm_autosuspend a;
	struct trace t;
	char why[512] = "";

	memset(&t, 0, sizeof(t));
	rpm(&t, 1000000, "sh-90", "rpm_resume", 0x4, 1, 0, 0);
	ret(&t, 1000100, "sh-90", "rpm_resume", 0);
	rpm(&t, 1000300, "sh-90", "rpm_idle", 0x9, 0, 1, 0);
	ret(&t, 1000310, "sh-90", "rpm_idle", 0);
	add(&t, 1000320, "sh-90",
	    "hrtimer_start: hrtimer=00000000ffff0000 function=tick_sched_timer expires=1004000000 softexpires=1004000000 mode=ABS");
	rpm(&t, 1000400, "kworker/0:1-20", "rpm_idle", 0x2, 0, 1, 0);
	ret(&t, 1000450, "kworker/0:1-20", "rpm_idle", -16);
	/* 400 ms * 1.5 after the idle: the mock's work item. */
	rpm(&t, 1600450, "kworker/0:2-21", "rpm_suspend", 0x0, 0, 1, 0);
	ret(&t, 1600900, "kworker/0:2-21", "rpm_suspend", 0);
	ASSERT_EQ(1, check(&t, 400, &a, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "suspend began 600.1 ms after it was idle, limit 519.8 ms (due 499.8 ms"))
		TH_LOG("%s", why);
	EXPECT_NE(NULL, strstr(why, "no autosuspend timer armed")) TH_LOG("%s", why);
}

/*
 * A hub held by its child: idle only once the child's suspend let
 * rpm_idle() run on it with no active child (delay 0: at once).
 */
TEST(held_by_a_child_until_it_suspends)
{
	struct devpm_autosuspend a;
	struct trace t;
	char why[512] = "";

	memset(&t, 0, sizeof(t));
	rpm(&t, 1000000, "sh-90", "rpm_idle", 0x9, 0, 1, 1);
	ret(&t, 1000010, "sh-90", "rpm_idle", -16);
	rpm(&t, 1090000, "kworker/0:1-20", "rpm_idle", 0x2, 0, 1, 0);
	rpm(&t, 1090020, "kworker/0:1-20", "rpm_suspend", 0xa, 0, 1, 0);
	ret(&t, 1130000, "kworker/0:1-20", "rpm_suspend", 0);
	ret(&t, 1130010, "kworker/0:1-20", "rpm_idle", -16);
	ASSERT_EQ(0, check(&t, 0, &a, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(1090000ULL, a.idle_us);
	EXPECT_STREQ("an active child", a.idle_why);
	EXPECT_EQ(1090020ULL, a.begin_us);
	EXPECT_EQ(1130000ULL, a.done_us);
}

TEST(no_suspend_is_named)
{
	struct devpm_autosuspend a;
	struct trace t;
	char why[512] = "";

	memset(&t, 0, sizeof(t));
	rpm(&t, 1000000, "sh-90", "rpm_suspend", 0xa, 0, 1, 0);
	ret(&t, 1000010, "sh-90", "rpm_suspend", -11);
	EXPECT_EQ(-1, check(&t, 100, &a, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "no rpm_suspend of " DEV " that suspended it"))
		TH_LOG("%s", why);
}

TEST_HARNESS_MAIN
