// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup_source.c - /sys/class/wakeup snapshots (wakeup_source.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sleep/wakeup_source.h"
#include "core/poll.h"
#include "core/sysfs.h"
#include "judge/baseline.h"
#include "judge/run_record.h"
#include "judge/sleep_verdict.h"

#define CLASS	"/sys/class/wakeup"

static unsigned long ws_ulong(const char *id, const char *attr)
{
	char p[DEVPM_PATH_MAX];
	long v = 0;

	if (devpm_fmt(p, sizeof(p), CLASS "/%s/%s", id, attr) < 0 ||
	    devpm_read_long(p, &v) < 0 || v < 0)
		return 0;
	return v;
}

/* The last part of the link CLASS/id/rel ("" when there is none). */
static void link_name(const char *id, const char *rel, char *buf,
		      size_t len)
{
	char dir[DEVPM_PATH_MAX];

	buf[0] = '\0';
	if (!devpm_fmt(dir, sizeof(dir), CLASS "/%s", id))
		devpm_link_base(dir, rel, buf, len);
}

static int by_id(const void *a, const void *b)
{
	const struct devpm_wakeup_source *x = a, *y = b;
	size_t lx = strlen(x->id), ly = strlen(y->id);

	/* wakeup2 before wakeup10 */
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->id, y->id);
}

/*
 * Every source under CLASS, or only those active now: a source's ten
 * attributes cost ten sysfs reads, and a caller naming what holds the
 * system awake needs only the active ones (one read for each other).
 */
static int sources_read(struct devpm_wakeup_source **ws, size_t *n,
			bool active_only)
{
	struct devpm_wakeup_source *v = NULL, *t;
	size_t cap = 0, k = 0;
	struct dirent *de;
	DIR *d;

	*ws = NULL;
	*n = 0;
	d = devpm_opendir(CLASS);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct devpm_wakeup_source *s;
		char p[DEVPM_PATH_MAX];

		if (strncmp(de->d_name, "wakeup", 6) ||
		    strlen(de->d_name) >= sizeof(v->id))
			continue;
		if (k == cap) {
			cap = cap ? 2 * cap : 32;
			t = realloc(v, cap * sizeof(*v));
			if (!t) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = t;
		}
		s = &v[k];
		memset(s, 0, sizeof(*s));
		strcpy(s->id, de->d_name);
		s->active_time_ms = ws_ulong(s->id, "active_time_ms");
		if (active_only && s->active_time_ms <= 0)
			continue;
		if (devpm_fmt(p, sizeof(p), CLASS "/%s/name", s->id) < 0 ||
		    devpm_read_str(p, s->name, sizeof(s->name)) < 0)
			continue;	/* gone meanwhile */
		s->active_count = ws_ulong(s->id, "active_count");
		s->event_count = ws_ulong(s->id, "event_count");
		s->wakeup_count = ws_ulong(s->id, "wakeup_count");
		s->expire_count = ws_ulong(s->id, "expire_count");
		s->prevent_suspend_time_ms = ws_ulong(s->id,
						      "prevent_suspend_time_ms");
		link_name(s->id, "device", s->dev, sizeof(s->dev));
		if (s->dev[0])
			link_name(s->id, "device/driver", s->driver,
				  sizeof(s->driver));
		k++;
	}
	closedir(d);
	if (k)
		qsort(v, k, sizeof(*v), by_id);
	*ws = v;
	*n = k;
	return 0;
}

int devpm_wakeup_sources_read(struct devpm_wakeup_source **ws, size_t *n)
{
	return sources_read(ws, n, false);
}

int devpm_wakeup_sources_read_active(struct devpm_wakeup_source **ws,
				     size_t *n)
{
	return sources_read(ws, n, true);
}

const struct devpm_wakeup_source *
devpm_wakeup_source_find(const struct devpm_wakeup_source *ws, size_t n,
			 const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(ws[i].name, name))
			return &ws[i];
	return NULL;
}

static const struct devpm_wakeup_source *
by_id_find(const struct devpm_wakeup_source *ws, size_t n, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(ws[i].id, id))
			return &ws[i];
	return NULL;
}

static int add(char *buf, size_t len, size_t *at, const char *name,
	       const char *fmt, unsigned long v)
{
	int k = snprintf(buf + *at, len - *at, "%s%s", *at ? " " : "", name);

	if (k < 0 || (size_t)k >= len - *at)
		return devpm_fail(-ENAMETOOLONG, "wakeup source list too long");
	*at += k;
	if (!fmt)
		return 0;
	k = snprintf(buf + *at, len - *at, fmt, v);
	if (k < 0 || (size_t)k >= len - *at)
		return devpm_fail(-ENAMETOOLONG, "wakeup source list too long");
	*at += k;
	return 0;
}

int devpm_wakeup_sources_diff(const struct devpm_wakeup_source *a,
			      size_t na,
			      const struct devpm_wakeup_source *b, size_t nb,
			      char *buf, size_t len)
{
	size_t i, at = 0;

	if (!len)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	for (i = 0; i < nb; i++) {
		const struct devpm_wakeup_source *o = by_id_find(a, na,
								 b[i].id);
		unsigned long before = 0;

		/* An id reused by another source counts from 0. */
		if (o && !strcmp(o->name, b[i].name))
			before = o->event_count;
		if (b[i].event_count <= before)
			continue;
		if (add(buf, len, &at, b[i].name, "(+%lu)",
			b[i].event_count - before)) {
			buf[0] = '\0';
			return -ENAMETOOLONG;
		}
	}
	return 0;
}

int devpm_wakeup_sources_active(const struct devpm_wakeup_source *ws,
				size_t n, char *buf, size_t len)
{
	char one[320];
	size_t i, at = 0;

	if (!len)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (ws[i].active_time_ms <= 0)
			continue;
		if (ws[i].dev[0])
			snprintf(one, sizeof(one), "%s (%s, %s) active %lld ms",
				 ws[i].name, ws[i].dev,
				 ws[i].driver[0] ? ws[i].driver : "no driver",
				 ws[i].active_time_ms);
		else
			snprintf(one, sizeof(one), "%s (no device) active %lld ms",
				 ws[i].name, ws[i].active_time_ms);
		if (add(buf, len, &at, one, NULL, 0)) {
			buf[0] = '\0';
			return -ENAMETOOLONG;
		}
	}
	return 0;
}

const struct devpm_wakeup_source *
devpm_wakeup_source_held(const struct devpm_wakeup_source *ws, size_t n,
			 const struct devpm_wakeup_source *base, size_t nbase)
{
	const struct devpm_wakeup_source *o;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!ws[i].dev[0] || ws[i].active_time_ms <= DEVPM_WAKE_HELD_MS)
			continue;
		o = base ? by_id_find(base, nbase, ws[i].id) : NULL;
		if (o && !strcmp(o->name, ws[i].name) &&
		    o->event_count != ws[i].event_count)
			continue;	/* reporting events: busy, not held */
		return &ws[i];
	}
	return NULL;
}

void devpm_wakeup_source_held_words(const struct devpm_wakeup_source *w,
				    char *buf, size_t len)
{
	snprintf(buf, len, "%s (%s): wakeup source %s held active %lld ms with no event (event_count %lu), limit %d ms: system sleep blocked for every wakeup_count user",
		 w->dev, w->driver[0] ? w->driver : "no driver", w->name,
		 w->active_time_ms, w->event_count, DEVPM_WAKE_HELD_MS);
}

/* The file beside DEVPM_BASELINE; -ENOENT without one. */
static int baseline_path(char *buf, size_t len)
{
	const char *b = getenv(DEVPM_BASELINE_ENV);
	const char *slash = b ? strrchr(b, '/') : NULL;

	if (!b || b[0] != '/' || !slash)
		return -ENOENT;
	return devpm_fmt(buf, len, "%.*s/%s", (int)(slash - b), b,
			 DEVPM_WAKEUP_BASELINE_FILE);
}

static void field(char *dst, size_t len, const char *src)
{
	char *p;

	snprintf(dst, len, "%s", src[0] ? src : "-");
	for (p = dst; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
}

int devpm_wakeup_baseline_write(const char *dir)
{
	struct devpm_wakeup_source *ws;
	char p[DEVPM_PATH_MAX], nm[64], dv[128], dr[64];
	size_t n, i;
	FILE *f;
	int fd, r;

	r = devpm_wakeup_sources_read(&ws, &n);
	if (r)
		return r;
	r = devpm_fmt(p, sizeof(p), "%s/%s", dir, DEVPM_WAKEUP_BASELINE_FILE);
	fd = r ? -1 : open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				O_CLOEXEC, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		r = r ? r : -errno;
		if (fd >= 0)
			close(fd);
		free(ws);
		return r;
	}
	for (i = 0; i < n; i++) {
		field(nm, sizeof(nm), ws[i].name);
		field(dv, sizeof(dv), ws[i].dev);
		field(dr, sizeof(dr), ws[i].driver);
		fprintf(f, "%s\t%s\t%s\t%s\t%lu\t%lu\t%lld\t%lld\n",
			ws[i].id, nm, dv, dr, ws[i].active_count,
			ws[i].event_count, ws[i].active_time_ms,
			ws[i].prevent_suspend_time_ms);
	}
	free(ws);
	r = fflush(f) || ferror(f) ? -EIO : 0;
	fclose(f);
	return r;
}

static struct devpm_wakeup_source *base_v;
static size_t base_n;
static bool base_read;

/* One line of the file into s: 0, or -EINVAL. */
static int base_line(char *line, struct devpm_wakeup_source *s)
{
	char *f[8], *q = line;
	int k;

	for (k = 0; k < 8 && q; k++) {
		f[k] = q;
		q = strchr(q, '\t');
		if (q)
			*q++ = '\0';
	}
	if (k != 8)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	snprintf(s->id, sizeof(s->id), "%s", f[0]);
	snprintf(s->name, sizeof(s->name), "%s", f[1]);
	snprintf(s->dev, sizeof(s->dev), "%s", strcmp(f[2], "-") ? f[2] : "");
	snprintf(s->driver, sizeof(s->driver), "%s",
		 strcmp(f[3], "-") ? f[3] : "");
	s->active_count = strtoul(f[4], NULL, 10);
	s->event_count = strtoul(f[5], NULL, 10);
	s->active_time_ms = strtoll(f[6], NULL, 10);
	s->prevent_suspend_time_ms = strtoll(f[7], NULL, 10);
	return 0;
}

const struct devpm_wakeup_source *devpm_wakeup_baseline(size_t *n)
{
	char p[DEVPM_PATH_MAX], line[512];
	struct devpm_wakeup_source s, *t;
	struct stat st;
	size_t cap = 0;
	FILE *f = NULL;
	int fd;

	if (base_read) {
		*n = base_n;
		return base_v;
	}
	base_read = true;
	fd = baseline_path(p, sizeof(p)) ? -1 :
	     open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    (!st.st_uid || st.st_uid == geteuid()) && !(st.st_mode & 022))
		f = fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		/* By hand: the sources as this program first sees them. */
		if (devpm_wakeup_sources_read(&base_v, &base_n))
			base_n = 0;
		*n = base_n;
		return base_v;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (base_line(line, &s))
			continue;
		if (base_n == cap) {
			cap = cap ? 2 * cap : 32;
			t = realloc(base_v, cap * sizeof(*t));
			if (!t)
				break;
			base_v = t;
		}
		base_v[base_n++] = s;
	}
	fclose(f);
	*n = base_n;
	return base_v;
}

static int any_held(void *arg, char **f, int n)
{
	(void)n;
	if (strcmp(f[0], "held"))
		return 0;
	*(bool *)arg = true;
	return 1;
}

bool devpm_wakeup_held_known(void)
{
	bool found = false;

	if (strstr(devpm_sleep_blame(), "wakeup source"))
		return true;
	devpm_run_records(any_held, &found);
	return found;
}

/* Relaxed, or active past the bound: a source's fate is known. */
static bool decided(void *arg)
{
	long ms = (long)ws_ulong(arg, "active_time_ms");

	return ms <= 0 || ms > DEVPM_WAKE_HELD_MS;
}

int devpm_wakeup_held_check_wait(char *dev, size_t dlen, char *why,
				 size_t len)
{
	struct devpm_wakeup_source *ws;
	char id[16] = "";
	long long most = 0;
	size_t n, i;

	if (devpm_wakeup_sources_read_active(&ws, &n))
		return 0;
	for (i = 0; i < n; i++)
		if (ws[i].dev[0] && ws[i].active_time_ms > most &&
		    ws[i].active_time_ms <= DEVPM_WAKE_HELD_MS) {
			most = ws[i].active_time_ms;
			snprintf(id, sizeof(id), "%s", ws[i].id);
		}
	free(ws);
	if (id[0])
		devpm_poll_until(decided, id,
				 DEVPM_WAKE_HELD_MS - (int)most + 100);
	return devpm_wakeup_held_check(dev, dlen, why, len);
}

int devpm_wakeup_held_check(char *dev, size_t dlen, char *why, size_t len)
{
	struct devpm_wakeup_source *ws;
	size_t n;
	int r;

	why[0] = '\0';
	if (devpm_wakeup_sources_read_active(&ws, &n))
		return 0;
	r = devpm_wakeup_held_judge(ws, n, dev, dlen, why, len);
	free(ws);
	return r;
}

int devpm_wakeup_held_judge(const struct devpm_wakeup_source *ws, size_t n,
			    char *dev, size_t dlen, char *why, size_t len)
{
	const struct devpm_wakeup_source *base, *w;
	char ms[24];
	const char *f[4];
	size_t nb;

	why[0] = '\0';
	base = devpm_wakeup_baseline(&nb);
	w = devpm_wakeup_source_held(ws, n, base, nb);
	if (!w)
		return 0;
	if (dev)
		snprintf(dev, dlen, "%s", w->dev);
	devpm_wakeup_source_held_words(w, why, len);
	snprintf(ms, sizeof(ms), "%lld", w->active_time_ms);
	f[0] = w->name;
	f[1] = w->dev;
	f[2] = w->driver;
	f[3] = ms;
	if (!devpm_run_record_find("held", w->name, NULL, 0))
		devpm_run_record("held", f, 4);
	if (!devpm_sleep_verdict_owner())
		devpm_sleep_blame_set("system sleep blocked by %s; judged in %s",
				      why, DEVPM_SLEEP_JUDGE);
	return 1;
}
