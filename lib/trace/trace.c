// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - a private tracefs instance with runtime-PM events (trace.h).
 *
 * tracefs is the live kernel's, never redirected by the sysfs root: with
 * a recorded tree there is nothing to trace, so devpm_trace_start() fails
 * and callers poll.  If devpm mounts tracefs itself it leaves it mounted
 * (harmless, and other tools may rely on it from then on).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trace/trace.h"
#include "core/sysfs.h"
#include "trace/tracefs.h"

#define BUFFER_KB	"1024"
#define MAX_FILTER	4000	/* a filter is written in one page */
#define MAX_EVENTS	65536	/* older events are dropped beyond this */
#define VIEWS_MAX	4	/* of one kept instance in a process */

static const char *const rpm_events[] = {
	"rpm_suspend", "rpm_resume", "rpm_idle", "rpm_return_int",
	"rpm_usage", "rpm_status", NULL
};

struct devpm_trace {
	char dir[PATH_MAX];		/* the instance directory */
	int slot;			/* in the pool; -1: its own instance */
	bool reused;			/* a pool instance made before */
	bool clean;			/* ... and stopped cleanly: rpm on */
	int fd;				/* trace_pipe, non-blocking */
	char **devs;			/* filter names; NULL: all */
	size_t ndevs;
	char **enabled;			/* "system/event" we enabled */
	size_t nenabled;
	bool user_filter;		/* filter too long for the kernel */
	bool wider;			/* a kernel filter passes others too */
	bool errors_only;		/* rpm_return_int errors only */
	bool keeper;			/* the runner's: devpm_trace_keep() */
	bool reader;			/* reads a kept one: changes nothing */
	/*
	 * devpm_trace_attach() gives views of one reader per kept instance
	 * and process: its events are the reader's from index from on,
	 * those from last on not yet polled.
	 */
	struct devpm_trace *src;
	size_t from, last;
	struct devpm_trace *views[VIEWS_MAX];	/* of a reader */
	int nviews;
	char line[1024];		/* partial line from the pipe */
	size_t linelen;
	struct devpm_event *ev;
	size_t nev, cap;
};

static unsigned int instance_seq;

/*
 * Instances kept for reuse.  Making one creates a directory per event of
 * the kernel (under TCG a few hundred ms, and as much to remove it), and
 * a test program forks per case, so each case made and removed its own.
 * After devpm_trace_pool_begin() in the program's main process, the
 * traces of it and of its children take instances devpm-<main pid>-p<k>:
 * a stop disables their events and leaves them, the next start clears
 * them, the main process removes them when it exits
 * (devpm_trace_cleanup_stale() when it died).  pool_busy is the slots
 * this process uses (a child inherits its parent's).
 */
#define POOL_MAX	4
static int pool_owner;
static bool pool_busy[POOL_MAX];

/*
 * Under `devpm run` the pool is the runner's (devpm_trace_pool_share()):
 * DEVPM_TRACE_POOL names its pid, which must be this program's parent.
 * Its instances outlive each program.
 */
#define POOL_ENV	"DEVPM_TRACE_POOL"
static bool pool_shared;

/*
 * Each slot's state, shared with the cases (mmap'd by the owner): a slot
 * its last user stopped cleanly has its rpm events on and the rest off,
 * so the next start only clears the buffer and rewrites what differs; one
 * whose user died on the way is reset in full.
 */
enum slot_state { SLOT_UNKNOWN, SLOT_CLEAN, SLOT_USED };
static enum slot_state *pool_state;






/*
 * Whether filter, one build_filter() wrote (name == "a" || name == "b"),
 * names every device of t.  The quotes delimit each name: "x" is not
 * found in "xy".
 */
static bool filter_covers(const char *filter, const struct devpm_trace *t)
{
	char want[sizeof(((struct devpm_event *)0)->dev) + 16];
	size_t i;

	if (!t->devs || !t->ndevs || strncmp(filter, "name == \"", 9))
		return false;
	for (i = 0; i < t->ndevs; i++)
		if ((size_t)snprintf(want, sizeof(want), "name == \"%s\"",
				     t->devs[i]) >= sizeof(want) ||
		    !strstr(filter, want))
			return false;
	return true;
}

/*
 * Write an event's filter ("0": none) unless a reused instance has it
 * already: replacing a filter waits for the tracepoint's readers (RCU),
 * tens of ms under TCG.  The filter file shows the text written, or
 * "none".
 */
static int filter_write(struct devpm_trace *t, const char *file,
			const char *val)
{
	char p[PATH_MAX], cur[MAX_FILTER + 256];
	ssize_t n;
	int fd;

	if (!t->reused)
		return devpm_tracefs_write(t->dir, file, val);
	snprintf(p, sizeof(p), "%s/%s", t->dir, file);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, cur, sizeof(cur) - 1);
	if (fd >= 0)
		close(fd);
	if (n >= 0) {
		cur[n] = '\0';
		cur[strcspn(cur, "\n")] = '\0';
		if (!strcmp(val, "0") ? !strcmp(cur, "none") :
		    !strcmp(cur, val))
			return 0;
		/* A wider filter of the last user: poll() drops the rest. */
		if (strcmp(val, "0") && filter_covers(cur, t)) {
			t->wider = true;
			return 0;
		}
	}
	return devpm_tracefs_write(t->dir, file, val);
}

static bool is_rpm_event(const char *name)
{
	int i;

	for (i = 0; rpm_events[i]; i++)
		if (!strcmp(name, rpm_events[i]))
			return true;
	return false;
}

/* `name == "a" || name == "b"`; "0" disables; -E2BIG if too long. */
static int build_filter(struct devpm_trace *t, char *buf, size_t len)
{
	size_t used = 0, i;

	if (!t->devs || t->user_filter)
		return devpm_fmt(buf, len, "0");
	buf[0] = '\0';
	for (i = 0; i < t->ndevs; i++) {
		used += snprintf(buf + used, len - used, "%sname == \"%s\"",
				 i ? " || " : "", t->devs[i]);
		if (used >= len || used > MAX_FILTER)
			return -E2BIG;
	}
	return 0;
}

/* (Re)write the device filter of every rpm event we enabled. */
static int apply_filters(struct devpm_trace *t)
{
	char filter[MAX_FILTER + 256], file[PATH_MAX];
	size_t i;
	int r;

	r = build_filter(t, filter, sizeof(filter));
	if (r == -E2BIG) {
		t->user_filter = true;	/* keep all; poll() filters */
		r = build_filter(t, filter, sizeof(filter));
	}
	if (r < 0)
		return r;
	for (i = 0; i < t->nenabled; i++) {
		const char *ev = strchr(t->enabled[i], '/') + 1;

		if (strncmp(t->enabled[i], "rpm/", 4) || !is_rpm_event(ev))
			continue;
		snprintf(file, sizeof(file), "events/%s/filter",
			 t->enabled[i]);
		r = filter_write(t, file, filter);
		if (r < 0)
			return r;
	}
	return 0;
}

static int strv_add(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 2) * sizeof(**v));

	if (!nv)
		return devpm_fail(ENOMEM, "out of memory");
	*v = nv;
	nv[*n] = strdup(s);
	if (!nv[*n])
		return devpm_fail(ENOMEM, "out of memory");
	nv[++*n] = NULL;
	return 0;
}

static void strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * Enable system/event (with filter, NULL: none); -ENOENT if absent.  A
 * reused instance's filter is reset unless keep_filter: apply_filters()
 * writes the rpm events' own right after, once.
 */
static int enable_event(struct devpm_trace *t, const char *sys,
			const char *ev, const char *filter, bool keep_filter)
{
	char rel[PATH_MAX], file[PATH_MAX];
	int r;

	snprintf(rel, sizeof(rel), "%s/%s", sys, ev);
	snprintf(file, sizeof(file), "events/%s", rel);
	if (!devpm_tracefs_has(t->dir, file))
		return devpm_fail(ENOENT, "no trace event %s:%s", sys, ev);
	/* A reused instance may hold a filter of its last user. */
	if (filter || (t->reused && !keep_filter)) {
		snprintf(file, sizeof(file), "events/%s/filter", rel);
		r = filter_write(t, file, filter ? filter : "0");
		if (r < 0)
			return r;
	}
	snprintf(file, sizeof(file), "events/%s/enable", rel);
	r = devpm_tracefs_write(t->dir, file, "1");
	if (r < 0)
		return r;
	return strv_add(&t->enabled, &t->nenabled, rel);
}

/* Stop a half-made trace, keeping the error that stopped it. */
static struct devpm_trace *start_failed(struct devpm_trace *t, int r)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", devpm_error());
	devpm_trace_stop(t);
	devpm_fail(r < 0 ? -r : EIO, "%s", msg);
	return NULL;
}

/*
 * Errors a runtime-PM call returns in normal operation, from
 * rpm_check_suspend_allowed(), rpm_suspend() and rpm_resume() in
 * drivers/base/power/runtime.c: -EAGAIN (usage held), -EBUSY (children,
 * or a callback's "not now"), -EINPROGRESS, -EACCES (disabled), -EPERM
 * (resume latency 0).  Any other negative return is a callback's error,
 * which the PM core keeps as runtime_error (status "error").
 */
#define RPM_ERROR_FILTER \
	"ret < 0 && ret != -11 && ret != -16 && ret != -115 && ret != -13 && ret != -1"


/*
 * A new instance's buffer is the kernel's default per-CPU size once any
 * trace has expanded the buffers (trace_buf_size, 1.4 MB): resizing it to
 * BUFFER_KB costs more than it saves.  Only a smaller one is set.
 */
static int buffer_size(const char *dir)
{
	char p[PATH_MAX], v[64];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/buffer_size_kb", dir);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, v, sizeof(v) - 1);
	if (fd >= 0)
		close(fd);
	/* "7 (expanded: 1408)" before the first expansion: set it. */
	if (n > 0) {
		v[n] = '\0';
		if (!strchr(v, '(') && atol(v) >= atol(BUFFER_KB))
			return 0;
	}
	return devpm_tracefs_write(dir, "buffer_size_kb", BUFFER_KB);
}

static void pool_dir(char *buf, size_t len, const char *tfs, int k)
{
	snprintf(buf, len, "%s/instances/devpm-%d-p%d", tfs, pool_owner, k);
}

/* The runner's instances that devpm_trace_keep() made (one each). */
#define KEPT_MAX	2
static char kept_names[KEPT_MAX][16];
/* A program's readers of them (devpm_trace_attach()), by suffix. */
static struct {
	char suffix[16];
	struct devpm_trace *t;
} readers[KEPT_MAX];

static void kept_dir(char *buf, size_t len, const char *tfs,
		     const char *suffix)
{
	snprintf(buf, len, "%s/instances/devpm-%d-k%s", tfs, pool_owner,
		 suffix);
}

static void pool_remove(void)
{
	const char *tfs = devpm_tracefs_find(false);
	char dir[PATH_MAX];
	int k;

	if (getpid() != pool_owner || !tfs[0])
		return;
	for (k = 0; k < POOL_MAX + KEPT_MAX; k++) {
		if (k < POOL_MAX)
			pool_dir(dir, sizeof(dir), tfs, k);
		else if (kept_names[k - POOL_MAX][0])
			kept_dir(dir, sizeof(dir), tfs,
				 kept_names[k - POOL_MAX]);
		else
			continue;
		if (rmdir(dir) && errno != ENOENT)
			fprintf(stderr, "devpm: cannot remove %s: %s\n", dir,
				strerror(errno));
	}
	memset(kept_names, 0, sizeof(kept_names));
}

/* The runner's pid from POOL_ENV when it is our parent, else 0. */
static int shared_owner(void)
{
	const char *v = getenv(POOL_ENV);
	char *end;
	long pid;

	if (!v || !v[0])
		return 0;
	errno = 0;
	pid = strtol(v, &end, 10);
	if (errno || *end || pid <= 0 || pid != (long)getppid())
		return 0;
	return (int)pid;
}

void devpm_trace_pool_begin(void)
{
	void *m;
	int owner;

	if (pool_owner)
		return;
	owner = shared_owner();
	pool_shared = owner > 0;
	pool_owner = pool_shared ? owner : getpid();
	m = mmap(NULL, POOL_MAX * sizeof(*pool_state), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pool_state = m == MAP_FAILED ? NULL : m;	/* NULL: full resets */
	if (!pool_shared)
		atexit(pool_remove);
}

void devpm_trace_pool_share(void)
{
	char v[32];

	if (pool_owner)
		return;
	pool_owner = getpid();
	snprintf(v, sizeof(v), "%d", pool_owner);
	setenv(POOL_ENV, v, 1);
}

void devpm_trace_pool_end(void)
{
	if (pool_owner != getpid())
		return;
	pool_remove();
	unsetenv(POOL_ENV);
	pool_owner = 0;
}


/*
 * A free instance of the pool for t: 0 with t->dir set (t->reused when it
 * was made before), -EBUSY when every slot is taken here, other -errno.
 * A reused one is emptied: events off, buffer cleared.
 */
static int pool_take(struct devpm_trace *t, const char *tfs)
{
	int k, r;

	for (k = 0; k < POOL_MAX; k++) {
		if (pool_busy[k])
			continue;
		pool_dir(t->dir, sizeof(t->dir), tfs, k);
		if (mkdir(t->dir, 0700)) {
			r = errno;
			if (r != EEXIST) {
				devpm_fail(r, "%s: %s", t->dir, strerror(r));
				t->dir[0] = '\0';
				return -r;
			}
			t->reused = true;
		}
		t->slot = k;
		pool_busy[k] = true;
		t->clean = t->reused && pool_state &&
			   pool_state[k] == SLOT_CLEAN;
		if (pool_state)
			pool_state[k] = SLOT_USED;
		if (!t->reused)
			return 0;
		if (t->clean)
			return devpm_tracefs_drain(t->dir);
		return devpm_tracefs_reset(t->dir);
	}
	return -EBUSY;
}

static int instance_setup(struct devpm_trace *t, const char *tfs)
{
	int i, n = 0, r = -EBUSY, tries = 0;

	if (pool_owner && !t->errors_only) {
		r = pool_take(t, tfs);
		if (r < 0 && r != -EBUSY)
			return r;
	}
	/* A dead process with our pid may have left one: take the next n. */
	while (r == -EBUSY || (r == -EEXIST && ++tries < 100)) {
		snprintf(t->dir, sizeof(t->dir), "%s/instances/devpm-%d-%u",
			 tfs, (int)getpid(), instance_seq++);
		r = mkdir(t->dir, 0700) ? -errno : 0;
	}
	if (r) {
		devpm_fail(-r, "%s: %s", t->dir, strerror(-r));
		t->dir[0] = '\0';
		return r;
	}
	if (t->reused)
		goto events;
	r = devpm_tracefs_write(t->dir, "trace_clock", "mono");
	if (!r)
		r = buffer_size(t->dir);
	/* Wake a poller on the first event, not at half a buffer. */
	if (!r && devpm_tracefs_has(t->dir, "buffer_percent"))
		r = devpm_tracefs_write(t->dir, "buffer_percent", "0");
events:
	for (i = 0; !r && rpm_events[i]; i++) {
		if (t->errors_only && strcmp(rpm_events[i], "rpm_return_int"))
			continue;
		r = enable_event(t, "rpm", rpm_events[i], t->errors_only ?
				 RPM_ERROR_FILTER : NULL, t->reused);
		if (!r)
			n++;
		else if (r == -ENOENT)
			r = 0;
	}
	if (!r && !n)
		r = devpm_fail(ENOENT, "%s/events/rpm: no runtime PM trace events",
			       t->dir);
	if (!r && (t->devs || t->reused))
		r = apply_filters(t);
	if (!r)
		r = devpm_tracefs_write(t->dir, "tracing_on", "1");
	return r;
}

/* An empty trace: no instance, no pipe, no pool slot. */
static struct devpm_trace *trace_new(void)
{
	struct devpm_trace *t = calloc(1, sizeof(*t));

	if (!t) {
		devpm_fail(ENOMEM, "out of memory");
		return NULL;
	}
	t->fd = -1;
	t->slot = -1;
	return t;
}

static struct devpm_trace *trace_start(const char *const *devs,
				       bool errors_only)
{
	struct devpm_trace *t;
	char pipe[PATH_MAX + 16];
	const char *tfs;
	int i, r;

	if (devpm_sysfs_root()[0]) {
		devpm_fail(ENODEV, "no tracefs with a recorded sysfs root (%s)",
			   devpm_sysfs_root());
		return NULL;
	}
	tfs = devpm_tracefs();
	if (!tfs[0])
		return NULL;
	t = trace_new();
	if (!t)
		return NULL;
	t->errors_only = errors_only;
	for (i = 0; devs && devs[i]; i++) {
		r = strv_add(&t->devs, &t->ndevs, devs[i]);
		if (r < 0)
			return start_failed(t, r);
	}
	r = instance_setup(t, tfs);
	if (r < 0)
		return start_failed(t, r);
	snprintf(pipe, sizeof(pipe), "%s/trace_pipe", t->dir);
	t->fd = open(pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (t->fd < 0)
		return start_failed(t, devpm_fail(errno, "%s: %s", pipe,
						  strerror(errno)));
	return t;
}

struct devpm_trace *devpm_trace_start(const char *const *devs)
{
	return trace_start(devs, false);
}

struct devpm_trace *devpm_trace_start_rpm_errors(void)
{
	struct devpm_trace *t = NULL;

	/* A program of the runner's: a view of its kept trace. */
	if (pool_owner && pool_owner != getpid())
		t = devpm_trace_attach(DEVPM_TRACE_RPM_KEPT);
	return t ? t : trace_start(NULL, true);
}

static bool good_suffix(const char *suffix)
{
	size_t i, n = suffix ? strlen(suffix) : 0;

	if (!n || n >= sizeof(kept_names[0]))
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)suffix[i]))
			return false;
	return true;
}

/* A trace of the runner's kept instance suffix (not made here). */
static struct devpm_trace *kept_new(const char *suffix)
{
	const char *tfs = devpm_tracefs();
	struct devpm_trace *t;

	if (!tfs[0])
		return NULL;
	t = trace_new();
	if (t)
		kept_dir(t->dir, sizeof(t->dir), tfs, suffix);
	return t;
}

/* "system:event" or "system:event if <filter>" into the kept t. */
static int keep_event(struct devpm_trace *t, const char *spec)
{
	const char *cond = strstr(spec, " if ");
	char ev[96];

	if (!cond)
		return devpm_trace_add_event(t, spec, NULL);
	if (devpm_fmt(ev, sizeof(ev), "%.*s", (int)(cond - spec), spec))
		return -EINVAL;
	return devpm_trace_add_event(t, ev, cond + strlen(" if "));
}

struct devpm_trace *devpm_trace_keep(const char *suffix,
				     const char *const *events)
{
	struct devpm_trace *t;
	size_t k;
	int i, r;

	if (!pool_owner || pool_shared || pool_owner != getpid() ||
	    !good_suffix(suffix)) {
		devpm_fail(EINVAL, "kept trace '%s': only the runner's pool keeps one",
			   suffix ? suffix : "");
		return NULL;
	}
	for (k = 0; k < KEPT_MAX && kept_names[k][0]; k++)
		if (!strcmp(kept_names[k], suffix))
			break;
	if (k == KEPT_MAX) {
		devpm_fail(ENOSPC, "kept trace '%s': %d kept already", suffix,
			   KEPT_MAX);
		return NULL;
	}
	t = kept_new(suffix);
	if (!t)
		return NULL;
	t->keeper = true;
	if (mkdir(t->dir, 0700)) {
		if (errno != EEXIST)
			return start_failed(t, devpm_fail(errno, "%s: %s",
							  t->dir,
							  strerror(errno)));
		t->reused = true;
	}
	snprintf(kept_names[k], sizeof(kept_names[k]), "%s", suffix);
	r = t->reused ? devpm_tracefs_reset(t->dir) : 0;
	if (!r)
		r = devpm_tracefs_write(t->dir, "trace_clock", "mono");
	if (!r)
		r = buffer_size(t->dir);
	for (i = 0; !r && events[i]; i++) {
		r = keep_event(t, events[i]);
		/*
		 * A driver's events, without the driver; a filter this
		 * kernel's event has no field for: left out, not the rest.
		 */
		if (r == -ENOENT || (r == -EINVAL && strstr(events[i], " if ")))
			r = 0;
	}
	if (!r)
		r = devpm_tracefs_write(t->dir, "tracing_on", "1");
	return r ? start_failed(t, r) : t;
}

int devpm_trace_read_buffer(struct devpm_trace *t, uint64_t from_us,
			    uint64_t to_us,
			    void (*cb)(const struct devpm_event *e, void *arg),
			    void *arg)
{
	char path[PATH_MAX + 8], *line = NULL;
	struct devpm_event ev;
	size_t cap = 0;
	ssize_t len;
	int n = 0;
	FILE *f;

	if (!t || !t->keeper)
		return devpm_fail(EINVAL, "only a kept trace's buffer is read whole");
	snprintf(path, sizeof(path), "%s/trace", t->dir);
	f = fopen(path, "re");
	if (!f)
		return devpm_fail(errno, "%s: %s", path, strerror(errno));
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (line[0] == '#' || devpm_trace_parse_line(line, &ev))
			continue;
		if (ev.ts_us < from_us || ev.ts_us > to_us)
			continue;
		cb(&ev, arg);
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

/* This process's reader of the kept instance suffix, made on first use. */
static struct devpm_trace *reader_of(const char *suffix)
{
	char pipe[PATH_MAX + 16];
	struct devpm_trace *t;
	int k, r;

	for (k = 0; k < KEPT_MAX && readers[k].t; k++)
		if (!strcmp(readers[k].suffix, suffix))
			return readers[k].t;
	if (k == KEPT_MAX) {
		devpm_fail(ENOSPC, "kept trace '%s': %d read already", suffix,
			   KEPT_MAX);
		return NULL;
	}
	t = kept_new(suffix);
	if (!t)
		return NULL;
	t->reader = true;
	snprintf(pipe, sizeof(pipe), "%s/trace_pipe", t->dir);
	/* What the runner and the last program left is not ours. */
	r = devpm_tracefs_drain(t->dir);
	if (!r) {
		t->fd = open(pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC |
				   O_NOFOLLOW);
		if (t->fd < 0)
			r = devpm_fail(errno, "%s: %s", pipe, strerror(errno));
	}
	if (r)
		return start_failed(t, r);
	snprintf(readers[k].suffix, sizeof(readers[k].suffix), "%s", suffix);
	readers[k].t = t;
	return t;
}

struct devpm_trace *devpm_trace_attach(const char *suffix)
{
	struct devpm_trace *src, *v;

	/* A process of the runner's pool (its programs) but the runner. */
	if (!pool_owner || pool_owner == getpid() || !good_suffix(suffix)) {
		devpm_fail(ENOENT, "no kept trace '%s': not run by devpm run",
			   suffix ? suffix : "");
		return NULL;
	}
	src = reader_of(suffix);
	if (!src)
		return NULL;
	if (src->nviews == VIEWS_MAX) {
		devpm_fail(ENOSPC, "kept trace '%s': %d readers already",
			   suffix, VIEWS_MAX);
		return NULL;
	}
	v = trace_new();
	if (!v)
		return NULL;
	v->reader = true;
	v->src = src;
	v->from = v->last = src->nev;
	src->views[src->nviews++] = v;
	return v;
}

/* Drop a reader's first m events (read by every view, or too many). */
static void shift(struct devpm_trace *t, size_t m)
{
	int i;

	memmove(t->ev, t->ev + m, (t->nev - m) * sizeof(*t->ev));
	t->nev -= m;
	for (i = 0; i < t->nviews; i++) {
		t->views[i]->from -= m < t->views[i]->from ? m :
				     t->views[i]->from;
		t->views[i]->last -= m < t->views[i]->last ? m :
				     t->views[i]->last;
	}
}

int devpm_trace_add_event(struct devpm_trace *t, const char *sysev,
			  const char *filter)
{
	char sys[64], *ev = NULL;

	if (!t)
		return devpm_fail(EINVAL, "no trace");
	if (t->reader)
		return devpm_fail(EPERM, "%s: a kept trace is the runner's",
				  sysev);
	if (!devpm_fmt(sys, sizeof(sys), "%s", sysev))
		ev = strchr(sys, ':');
	if (!ev || ev == sys || !ev[1] || strchr(ev + 1, ':') ||
	    strchr(sys, '/'))
		return devpm_fail(EINVAL,
				  "bad trace event '%s': want system:event",
				  sysev);
	*ev++ = '\0';
	return enable_event(t, sys, ev, filter, false);
}

int devpm_trace_add_dev(struct devpm_trace *t, const char *dev)
{
	size_t i;
	int r;

	if (!t)
		return devpm_fail(EINVAL, "no trace");
	if (!t->devs)
		return 0;	/* unfiltered: already sees every device */
	for (i = 0; i < t->ndevs; i++)
		if (!strcmp(t->devs[i], dev))
			return 0;
	r = strv_add(&t->devs, &t->ndevs, dev);
	if (r < 0)
		return r;
	return apply_filters(t);
}

bool devpm_trace_keeps(const struct devpm_trace *t,
		       const struct devpm_event *e)
{
	size_t i;

	if ((!t->user_filter && !t->wider) || !is_rpm_event(e->event))
		return true;
	for (i = 0; i < t->ndevs; i++)
		if (!strcmp(t->devs[i], e->dev))
			return true;
	return false;
}

static int push(struct devpm_trace *t, const struct devpm_event *e)
{
	void *np;

	if (t->nev == MAX_EVENTS)
		shift(t, MAX_EVENTS / 2);
	if (t->nev == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		np = realloc(t->ev, t->cap * sizeof(*t->ev));
		if (!np)
			return devpm_fail(ENOMEM, "out of memory");
		t->ev = np;
	}
	t->ev[t->nev++] = *e;
	return 1;
}

/* Parse every complete line in t->line; returns the number of events. */
static int take_lines(struct devpm_trace *t)
{
	struct devpm_event e;
	char *start = t->line, *nl;
	int got = 0, r;

	while ((nl = memchr(start, '\n', t->linelen - (start - t->line)))) {
		*nl = '\0';
		if (!devpm_trace_parse_line(start, &e) && devpm_trace_keeps(t, &e)) {
			r = push(t, &e);
			if (r < 0)
				return r;
			got++;
		}
		start = nl + 1;
	}
	t->linelen -= start - t->line;
	memmove(t->line, start, t->linelen);
	/* A line longer than the buffer is dropped, not split. */
	if (t->linelen == sizeof(t->line) - 1)
		t->linelen = 0;
	return got;
}

int devpm_trace_poll(struct devpm_trace *t, int timeout_ms)
{
	struct pollfd pfd;
	int got = 0, r;
	ssize_t n;

	if (t && t->src) {
		/* Events another view polled are new to this one too. */
		r = devpm_trace_poll(t->src, t->src->nev > t->last ? 0 :
				     timeout_ms);
		if (r < 0)
			return r;
		got = (int)(t->src->nev - t->last);
		t->last = t->src->nev;
		return got;
	}
	if (!t || t->fd < 0)
		return devpm_fail(EINVAL, "no trace");
	pfd.fd = t->fd;
	pfd.events = POLLIN;
	r = poll(&pfd, 1, timeout_ms < 0 ? 0 : timeout_ms);
	if (r < 0 && errno != EINTR)
		return devpm_fail(errno, "poll trace_pipe: %s",
				  strerror(errno));
	for (;;) {
		n = read(t->fd, t->line + t->linelen,
			 sizeof(t->line) - 1 - t->linelen);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0)
			return devpm_fail(errno, "read trace_pipe: %s",
					  strerror(errno));
		if (n == 0)
			break;
		t->linelen += n;
		r = take_lines(t);
		if (r < 0)
			return r;
		got += r;
	}
	return got;
}

const struct devpm_event *devpm_trace_events(struct devpm_trace *t,
					     size_t *n)
{
	if (t && t->src) {
		*n = t->last - t->from;
		return t->src->ev + t->from;
	}
	*n = t ? t->nev : 0;
	return t ? t->ev : NULL;
}

const struct devpm_event *devpm_trace_read(struct devpm_trace *t,
					   int timeout_ms, size_t *n)
{
	*n = 0;
	if (!t)
		return NULL;
	devpm_trace_poll(t, timeout_ms);
	return devpm_trace_events(t, n);
}

void devpm_trace_clear(struct devpm_trace *t)
{
	size_t m;
	int i;

	if (!t || !t->src) {
		if (t)
			t->nev = 0;
		return;
	}
	t->from = t->last;
	/* What every view has cleared goes. */
	m = t->from;
	for (i = 0; i < t->src->nviews; i++)
		if (t->src->views[i]->from < m)
			m = t->src->views[i]->from;
	if (m)
		shift(t->src, m);
}

/* A view's stop: the reader goes with the last view. */
static void view_stop(struct devpm_trace *v)
{
	struct devpm_trace *src = v->src;
	int i, k;

	for (i = 0; i < src->nviews && src->views[i] != v; i++)
		;
	if (i < src->nviews)
		src->views[i] = src->views[--src->nviews];
	free(v);
	if (src->nviews)
		return;
	for (k = 0; k < KEPT_MAX; k++)
		if (readers[k].t == src)
			memset(&readers[k], 0, sizeof(readers[k]));
	devpm_trace_stop(src);
}

void devpm_trace_stop(struct devpm_trace *t)
{
	char file[PATH_MAX];
	bool ok = false;
	size_t i;

	if (!t)
		return;
	if (t->src) {
		view_stop(t);
		return;
	}
	if (t->fd >= 0)
		close(t->fd);
	if (t->dir[0] && !t->reader) {
		ok = !devpm_tracefs_write(t->dir, "tracing_on", "0");
		for (i = 0; i < t->nenabled; i++) {
			/* A pooled instance keeps its rpm events on. */
			if (t->slot >= 0 &&
			    !strncmp(t->enabled[i], "rpm/", 4) &&
			    is_rpm_event(t->enabled[i] + 4))
				continue;
			snprintf(file, sizeof(file), "events/%s/enable",
				 t->enabled[i]);
			ok &= !devpm_tracefs_write(t->dir, file, "0");
		}
	}
	if (t->slot >= 0) {
		pool_busy[t->slot] = false;	/* kept for the next start */
		if (pool_state)
			pool_state[t->slot] = ok && t->dir[0] ? SLOT_CLEAN :
							      SLOT_USED;
	} else if (t->keeper || t->reader) {
		;			/* pool_remove() removes it */
	} else if (t->dir[0]) {
		if (rmdir(t->dir))
			fprintf(stderr, "devpm: cannot remove %s: %s\n",
				t->dir, strerror(errno));
	}
	strv_free(t->devs, t->ndevs);
	strv_free(t->enabled, t->nenabled);
	free(t->ev);
	free(t);
}

void devpm_trace_cleanup_stale(void)
{
	char dir[PATH_MAX], p[PATH_MAX * 2];
	const char *tfs = devpm_tracefs_find(false);
	struct dirent *e;
	DIR *dp;
	int pid;

	if (!tfs[0])
		return;
	snprintf(dir, sizeof(dir), "%s/instances", tfs);
	dp = opendir(dir);
	if (!dp)
		return;
	while ((e = readdir(dp))) {
		if (sscanf(e->d_name, "devpm-%d", &pid) != 1 || pid <= 0)
			continue;
		if (!kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (rmdir(p))
			fprintf(stderr, "devpm: cannot remove stale %s: %s\n",
				p, strerror(errno));
	}
	closedir(dp);
}
