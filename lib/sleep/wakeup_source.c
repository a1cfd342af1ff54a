// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup_source.c - /sys/class/wakeup snapshots (wakeup_source.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sleep/wakeup_source.h"
#include "core/sysfs.h"

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

static int by_id(const void *a, const void *b)
{
	const struct devpm_wakeup_source *x = a, *y = b;
	size_t lx = strlen(x->id), ly = strlen(y->id);

	/* wakeup2 before wakeup10 */
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->id, y->id);
}

int devpm_wakeup_sources_read(struct devpm_wakeup_source **ws, size_t *n)
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
		if (devpm_fmt(p, sizeof(p), CLASS "/%s/name", s->id) < 0 ||
		    devpm_read_str(p, s->name, sizeof(s->name)) < 0)
			continue;	/* gone meanwhile */
		s->active_count = ws_ulong(s->id, "active_count");
		s->event_count = ws_ulong(s->id, "event_count");
		s->wakeup_count = ws_ulong(s->id, "wakeup_count");
		s->expire_count = ws_ulong(s->id, "expire_count");
		s->active_time_ms = ws_ulong(s->id, "active_time_ms");
		k++;
	}
	closedir(d);
	if (k)
		qsort(v, k, sizeof(*v), by_id);
	*ws = v;
	*n = k;
	return 0;
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
	size_t i, at = 0;

	if (!len)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (ws[i].active_time_ms <= 0)
			continue;
		if (add(buf, len, &at, ws[i].name, NULL, 0)) {
			buf[0] = '\0';
			return -ENAMETOOLONG;
		}
	}
	return 0;
}
