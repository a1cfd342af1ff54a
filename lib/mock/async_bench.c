// SPDX-License-Identifier: GPL-2.0-only
/*
 * async_bench.c - a bench of mock devices and its two shared system-sleep
 * cycles (async_bench.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mock/async_bench.h"
#include "core/note.h"
#include "core/sysfs.h"
#include "mock/mock.h"
#include "sleep/pm_test_cycle.h"
#include "sleep/sleep_cycle_cache.h"
#include "sleep/system_sleep.h"
#include "state/journal.h"
#include "trace/sleep_trace.h"
#include "trace/trace.h"

/* Create the bench; 0, 1 (skip: why), -1 (error: why). */
static int bench_create(const struct devpm_async_bench *bench, char *why,
			size_t len)
{
	char p[DEVPM_PATH_MAX], k[DEVPM_PATH_MAX + 16];
	int id, r;

	r = devpm_mock_load(false, why, len);
	if (r)
		return r > 0 ? 1 : -1;
	for (id = 0; id < bench->n; id++) {
		const struct devpm_async_bench_dev *b = &bench->dev[id];
		struct devpm_mock_opts o = {
			.parent = b->parent, .async = b->async,
		};

		r = devpm_mock_create(id, &o);
		if (!r)
			r = devpm_mock_set_cb(id, DEVPM_MOCK_SUSPEND, b->us, 0);
		if (!r)
			r = devpm_mock_set_cb(id, DEVPM_MOCK_RESUME, b->us, 0);
		if (!r && b->budget_us) {
			snprintf(k, sizeof(k), "%ld", b->budget_us);
			r = devpm_mock_set(id, "resume_budget_us", k);
		}
		if (!r && b->async_off) {
			r = devpm_mock_path(id, p, sizeof(p));
			if (!r)
				r = devpm_knob_writef("disabled",
						      "%s/power/async", p);
		}
		if (r) {
			snprintf(why, len, "%s: %s", devpm_mock_name(id), devpm_error());
			return -1;
		}
	}
	/*
	 * Consumer first in the list: device_link_add() moves it behind
	 * its supplier (device_reorder_to_tail()).
	 */
	if (bench->link_consumer >= 0 &&
	    devpm_mock_link_add(bench->link_consumer, bench->link_supplier,
				false)) {
		snprintf(why, len, "link %s -> %s: %s",
			 devpm_mock_name(bench->link_consumer),
			 devpm_mock_name(bench->link_supplier), devpm_error());
		return -1;
	}
	return 0;
}

/* One bench cycle at level with pm_async, its meta in m. */
static int bench_cycle(struct devpm_trace *t, const char *level,
		       const char *pm_async, const char *cycle,
		       struct devpm_sleep_cycle *c, struct devpm_sleep_cycle_meta *m,
		       char *why, size_t len)
{
	int r;

	if (devpm_knob_write("/sys/power/pm_async", pm_async)) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	if (devpm_pm_test_cycle(t, level, "freeze", cycle, c, m, &r, why, len))
		return -1;
	if (m->ret || r) {
		snprintf(why, len, "pm_test=%s cycle with pm_async=%s: %s",
			 level, pm_async,
			 m->ret ? strerror(-m->ret) : devpm_error());
		return -1;
	}
	devpm_note("%s: pm_test=%s, pm_async=%s, cycle %llu ms, %zu callbacks of mock devices",
		   cycle, level, pm_async, m->wall_us / 1000, c->ncb);
	return 0;
}

/*
 * Callbacks of the bench devices the cycle judges (sync_only: those of
 * the pm_async=0 cycle) that took longer than their delay allows: the
 * number, the first in why.  Shorter is never counted here.
 */
static int bench_too_long(const struct devpm_async_bench *bench,
			  const struct devpm_sleep_cycle *c, bool sync_only,
			  char *why, size_t len)
{
	const struct devpm_pm_cb *cb;
	char w[256];
	int id, ph, bad = 0;

	for (id = 0; id < bench->n; id++) {
		if (sync_only && !bench->dev[id].sync_judged)
			continue;
		for (ph = 0; ph < 2; ph++) {
			enum devpm_pm_phase p = ph ? DEVPM_PH_RESUME :
						DEVPM_PH_SUSPEND;

			cb = devpm_sleep_cb(c, p, devpm_mock_name(id));
			if (!cb || devpm_sleep_check_delay(devpm_pm_cb_own_us(cb),
							   bench->dev[id].us, w,
							   sizeof(w)) != 2)
				continue;
			if (!bad++)
				snprintf(why, len, "%s %s: %s", devpm_mock_name(id),
					 devpm_pm_phase_name(p), w);
		}
	}
	return bad;
}

/*
 * bench_cycle(), and once more when a judged callback took longer than
 * its delay allows: under TCG on a shared host a descheduled vCPU
 * lengthens one callback of one cycle (devpm_mock.8's 5 ms resume took
 * 12.9 ms once).  The cycle the cases judge, the second if one was made,
 * is saved under key: a callback that is slow every time still fails
 * them; a short one is never retaken.
 */
static int bench_cycle_judged(const struct devpm_async_bench *bench,
			      struct devpm_trace *t, const char *level,
			      const char *pm_async, const char *cycle,
			      const char *key, struct devpm_sleep_cycle *c,
			      char *why, size_t len)
{
	struct devpm_sleep_cycle_meta m;
	char name[128], w[512];
	int n;

	if (bench_cycle(t, level, pm_async, cycle, c, &m, why, len))
		return -1;
	n = bench_too_long(bench, c, !strcmp(pm_async, "0"), w, sizeof(w));
	if (n) {
		devpm_note("%s: %d callback(s) longer than the delay allows, first %s: the cases judge one more cycle",
			   cycle, n, w);
		devpm_sleep_cycle_free(c);
		snprintf(name, sizeof(name), "%s.again", cycle);
		if (bench_cycle(t, level, pm_async, name, c, &m, why, len))
			return -1;
	}
	devpm_sleep_cycle_cache_save(key, c, &m);
	return 0;
}

/*
 * The bench devices' callbacks without delay, but for those the cycle
 * to come judges (keep_sync: the devices marked sync_judged, all the
 * pm_async=0 cycle checks); their delays would only lengthen it.  0,
 * or -1 with why.
 */
static int bench_quiet(const struct devpm_async_bench *bench, bool keep_sync,
		       char *why, size_t len)
{
	int id;

	for (id = 0; id < bench->n; id++) {
		if (keep_sync && bench->dev[id].sync_judged)
			continue;
		if (devpm_mock_set_cb(id, DEVPM_MOCK_SUSPEND, 0, 0) ||
		    devpm_mock_set_cb(id, DEVPM_MOCK_RESUME, 0, 0)) {
			snprintf(why, len, "%s: %s", devpm_mock_name(id), devpm_error());
			return -1;
		}
	}
	return 0;
}

/*
 * With the bench's own devices only (the environment's slow devices set
 * aside, the bench without delays, pm_async as it was) the cycles of the
 * other pm_test levels, saved for pm_test_levels: core and processors
 * suspend every device, and with QEMU's USB chain each would take ~1.7 s
 * more.  A level whose cycle is not made here is left to pm_test_levels.
 */
static void window_levels(struct devpm_trace *t, const char *casename)
{
	struct devpm_pm_level lv[12];
	struct devpm_sleep_cycle c;
	struct devpm_sleep_cycle_meta m;
	char name[96], key[32], why[512];
	const char *state, *lvl;
	int i, n, r;

	n = devpm_pm_test_levels(lv, 12, NULL);
	for (i = 0; i < n; i++) {
		lvl = lv[i].name;
		/* none: a real sleep; platform, devices: the bench's. */
		if (!strcmp(lvl, "none") || !strcmp(lvl, "platform") ||
		    !strcmp(lvl, "devices"))
			continue;
		state = devpm_pm_test_state(lvl, why, sizeof(why));
		snprintf(name, sizeof(name), "%s.%s", casename, lvl);
		memset(&c, 0, sizeof(c));
		if (!state || devpm_pm_test_cycle(t, lvl, state, name, &c, &m, &r, why,
					sizeof(why))) {
			devpm_note("pm_test=%s left to pm_test_levels: %s", lvl,
				   why);
			continue;
		}
		devpm_note("%s: pm_test=%s with state %s for pm_test_levels: returned %s after %llu ms",
			   name, lvl, state, m.ret ? strerror(-m.ret) : "0",
			   m.wall_us / 1000);
		snprintf(key, sizeof(key), "level-%s", lvl);
		if (!r || r == -ENOENT)
			devpm_sleep_cycle_cache_save(key, &c, &m);
		devpm_sleep_cycle_free(&c);
	}
}

int devpm_async_bench_load(struct devpm_sleep_cycle *on,
			   struct devpm_sleep_cycle *off)
{
	if (!devpm_sleep_cycle_cache_load("on", on, NULL) &&
	    !devpm_sleep_cycle_cache_load("off", off, NULL))
		return 0;
	devpm_sleep_cycle_free(on);
	devpm_sleep_cycle_free(off);
	return -ENOENT;
}

int devpm_async_bench_usable(char *why, size_t len)
{
	if (!devpm_exists("/sys/power/pm_test")) {
		snprintf(why, len, "no /sys/power/pm_test (CONFIG_PM_DEBUG is off)");
		return 1;
	}
	if (!devpm_power_has("/sys/power/state", "freeze")) {
		snprintf(why, len, "no s2idle: /sys/power/state has no 'freeze'");
		return 1;
	}
	return 0;
}

int devpm_async_bench_cycles(const struct devpm_async_bench *bench,
			     const char *casename, bool levels,
			     struct devpm_trace **t,
			     struct devpm_sleep_cycle *on,
			     struct devpm_sleep_cycle *off, char *why,
			     size_t len)
{
	char cyc[96], pm_async[8];
	int r;

	if (devpm_read_str("/sys/power/pm_async", pm_async,
			   sizeof(pm_async))) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	r = bench_create(bench, why, len);
	if (r)
		return r;
	*t = devpm_sleep_trace_start_glob(bench->glob);
	if (!*t) {
		snprintf(why, len, "needs the power trace events: %s",
			 devpm_error());
		return 1;
	}
	/* What a callback's sleep was held by the platform (held_us). */
	if (devpm_sleep_trace_add_sched(*t))
		devpm_note("bench: no sched/timer trace events (%s): callbacks judged by their whole duration",
			   devpm_error());
	snprintf(cyc, sizeof(cyc), "%s.async", casename);
	if (bench_cycle_judged(bench, *t, "platform", "1", cyc, "on", on, why,
			       len))
		return -1;
	snprintf(cyc, sizeof(cyc), "%s.sync", casename);
	if (bench_quiet(bench, true, why, len) ||
	    bench_cycle_judged(bench, *t, "devices", "0", cyc, "off", off,
			       why, len))
		return -1;
	if (bench_quiet(bench, false, why, len))
		return -1;
	if (devpm_knob_write("/sys/power/pm_async", pm_async)) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	if (levels)
		window_levels(*t, casename);
	return 0;
}

int devpm_async_bench_bad_input(int id, char *why, size_t len)
{
	static const struct {
		long delay;		/* -1: set the budget to text */
		const char *text;
	} in[] = {
		{ -1000, NULL }, { 20000000, NULL },
		{ -1, "-5" }, { -1, "99999999999" },
	};
	size_t i;
	int r;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		if (in[i].text)
			r = devpm_mock_set(id, "resume_budget_us", in[i].text);
		else
			r = devpm_mock_set_cb(id, DEVPM_MOCK_RESUME,
					      in[i].delay, 0);
		if (!r || strchr(devpm_error(), '\n') || !devpm_error()[0]) {
			snprintf(why, len, "%s %ld%s%s: %s", in[i].text ?
				 "resume_budget_us" : "resume delay",
				 in[i].delay, in[i].text ? " text " : "",
				 in[i].text ? in[i].text : "",
				 r ? "refused without one clear line" :
				 "accepted");
			return 1;
		}
		devpm_note("refused as it should: %s", devpm_error());
	}
	return 0;
}
