// SPDX-License-Identifier: GPL-2.0-only
/*
 * system_sleep.c - system sleep from a test: entering a state, pm_test,
 * suspend_stats and the wakeup_count handshake (system_sleep.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "sleep/system_sleep.h"
#include "core/clock.h"
#include "core/safety.h"
#include "core/note.h"
#include "core/sysfs.h"
#include "judge/sleep_verdict.h"
#include "judge/verdict.h"
#include "sleep/wakeup_source.h"
#include "state/journal.h"
#include "trace/least_time.h"
#include "trace/sleep_trace.h"
#include "trace/trace.h"

#define POWER		"/sys/power"
#define STATS		"/sys/power/suspend_stats/"

struct stat_field {
	const char *name;
	size_t off;
};

/* The counters, then last_failed_errno: read, but no count to diff. */
#define F(x) { #x, offsetof(struct devpm_suspend_stats, x) }
static const struct stat_field fields[] = {
	F(success), F(fail), F(failed_freeze), F(failed_prepare),
	F(failed_suspend), F(failed_suspend_late), F(failed_suspend_noirq),
	F(failed_resume), F(failed_resume_early), F(failed_resume_noirq),
	F(last_failed_errno),
};
#undef F
#define NFIELDS		(sizeof(fields) / sizeof(fields[0]))
#define NCOUNTERS	(NFIELDS - 1)

static long field(const struct devpm_suspend_stats *s, size_t i)
{
	return *(const long *)((const char *)s + fields[i].off);
}

static int append(char *buf, size_t len, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int append(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *at)
		return devpm_fail(-ENAMETOOLONG, "suspend_stats diff too long");
	*at += n;
	return 0;
}

int devpm_suspend_stats_diff(const struct devpm_suspend_stats *a,
			     const struct devpm_suspend_stats *b,
			     char *buf, size_t len)
{
	size_t i, at = 0;
	int r = 0;

	if (!len)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	for (i = 0; i < NCOUNTERS && !r; i++) {
		long d = field(b, i) - field(a, i);

		if (d)
			r = append(buf, len, &at, "%s%s%+ld", at ? " " : "",
				   fields[i].name, d);
	}
	if (!r && b->fail != a->fail)
		r = append(buf, len, &at,
			   " last_failed_step=%s last_failed_errno=%ld",
			   b->last_failed_step[0] ? b->last_failed_step : "?",
			   b->last_failed_errno);
	if (!r && b->fail != a->fail && b->last_failed_dev[0])
		r = append(buf, len, &at, " last_failed_dev=%s",
			   b->last_failed_dev);
	if (r)
		buf[0] = '\0';
	return r;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* One read of path bounded by timeout_ms: bytes read, or -errno. */
static ssize_t read_bounded(const char *path, char *buf, size_t len,
			    int timeout_ms)
{
	struct itimerval it = { 0 }, old_it;
	struct sigaction sa = { 0 }, old_sa;
	ssize_t n;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* The kernel waits interruptibly: a timer signal bounds it. */
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old_sa);
	it.it_value.tv_sec = timeout_ms / 1000;
	it.it_value.tv_usec = (timeout_ms % 1000) * 1000;
	setitimer(ITIMER_REAL, &it, &old_it);
	n = read(fd, buf, len);
	e = errno;
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	sigaction(SIGALRM, &old_sa, NULL);
	close(fd);
	return n < 0 ? -e : n;
}

/*
 * A read still blocked after this long looks at the sources: one held
 * for good (wakeup_source.h) ends the wait at once, named.
 */
#define HELD_LOOK_MS	250

int devpm_wakeup_count_read(unsigned long *count, int timeout_ms)
{
	char path[DEVPM_PATH_MAX], buf[32], why[1024], *end;
	struct devpm_wakeup_source *ws;
	int first = timeout_ms > HELD_LOOK_MS ? HELD_LOOK_MS : timeout_ms;
	ssize_t n;
	size_t nws;

	if (devpm_real_path(path, sizeof(path), POWER "/wakeup_count") < 0)
		return -ENAMETOOLONG;
	/* A source this run found held: looked at before any wait. */
	if (devpm_wakeup_held_known() &&
	    devpm_wakeup_held_check(NULL, 0, why, sizeof(why)))
		return devpm_fail(-EBUSY, "%s: blocked by %s", path, why);
	n = read_bounded(path, buf, sizeof(buf) - 1, first);
	if (n == -EINTR && devpm_wakeup_held_check(NULL, 0, why, sizeof(why)))
		return devpm_fail(-EBUSY, "%s: blocked by %s", path, why);
	if (n == -EINTR && timeout_ms > first)
		n = read_bounded(path, buf, sizeof(buf) - 1,
				 timeout_ms - first);
	if (n == -EINTR) {
		why[0] = '\0';
		if (!devpm_wakeup_sources_read_active(&ws, &nws)) {
			devpm_wakeup_sources_active(ws, nws, why,
						    sizeof(why));
			free(ws);
		}
		return devpm_fail(-ETIMEDOUT, "%s: still blocked after %d ms: a wakeup event is in progress (active: %s)",
				  path, timeout_ms, why[0] ? why : "none");
	}
	if (n < 0)
		return devpm_fail((int)n, "%s: %s", path, strerror((int)-n));
	buf[n] = '\0';
	errno = 0;
	*count = strtoul(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return devpm_fail(-EINVAL, "%s: '%s' is not a count", path,
				  buf);
	return 0;
}

/*
 * The next cycle checks events: a source held active aborts it
 * (drivers/base/power/wakeup.c: pm_wakeup_pending(), only with
 * events_check_enabled, which a successful write sets and every suspend
 * attempt clears: kernel/power/suspend.c enter_state()).
 */
static bool events_checked;

int devpm_wakeup_count_write(unsigned long count)
{
	char v[32];
	int r;

	snprintf(v, sizeof(v), "%lu", count);
	r = devpm_write_str(POWER "/wakeup_count", v);
	events_checked = !r;
	return r;
}

int devpm_wakeup_handshake(unsigned long *count, int timeout_ms)
{
	int r = devpm_wakeup_count_read(count, timeout_ms);

	if (r)
		return r;
	r = devpm_wakeup_count_write(*count);
	if (r == -EINVAL)
		return devpm_fail(r, "wakeup_count %lu moved between read and write: a wakeup event came in between",
				  *count);
	return r;
}

int devpm_sleep_attempt(const char *state, struct devpm_sleep *r)
{
	int e;

	memset(r, 0, sizeof(*r));
	r->wake_irq = -1;
	if (!devpm_allow_sleep())
		return r->err = devpm_fail(-EPERM, "entering %s needs --allow-sleep",
					   state);
	devpm_suspend_stats_read(&r->before);
	r->start_us = devpm_now_us();
	e = devpm_sleep_enter(state);
	r->end_us = devpm_now_us();
	devpm_suspend_stats_read(&r->after);
	if (devpm_read_long(POWER "/pm_wakeup_irq", &r->wake_irq) < 0)
		r->wake_irq = -1;
	r->err = e;
	return e;
}

bool devpm_sleep_failed(const struct devpm_sleep *r)
{
	return r->err || r->after.fail != r->before.fail;
}

int devpm_suspend_stats_read(struct devpm_suspend_stats *s)
{
	char p[DEVPM_PATH_MAX];
	size_t i;
	int r;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < NFIELDS; i++) {
		snprintf(p, sizeof(p), STATS "%s", fields[i].name);
		r = devpm_read_long(p, (long *)((char *)s + fields[i].off));
		if (r)
			return r;
	}
	r = devpm_read_str(STATS "last_failed_dev", s->last_failed_dev,
			   sizeof(s->last_failed_dev));
	if (!r)
		r = devpm_read_str(STATS "last_failed_step",
				   s->last_failed_step,
				   sizeof(s->last_failed_step));
	return r;
}

long devpm_suspend_stats_failed(const struct devpm_suspend_stats *s,
				const char *step)
{
	if (!strcmp(step, "freeze"))
		return s->failed_freeze;
	if (!strcmp(step, "prepare"))
		return s->failed_prepare;
	if (!strcmp(step, "suspend"))
		return s->failed_suspend;
	if (!strcmp(step, "suspend_late"))
		return s->failed_suspend_late;
	if (!strcmp(step, "suspend_noirq"))
		return s->failed_suspend_noirq;
	if (!strcmp(step, "resume_noirq"))
		return s->failed_resume_noirq;
	if (!strcmp(step, "resume_early"))
		return s->failed_resume_early;
	if (!strcmp(step, "resume"))
		return s->failed_resume;
	return -1;
}

int devpm_pm_test_levels(struct devpm_pm_level *levels, size_t max,
			 int *current)
{
	char buf[256], *tok, *save = NULL;
	size_t n = 0, l;
	int r;

	r = devpm_read_str("/sys/power/pm_test", buf, sizeof(buf));
	if (r == -ENOENT)
		return devpm_fail(ENOENT, "no /sys/power/pm_test (CONFIG_PM_SLEEP_DEBUG: CONFIG_PM_DEBUG is off)");
	if (r)
		return r;
	if (current)
		*current = -1;
	for (tok = strtok_r(buf, " ", &save); tok && n < max;
	     tok = strtok_r(NULL, " ", &save)) {
		l = strlen(tok);
		if (tok[0] == '[' && l > 2 && tok[l - 1] == ']') {
			tok[l - 1] = '\0';
			tok++;
			if (current)
				*current = n;
		}
		snprintf(levels[n++].name, sizeof(levels[0].name), "%s", tok);
	}
	return n;
}

int devpm_pm_test_set(const char *level)
{
	int r;

	if (!devpm_exists("/sys/power/pm_test"))
		return devpm_fail(ENOENT, "no /sys/power/pm_test (CONFIG_PM_SLEEP_DEBUG: CONFIG_PM_DEBUG is off)");
	if (strcmp(level, "none")) {
		if (!devpm_exists(DEVPM_PM_TEST_DELAY))
			return devpm_fail(ENOENT, "no %s (CONFIG_PM_DEBUG is off)",
					  DEVPM_PM_TEST_DELAY);
		r = devpm_knob_write(DEVPM_PM_TEST_DELAY, "0");
		if (r)
			return r;
	}
	return devpm_knob_write("/sys/power/pm_test", level);
}

bool devpm_power_has(const char *kpath, const char *word)
{
	char buf[256], *tok, *save = NULL;
	size_t l;

	if (devpm_read_str(kpath, buf, sizeof(buf)))
		return false;
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		l = strlen(tok);
		if (tok[0] == '[' && l > 2 && tok[l - 1] == ']') {
			tok[l - 1] = '\0';
			tok++;
		}
		if (!strcmp(tok, word))
			return true;
	}
	return false;
}

/*
 * The counters of a device's failing callback: each moves together with
 * dpm_save_failed_dev() (drivers/base/power/main.c), so last_failed_dev
 * is this cycle's when one of them did.  fail alone moves for a refusal
 * no device made (a pm_test level s2idle refuses, a wakeup event), and
 * failed_prepare without the device (dpm_prepare() saves none in 6.1).
 */
static const char *const dev_steps[] = {
	"failed_suspend", "failed_suspend_late", "failed_suspend_noirq",
	"failed_resume_noirq", "failed_resume_early", "failed_resume",
};
#define NSTEPS	(sizeof(dev_steps) / sizeof(dev_steps[0]))

/* Their sum, -1 unreadable. */
static long stats_dev_fails(void)
{
	char p[96];
	long v, sum = 0;
	size_t i;

	for (i = 0; i < NSTEPS; i++) {
		snprintf(p, sizeof(p), STATS "%s", dev_steps[i]);
		if (devpm_read_long(p, &v))
			return -1;
		sum += v;
	}
	return sum;
}

/*
 * What suspend_stats says of a device's failure in a cycle: only without
 * the trace, which names every one (sleep_verdict.h).
 */
static void counted_of(long fails0, struct devpm_sleep_counted *k)
{
	long fails = fails0 < 0 ? -1 : stats_dev_fails();

	memset(k, 0, sizeof(*k));
	if (fails0 < 0 || fails <= fails0)
		return;
	k->failed = true;
	devpm_read_str(STATS "last_failed_dev", k->dev, sizeof(k->dev));
	devpm_read_str(STATS "last_failed_step", k->step, sizeof(k->step));
	devpm_read_long(STATS "last_failed_errno", &k->err);
}

/*
 * An aborted cycle no device refused: the sources active now (what held
 * the system awake, or the event that aborted it), and a held one judged.
 */
static void name_active(int r)
{
	char buf[1024];
	struct devpm_wakeup_source *ws;
	size_t n;

	if (devpm_wakeup_sources_read_active(&ws, &n))
		return;
	devpm_wakeup_sources_active(ws, n, buf, sizeof(buf));
	devpm_note("sleep aborted (%s): wakeup sources active now: %s",
		   strerror(-r), buf[0] ? buf : "none");
	/* A held source aborts a cycle only when it checks events. */
	if (events_checked)
		devpm_wakeup_held_judge(ws, n, NULL, 0, buf, sizeof(buf));
	free(ws);
}

int devpm_sleep_enter(const char *state)
{
	struct devpm_sleep_counted k;
	struct devpm_sleep_mark m;
	uint64_t t0;
	long fails0 = devpm_verdict_sleep_watched() ? -1 : stats_dev_fails();
	int r;

	devpm_sleep_verdict_mark(&m);
	t0 = devpm_now_us();
	r = devpm_write_str("/sys/power/state", state);
	/*
	 * The write returns when the kernel has suspended and resumed the
	 * devices (or given up): time the case cannot beat (least_time.h).
	 */
	devpm_least_time_add(t0, devpm_now_us() - t0);
	counted_of(fails0, &k);
	/* Each device of the machine that failed a callback, judged. */
	if (!devpm_sleep_verdict_cycle(&m, r, &k, NULL, 0) && r == -EBUSY)
		name_active(r);
	events_checked = false;
	return r;
}

/* Read everything the trace holds now (the writer ran the whole cycle). */
static int drain(struct devpm_trace *t)
{
	int r;

	do {
		r = devpm_trace_poll(t, 0);
	} while (r > 0);
	return r;
}

int devpm_sleep_traced(struct devpm_trace *t, const char *state, int *ret,
		       uint64_t *wall_us, struct devpm_sleep_cycle *c)
{
	const struct devpm_event *ev;
	uint64_t t0;
	size_t n;
	int r;

	memset(c, 0, sizeof(*c));
	r = drain(t);
	if (r < 0)
		return r;
	devpm_trace_clear(t);
	t0 = devpm_now_us();
	*ret = devpm_sleep_enter(state);
	*wall_us = devpm_now_us() - t0;
	r = drain(t);
	if (r < 0)
		return r;
	ev = devpm_trace_events(t, &n);
	return devpm_sleep_cycle_parse(ev, n, c);
}
