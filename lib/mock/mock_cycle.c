// SPDX-License-Identifier: GPL-2.0-only
/*
 * mock_cycle.c - one suspend cycle with one devpm_mock wakeup event
 * (mock_cycle.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mock/mock_cycle.h"
#include "core/note.h"
#include "core/sysfs.h"
#include "mock/mock.h"
#include "sleep/system_sleep.h"
#include "sleep/wake_account.h"
#include "sleep/wake_env.h"
#include "sleep/wakeup_source.h"
#include "trace/trace.h"

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

const char *devpm_mock_cycle_kind_name(enum devpm_mock_wake k)
{
	return k == DEVPM_MOCK_HARD ? "hard" : "soft";
}

int devpm_mock_cycle_open(struct devpm_mock_cycle *m, int id, struct devpm_wake_env *env,
		  char *why, size_t len)
{
	struct devpm_wakeup_source *ws = NULL;
	const struct devpm_wakeup_source *w;
	size_t n;
	int r;

	memset(m, 0, sizeof(*m));
	m->id = id;
	m->qfd = -1;
	m->env = env;
	m->serial_irq = env->agent ? devpm_serial_irq() : -1;
	r = devpm_mock_load(false, why, len);
	if (r)
		return r;
	r = devpm_mock_create(id, NULL);
	if (r == -EEXIST) {
		/* Left by a case the harness killed: start afresh. */
		devpm_mock_delete(id);
		r = devpm_mock_create(id, NULL);
	}
	if (r)
		return devpm_fail(r, "devpm_mock_create(%d): %s", id,
				  devpm_error());
	m->qfd = devpm_mock_events_open(id);
	if (m->qfd < 0)
		return devpm_fail(m->qfd, "event queue of devpm_mock.%d: %s",
				  id, devpm_error());
	snprintf(m->ws_name, sizeof(m->ws_name), "devpm_mock.%d", id);
	r = devpm_wakeup_sources_read(&ws, &n);
	if (r)
		return devpm_fail(r, "/sys/class/wakeup: %s", devpm_error());
	w = devpm_wakeup_source_find(ws, n, m->ws_name);
	if (w)
		snprintf(m->ws_count, sizeof(m->ws_count),
			 "/sys/class/wakeup/%s/event_count", w->id);
	free(ws);
	if (!w)
		return devpm_fail(-ENOENT, "no wakeup source %s: the mock device is not wakeup-enabled",
				  m->ws_name);
	/* Phases from the trace; without tracefs the point names them. */
	m->t = devpm_trace_start((const char *const[]){ m->ws_name, NULL });
	if (m->t && (devpm_trace_add_event(m->t, "power:suspend_resume", NULL) ||
		     devpm_trace_add_event(m->t, "printk:console", NULL))) {
		devpm_trace_stop(m->t);
		m->t = NULL;
	}
	return 0;
}

void devpm_mock_cycle_close(struct devpm_mock_cycle *m)
{
	devpm_trace_stop(m->t);
	m->t = NULL;
	if (m->qfd >= 0)
		close(m->qfd);
	m->qfd = -1;
}

long devpm_mock_cycle_event_count(const struct devpm_mock_cycle *m)
{
	long v = -1;

	devpm_read_long(m->ws_count, &v);
	return v;
}

int devpm_mock_cycle_drain(struct devpm_mock_cycle *m, struct devpm_mock_event *ev,
		   int max, int ms)
{
	struct pollfd p = { .fd = m->qfd, .events = POLLIN };
	int n = 0, k;

	if (ms > 0)
		poll(&p, 1, ms);
	while (n < max) {
		k = devpm_mock_events_read(m->qfd, ev + n, max - n);
		if (k <= 0)
			break;
		n += k;
	}
	return n;
}

int devpm_mock_cycle_skip(struct devpm_mock_cycle *m, int ms)
{
	struct devpm_mock_event ev[DEVPM_MOCK_CYCLE_MAX_EVENTS];
	int n = devpm_mock_cycle_drain(m, ev, DEVPM_MOCK_CYCLE_MAX_EVENTS, ms), i;

	for (i = 0; i < n; i++)
		if (ev[i].seq > m->tally.last_seq)
			m->tally.last_seq = ev[i].seq;
	return n;
}

/*
 * The phase of the suspend sequence at mono_us, from the trace: the
 * power:suspend_resume brackets, split by the freezer's own lines
 * (printk:console; kernel/power/process.c prints "Freezing user space
 * processes" after pm_wakeup_clear(0), so freeze_start is the window in
 * which a pm_system_wakeup() is still forgotten).
 */
static void phase_at(struct devpm_mock_cycle *m, uint64_t mono_us, char *buf,
		     size_t len)
{
	static const struct { const char *key, *phase; } map[] = {
		{ "freeze_processes begin", "freeze_start" },
		{ "Freezing user space processes completed", "user_frozen" },
		{ "Freezing user space processes", "freezing_user" },
		{ "Freezing remaining freezable tasks completed", "frozen" },
		{ "Freezing remaining freezable tasks", "freezing_kthreads" },
		{ "freeze_processes end", "frozen" },
		{ "dpm_prepare begin", "prepare" },
		{ "dpm_suspend begin", "suspend" },
		{ "dpm_suspend_late begin", "suspend_late" },
		{ "dpm_suspend_noirq begin", "suspend_noirq" },
		{ "machine_suspend begin", "s2idle" },
		{ "dpm_resume_noirq begin", "resume" },
		{ "thaw_processes begin", "resume" },
	};
	const struct devpm_event *e;
	const char *ph = "before_freeze";
	size_t n, i, k;

	snprintf(buf, len, "?");
	if (!m->t)
		return;
	e = devpm_trace_read(m->t, 0, &n);
	for (i = 0; i < n && e[i].ts_us <= mono_us; i++) {
		char key[128], act[64], be[8];
		unsigned int v;

		if (!strcmp(e[i].event, "suspend_resume") &&
		    sscanf(e[i].raw, "%63[^[][%u] %7s", act, &v, be) == 3)
			snprintf(key, sizeof(key), "%s %s", act, be);
		else if (!strcmp(e[i].event, "console"))
			snprintf(key, sizeof(key), "%s", e[i].raw);
		else
			continue;
		for (k = 0; k < sizeof(map) / sizeof(map[0]); k++) {
			if (!strncmp(key, map[k].key, strlen(map[k].key))) {
				ph = map[k].phase;
				break;
			}
		}
	}
	snprintf(buf, len, "%s", ph);
}

int devpm_mock_cycle_cycle(struct devpm_mock_cycle *m, const struct devpm_mock_cycle_shot *s,
		   struct devpm_mock_cycle_res *r)
{
	struct devpm_mock_event ev[DEVPM_MOCK_CYCLE_MAX_EVENTS];
	uint64_t seqs[DEVPM_MOCK_CYCLE_MAX_EVENTS], boot_mono;
	char label[96], armed[8];
	struct devpm_sleep sl = { 0 };
	long c0, c1;
	int n, i, e;

	memset(r, 0, sizeof(*r));
	r->lat_us = -1;
	snprintf(label, sizeof(label), "%s+%ld %s%s", s->point, s->off_us,
		 devpm_mock_cycle_kind_name(s->kind), s->handshake ? " after handshake" : "");
	/* Nothing left from before. */
	devpm_mock_cycle_skip(m, 0);
	if (m->t) {
		devpm_trace_poll(m->t, 0);
		devpm_trace_clear(m->t);
	}
	c0 = devpm_mock_cycle_event_count(m);
	e = devpm_mock_wakeup_arm(m->id, s->point, s->off_us, s->kind);
	if (e)
		return devpm_fail(e, "wakeup_arm %s: %s", label, devpm_error());
	m->env->handshake = s->handshake;
	boot_mono = clock_ns(CLOCK_BOOTTIME) - clock_ns(CLOCK_MONOTONIC);
	e = devpm_wake_cycle(m->env, s->how, s->level, label, &sl);
	m->env->handshake = false;
	if (e && e != -EBUSY && !sl.end_us) {
		devpm_mock_wakeup_disarm(m->id);
		return e;
	}
	r->err = e;
	r->wake_irq = sl.wake_irq;
	r->cycle_us = sl.end_us - sl.start_us;
	devpm_suspend_stats_diff(&sl.before, &sl.after, r->stats,
				 sizeof(r->stats));
	/* Disarm what did not fire; one that fires meanwhile is seen. */
	r->fired = !devpm_mock_get(m->id, "wakeup_armed", armed,
				   sizeof(armed)) && armed[0] == '0';
	if (!r->fired)
		devpm_mock_wakeup_disarm(m->id);
	n = devpm_mock_cycle_drain(m, ev, DEVPM_MOCK_CYCLE_MAX_EVENTS, r->fired ? DEVPM_MOCK_CYCLE_RECORD_MS : 0);
	r->fired |= n > 0;
	for (i = 0; i < n; i++)
		seqs[i] = ev[i].seq;
	if (n > 0) {
		r->lat_us = ((long long)clock_ns(CLOCK_BOOTTIME) -
			     (long long)ev[0].t_ns) / 1000;
		/*
		 * The mock's mono stamp is the trace clock itself; BOOTTIME
		 * less the offset before the cycle is off by any sleep time
		 * the cycle added (an older module has no mono stamp).
		 */
		phase_at(m, (ev[0].mono_ns ? ev[0].mono_ns :
			     ev[0].t_ns - boot_mono) / 1000, r->phase,
			 sizeof(r->phase));
	} else {
		snprintf(r->phase, sizeof(r->phase), "%s",
			 r->fired ? "no record" : "not fired");
	}
	c1 = devpm_mock_cycle_event_count(m);
	r->o = devpm_wake_outcome_of(&sl, s->how == DEVPM_HOW_PM_TEST,
				     m->serial_irq);
	snprintf(r->blocker, sizeof(r->blocker), "%s(+%ld)", m->ws_name,
		 c1 - c0);
	r->lost = devpm_wake_tally_cycle(&m->tally, label, r->fired ? 1 : 0,
					 seqs, n, c1 >= c0 ? c1 - c0 : 0,
					 r->o);
	devpm_note("%s: %s in %llu us; event landed in %s, read %lld us after it; PM core saw %s; lost %lu; suspend_stats %s; pm_wakeup_irq %ld",
		   label, devpm_wake_outcome_name(r->o),
		   (unsigned long long)r->cycle_us, r->phase, r->lat_us,
		   r->blocker, r->lost, r->stats[0] ? r->stats : "unchanged",
		   r->wake_irq);
	return 0;
}
