// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep_verdict.c - system-sleep callback errors of the machine's devices,
 * judged once (sleep_verdict.h).
 *
 * What the kernel promises (drivers/base/power/main.c): a device's
 * suspend-side callback that returns an error stops the transition
 * (dpm_suspend() & co: async_error, "PM: Device %s failed to suspend"),
 * and suspend_devices_and_enter() (kernel/power/suspend.c) resumes what
 * was suspended: the whole system's sleep is refused by one device.  A
 * resume-side error is counted (suspend_stats.failed_resume*,
 * dpm_save_failed_dev()) and logged, but dpm_resume() goes on: the
 * system wakes with that device not resumed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/sleep_verdict.h"
#include "core/note.h"
#include "judge/baseline.h"
#include "judge/run_record.h"
#include "judge/verdict.h"
#include "trace/sleep_fault.h"

#define MAX_EXPECTED	8

static bool owner;
static char expected[MAX_EXPECTED][128];
static size_t nexpected;
static char blame[900];

void devpm_sleep_verdict_case_begin(void)
{
	owner = false;
	nexpected = 0;
	blame[0] = '\0';
}

void devpm_sleep_verdict_own(void)
{
	owner = true;
}

bool devpm_sleep_verdict_owner(void)
{
	return owner;
}

void devpm_sleep_expect_fault(const char *dev)
{
	if (nexpected < MAX_EXPECTED)
		snprintf(expected[nexpected++], sizeof(expected[0]), "%s",
			 dev);
}

static bool is_expected(const char *dev)
{
	size_t i;

	for (i = 0; i < nexpected; i++)
		if (!strcmp(expected[i], dev))
			return true;
	return false;
}

void devpm_sleep_blame_set(const char *fmt, ...)
{
	va_list ap;

	if (blame[0])
		return;
	va_start(ap, fmt);
	vsnprintf(blame, sizeof(blame), fmt, ap);
	va_end(ap);
	devpm_note("%s", blame);
}

const char *devpm_sleep_blame(void)
{
	return blame;
}

void devpm_sleep_blame_short(char *buf, size_t len)
{
	const char *colon = strstr(blame, ": ");

	snprintf(buf, len, "not judged: %.*s (the case says more)",
		 colon ? (int)(colon - blame) : (int)strlen(blame), blame);
}

void devpm_sleep_verdict_mark(struct devpm_sleep_mark *m)
{
	const struct devpm_sleep_faults *f = devpm_verdict_sleep_faults();

	m->at = f->n;
	m->dropped = f->dropped;
}

void devpm_sleep_culprit_set(struct devpm_sleep_culprit *c, const char *dev,
			     const char *driver, enum devpm_pm_phase phase,
			     int err)
{
	char eb[48];
	bool suspend = phase < DEVPM_PH_NR && devpm_pm_phase_is_suspend(phase);

	memset(c, 0, sizeof(*c));
	snprintf(c->dev, sizeof(c->dev), "%s", dev);
	snprintf(c->driver, sizeof(c->driver), "%s", driver);
	c->phase = phase;
	c->err = err;
	snprintf(c->why, sizeof(c->why), "%s (%s): %s returned %s: %s",
		 c->dev, c->driver[0] ? c->driver : "no driver",
		 phase < DEVPM_PH_NR ? devpm_pm_phase_name(phase) :
		 "a callback", devpm_verdict_errno(err, eb, sizeof(eb)),
		 phase >= DEVPM_PH_NR ? "system sleep failed" :
		 suspend ? "system sleep refused" :
		 "not resumed with the system");
}

/* A device of the machine (the baseline's) not excused by the case. */
static const struct devpm_base_dev *machine_dev(const char *dev)
{
	const struct devpm_baseline *b = devpm_baseline();
	const struct devpm_base_dev *base;

	if (!b || is_expected(dev))
		return NULL;
	base = devpm_baseline_find(b, dev);
	return base && !is_expected(base->path) ? base : NULL;
}

static bool have(const struct devpm_sleep_culprit *v, size_t n,
		 const char *dev)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].dev, dev))
			return true;
	return false;
}

/* suspend_stats' step name ("suspend_noirq") as a phase. */
static enum devpm_pm_phase step_phase(const char *step)
{
	int ph = devpm_pm_phase_parse(step);

	return ph < 0 ? DEVPM_PH_NR : (enum devpm_pm_phase)ph;
}

static void record(const struct devpm_sleep_culprit *c)
{
	char err[16];
	const char *f[4] = { c->dev, c->driver, err, NULL };

	if (devpm_run_record_find("fault", c->dev, NULL, 0))
		return;
	snprintf(err, sizeof(err), "%d", c->err);
	f[3] = err;
	f[2] = c->phase < DEVPM_PH_NR ? devpm_pm_phase_name(c->phase) : "-";
	devpm_run_record("fault", f, 4);
}

/*
 * Outside the judging case: a refusal blames; so does a resume error in a
 * cycle that failed anyway (the rollback's dpm_save_failed_dev() then
 * names the machine's device where the case looks for its own); in a
 * cycle that went through, a resume error is noted.
 */
static void outside(const struct devpm_sleep_culprit *c, int ret)
{
	bool suspend = c->phase >= DEVPM_PH_NR ||
		       devpm_pm_phase_is_suspend(c->phase);

	if (ret) {
		devpm_sleep_blame_set("system sleep %s by %s; judged in %s",
				      suspend ? "refused" :
				      "rolled back with an error",
				      c->why, DEVPM_SLEEP_JUDGE);
		return;
	}
	devpm_note("%s in this cycle; judged in %s", c->why,
		   DEVPM_SLEEP_JUDGE);
}

int devpm_sleep_verdict_cycle(const struct devpm_sleep_mark *m, int ret,
			      const struct devpm_sleep_counted *counted,
			      struct devpm_sleep_culprit *v, size_t max)
{
	const struct devpm_sleep_faults *f = devpm_verdict_sleep_faults();
	struct devpm_sleep_culprit all[DEVPM_SLEEP_FAULTS_MAX];
	const struct devpm_base_dev *base;
	size_t i, n = 0;

	for (i = m->at; i < f->n && n < DEVPM_SLEEP_FAULTS_MAX; i++) {
		if (have(all, n, f->v[i].dev) || !machine_dev(f->v[i].dev))
			continue;
		devpm_sleep_culprit_set(&all[n++], f->v[i].dev, f->v[i].driver,
					f->v[i].phase, f->v[i].err);
	}
	/*
	 * The kernel's own record names the device when the trace does not
	 * (no tracefs, events lost): dpm_save_failed_dev().
	 */
	base = counted && counted->failed && counted->dev[0] ?
	       machine_dev(counted->dev) : NULL;
	if (base && !have(all, n, base->name) && n < DEVPM_SLEEP_FAULTS_MAX) {
		devpm_sleep_culprit_set(&all[n++], base->name, base->driver,
					step_phase(counted->step),
					(int)counted->err);
	}
	for (i = 0; i < n; i++) {
		record(&all[i]);
		if (!owner)
			outside(&all[i], ret);
		if (v && i < max)
			v[i] = all[i];
	}
	return n;
}

int devpm_sleep_verdict_replay(const struct devpm_sleep_cycle *c, int ret)
{
	struct devpm_sleep_culprit k;
	size_t i;
	int n = 0;

	for (i = 0; i < c->ncb; i++) {
		const struct devpm_pm_cb *cb = &c->cb[i];

		if (cb->err >= 0 || !machine_dev(cb->dev))
			continue;
		devpm_sleep_culprit_set(&k, cb->dev, cb->driver, cb->phase,
					cb->err);
		if (!owner)
			outside(&k, ret);
		n++;
	}
	return n;
}

struct unjudged {
	void (*fn)(void *arg, const char *dev, const char *why);
	void *arg;
	char done[32][128];
	int ndone, n;
};

/* Once per device: whether dev was reported already. */
static bool done(struct unjudged *u, const char *dev)
{
	int i;

	for (i = 0; i < u->ndone; i++)
		if (!strcmp(u->done[i], dev))
			return true;
	if (u->ndone < 32)
		snprintf(u->done[u->ndone++], sizeof(u->done[0]), "%s", dev);
	return false;
}

static int unjudged_one(void *arg, char **f, int n)
{
	struct unjudged *u = arg;
	struct devpm_sleep_culprit c;
	char why[640];
	const char *dev;

	if (!strcmp(f[0], "fault") && n == 6) {
		devpm_sleep_culprit_set(&c, f[1], strcmp(f[2], "-") ? f[2] : "",
					step_phase(f[3]), atoi(f[4]));
		snprintf(why, sizeof(why), "%s, in a cycle of %s; no case judged it (%s did not run or did not see it)",
			 c.why, f[5], DEVPM_SLEEP_JUDGE);
		dev = f[1];
	} else if (!strcmp(f[0], "held") && n == 6) {
		snprintf(why, sizeof(why), "%s (%s): wakeup source %s held active %s ms with no event, in a cycle of %s; no case judged it",
			 f[2], strcmp(f[3], "-") ? f[3] : "no driver", f[1],
			 f[4], f[5]);
		dev = f[2];
	} else {
		return 0;
	}
	if (devpm_run_record_find("judged", dev, NULL, 0) || done(u, dev))
		return 0;
	u->fn(u->arg, dev, why);
	u->n++;
	return 0;
}

int devpm_sleep_verdict_unjudged(void (*fn)(void *arg, const char *dev,
					    const char *why),
				 void *arg)
{
	struct unjudged u = { fn, arg, { { 0 } }, 0, 0 };

	devpm_run_records(unjudged_one, &u);
	return u.n;
}
