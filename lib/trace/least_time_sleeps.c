// SPDX-License-Identifier: GPL-2.0-only
/*
 * least_time_sleeps.c - a case's floor counts the kernel's sleeps inside PM
 * transitions (least_time_sleeps.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/least_time_sleeps.h"
#include "core/note.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "trace/kernel_sleep.h"
#include "trace/least_time.h"
#include "trace/trace.h"

struct window {
	int pid;
	uint64_t from, to;
};

/* A task's open windows while the trace is read in order. */
struct task {
	int pid;
	int depth;		/* rpm_resume/rpm_suspend calls not returned */
	uint64_t rpm_from;
	bool in_reset;
	uint64_t reset_from;
	bool in_work;		/* a probed work function (kernel_sleep.h) */
	uint64_t work_from;
};

struct windows {
	struct window *w;
	size_t n, cap;
	struct task *t;
	size_t nt, tcap;
};

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t c;
	void *nv;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 32;
	nv = realloc(*v, c * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = c;
	return 0;
}

static struct task *task_of(struct windows *ws, int pid)
{
	struct task *t;
	size_t i;

	for (i = 0; i < ws->nt; i++)
		if (ws->t[i].pid == pid)
			return &ws->t[i];
	if (grow((void **)&ws->t, &ws->tcap, ws->nt, sizeof(*ws->t)))
		return NULL;
	t = &ws->t[ws->nt++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	return t;
}

static int window_add(struct windows *ws, int pid, uint64_t from,
		      uint64_t to)
{
	if (grow((void **)&ws->w, &ws->cap, ws->n, sizeof(*ws->w)))
		return -ENOMEM;
	ws->w[ws->n++] = (struct window){ pid, from, to };
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* libata's ata_{link,slave}_{hard,soft}reset_{begin,end}. */
static int reset_edge(const struct devpm_event *e)
{
	if (e->type != DEVPM_EV_OTHER || strncmp(e->event, "ata_", 4))
		return 0;
	if (ends_with(e->event, "reset_begin"))
		return 1;
	if (ends_with(e->event, "reset_end"))
		return -1;
	return 0;
}

static int note_event(struct windows *ws, const struct devpm_event *e)
{
	int edge = reset_edge(e);
	struct task *t;

	if (e->pid <= 0)
		return 0;
	switch (e->type) {
	case DEVPM_EV_RPM_RESUME:
	case DEVPM_EV_RPM_SUSPEND:
		t = task_of(ws, e->pid);
		if (!t)
			return -ENOMEM;
		if (!t->depth++)
			t->rpm_from = e->ts_us;
		return 0;
	case DEVPM_EV_RPM_RETURN:
		/* rpm_idle's returns have no entry here. */
		if (strcmp(e->func, "rpm_resume") &&
		    strcmp(e->func, "rpm_suspend"))
			return 0;
		t = task_of(ws, e->pid);
		if (!t)
			return -ENOMEM;
		/* A return whose call began before the trace: unknown. */
		if (!t->depth || --t->depth)
			return 0;
		return window_add(ws, e->pid, t->rpm_from, e->ts_us);
	default:
		break;
	}
	if (!edge)
		return 0;
	t = task_of(ws, e->pid);
	if (!t)
		return -ENOMEM;
	if (edge > 0) {
		t->in_reset = true;
		t->reset_from = e->ts_us;
		return 0;
	}
	if (!t->in_reset)
		return 0;
	t->in_reset = false;
	return window_add(ws, e->pid, t->reset_from, e->ts_us);
}

/* A probed work function's entry or return (struct devpm_kernel_sleep.edge). */
static int note_edge(struct windows *ws, const struct devpm_kernel_sleep *e)
{
	struct task *t;

	if (e->pid <= 0)
		return 0;
	t = task_of(ws, e->pid);
	if (!t)
		return -ENOMEM;
	if (e->edge > 0) {
		t->in_work = true;
		t->work_from = e->at_us;
		return 0;
	}
	if (!t->in_work)
		return 0;	/* entered before the probes saw it */
	t->in_work = false;
	return window_add(ws, e->pid, t->work_from, e->at_us);
}

static int by_pid_from(const void *a, const void *b)
{
	const struct window *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

/* The window of pid that holds at, or NULL. */
static const struct window *window_at(const struct windows *ws, int pid,
				      uint64_t at)
{
	size_t lo = 0, hi = ws->n, mid;
	const struct window *w;

	/* The last window with (pid, from) <= (pid, at). */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		w = &ws->w[mid];
		if (w->pid < pid || (w->pid == pid && w->from <= at))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Windows of one task may nest (a reset inside a resume): look back. */
	while (lo--) {
		w = &ws->w[lo];
		if (w->pid != pid)
			break;
		if (at < w->to)
			return w;
	}
	return NULL;
}

size_t devpm_least_time_sleeps_spans(const struct devpm_event *ev, size_t nev,
			       const struct devpm_kernel_sleep *s, size_t ns,
			       void (*add)(uint64_t from, uint64_t len,
					   void *ctx),
			       void *ctx)
{
	struct windows ws = { 0 };
	const struct window *w;
	size_t i, counted = 0;
	uint64_t len;

	for (i = 0; i < nev; i++)
		if (note_event(&ws, &ev[i]))
			goto out;
	for (i = 0; i < ns; i++)
		if (s[i].edge && note_edge(&ws, &s[i]))
			goto out;
	/* Still open when the trace was read: open until now. */
	for (i = 0; i < ws.nt; i++) {
		if (ws.t[i].depth &&
		    window_add(&ws, ws.t[i].pid, ws.t[i].rpm_from, UINT64_MAX))
			goto out;
		if (ws.t[i].in_reset &&
		    window_add(&ws, ws.t[i].pid, ws.t[i].reset_from,
			       UINT64_MAX))
			goto out;
		if (ws.t[i].in_work &&
		    window_add(&ws, ws.t[i].pid, ws.t[i].work_from,
			       UINT64_MAX))
			goto out;
	}
	if (ws.n)
		qsort(ws.w, ws.n, sizeof(*ws.w), by_pid_from);
	for (i = 0; i < ns; i++) {
		if (s[i].edge)
			continue;
		w = window_at(&ws, s[i].pid, s[i].at_us);
		if (!w || !s[i].len_us)
			continue;
		len = s[i].len_us;
		if (w->to - s[i].at_us < len)
			len = w->to - s[i].at_us;
		add(s[i].at_us, len, ctx);
		counted++;
	}
out:
	free(ws.w);
	free(ws.t);
	return counted;
}

/* --- the program's watch ------------------------------------------------ */

static bool watched;
static pid_t watcher;
static struct devpm_kernel_sleep_probe *probe;
static struct devpm_trace *windows_trace;

const char *const devpm_least_time_sleeps_events[] = {
	"rpm:rpm_resume", "rpm:rpm_suspend", "rpm:rpm_return_int",
	"libata:ata_link_hardreset_begin", "libata:ata_link_hardreset_end",
	"libata:ata_slave_hardreset_begin", "libata:ata_slave_hardreset_end",
	"libata:ata_link_softreset_begin", "libata:ata_link_softreset_end",
	NULL
};

static void unwatch(void)
{
	/* Only the process that started it; a case's exit leaves it. */
	if (getpid() != watcher)
		return;
	devpm_kernel_sleep_close(probe);
	probe = NULL;
	devpm_trace_stop(windows_trace);
	windows_trace = NULL;
}

/* A trace of its own, when no runner keeps one (a program run by hand). */
static struct devpm_trace *own_trace(void)
{
	struct devpm_trace *t = devpm_trace_start(NULL);	/* every device */
	int i;

	/* rpm's are on; the rest where the kernel has them. */
	for (i = 0; t && devpm_least_time_sleeps_events[i]; i++)
		if (strncmp(devpm_least_time_sleeps_events[i], "rpm:", 4))
			devpm_trace_add_event(t, devpm_least_time_sleeps_events[i],
					      NULL);
	return t;
}

void devpm_least_time_sleeps_watch(void)
{
	if (watched)
		return;
	watched = true;
	if (!devpm_is_root() || devpm_sysfs_root()[0])
		return;
	if (devpm_kernel_sleep_attach(&probe) < 0 && devpm_kernel_sleep_open(&probe) < 0) {
		printf("# floor: the kernel's own sleeps are not counted: %s\n",
		       devpm_error());
		return;
	}
	windows_trace = devpm_trace_attach(DEVPM_TRACE_RPM_KEPT);
	if (!windows_trace)
		windows_trace = own_trace();
	if (!windows_trace) {
		printf("# floor: the kernel's own sleeps are not counted: %s\n",
		       devpm_error());
		devpm_kernel_sleep_close(probe);
		probe = NULL;
		return;
	}
	watcher = getpid();
	atexit(unwatch);
}

/* --- the runner's, for all its programs (lib/runner/kept.h) ------------ */

static struct devpm_kernel_sleep_probe *shared_probe;

void devpm_least_time_sleeps_share(void)
{
	if (!devpm_is_root() || devpm_sysfs_root()[0])
		return;
	/* Without them, each program says why. */
	devpm_kernel_sleep_open(&shared_probe);
}

void devpm_least_time_sleeps_share_ready(void)
{
	if (shared_probe && devpm_kernel_sleep_share(shared_probe) < 0) {
		devpm_kernel_sleep_close(shared_probe);
		shared_probe = NULL;
		unsetenv(DEVPM_KERNEL_SLEEP_ENV);
	}
}

void devpm_least_time_sleeps_unshare(void)
{
	devpm_kernel_sleep_close(shared_probe);
	shared_probe = NULL;
	unsetenv(DEVPM_KERNEL_SLEEP_ENV);
}

static void floor_add(uint64_t from, uint64_t len, void *ctx)
{
	(void)ctx;
	devpm_least_time_add(from, len);
}

void devpm_least_time_sleeps_case_end(void)
{
	struct devpm_kernel_sleep *v = NULL;
	const struct devpm_event *ev;
	size_t n = 0, cap = 0, nev;
	uint64_t lost = 0, before;

	if (!probe || !windows_trace)
		return;
	/*
	 * What arrived since the last case; spans before this one's begin
	 * are clipped by devpm_least_time_add().
	 */
	if (devpm_kernel_sleep_read(probe, &v, &n, &cap, &lost) < 0 ||
	    devpm_trace_poll(windows_trace, 0) < 0) {
		printf("# floor: kernel sleeps: %s\n", devpm_error());
		goto out;
	}
	ev = devpm_trace_events(windows_trace, &nev);
	before = devpm_least_time_us();
	devpm_least_time_sleeps_spans(ev, nev, v, n, floor_add, NULL);
	devpm_metric("-", "floor_sleep_ms",
		     (devpm_least_time_us() - before) / 1000.0);
	if (lost)
		printf("# floor: %llu kernel sleeps lost from full buffers: floor_ms undercounts\n",
		       (unsigned long long)lost);
out:
	devpm_trace_clear(windows_trace);
	free(v);
}
