// SPDX-License-Identifier: GPL-2.0-only
/*
 * events.c - wakeup events from a mock device (devpm_mock) at chosen
 * points of the suspend sequence, a driver whose pending event fails its
 * suspend, and the wakeup source statistics that must name what woke the
 * system and what blocked a suspend.
 *
 * The requirements of the suspend-blocker debate of 2010: (1a) an event
 * passed on while tasks are being frozen must be able to stop the freeze
 * (or the suspend after it); (1b) a driver with pending events fails its
 * suspend(); (3) the system says what woke it and what kept it awake.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "harness/test.h"
#include "mock/mock.h"
#include "mock/mock_cycle.h"
#include "sleep/system_sleep.h"
#include "sleep/wake_account.h"
#include "sleep/wake_env.h"
#include "sleep/wakeup_source.h"
#include "wakeup_suite.h"

static const struct devpm_test_info info = {
	.suite = "wakeup",
	.timeout_s = 450,
	/* Its cycles judge only the events and devices it makes. */
	.sleep_scope = DEVPM_SLEEP_OWN_DEVICES,
	.needs = {
		.root = true,
		.sleep = true,
		.files = (const char *const[]){ "/sys/power/wakeup_count",
						"/sys/power/suspend_stats",
						NULL },
	},
};

#define MOCK_ID	0

FIXTURE(events) {
	off_t mark;
	struct devpm_wake_env env;
	struct devpm_mock_cycle m;
};

/* The mock's suspend_noirq callback outlasts every noirq point. */
#define NOIRQ_HOLD_US	2000

FIXTURE_SETUP(events)
{
	const char *bug = getenv("DEVPM_MOCK_BUG");
	char why[256];
	int r;

	self->m.qfd = -1;
	self->mark = devpm_case_setup();
	ASSERT_EQ(0, devpm_wake_env_init(&self->env)) TH_LOG("%s", devpm_error());
	r = devpm_mock_cycle_open(&self->m, MOCK_ID, &self->env, why, sizeof(why));
	if (r == 1)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, r) TH_LOG("%s", devpm_error());
	/*
	 * The noirq points fire inside the mock's own suspend_noirq
	 * callback (the point is armed as it starts): with the QEMU
	 * controllers unbound the rest of the noirq phase can end within
	 * 1 ms, and suspend_noirq+1000 would race the phase's end.
	 */
	ASSERT_EQ(0, devpm_mock_set_cb(MOCK_ID, DEVPM_MOCK_SUSPEND_NOIRQ,
				       NOIRQ_HOLD_US, 0))
		TH_LOG("%s", devpm_error());
	/* A planted bug, for the suite's negative control (docs). */
	if (bug && bug[0]) {
		devpm_note("planted bug: devpm_mock.%d %s", MOCK_ID, bug);
		ASSERT_EQ(0, devpm_mock_bug(MOCK_ID, bug))
			TH_LOG("%s", devpm_error());
	}
}

FIXTURE_TEARDOWN(events)
{
	devpm_mock_cycle_close(&self->m);
	devpm_case_teardown(self->mark);
}

struct point {
	const char *point;
	long off_us;
};

/*
 * 24 points over the whole sequence.  pm_prepare is the PM_SUSPEND_PREPARE
 * notifier, before the freeze; its offsets reach into the freezing of user
 * space and kernel threads.  The mock device registers last: its prepare
 * runs last in dpm_prepare, its suspend, suspend_late and suspend_noirq
 * first in theirs (drivers/base/power/main.c walks dpm_list backwards).
 */
static const struct point points[] = {
	{ "pm_prepare", 0 }, { "pm_prepare", 100 }, { "pm_prepare", 200 },
	{ "pm_prepare", 500 }, { "pm_prepare", 1000 },
	{ "pm_prepare", 1500 }, { "pm_prepare", 2000 },
	{ "pm_prepare", 3000 }, { "pm_prepare", 4000 },
	{ "pm_prepare", 8000 },
	{ "prepare", 0 }, { "prepare", 500 }, { "prepare", 2000 },
	{ "suspend", 0 }, { "suspend", 50 }, { "suspend", 100 },
	{ "suspend", 1000 }, { "suspend", 5000 },
	{ "suspend_late", 0 }, { "suspend_late", 100 },
	{ "suspend_late", 1000 },
	{ "suspend_noirq", 0 }, { "suspend_noirq", 50 },
	{ "suspend_noirq", 1000 },
};

#define NPOINTS (sizeof(points) / sizeof(points[0]))

/* The shallowest pm_test level whose path runs the point's callback. */
static const char *level_for(const char *point)
{
	if (!strcmp(point, "pm_prepare"))
		return "freezer";
	if (!strcmp(point, "prepare") || !strcmp(point, "suspend"))
		return "devices";
	return "platform";
}

enum mode { MODE_A, MODE_B, MODE_C, NMODES };

static const char *const mode_name[NMODES] = { "a", "b", "c" };

/*
 * How each mode sleeps.  (a) and (b) must abort or wake at once: real
 * s2idle, the agent only a safety net whose use fails the point.  (b) at
 * pm_prepare first runs to pm_test=freezer: up to the end of the freezer
 * that path is the real one, and a hard event before freeze_processes()'s
 * pm_wakeup_clear(0) is forgotten by both (a real cycle would sleep until
 * the safety net, 1.5 s after the freeze); one that landed after the
 * freezer's last check is judged again in a real cycle (sweep_point()).
 * (c) may sleep, and then only the agent wakes it (~0.3 s a cycle under
 * TCG, 200 ms after the freeze): real s2idle at suspend_noirq+0 (the event
 * unseen through the whole sleep), the other points at the shallowest
 * pm_test level that runs their callback (every point of every mode real
 * with DEVPM_WAKEUP_REAL=1; none without the agent).
 */
static void shot_for(const struct devpm_wake_env *e, enum mode md, size_t i,
		     struct devpm_mock_cycle_shot *s)
{
	const char *all_real = getenv("DEVPM_WAKEUP_REAL");
	bool every = all_real && !strcmp(all_real, "1");
	bool real = every || (!strcmp(points[i].point, "suspend_noirq") &&
			      !points[i].off_us);

	memset(s, 0, sizeof(*s));
	s->point = points[i].point;
	s->off_us = points[i].off_us;
	s->kind = md == MODE_B ? DEVPM_MOCK_HARD : DEVPM_MOCK_SOFT;
	s->handshake = md == MODE_A;
	s->level = level_for(s->point);
	if (md == MODE_B && !every && !strcmp(s->point, "pm_prepare"))
		s->how = DEVPM_HOW_PM_TEST;
	else if (md != MODE_C)
		s->how = DEVPM_HOW_SELF;
	else
		s->how = e->agent && real ? DEVPM_HOW_REAL : DEVPM_HOW_PM_TEST;
}

/*
 * Is the outcome right for the mode?  why gets the reason when it is not,
 * or a note when the kernel's documented behaviour explains it.
 */
static bool verdict(enum mode md, const struct devpm_mock_cycle_shot *s,
		    const struct devpm_mock_cycle_res *r, char *why, size_t len)
{
	why[0] = '\0';
	if (r->lost) {
		snprintf(why, len, "%lu event(s) lost", r->lost);
		return false;
	}
	if (!r->fired && md != MODE_C) {
		snprintf(why, len, "the event never fired: the suspend %s before %s",
			 r->o == DEVPM_WAKE_ABORTED ? "aborted" : "ended",
			 s->point);
		return false;
	}
	if (md == MODE_C || r->o != DEVPM_WAKE_SLEPT)
		return true;
	/* A soft event is no wake signal: once asleep, only hard ones. */
	if (md == MODE_A && !strcmp(r->phase, "s2idle")) {
		snprintf(why, len, "soft event after the last check, in s2idle: slept (wakeup.c:pm_wakeup_event() does not wake)");
		return true;
	}
	/* freeze_processes() clears pm_abort_suspend (process.c). */
	if (md == MODE_B && (!strcmp(r->phase, "before_freeze") ||
			     !strcmp(r->phase, "freeze_start"))) {
		snprintf(why, len, "hard event in %s: forgotten by freeze_processes()'s pm_wakeup_clear(0); what the handshake is for",
			 r->phase);
		return true;
	}
	snprintf(why, len, "slept with the event pending (in %s): must abort or wake at once",
		 r->phase);
	return false;
}

/*
 * One point: the cycle, and for a (b) point run to pm_test=freezer whose
 * result the verdict does not accept (the event landed after the
 * freezer's last check, or did not fire before the freezer returned),
 * the same point again as a real cycle, which is the one judged.  A loss
 * is judged as it is.  0, or -errno when a cycle could not be run.
 */
static int sweep_point(struct devpm_mock_cycle *m, enum mode md, const char *name,
		       struct devpm_mock_cycle_shot *s, struct devpm_mock_cycle_res *r)
{
	char why[200];
	int e = devpm_mock_cycle_cycle(m, s, r);

	if (e || md != MODE_B || s->how != DEVPM_HOW_PM_TEST || r->lost ||
	    verdict(md, s, r, why, sizeof(why)))
		return e;
	devpm_note("%s: at pm_test=%s: %s; again as a real cycle", name,
		   s->level, why);
	s->how = DEVPM_HOW_SELF;
	return devpm_mock_cycle_cycle(m, s, r);
}

/* p-th percentile of n values (sorted in place). */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The sweep so far, and the point a block is for. */
struct sweep {
	struct devpm_mock_cycle *m;
	enum mode md;
	struct devpm_mock_cycle_shot s;
	char name[48];
	unsigned long (*out)[DEVPM_WAKE_NR];
	uint64_t *lat;
	size_t nlat;
};

/* One point of the sweep: its line. */
static void point_one(struct devpm_block *b, void *arg)
{
	struct sweep *w = arg;
	struct devpm_mock_cycle_res r;
	char why[200];
	const char *name = w->name;
	int e;

	devpm_note("point %s", name);
	e = sweep_point(w->m, w->md, name, &w->s, &r);
	if (e) {
		devpm_note("%s: %s", name, devpm_error());
		devpm_block_abort(b, "cycle not run");
	}
	w->out[w->md][r.o]++;
	devpm_metric(name, "outcome", r.o);
	if (r.lat_us >= 0) {
		devpm_metric(name, "event_to_user_us", r.lat_us);
		w->lat[w->nlat++] = r.lat_us;
	}
	if (!verdict(w->md, &w->s, &r, why, sizeof(why))) {
		devpm_note("%s: FAIL: %s", name, why);
		devpm_block_abort(b, "%s",
				r.lost ? "event lost" :
				"must abort or wake at once");
	}
	if (why[0])
		devpm_note("%s: %s", name, why);
}

TEST_F_TIMEOUT(events, event_during_freeze_sweep, 300)
{
	unsigned long out[NMODES][DEVPM_WAKE_NR] = { { 0 } };
	uint64_t lat[NMODES * NPOINTS];
	struct sweep w = { .m = &self->m, .out = out, .lat = lat };
	struct devpm_subtest sub;
	size_t i;
	int md;

	devpm_subtest_begin(&sub, "event_during_freeze_sweep");
	for (md = 0; md < NMODES; md++) {
		for (i = 0; i < NPOINTS; i++) {
			w.md = md;
			shot_for(&self->env, md, i, &w.s);
			snprintf(w.name, sizeof(w.name), "%s/%s+%ld",
				 mode_name[md], w.s.point, w.s.off_us);
			devpm_block_run(&sub, w.name, point_one, &w);
		}
	}
	for (md = 0; md < NMODES; md++)
		devpm_note("mode %s: aborted %lu, woke %lu, slept %lu",
			   mode_name[md], out[md][DEVPM_WAKE_ABORTED],
			   out[md][DEVPM_WAKE_WOKE], out[md][DEVPM_WAKE_SLEPT]);
	devpm_note("events produced %lu, reported %lu, consumed %lu, lost %lu%s%s",
		   self->m.tally.produced, self->m.tally.reported,
		   self->m.tally.consumed, self->m.tally.lost,
		   self->m.tally.lost ? "; first: " : "",
		   self->m.tally.first_lost);
	devpm_metric("-", "lost", self->m.tally.lost);
	devpm_metric("-", "produced", self->m.tally.produced);
	devpm_metric("-", "consumed", self->m.tally.consumed);
	if (w.nlat) {
		qsort(lat, w.nlat, sizeof(lat[0]), cmp_u64);
		devpm_metric("-", "event_to_user_p50_us", lat[w.nlat / 2]);
		devpm_metric("-", "event_to_user_max_us", lat[w.nlat - 1]);
	}
	DEVPM_SUBTEST_END(&sub);
	EXPECT_EQ(0, self->m.tally.lost) TH_LOG("lost events; first: %s",
						self->m.tally.first_lost);
}

TEST_F_TIMEOUT(events, pending_event_fails_suspend, 60)
{
	struct devpm_mock_cycle_shot s = { .point = "suspend_noirq", .off_us = 0,
			     .kind = DEVPM_MOCK_HARD, .how = DEVPM_HOW_SELF,
			     .level = "platform" };
	struct devpm_sleep sl;
	char d[256], name[32];
	struct devpm_mock_cycle_res r;
	int n, err;

	snprintf(name, sizeof(name), "devpm_mock.%d", MOCK_ID);
	ASSERT_EQ(0, devpm_mock_set(MOCK_ID, "pending_fails_suspend", "1"))
		TH_LOG("%s", devpm_error());
	ASSERT_EQ(0, devpm_mock_wakeup_fire(MOCK_ID, DEVPM_MOCK_SOFT))
		TH_LOG("%s", devpm_error());
	/* A record is queued and unread: the mock's suspend() refuses. */
	err = devpm_wake_cycle(&self->env, self->env.agent ? DEVPM_HOW_REAL : DEVPM_HOW_PM_TEST,
		       "devices", "one unread record", &sl);
	devpm_suspend_stats_diff(&sl.before, &sl.after, d, sizeof(d));
	devpm_note("one unread record: write returned %d after %llu us; suspend_stats %s",
		   err, (unsigned long long)(sl.end_us - sl.start_us), d);
	EXPECT_EQ(-EBUSY, err) TH_LOG("suspend with an unread event returned %d, expected -EBUSY",
				     err);
	EXPECT_EQ(sl.before.failed_suspend + 1, sl.after.failed_suspend);
	EXPECT_STREQ(name, sl.after.last_failed_dev)
		TH_LOG("last_failed_dev '%s', expected %s",
		       sl.after.last_failed_dev, name);
	EXPECT_EQ(-EBUSY, sl.after.last_failed_errno);
	/* Read it: the next suspend goes through (woken by a hard event). */
	n = devpm_mock_cycle_skip(&self->m, DEVPM_MOCK_CYCLE_RECORD_MS);
	EXPECT_EQ(1, n) TH_LOG("%d records, expected the one fired", n);
	/* Each device's callback times in the log: what a cycle costs. */
	devpm_knob_write("/sys/power/pm_print_times", "1");
	ASSERT_EQ(0, devpm_mock_cycle_cycle(&self->m, &s, &r)) TH_LOG("%s", devpm_error());
	EXPECT_EQ(0, r.err) TH_LOG("suspend after the record was read: %d (%s)",
				   r.err, r.stats);
	EXPECT_NE(DEVPM_WAKE_ABORTED, r.o);
	EXPECT_EQ(0, r.lost);
}

/* The sources' counters, by name, and the difference as text. */
static void ws_snap(struct __test_metadata *_metadata,
		    struct devpm_wakeup_source **ws, size_t *n)
{
	ASSERT_EQ(0, devpm_wakeup_sources_read(ws, n))
		TH_LOG("%s", devpm_error());
}

static long ws_events(const struct devpm_wakeup_source *ws, size_t n,
		      const char *name)
{
	const struct devpm_wakeup_source *w =
		devpm_wakeup_source_find(ws, n, name);

	return w ? (long)w->event_count : -1;
}

static long ws_active(const struct devpm_wakeup_source *ws, size_t n,
		      const char *name)
{
	const struct devpm_wakeup_source *w =
		devpm_wakeup_source_find(ws, n, name);

	return w ? (long)w->active_count : -1;
}

TEST_F_TIMEOUT(events, wakeup_stats_name_the_source, 60)
{
	struct epoll_event ee = { .events = EPOLLIN | EPOLLET | EPOLLWAKEUP };
	struct devpm_wakeup_source *a = NULL, *b = NULL, *c = NULL;
	struct devpm_mock_cycle_shot wake = { .point = "suspend_noirq", .off_us = 0,
				.kind = DEVPM_MOCK_HARD, .how = DEVPM_HOW_SELF,
				.level = "platform" };
	struct devpm_mock_cycle_shot block = { .point = "suspend", .off_us = 0,
				 .kind = DEVPM_MOCK_SOFT, .handshake = true,
				 .how = DEVPM_HOW_SELF, .level = "devices" };
	const char *mock = self->m.ws_name;
	char d[512];
	size_t na, nb, nc;
	struct devpm_mock_cycle_res r;
	uint64_t one = 1;
	int ep, efd, i, fires = 3, polls = 2;

	ep = epoll_create1(EPOLL_CLOEXEC);
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	ASSERT_LE(0, ep);
	ASSERT_LE(0, efd);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ee));
	ws_snap(_metadata, &a, &na);
	/* Known numbers of events from two sources. */
	for (i = 0; i < fires; i++)
		ASSERT_EQ(0, devpm_mock_wakeup_fire(MOCK_ID, DEVPM_MOCK_SOFT));
	for (i = 0; i < polls; i++) {
		struct epoll_event got;
		uint64_t v;

		ASSERT_EQ(sizeof(one), (size_t)write(efd, &one, sizeof(one)));
		ASSERT_EQ(1, epoll_wait(ep, &got, 1, 1000));
		ASSERT_EQ(sizeof(v), (size_t)read(efd, &v, sizeof(v)));
	}
	ws_snap(_metadata, &b, &nb);
	devpm_wakeup_sources_diff(a, na, b, nb, d, sizeof(d));
	devpm_note("after %d fires of %s and %d EPOLLWAKEUP events: %s",
		   fires, mock, polls, d);
	EXPECT_EQ(ws_events(a, na, mock) + fires, ws_events(b, nb, mock));
	EXPECT_EQ(ws_active(a, na, mock) + fires, ws_active(b, nb, mock));
	EXPECT_EQ(ws_events(a, na, "[eventfd]") < 0 ? polls :
		  ws_events(a, na, "[eventfd]") + polls,
		  ws_events(b, nb, "[eventfd]"))
		TH_LOG("the EPOLLWAKEUP item's source ([eventfd]) did not count %d events",
		       polls);
	EXPECT_EQ(fires, devpm_mock_cycle_skip(&self->m, DEVPM_MOCK_CYCLE_RECORD_MS));
	/* What woke the system: the mock's hard event, no IRQ. */
	ASSERT_EQ(0, devpm_mock_cycle_cycle(&self->m, &wake, &r)) TH_LOG("%s",
							   devpm_error());
	ws_snap(_metadata, &c, &nc);
	devpm_wakeup_sources_diff(b, nb, c, nc, d, sizeof(d));
	devpm_note("woken by: %s; pm_wakeup_irq %s%ld",
		   d[0] ? d : "no source counted an event",
		   r.wake_irq < 0 ? "none " : "", r.wake_irq);
	EXPECT_EQ(DEVPM_WAKE_WOKE, r.o)
		TH_LOG("outcome %s, expected woke by %s",
		       devpm_wake_outcome_name(r.o), mock);
	EXPECT_EQ(ws_events(b, nb, mock) + 1, ws_events(c, nc, mock));
	EXPECT_NE(NULL, strstr(d, mock)) TH_LOG("'%s' does not name %s", d,
					       mock);
	free(a);
	a = c;
	na = nc;
	c = NULL;
	/* What blocked an aborted suspend: the mock's soft event. */
	ASSERT_EQ(0, devpm_mock_cycle_cycle(&self->m, &block, &r)) TH_LOG("%s",
							    devpm_error());
	ws_snap(_metadata, &c, &nc);
	devpm_wakeup_sources_diff(a, na, c, nc, d, sizeof(d));
	devpm_note("suspend blocked by: %s; suspend_stats %s",
		   d[0] ? d : "no source counted an event", r.stats);
	EXPECT_EQ(DEVPM_WAKE_ABORTED, r.o);
	EXPECT_EQ(ws_events(a, na, mock) + 1, ws_events(c, nc, mock));
	EXPECT_NE(NULL, strstr(d, mock)) TH_LOG("'%s' does not name %s", d,
					       mock);
	free(a);
	free(b);
	free(c);
	close(efd);
	close(ep);
}

DEVPM_TEST_MAIN(info)
