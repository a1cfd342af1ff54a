// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict.c - driver bugs are failures, judged against the baseline
 * (verdict.h).
 *
 * What the kernel promises, in drivers/base/power/runtime.c:
 *  - rpm_callback(): a callback's error other than -EAGAIN/-EBUSY is kept
 *    in runtime_error, which runtime_status shows as "error" and which
 *    makes rpm_resume() and rpm_suspend() refuse with -EINVAL until the
 *    driver clears it: runtime PM of the device is off for good.
 *  - pm_runtime_get*() and pm_runtime_put*() are balanced: once nothing
 *    uses the device, usage_count is what it was before.  control=on is
 *    one reference (pm_runtime_forbid()), counted on both sides here.
 *  - rpm_check_suspend_allowed(): with usage 0, no active child, runtime
 *    PM enabled and no resume-latency request of 0, rpm_idle()/
 *    rpm_suspend() suspend the device after its autosuspend delay.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "judge/verdict.h"
#include "core/clock.h"
#include "core/note.h"
#include "core/poll.h"
#include "core/sysfs.h"
#include "judge/baseline.h"
#include "rpm/autosuspend_timer.h"
#include "judge/run_record.h"
#include "rpm/device.h"
#include "rpm/diagnose.h"
#include "rpm/wait.h"
#include "trace/sleep_fault.h"
#include "trace/trace.h"

#define MAX_SEEN 64
#define MAX_EXPECTED 16

struct seen_error {
	char dev[128];
	char func[64];
	int ret;
};

static struct devpm_trace *watch;
static bool watching;
/* The system-sleep callbacks' errors the watch saw (sleep_fault.h). */
static struct devpm_sleep_faults faults = { .open = -1 };
static struct seen_error seen[MAX_SEEN];
static size_t nseen;
static char expected[MAX_EXPECTED][128];
static size_t nexpected;

static void left_share(void);
static void qfd_open(void);

static void unwatch(void)
{
	/* Only the process that started it; the harness's children _exit. */
	if (watch)
		devpm_trace_stop(watch);
	watch = NULL;
}

/* "system:event [if <filter>]" onto t; errors leave it out. */
static void add_spec(struct devpm_trace *t, const char *spec)
{
	const char *cond = strstr(spec, " if ");
	char ev[96];

	if (!cond) {
		devpm_trace_add_event(t, spec, NULL);
		return;
	}
	snprintf(ev, sizeof(ev), "%.*s", (int)(cond - spec), spec);
	devpm_trace_add_event(t, ev, cond + strlen(" if "));
}

void devpm_verdict_watch(void)
{
	size_t i;

	if (watching)
		return;
	watching = true;
	left_share();
	qfd_open();
	watch = devpm_trace_start_rpm_errors();
	if (watch)
		atexit(unwatch);
	/*
	 * A trace of its own: the system-sleep callbacks' errors too (the
	 * runner's kept one has them already; a view refuses with -EPERM).
	 */
	for (i = 0; watch && devpm_sleep_fault_events[i]; i++)
		add_spec(watch, devpm_sleep_fault_events[i]);
}

bool devpm_verdict_active(void)
{
	return watching;
}

void devpm_verdict_expect_error(const char *dev)
{
	if (nexpected < MAX_EXPECTED)
		snprintf(expected[nexpected++], sizeof(expected[0]), "%s", dev);
}

static bool is_expected(const struct devpm_base_dev *b)
{
	size_t i;

	for (i = 0; i < nexpected; i++)
		if (!strcmp(expected[i], b->name) ||
		    !strcmp(expected[i], b->path))
			return true;
	return false;
}

void devpm_verdict_event(const struct devpm_event *ev)
{
	struct seen_error *s = &seen[nseen];
	char *plus;

	if (ev->type == DEVPM_EV_OTHER) {
		devpm_sleep_faults_feed(&faults, ev);
		return;
	}

	/*
	 * The ordinary returns, as the watch's own filter (trace.c) drops
	 * them; a view of the runner's kept trace has them all.
	 */
	if (ev->type != DEVPM_EV_RPM_RETURN || ev->ret >= 0 ||
	    ev->ret == -EAGAIN || ev->ret == -EBUSY ||
	    ev->ret == -EINPROGRESS || ev->ret == -EACCES ||
	    ev->ret == -EPERM || nseen == MAX_SEEN)
		return;
	snprintf(s->dev, sizeof(s->dev), "%s", ev->dev);
	snprintf(s->func, sizeof(s->func), "%s", ev->func);
	plus = strchr(s->func, '+');
	if (plus)
		*plus = '\0';
	s->ret = ev->ret;
	nseen++;
}

void devpm_verdict_forget(void)
{
	nseen = 0;
	nexpected = 0;
	devpm_sleep_faults_init(&faults);
}

/* Keep the callback errors the watch has seen since last asked. */
static void harvest(void)
{
	const struct devpm_event *ev;
	size_t n, i;

	/*
	 * Another view of the same kept trace (the floor's windows) may have
	 * read the new events already: what this view has not taken counts,
	 * not what this poll read.
	 */
	if (!watch || devpm_trace_poll(watch, 0) < 0)
		return;
	ev = devpm_trace_events(watch, &n);
	if (!n)
		return;
	for (i = 0; i < n; i++)
		devpm_verdict_event(&ev[i]);
	devpm_trace_clear(watch);
}

const struct devpm_sleep_faults *devpm_verdict_sleep_faults(void)
{
	harvest();
	return &faults;
}

bool devpm_verdict_sleep_watched(void)
{
	return watch != NULL;
}

const char *devpm_verdict_errno(int ret, char *buf, size_t len)
{
	const char *name = ret < 0 ? strerrorname_np(-ret) : NULL;

	snprintf(buf, len, "%d (%s)", ret, name ? name : "?");
	return buf;
}

/* "runtime_resume callback (rpm_resume returned -5 (EIO))" */
static const char *callback_of(const char *func)
{
	if (!strcmp(func, "rpm_resume"))
		return "runtime_resume callback";
	if (!strcmp(func, "rpm_suspend"))
		return "runtime_suspend callback";
	if (!strcmp(func, "rpm_idle"))
		return "runtime_idle callback";
	return "runtime PM call";
}

static const struct seen_error *first_error(const char *dev)
{
	size_t i;

	for (i = 0; i < nseen; i++)
		if (!strcmp(seen[i].dev, dev))
			return &seen[i];
	return NULL;
}

/*
 * The files quick() reads, opened once in the main process and re-read
 * with pread() at offset 0 (sysfs runs the attribute's show() again) by
 * every case: a path walk per file was most of a whole-tree check under
 * TCG.  A device removed since (a re-enumerated USB device, even at the
 * same path) fails the read with ENODEV: then the paths are read.  Live
 * sysfs only: a file of a recorded tree stays readable when removed.
 */
enum { QF_STATUS, QF_USAGE, QF_CONTROL, QF_DELAY, QF_DIR, QF_N };
static const char *const qf_name[QF_N] = {
	"power/runtime_status", "power/runtime_usage", "power/control",
	"power/autosuspend_delay_ms", "."
};
static int (*qfd)[QF_N];
static size_t nqfd;

static void qfd_open(void)
{
	const struct devpm_baseline *b = devpm_baseline();
	char p[DEVPM_PATH_MAX], real[PATH_MAX];
	struct rlimit rl;
	size_t i;
	int k;

	if (!b || qfd || devpm_sysfs_root()[0])
		return;
	/* Five files a device: more than the usual 1024 descriptors. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	qfd = calloc(b->n ? b->n : 1, sizeof(*qfd));
	if (!qfd)
		return;		/* the paths are read */
	nqfd = b->n;
	for (i = 0; i < nqfd; i++) {
		for (k = 0; k < QF_N; k++)
			qfd[i][k] = -1;
		if (!b->v[i].status[0] ||
		    devpm_fmt(p, sizeof(p), "%s", b->v[i].path) < 0 ||
		    devpm_real_path(real, sizeof(real), p) < 0)
			continue;
		/*
		 * The device's directory by its path, its files from there:
		 * one path walk a device, not five (~0.1 ms each in TCG).
		 */
		qfd[i][QF_DIR] = open(real, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (qfd[i][QF_DIR] < 0)
			continue;
		for (k = 0; k < QF_N; k++) {
			if (k == QF_DIR || (k == QF_DELAY &&
			    b->v[i].autosuspend_delay_ms == LONG_MIN))
				continue;
			qfd[i][k] = openat(qfd[i][QF_DIR], qf_name[k],
					   O_RDONLY | O_CLOEXEC);
		}
	}
}

/* One attribute by its cached descriptor: 0, or -errno (-EBADF: none). */
static int qf_read(int fd, char *buf, size_t len)
{
	ssize_t n;

	if (fd < 0)
		return -EBADF;
	n = pread(fd, buf, len - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* d's driver: the last part of its "driver" link, n bytes read into t. */
static void driver_from_link(struct devpm_dev *d, char *t, ssize_t n)
{
	const char *slash;

	if (n <= 0)
		return;
	t[n] = '\0';
	slash = strrchr(t, '/');
	snprintf(d->driver, sizeof(d->driver), "%s", slash ? slash + 1 : t);
}

/* The device's cached descriptors, NULL: none (read the paths). */
static const int *fds_of(const struct devpm_base_dev *b)
{
	const struct devpm_baseline *base = devpm_baseline();
	size_t i = base ? (size_t)(b - base->v) : SIZE_MAX;

	return qfd && i < nqfd ? qfd[i] : NULL;
}

/* v's number into *n: whether v was a whole one. */
static bool num_from(const char *v, long *n)
{
	char *end;

	*n = strtol(v, &end, 10);
	return end != v && !*end;
}

/*
 * The two files every rule needs (status, usage), without the full
 * snapshot: a whole-tree check after every case must be cheap.  1 when
 * read by the cached descriptors, 0 by the paths (the descriptors' device
 * was removed, maybe added again), -ENOENT when the device went away.
 */
static int quick_usage(const struct devpm_base_dev *b, struct devpm_dev *d)
{
	const int *f = fds_of(b);
	char p[DEVPM_PATH_MAX], v[64];

	memset(d, 0, sizeof(*d));
	snprintf(d->path, sizeof(d->path), "%s", b->path);
	snprintf(d->name, sizeof(d->name), "%s", b->name);
	if (f && !qf_read(f[QF_STATUS], d->rpm.status,
			  sizeof(d->rpm.status))) {
		d->rpm.have_status = true;
		if (!qf_read(f[QF_USAGE], v, sizeof(v)))
			d->rpm.have_usage = num_from(v, &d->rpm.usage);
		return 1;
	}
	if (devpm_fmt(p, sizeof(p), "%s/power/runtime_status", b->path) < 0)
		return -ENAMETOOLONG;
	d->rpm.have_status = !devpm_read_str(p, d->rpm.status,
					     sizeof(d->rpm.status));
	/* Only when that failed: is the device gone (one stat saved)? */
	if (!d->rpm.have_status &&
	    (devpm_fmt(p, sizeof(p), "%s/power", b->path) < 0 ||
	     !devpm_exists(p)))
		return -ENOENT;
	if (!devpm_fmt(p, sizeof(p), "%s/power/runtime_usage", b->path))
		d->rpm.have_usage = !devpm_read_long(p, &d->rpm.usage);
	return 0;
}

/*
 * The rest the rules may need: control, the autosuspend delay (readable
 * only when the driver uses autosuspend, EIO otherwise) and the driver;
 * by the descriptors when quick_usage() read them so.
 */
static void quick_rest(const struct devpm_base_dev *b, struct devpm_dev *d,
		       bool by_fds)
{
	const int *f = by_fds ? fds_of(b) : NULL;
	char p[DEVPM_PATH_MAX], real[PATH_MAX], target[PATH_MAX], v[64];
	ssize_t n;

	if (f) {
		d->rpm.have_control = !qf_read(f[QF_CONTROL], d->rpm.control,
					       sizeof(d->rpm.control));
		if (b->autosuspend_delay_ms != LONG_MIN &&
		    !qf_read(f[QF_DELAY], v, sizeof(v)))
			d->rpm.have_autosuspend =
				num_from(v, &d->rpm.autosuspend_delay_ms);
		n = readlinkat(f[QF_DIR], "driver", target,
			       sizeof(target) - 1);
		driver_from_link(d, target, n);
		return;
	}
	if (!devpm_fmt(p, sizeof(p), "%s/power/control", b->path))
		d->rpm.have_control = !devpm_read_str(p, d->rpm.control,
						      sizeof(d->rpm.control));
	if (b->autosuspend_delay_ms != LONG_MIN &&
	    !devpm_fmt(p, sizeof(p), "%s/power/autosuspend_delay_ms",
		       b->path))
		d->rpm.have_autosuspend =
			!devpm_read_long(p, &d->rpm.autosuspend_delay_ms);
	if (!devpm_fmt(p, sizeof(p), "%s/driver", b->path) &&
	    !devpm_real_path(real, sizeof(real), p)) {
		n = readlink(real, target, sizeof(target) - 1);
		driver_from_link(d, target, n);
	}
}

/* Status, usage, control, delay, driver; -ENOENT when it went away. */
static int quick(const struct devpm_base_dev *b, struct devpm_dev *d)
{
	int r = quick_usage(b, d);

	if (r >= 0)
		quick_rest(b, d, r == 1);
	return r < 0 ? r : 0;
}

static const char *drv(const struct devpm_dev *d)
{
	return d->driver[0] ? d->driver : "no driver";
}

/* Each device's state when the case began (held usage, error). */
struct at_start {
	long held;		/* LONG_MIN unknown */
	bool error;
};
static struct at_start *start;
static size_t nstart;
static char first_why[768];

/*
 * Each device as the last case's verdict left it, shared by the cases of
 * a program (the harness forks each from the main process): the next case
 * begins there, so it need not read every device again (0.1-0.4 s under
 * TCG for a few hundred devices).  Each begin clears valid, so a case that
 * died before its verdict makes the next one read them all; a begin in
 * the process that left it (no harness between) reads them too.
 */
struct left_by_case {
	bool valid;
	pid_t by;		/* the case process that left it */
	size_t n;
	struct at_start v[];
};
static struct left_by_case *left;
static bool recording;

/* In the main process, before the harness forks the first case. */
static void left_share(void)
{
	const struct devpm_baseline *b = devpm_baseline();
	size_t len;
	void *m;

	if (!b || left)
		return;
	len = sizeof(*left) + (b->n ? b->n : 1) * sizeof(left->v[0]);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return;		/* every case reads at its begin */
	left = m;
	left->n = b->n;
}

static long held(const struct devpm_rpm *r);

/* What the case's verdict saw of base at last (d NULL: gone). */
static void note_left(const struct devpm_baseline *b,
		      const struct devpm_base_dev *base,
		      const struct devpm_dev *d)
{
	size_t i = base - b->v;

	if (!recording || !left || i >= left->n)
		return;
	left->v[i].held = d && d->rpm.have_usage ? held(&d->rpm) : LONG_MIN;
	left->v[i].error = d && d->rpm.have_status &&
			   !strcmp(d->rpm.status, "error");
}

static int quick(const struct devpm_base_dev *b, struct devpm_dev *d);

void devpm_verdict_case_begin(void)
{
	const struct devpm_baseline *b;
	struct devpm_dev d;
	bool have_left;
	size_t i;

	if (!watching)
		return;
	b = devpm_baseline();
	free(start);
	start = b ? calloc(b->n ? b->n : 1, sizeof(*start)) : NULL;
	nstart = start ? b->n : 0;
	have_left = left && left->valid && left->n == nstart &&
		    left->by != getpid();
	if (left)
		left->valid = false;
	if (have_left) {
		memcpy(start, left->v, nstart * sizeof(*start));
		return;
	}
	for (i = 0; i < nstart; i++) {
		start[i].held = LONG_MIN;
		if (!b->v[i].status[0] || quick(&b->v[i], &d) < 0)
			continue;
		if (d.rpm.have_usage)
			start[i].held = held(&d.rpm);
		start[i].error = d.rpm.have_status &&
				 !strcmp(d.rpm.status, "error");
	}
}

static const struct at_start *at_start(const struct devpm_baseline *b,
				       const struct devpm_base_dev *base)
{
	size_t i = base - b->v;

	return start && i < nstart ? &start[i] : NULL;
}

static int rule_error(const struct devpm_base_dev *b, struct devpm_dev *d,
		      const struct at_start *s, char *why, size_t len)
{
	const struct seen_error *e;
	char eb[48], cb[160] = "";

	if (!strcmp(b->status, "error") || is_expected(b))
		return 0;	/* at baseline: classify's failure */
	if (s && s->error)
		return 0;	/* an earlier case's: failed there */
	harvest();
	/*
	 * Trace events name a device by dev_name() only, which a class
	 * device may share (a misc node named as its parent): a device
	 * without runtime PM at baseline runs no runtime callback.
	 */
	e = strcmp(b->status, "unsupported") ? first_error(b->name) : NULL;
	if (e)
		snprintf(cb, sizeof(cb), ": %s failed, %s returned %s",
			 callback_of(e->func), e->func,
			 devpm_verdict_errno(e->ret, eb, sizeof(eb)));
	if (!d->driver[0] && ((d->rpm.have_status &&
			       !strcmp(d->rpm.status, "error")) || e))
		quick_rest(b, d, false);	/* the driver, to name it */
	if (d->rpm.have_status && !strcmp(d->rpm.status, "error")) {
		snprintf(why, len, "%s (driver %s): runtime_status=error%s%s",
			 b->name, drv(d), cb,
			 cb[0] || !watch ? "" :
			 " (no callback error in the trace)");
		return 1;
	}
	if (e) {
		snprintf(why, len, "%s (driver %s): runtime_status was error%s",
			 b->name, drv(d), cb);
		return 1;
	}
	return 0;
}

static long held(const struct devpm_rpm *r)
{
	return devpm_usage_held(r->usage, r->control, r->have_autosuspend ?
				r->autosuspend_delay_ms : LONG_MIN);
}

struct usage_wait {
	const struct devpm_base_dev *b;
	struct devpm_dev *d;
	long limit;
};

static bool usage_back(void *arg)
{
	struct usage_wait *w = arg;

	if (quick(w->b, w->d) < 0 || !w->d->rpm.have_usage)
		return true;
	return held(&w->d->rpm) <= w->limit;
}

/* The longest a count or a suspend took to come in this case (ms). */
static double settle_ms;

static void settled(uint64_t t0)
{
	double ms = (double)(devpm_now_us() - t0) / 1000;

	if (ms > settle_ms)
		settle_ms = ms;
}

static int rule_leak(const struct devpm_base_dev *b, struct devpm_dev *d,
		     const struct at_start *s, char *why, size_t len)
{
	struct usage_wait w = { b, d, devpm_usage_held(b->usage, b->control,
						       b->autosuspend_delay_ms) };
	long base = w.limit;
	uint64_t t0;

	/* Above baseline already when the case began: not this case's. */
	if (s && s->held != LONG_MIN && s->held > w.limit)
		w.limit = s->held;

	/* As judge() read it; above, it is read again until it settles. */
	if (b->usage < 0 || !d->rpm.have_usage || held(&d->rpm) <= w.limit)
		return 0;
	t0 = devpm_now_us();
	if (devpm_poll_until(usage_back, &w, DEVPM_VERDICT_COUNT_MS)) {
		settled(t0);
		return 0;
	}
	snprintf(why, len,
		 "%s (driver %s): usage count %ld (control=%s) above its baseline %ld (control=%s): %ld reference(s) leaked",
		 b->name, drv(d), d->rpm.usage, d->rpm.control, b->usage,
		 b->control[0] ? b->control : "-",
		 held(&d->rpm) - base);
	return 1;
}

int devpm_verdict_suspend_ms(long delay_ms)
{
	long d = delay_ms > 0 ? delay_ms : 0;

	return (int)(d + d / 4) + DEVPM_AUTOSUSPEND_ALLOW_MS +
	       DEVPM_VERDICT_SETTLE_MS;
}

bool devpm_verdict_honoured(const struct devpm_diag *g)
{
	int i;

	for (i = 0; i < g->n; i++)
		switch (g->r[i].code) {
		case DEVPM_R_CONTROL_ON:
		case DEVPM_R_ACTIVE_CHILDREN:
		case DEVPM_R_QOS_NO_SUSPEND:
		case DEVPM_R_DISABLED:
		case DEVPM_R_NO_DRIVER:
		case DEVPM_R_AUTOSUSPEND_NEGATIVE:
			return true;
		default:
			break;
		}
	return false;
}

static int rule_suspend(const struct devpm_base_dev *b, struct devpm_dev *d,
			char *why, size_t len)
{
	struct devpm_wait_result res;
	struct devpm_diag g;
	char line[512];
	long delay;
	uint64_t t0;
	int r, limit;

	if (!b->could_suspend || !d->rpm.have_status ||
	    strcmp(d->rpm.control, "auto") ||
	    !strcmp(d->rpm.status, "suspended"))
		return 0;
	/* The full snapshot the diagnosis and the waiter need. */
	r = devpm_dev_open(d, b->path);
	if (r < 0)
		return 0;
	devpm_diagnose(d, &g);
	if (devpm_verdict_honoured(&g))
		return 0;
	delay = d->rpm.have_autosuspend && d->rpm.autosuspend_delay_ms > 0 ?
		d->rpm.autosuspend_delay_ms : 0;
	limit = devpm_verdict_suspend_ms(delay);
	t0 = devpm_now_us();
	r = devpm_wait_status(d, NULL, "suspended", limit, &res);
	if (r != -ETIMEDOUT) {
		settled(t0);
		return 0;
	}
	devpm_diagnose(d, &g);
	if (devpm_verdict_honoured(&g))
		return 0;
	devpm_diag_line(&g, line, sizeof(line));
	snprintf(why, len,
		 "%s (driver %s): could suspend at baseline (%s, control=%s) but is still %s %d ms after the case let go (limit: autosuspend_delay_ms %ld + 25 %% + %d ms, + %d ms for work in flight): %s",
		 b->name, drv(d), b->role, b->control[0] ? b->control : "-",
		 d->rpm.status, limit, delay, DEVPM_AUTOSUSPEND_ALLOW_MS,
		 DEVPM_VERDICT_SETTLE_MS, line);
	return 1;
}

static int rules_of(const struct devpm_baseline *b,
		    const struct devpm_base_dev *base, struct devpm_dev *d,
		    unsigned int rules, char *why, size_t len)
{
	const struct at_start *s;

	s = (rules & DEVPM_V_SINCE_CASE) ? at_start(b, base) : NULL;
	if ((rules & DEVPM_V_ERROR) && rule_error(base, d, s, why, len))
		return 1;
	/* Another driver now (the case bound one): counts differ by design. */
	if (strcmp(d->driver, base->driver))
		return 0;
	if ((rules & DEVPM_V_LEAK) && rule_leak(base, d, s, why, len))
		return 1;
	if ((rules & DEVPM_V_SUSPEND) && rule_suspend(base, d, why, len))
		return 1;
	return 0;
}

/*
 * Whether judging d takes its control, delay and driver too: for the
 * suspend rule, or a count above its baseline's held references (a leak,
 * or another driver's).  At or below it the leak rule cannot fail (held
 * references are at most the count), and the count that note_left()
 * keeps for the next case raises no limit there.
 */
static bool needs_rest(const struct devpm_base_dev *b,
		       const struct devpm_dev *d, unsigned int rules)
{
	if (rules & DEVPM_V_SUSPEND)
		return true;
	if (b->usage < 0 || !d->rpm.have_usage)
		return false;
	return d->rpm.usage > devpm_usage_held(b->usage, b->control,
					       b->autosuspend_delay_ms);
}

static int judge(const struct devpm_baseline *b,
		 const struct devpm_base_dev *base, unsigned int rules,
		 char *why, size_t len)
{
	struct devpm_dev d;
	int r;

	why[0] = '\0';
	r = quick_usage(base, &d);
	if (r == -ENOENT) {
		note_left(b, base, NULL);
		return 0;	/* gone: its remover's business */
	}
	if (r < 0)
		return r;
	/*
	 * Most devices, after most cases: status and usage suffice.  Without
	 * the rest, d's driver is "": rules_of() judges no leak or suspend
	 * (neither could fail), rule_error() reads it to name it.
	 */
	if (needs_rest(base, &d, rules))
		quick_rest(base, &d, r == 1);
	r = rules_of(b, base, &d, rules, why, len);
	note_left(b, base, &d);
	return r;
}

int devpm_verdict_device(const struct devpm_baseline *b, const char *dev,
			 unsigned int rules, char *why, size_t len)
{
	const struct devpm_base_dev *base = devpm_baseline_find(b, dev);

	why[0] = '\0';
	return base ? judge(b, base, rules, why, len) : 0;
}

static char touched[256][128];
static size_t ntouched;

void devpm_verdict_touched(const char *dev)
{
	size_t i;

	for (i = 0; i < ntouched; i++)
		if (!strcmp(touched[i], dev))
			return;
	if (ntouched < sizeof(touched) / sizeof(touched[0]))
		snprintf(touched[ntouched++], sizeof(touched[0]), "%s", dev);
}

static bool was_touched(const struct devpm_base_dev *b)
{
	size_t i;

	for (i = 0; i < ntouched; i++)
		if (!strcmp(touched[i], b->name) ||
		    !strcmp(touched[i], b->path))
			return true;
	return false;
}

/* The devices a case of the run failed already (run_record.h). */
struct judged_set {
	char (*name)[128];
	size_t n, cap;
};

static int judged_add(void *arg, char **f, int n)
{
	struct judged_set *j = arg;
	void *p;

	if (strcmp(f[0], "judged") || n < 2)
		return 0;
	if (j->n == j->cap) {
		p = realloc(j->name, (j->cap ? 2 * j->cap : 16) *
			    sizeof(*j->name));
		if (!p)
			return 1;
		j->name = p;
		j->cap = j->cap ? 2 * j->cap : 16;
	}
	snprintf(j->name[j->n++], sizeof(j->name[0]), "%s", f[1]);
	return 0;
}

static bool judged_has(const struct judged_set *j, const char *dev)
{
	size_t i;

	for (i = 0; i < j->n; i++)
		if (!strcmp(j->name[i], dev))
			return true;
	return false;
}

int devpm_verdict_tree(const struct devpm_baseline *b, unsigned int rules,
		       void (*fn)(void *arg, const char *dev, const char *why),
		       void *arg)
{
	struct judged_set judged = { 0 };
	char why[768];
	size_t i;
	int n = 0;

	/* Judged once a run: a later case, the re-check, do not again. */
	if (rules & DEVPM_V_UNJUDGED)
		devpm_run_records(judged_add, &judged);
	for (i = 0; b && i < b->n; i++) {
		unsigned int r = rules;

		if (!b->v[i].status[0])
			continue;	/* no runtime PM shown: nothing to judge */
		if (judged.n && judged_has(&judged, b->v[i].name))
			continue;
		if ((r & DEVPM_V_TOUCHED) && !was_touched(&b->v[i]))
			r &= ~DEVPM_V_SUSPEND;
		if (judge(b, &b->v[i], r, why, sizeof(why)) > 0) {
			n++;
			if (fn)
				fn(arg, b->v[i].name, why);
		}
	}
	free(judged.name);
	return n;
}

static void print_case_failure(void *arg, const char *dev, const char *why)
{
	const char *f[2] = { dev, "verdict" };

	/* Judged here: the runner's final re-check does not repeat it. */
	devpm_run_record("judged", f, 2);
	if (!first_why[0])
		snprintf(first_why, sizeof(first_why), "%s", why);
	printf("# verdict: %s (left by case %s)\n", why, (const char *)arg);
	fflush(stdout);
}

int devpm_verdict_case_end(const char *casename)
{
	const struct devpm_baseline *b = devpm_baseline();
	int n;

	if (!b)
		return 0;
	first_why[0] = '\0';
	/* What it leaves is where the next case begins (left_share()). */
	recording = true;
	settle_ms = 0;
	n = devpm_verdict_tree(b, DEVPM_V_ALL | DEVPM_V_TOUCHED |
			       DEVPM_V_SINCE_CASE | DEVPM_V_UNJUDGED,
			       print_case_failure, (void *)casename);
	recording = false;
	/* What justifies DEVPM_VERDICT_SETTLE_MS (docs/verdicts.md). */
	if (settle_ms > 0)
		devpm_metric(NULL, "verdict_settle_ms", settle_ms);
	if (left && left->n == b->n) {
		left->by = getpid();
		left->valid = true;
	}
	return n;
}

const char *devpm_verdict_first(void)
{
	return first_why;
}
