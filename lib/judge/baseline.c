// SPDX-License-Identifier: GPL-2.0-only
/*
 * baseline.c - the run's runtime-PM baseline (baseline.h).
 *
 * control=on holds one usage reference (pm_runtime_forbid() in
 * drivers/base/power/runtime.c increments usage_count), so a device whose
 * usage count is no more than that, with no active child, runtime PM
 * enabled and no resume-latency request of 0 passes
 * rpm_check_suspend_allowed() once control=auto: it could suspend.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/baseline.h"
#include "core/path_trust.h"
#include "core/poll.h"
#include "core/sysfs.h"
#include "rpm/device.h"

/* A baseline of a million devices is well below: refuse a bigger file. */
#define BASELINE_MAX (256 << 20)

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

long devpm_usage_held(long usage, const char *control, long delay_ms)
{
	return usage - !strcmp(control ? control : "", "on") -
	       (delay_ms != LONG_MIN && delay_ms < 0);
}

void devpm_baseline_judge(const struct devpm_dev *d, struct devpm_base_dev *b)
{
	const struct devpm_rpm *r = &d->rpm;
	long held;

	memset(b, 0, sizeof(*b));
	copy(b->path, sizeof(b->path), d->path);
	copy(b->name, sizeof(b->name), d->name);
	copy(b->bus, sizeof(b->bus), d->bus);
	copy(b->driver, sizeof(b->driver), d->driver);
	if (r->have_status)
		copy(b->status, sizeof(b->status), r->status);
	if (r->have_control)
		copy(b->control, sizeof(b->control), r->control);
	b->usage = r->have_usage ? r->usage : -1;
	b->active_kids = r->have_active_kids ? r->active_kids : -1;
	if (r->have_enabled)
		copy(b->enabled, sizeof(b->enabled), r->enabled);
	b->autosuspend_delay_ms = r->have_autosuspend ?
		r->autosuspend_delay_ms : LONG_MIN;
	held = devpm_usage_held(b->usage, b->control, b->autosuspend_delay_ms);

	b->could_suspend = false;
	if (!b->status[0] || !strcmp(b->status, "unsupported"))
		copy(b->role, sizeof(b->role), "no_runtime_pm");
	else if (!strcmp(b->status, "error"))
		copy(b->role, sizeof(b->role), "error");
	else if (!strcmp(b->status, "suspended")) {
		copy(b->role, sizeof(b->role), "suspended");
		b->could_suspend = true;
	} else if (strstr(b->enabled, "disabled"))
		copy(b->role, sizeof(b->role), "disabled");
	else if (r->have_qos_latency && r->qos_latency_na)
		copy(b->role, sizeof(b->role), "qos_no_suspend");
	else if (b->usage < 0)
		copy(b->role, sizeof(b->role), "usage_unknown");
	else if (held > 0)
		copy(b->role, sizeof(b->role), "usage_held");
	else if (b->autosuspend_delay_ms != LONG_MIN &&
		 b->autosuspend_delay_ms < 0)
		copy(b->role, sizeof(b->role), "autosuspend_off");
	else if (b->active_kids > 0)
		copy(b->role, sizeof(b->role), "active_children");
	else if (!strcmp(b->control, "on")) {
		copy(b->role, sizeof(b->role), "forbidden");
		b->could_suspend = true;
	} else {
		/* control=auto, nothing held, yet active: say so. */
		copy(b->role, sizeof(b->role), "active_unexplained");
	}
}

/*
 * A run often starts while the kernel still probes (a disk scan holds its
 * controller): the counts are read again until a pass changes none of
 * them, with back-off and a bound, and a count that never settled is
 * taken at its lowest (references come on top of the steady state).
 */
#define SETTLE_MS 5000

struct settle {
	struct devpm_dev *list;
	size_t n;
	long *min;
	bool changed;
	unsigned int passes;
};

static void reread(struct devpm_dev *d, long *min, bool *changed)
{
	char p[DEVPM_PATH_MAX];
	long v;

	if (d->rpm.have_usage &&
	    !devpm_fmt(p, sizeof(p), "%s/power/runtime_usage", d->path) &&
	    !devpm_read_long(p, &v) && v != d->rpm.usage) {
		d->rpm.usage = v;
		*changed = true;
	}
	if (d->rpm.have_usage && d->rpm.usage < *min)
		*min = d->rpm.usage;
	if (d->rpm.have_active_kids &&
	    !devpm_fmt(p, sizeof(p), "%s/power/runtime_active_kids",
		       d->path) &&
	    !devpm_read_long(p, &v) && v != d->rpm.active_kids) {
		d->rpm.active_kids = v;
		*changed = true;
	}
	if (d->rpm.have_status &&
	    !devpm_fmt(p, sizeof(p), "%s/power/runtime_status", d->path))
		devpm_read_str(p, d->rpm.status, sizeof(d->rpm.status));
}

static bool settled(void *arg)
{
	struct settle *st = arg;
	size_t i;

	st->changed = false;
	st->passes++;
	for (i = 0; i < st->n; i++)
		reread(&st->list[i], &st->min[i], &st->changed);
	return !st->changed;
}

int devpm_baseline_take(struct devpm_baseline *b)
{
	struct devpm_dev *list = NULL;
	struct settle st;
	size_t n = 0, i;
	bool calm;
	int r;

	memset(b, 0, sizeof(*b));
	r = devpm_dev_list_rpm(NULL, &list, &n);
	if (r < 0)
		return r;
	b->v = calloc(n ? n : 1, sizeof(*b->v));
	st.min = calloc(n ? n : 1, sizeof(*st.min));
	if (!b->v || !st.min) {
		free(b->v);
		free(st.min);
		free(list);
		b->v = NULL;
		return devpm_fail(ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++)
		st.min[i] = list[i].rpm.have_usage ? list[i].rpm.usage : 0;
	st.list = list;
	st.n = n;
	st.passes = 0;
	calm = settled(&st) || devpm_poll_until(settled, &st, SETTLE_MS);
	for (i = 0; i < n; i++) {
		if (!calm && list[i].rpm.have_usage)
			list[i].rpm.usage = st.min[i];
		devpm_baseline_judge(&list[i], &b->v[i]);
		b->have_usage |= list[i].rpm.have_usage;
	}
	b->n = n;
	b->passes = st.passes;
	copy(b->source, sizeof(b->source), calm ? "taken at start" :
	     "taken at start, not settled in 5 s: lowest counts");
	free(st.min);
	free(list);
	return 0;
}

static const char *dash(const char *s)
{
	return s[0] ? s : "-";
}

int devpm_baseline_write_at(const struct devpm_baseline *b, int dfd,
			    const char *name)
{
	char tmp[NAME_MAX + 1];
	size_t i;
	FILE *f;
	int fd;

	if (devpm_fmt(tmp, sizeof(tmp), "%s.tmp", name) < 0)
		return -ENAMETOOLONG;
	/* A name of ours only: never through a link, never another's file. */
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", tmp, strerror(errno));
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlinkat(dfd, tmp, 0);
		return devpm_fail(errno, "%s: %s", tmp, strerror(errno));
	}
	fprintf(f, "# devpm baseline 1 usage=%s\n",
		b->have_usage ? "sysfs" : "none");
	for (i = 0; i < b->n; i++) {
		const struct devpm_base_dev *d = &b->v[i];

		fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%ld\t%ld\t%s\t%ld\t%d\t%s\n",
			d->path, d->name, dash(d->bus), dash(d->driver),
			dash(d->status), dash(d->control), d->usage,
			d->active_kids, dash(d->enabled),
			d->autosuspend_delay_ms, d->could_suspend,
			dash(d->role));
	}
	if (fflush(f) || fsync(fd)) {
		fclose(f);
		unlinkat(dfd, tmp, 0);
		return devpm_fail(errno, "%s: %s", tmp, strerror(errno));
	}
	if (fclose(f) || renameat(dfd, tmp, dfd, name)) {
		unlinkat(dfd, tmp, 0);
		return devpm_fail(errno, "%s: %s", name, strerror(errno));
	}
	return 0;
}

int devpm_baseline_write(const struct devpm_baseline *b, const char *file)
{
	char base[NAME_MAX + 1];
	int dfd, r;

	dfd = devpm_path_trust_open(file, DEVPM_TRUST_PARENT, 0, 0, base,
				    sizeof(base));
	if (dfd < 0)
		return devpm_fail(dfd, "baseline %s: %s", file, devpm_error());
	r = devpm_baseline_write_at(b, dfd, base);
	close(dfd);
	return r < 0 ? devpm_fail(r, "baseline %s: %s", file, devpm_error()) :
		       0;
}

/* Next tab-separated field of *s into dst ("-" is empty). */
static bool field(char **s, char *dst, size_t len)
{
	char *tab;

	if (!*s)
		return false;
	tab = strchr(*s, '\t');
	if (tab)
		*tab = '\0';
	if ((size_t)snprintf(dst, len, "%s", strcmp(*s, "-") ? *s : "") >= len)
		return false;
	*s = tab ? tab + 1 : NULL;
	return true;
}

static bool field_long(char **s, long *v)
{
	char buf[32], *end;

	if (!field(s, buf, sizeof(buf)) || !buf[0])
		return false;
	errno = 0;
	*v = strtol(buf, &end, 10);
	return !errno && !*end;
}

static int parse_line(char *line, struct devpm_base_dev *d)
{
	char *s = line, cs[4];
	long v;

	memset(d, 0, sizeof(*d));
	if (!field(&s, d->path, sizeof(d->path)) || !d->path[0] ||
	    !field(&s, d->name, sizeof(d->name)) ||
	    !field(&s, d->bus, sizeof(d->bus)) ||
	    !field(&s, d->driver, sizeof(d->driver)) ||
	    !field(&s, d->status, sizeof(d->status)) ||
	    !field(&s, d->control, sizeof(d->control)) ||
	    !field_long(&s, &d->usage) || !field_long(&s, &d->active_kids) ||
	    !field(&s, d->enabled, sizeof(d->enabled)) ||
	    !field_long(&s, &d->autosuspend_delay_ms) ||
	    !field(&s, cs, sizeof(cs)) || (strcmp(cs, "0") && strcmp(cs, "1")) ||
	    !field(&s, d->role, sizeof(d->role)) || s)
		return -EINVAL;
	v = cs[0] - '0';
	d->could_suspend = v;
	return 0;
}

int devpm_baseline_read(struct devpm_baseline *b, const char *file)
{
	char line[2048], usage[16], base[NAME_MAX + 1];
	size_t cap = 0, lineno = 0;
	struct stat st;
	int fd, dfd;
	FILE *f;

	memset(b, 0, sizeof(*b));
	/* path_trust.h's walk; a link at the file itself is not followed. */
	fd = devpm_path_trust_open(file, DEVPM_TRUST_PARENT, 0, 0, base,
				   sizeof(base));
	if (fd >= 0) {
		dfd = fd;
		fd = devpm_path_trust_file(dfd, base, O_RDONLY, 0, 0);
		close(dfd);
	}
	if (fd == -ENOENT)
		return devpm_fail(ENOENT, "baseline %s: %s", file,
				  strerror(ENOENT));
	if (fd < 0)
		return devpm_fail(EPERM, "baseline %s: %s; let 'devpm run' write it",
				  file, devpm_error());
	/* Not a regular file of ours or root's: refused above. */
	if (fstat(fd, &st) || (st.st_uid && st.st_uid != geteuid()) ||
	    (st.st_mode & 0022) || st.st_size > BASELINE_MAX) {
		close(fd);
		return devpm_fail(EPERM, "baseline %s: not a regular file of ours or root, writable by others or over %d MiB; let 'devpm run' write it",
				  file, BASELINE_MAX >> 20);
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return devpm_fail(errno, "baseline %s: %s", file,
				  strerror(errno));
	}
	while (fgets(line, sizeof(line), f)) {
		size_t l = strlen(line);

		lineno++;
		if (l && line[l - 1] == '\n')
			line[--l] = '\0';
		if (lineno == 1) {
			if (sscanf(line, "# devpm baseline 1 usage=%15s",
				   usage) != 1)
				goto bad;
			b->have_usage = !strcmp(usage, "sysfs");
			continue;
		}
		if (b->n == cap) {
			struct devpm_base_dev *g;

			cap = cap ? cap * 2 : 64;
			g = realloc(b->v, cap * sizeof(*g));
			if (!g) {
				fclose(f);
				devpm_baseline_free(b);
				return devpm_fail(ENOMEM, "out of memory");
			}
			b->v = g;
		}
		if (parse_line(line, &b->v[b->n]) < 0)
			goto bad;
		b->n++;
	}
	fclose(f);
	if (!lineno) {
		devpm_baseline_free(b);
		return devpm_fail(EINVAL, "baseline %s: empty; let 'devpm run' write it",
				  file);
	}
	copy(b->source, sizeof(b->source), file);
	return 0;
bad:
	fclose(f);
	devpm_baseline_free(b);
	return devpm_fail(EINVAL, "baseline %s: line %zu is malformed; let 'devpm run' write it",
			  file, lineno);
}

void devpm_baseline_free(struct devpm_baseline *b)
{
	free(b->v);
	memset(b, 0, sizeof(*b));
}

const struct devpm_base_dev *devpm_baseline_find(const struct devpm_baseline *b,
						 const char *name_or_path)
{
	size_t i;

	if (!b || !name_or_path)
		return NULL;
	for (i = 0; i < b->n; i++)
		if (!strcmp(b->v[i].path, name_or_path))
			return &b->v[i];
	for (i = 0; i < b->n; i++)
		if (!strcmp(b->v[i].name, name_or_path))
			return &b->v[i];
	return NULL;
}

static struct devpm_baseline the_baseline;
static bool have_baseline;

const struct devpm_baseline *devpm_baseline(void)
{
	/* As root, ignored (and said) unless root's alone (path_trust.h). */
	const char *file = devpm_path_trust_env(DEVPM_BASELINE_ENV);

	if (have_baseline)
		return &the_baseline;
	if (file && file[0]) {
		if (devpm_baseline_read(&the_baseline, file) < 0)
			return NULL;
	} else if (devpm_baseline_take(&the_baseline) < 0) {
		return NULL;
	}
	have_baseline = true;
	return &the_baseline;
}

void devpm_baseline_reset(void)
{
	devpm_baseline_free(&the_baseline);
	have_baseline = false;
}

bool devpm_baseline_apply(struct devpm_dev *d)
{
	const struct devpm_base_dev *b;
	struct devpm_rpm *r = &d->rpm;

	if (!have_baseline)
		return false;
	b = devpm_baseline_find(&the_baseline, d->path);
	if (!b || strcmp(b->driver, d->driver))
		return false;
	r->have_status = b->status[0];
	copy(r->status, sizeof(r->status), b->status);
	r->have_control = b->control[0];
	copy(r->control, sizeof(r->control), b->control);
	r->have_usage = b->usage >= 0;
	r->usage = b->usage;
	r->have_active_kids = b->active_kids >= 0;
	r->active_kids = b->active_kids;
	if (b->enabled[0]) {
		r->have_enabled = true;
		copy(r->enabled, sizeof(r->enabled), b->enabled);
	}
	return true;
}

long devpm_baseline_usage(const struct devpm_dev *d)
{
	const struct devpm_base_dev *b =
		devpm_baseline_find(devpm_baseline(), d->path);

	if (!b || b->usage < 0 || strcmp(b->driver, d->driver))
		return -1;
	return devpm_usage_held(b->usage, b->control,
				b->autosuspend_delay_ms);
}
