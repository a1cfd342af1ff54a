// SPDX-License-Identifier: GPL-2.0-only
/*
 * device.c - the device model (device.h): resolve, snapshot and list the
 * devices that have a power/ directory.  Every path is a kernel path; the
 * sysfs root (sysfs.h) is applied only when a file is opened.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rpm/device.h"
#include "core/sysfs.h"
#include "state/journal.h"

#define DEVICES "/sys/devices"
#define MAX_DEPTH 64

/* Buses searched first for a bare device name, in this order. */
static const char *const name_buses[] = {
	"pci", "usb", "i2c", "scsi", "platform", NULL
};

static bool is_dir(const char *kpath)
{
	char real[PATH_MAX];
	struct stat st;

	if (devpm_real_path(real, sizeof(real), kpath) < 0)
		return false;
	return !stat(real, &st) && S_ISDIR(st.st_mode);
}

static bool has_power_dir(const char *kpath)
{
	char p[DEVPM_PATH_MAX];

	if (devpm_fmt(p, sizeof(p), "%s/power", kpath) < 0)
		return false;
	return is_dir(p);
}

/*
 * Basename of the target of the symlink <kpath>/<link>; "" if none.  By
 * dfd, kpath's directory, when open (one path walk for the device).
 */
static void link_base(int dfd, const char *kpath, const char *link,
		      char *buf, size_t len)
{
	char p[DEVPM_PATH_MAX], real[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	buf[0] = '\0';
	n = -1;
	if (dfd >= 0)
		n = readlinkat(dfd, link, target, sizeof(target) - 1);
	else if (!devpm_fmt(p, sizeof(p), "%s/%s", kpath, link) &&
		 !devpm_real_path(real, sizeof(real), p))
		n = readlink(real, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	snprintf(buf, len, "%s", base ? base + 1 : target);
}

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/*
 * Resolve a kernel path (following symlinks inside the sysfs root) to the
 * kernel path of the device directory.  -ENOENT if it does not exist,
 * -EINVAL if it leaves /sys/devices.
 */
static int resolve(const char *spec, const char *kpath, char *out,
		   size_t len)
{
	int r;

	r = devpm_resolve(kpath, out, len);
	if (r == -ENOENT || r == -ENOTDIR)
		return devpm_fail(ENOENT, "no device %s", spec);
	if (r == -EXDEV || (!r && strncmp(out, DEVICES "/",
					  strlen(DEVICES) + 1)))
		return devpm_fail(EINVAL, "%s is not a device under %s",
				  spec, DEVICES);
	return r;
}

/* Find a bare name under /sys/bus/<bus>/devices or /sys/class/<c>/. */
static int find_in(const char *top, const char *sub, const char *name,
		   char *out, size_t len)
{
	char dir[DEVPM_PATH_MAX], real[PATH_MAX], p[DEVPM_PATH_MAX];
	struct dirent **ents;
	int n, i, found = -ENOENT;

	if (devpm_real_path(real, sizeof(real), top) < 0)
		return -ENOENT;
	n = scandir(real, &ents, NULL, alphasort);
	if (n < 0)
		return -ENOENT;
	for (i = 0; i < n; i++) {
		if (found == -ENOENT && ents[i]->d_name[0] != '.' &&
		    devpm_fmt(dir, sizeof(dir), "%s/%s%s", top,
			      ents[i]->d_name, sub) == 0 &&
		    devpm_fmt(p, sizeof(p), "%s/%s", dir, name) == 0 &&
		    devpm_exists(p))
			found = devpm_fmt(out, len, "%s", p);
		free(ents[i]);
	}
	free(ents);
	return found;
}

static int spec_to_kpath(const char *spec, char *out, size_t len)
{
	char p[DEVPM_PATH_MAX];
	int i;

	if (spec[0] == '/') {
		if (strncmp(spec, "/sys/", 5))
			return devpm_fail(EINVAL,
					  "%s is not a device under %s",
					  spec, DEVICES);
		return devpm_fmt(out, len, "%s", spec);
	}
	if (strchr(spec, '/') || !strcmp(spec, ".") || !strcmp(spec, ".."))
		return devpm_fail(EINVAL,
				  "bad device name '%s': give a name such as 0000:00:1f.2 or a /sys path",
				  spec);
	for (i = 0; name_buses[i]; i++) {
		if (devpm_fmt(p, sizeof(p), "/sys/bus/%s/devices/%s",
			      name_buses[i], spec) < 0)
			continue;
		if (devpm_exists(p))
			return devpm_fmt(out, len, "%s", p);
	}
	if (!find_in("/sys/bus", "/devices", spec, out, len))
		return 0;
	if (!find_in("/sys/class", "", spec, out, len))
		return 0;
	return devpm_fail(ENOENT,
			  "no device %s under /sys/bus/*/devices or /sys/class/*: give a name from there or a /sys/devices path",
			  spec);
}

static int snapshot(struct devpm_dev *d, bool rules_only, int dfd);

/* A growing array of kernel paths; sorted: a device's parent is in it. */
struct paths {
	char (*p)[DEVPM_PATH_MAX];
	size_t n, cap;
	bool sorted;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * Fill d for the device at kernel path kpath.  known: the walk's sorted
 * devices (or NULL).  The walk enters every directory above a device it
 * adds and adds each that has power/, so the nearest ancestor in it is
 * the parent: no lookup of power/ above.
 */
static int fill(struct devpm_dev *d, const char *kpath, bool rules_only,
		const struct paths *known)
{
	char up[DEVPM_PATH_MAX], real[PATH_MAX], *slash;
	const char *base;
	int r, dfd = -1;

	memset(d, 0, sizeof(*d));
	r = devpm_fmt(d->path, sizeof(d->path), "%s", kpath);
	if (r < 0)
		return r;
	base = strrchr(d->path, '/');
	copy_str(d->name, sizeof(d->name), base ? base + 1 : d->path);
	/* < 0: each file by its path instead. */
	if (!devpm_real_path(real, sizeof(real), d->path))
		dfd = open(real, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	link_base(dfd, d->path, "subsystem", d->bus, sizeof(d->bus));
	link_base(dfd, d->path, "driver", d->driver, sizeof(d->driver));

	copy_str(up, sizeof(up), d->path);
	for (;;) {
		slash = strrchr(up, '/');
		if (!slash)
			break;
		*slash = '\0';
		if (strncmp(up, DEVICES "/", strlen(DEVICES) + 1))
			break;
		if (known && known->sorted ?
		    !!bsearch(up, known->p, known->n, sizeof(*known->p),
			      cmp_str) : has_power_dir(up)) {
			copy_str(d->parent, sizeof(d->parent), up);
			break;
		}
	}
	r = snapshot(d, rules_only, dfd);
	if (dfd >= 0)
		close(dfd);
	return r;
}

int devpm_dev_open(struct devpm_dev *d, const char *spec)
{
	char kpath[DEVPM_PATH_MAX], dev[DEVPM_PATH_MAX], p[DEVPM_PATH_MAX];
	int r;

	memset(d, 0, sizeof(*d));
	if (!spec || !spec[0])
		return devpm_fail(EINVAL, "empty device name");
	r = spec_to_kpath(spec, kpath, sizeof(kpath));
	if (r < 0)
		return r;
	r = resolve(spec, kpath, dev, sizeof(dev));
	if (r < 0)
		return r;
	if (!is_dir(dev) ||
	    (devpm_fmt(p, sizeof(p), "%s/uevent", dev) == 0 &&
	     !devpm_exists(p) && !has_power_dir(dev)))
		return devpm_fail(EINVAL,
				  "%s is not a device under %s (no uevent or power/)",
				  spec, DEVICES);
	return fill(d, dev, false, NULL);
}

/*
 * An attribute of d's power/: through pfd (its power/ opened once, for a
 * snapshot's dozen reads) when it is open, by path otherwise.
 */
static int pread_str(const struct devpm_dev *d, int pfd, const char *attr,
		     char *buf, size_t len)
{
	char p[DEVPM_PATH_MAX];
	int r;

	r = devpm_dev_attr(d, attr, p, sizeof(p));
	if (r < 0)
		return r;
	return pfd >= 0 ? devpm_read_str_at(pfd, attr, p, buf, len) :
			  devpm_read_str(p, buf, len);
}

static int pread_long(const struct devpm_dev *d, int pfd, const char *attr,
		      long *v)
{
	char p[DEVPM_PATH_MAX];
	int r;

	r = devpm_dev_attr(d, attr, p, sizeof(p));
	if (r < 0)
		return r;
	return pfd >= 0 ? devpm_read_long_at(pfd, attr, p, v) :
			  devpm_read_long(p, v);
}

static int read_str(const struct devpm_dev *d, const char *attr, char *buf,
		    size_t len)
{
	return pread_str(d, -1, attr, buf, len);
}

/* event_count of the wakeup source registered under the device. */
static long wakeup_event_count(const struct devpm_dev *d)
{
	char dir[DEVPM_PATH_MAX], real[PATH_MAX], p[DEVPM_PATH_MAX];
	struct dirent *e;
	long v = -1;
	DIR *dp;

	if (devpm_fmt(dir, sizeof(dir), "%s/wakeup", d->path) < 0 ||
	    devpm_real_path(real, sizeof(real), dir) < 0)
		return -1;
	dp = opendir(real);
	if (!dp)
		return -1;
	while ((e = readdir(dp))) {
		if (strncmp(e->d_name, "wakeup", 6))
			continue;
		if (devpm_fmt(p, sizeof(p), "%s/%s/event_count", dir,
			      e->d_name) == 0 &&
		    devpm_read_long(p, &v) == 0)
			break;
		v = -1;
	}
	closedir(dp);
	return v;
}

/*
 * rules_only: what devpm_dev_list_rpm() promises, nothing more.  dfd: the
 * device's directory, or -1.
 */
static int snapshot(struct devpm_dev *d, bool rules_only, int dfd)
{
	struct devpm_rpm *r = &d->rpm;
	char buf[32], p[DEVPM_PATH_MAX];
	long v;
	int ret, pfd = -1;

	memset(r, 0, sizeof(*r));
	memset(&d->wakeup, 0, sizeof(d->wakeup));
	d->wakeup.event_count = -1;
	/* Its power/ opened is proof enough that the device is there. */
	if (dfd >= 0)
		pfd = openat(dfd, "power",
			     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	else if (!devpm_fmt(p, sizeof(p), "%s/power", d->path))
		pfd = devpm_open_dir(p);	/* < 0: by path instead */
	if (pfd < 0 && !is_dir(d->path))
		return devpm_fail(ENOENT, "no device %s", d->path);

	r->have_control = !pread_str(d, pfd, "control", r->control,
				     sizeof(r->control));
	r->have_status = !pread_str(d, pfd, "runtime_status", r->status,
				    sizeof(r->status));
	r->have_usage = !pread_long(d, pfd, "runtime_usage", &r->usage);
	r->have_active_kids = !pread_long(d, pfd, "runtime_active_kids",
					  &r->active_kids);
	r->have_enabled = !pread_str(d, pfd, "runtime_enabled", r->enabled,
				     sizeof(r->enabled));
	/* Reads fail with EIO when the driver does not use autosuspend. */
	r->have_autosuspend = !pread_long(d, pfd, "autosuspend_delay_ms",
					  &r->autosuspend_delay_ms);
	if (!rules_only && !pread_long(d, pfd, "runtime_active_time", &v)) {
		r->active_ms = v;
		if (!pread_long(d, pfd, "runtime_suspended_time", &v)) {
			r->suspended_ms = v;
			r->have_times = true;
		}
	}
	if (!devpm_dev_attr(d, "pm_qos_resume_latency_us", p, sizeof(p))) {
		ret = pfd >= 0 ?
			devpm_read_long_or_na_at(pfd, "pm_qos_resume_latency_us",
						 p, &r->qos_latency_us) :
			devpm_read_long_or_na(p, &r->qos_latency_us);
		r->have_qos_latency = ret >= 0;
		r->qos_latency_na = ret == 1;
		if (ret == 1)
			r->qos_latency_us = 0;
	}
	if (rules_only) {
		if (pfd >= 0)
			close(pfd);
		return 0;
	}
	r->have_no_power_off = !pread_long(d, pfd, "pm_qos_no_power_off",
					   &r->no_power_off);
	r->have_async = !pread_str(d, pfd, "async", r->async,
				   sizeof(r->async));

	if (!pread_str(d, pfd, "wakeup", buf, sizeof(buf)) && buf[0]) {
		d->wakeup.capable = true;
		d->wakeup.enabled = !strcmp(buf, "enabled");
	}
	if (pfd >= 0)
		close(pfd);
	d->wakeup.event_count = wakeup_event_count(d);
	return 0;
}

int devpm_dev_snapshot(struct devpm_dev *d)
{
	return snapshot(d, false, -1);
}

int devpm_dev_attr(const struct devpm_dev *d, const char *attr, char *buf,
		   size_t len)
{
	return devpm_fmt(buf, len, "%s/power/%s", d->path, attr);
}

int devpm_dev_knob_write(const struct devpm_dev *d, const char *attr,
			 const char *val)
{
	return devpm_knob_writef(val, "%s/power/%s", d->path, attr);
}

int devpm_dev_attr_read(const struct devpm_dev *d, const char *attr,
			char *buf, size_t len)
{
	char k[DEVPM_PATH_MAX];
	int r = devpm_dev_attr(d, attr, k, sizeof(k));

	return r ? r : devpm_read_str(k, buf, len);
}

int devpm_dev_status(const struct devpm_dev *d, char *buf, size_t len)
{
	int r;

	r = read_str(d, "runtime_status", buf, len);
	if (r == -ENOENT) {
		buf[0] = '\0';
		return 0;
	}
	if (r < 0)
		buf[0] = '\0';
	return r;
}

static int paths_add(struct paths *ps, const char *kpath)
{
	void *np;

	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? ps->cap * 2 : 64;
		np = realloc(ps->p, ps->cap * sizeof(*ps->p));
		if (!np)
			return devpm_fail(ENOMEM, "out of memory");
		ps->p = np;
	}
	copy_str(ps->p[ps->n++], DEVPM_PATH_MAX, kpath);
	return 0;
}

/* Whether the entry e of the directory dfd is a directory; no symlink. */
static bool entry_is_dir(int dfd, const struct dirent *e)
{
	struct stat st;

	if (e->d_type != DT_UNKNOWN)
		return e->d_type == DT_DIR;
	return !fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
	       S_ISDIR(st.st_mode);
}

/* Whether <dfd>/<name>/power is a directory (followed, as stat() does). */
static bool power_at(int dfd, const char *name)
{
	char p[NAME_MAX + 8];
	struct stat st;

	return devpm_fmt(p, sizeof(p), "%s/power", name) == 0 &&
	       !fstatat(dfd, p, &st, 0) && S_ISDIR(st.st_mode);
}

/*
 * Collect the devices below dir, open as dfd (closed here).  all: every
 * device at any depth, each known by the power/ in the listing the walk
 * reads anyway, *dev saying whether dir is one (a lookup of <sub>/power
 * in every directory, mostly a miss, made the walk of 441 devices under
 * TCG 0.21 s instead of 0.11 s).  Else stop at the first device on each
 * branch (the model's direct children).  Subdirectories are opened
 * relative to their parent.  Symlinks are not followed; power/ and
 * wakeup-source directories are not entered.
 */
static int walk_at(int dfd, const char *dir, bool all, int depth,
		   struct paths *ps, bool *dev)
{
	char sub[DEVPM_PATH_MAX];
	struct dirent *e;
	struct stat st;
	bool sub_dev;
	int r = 0, fd;
	DIR *dp;

	*dev = false;
	dp = fdopendir(dfd);
	if (!dp) {
		close(dfd);
		return 0;
	}
	while (!r && (e = readdir(dp))) {
		if (!strcmp(e->d_name, "power")) {
			*dev |= e->d_type == DT_DIR ||
				((e->d_type == DT_LNK || e->d_type == DT_UNKNOWN) &&
				 !fstatat(dirfd(dp), "power", &st, 0) &&
				 S_ISDIR(st.st_mode));
			continue;
		}
		/* Below MAX_DEPTH a directory only says whether it is one. */
		if (depth > MAX_DEPTH || e->d_name[0] == '.' ||
		    !strcmp(e->d_name, "wakeup") ||
		    !entry_is_dir(dirfd(dp), e) ||
		    devpm_fmt(sub, sizeof(sub), "%s/%s", dir, e->d_name) < 0)
			continue;
		if (!all && power_at(dirfd(dp), e->d_name)) {
			r = paths_add(ps, sub);
			continue;
		}
		fd = openat(dirfd(dp), e->d_name,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		r = walk_at(fd, sub, all, depth + 1, ps, &sub_dev);
		if (!r && all && sub_dev)
			r = paths_add(ps, sub);
	}
	closedir(dp);
	return r;
}

static int walk(const char *dir, bool all, struct paths *ps)
{
	char real[PATH_MAX];
	bool dev;
	int fd;

	if (devpm_real_path(real, sizeof(real), dir) < 0)
		return 0;
	fd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	return walk_at(fd, dir, all, 0, ps, &dev);
}

/*
 * The devices of one bus from /sys/bus/<bus>/devices (links into
 * /sys/devices).  -ENOENT when the bus has no such directory (a class, or a
 * recorded tree without it): the caller walks /sys/devices instead.
 */
static int bus_paths(const char *bus, struct paths *ps)
{
	char dir[DEVPM_PATH_MAX], real[PATH_MAX], link[DEVPM_PATH_MAX];
	char dev[DEVPM_PATH_MAX];
	struct dirent *e;
	int r = 0;
	DIR *dp;

	if (devpm_fmt(dir, sizeof(dir), "/sys/bus/%s/devices", bus) < 0 ||
	    devpm_real_path(real, sizeof(real), dir) < 0)
		return -ENOENT;
	dp = opendir(real);
	if (!dp)
		return -ENOENT;
	while (!r && (e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		if (devpm_fmt(link, sizeof(link), "%s/%s", dir, e->d_name) < 0 ||
		    devpm_resolve(link, dev, sizeof(dev)) < 0 ||
		    strncmp(dev, DEVICES "/", strlen(DEVICES) + 1) ||
		    !has_power_dir(dev))
			continue;
		r = paths_add(ps, dev);
	}
	closedir(dp);
	return r;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct devpm_dev *)a)->path,
		      ((const struct devpm_dev *)b)->path);
}

/* Build the device list from paths, keeping those on bus (NULL: all). */
static int build(struct paths *ps, const char *bus, bool rules_only,
		 struct devpm_dev **list, size_t *n)
{
	struct devpm_dev *out;
	size_t i, k = 0;

	out = calloc(ps->n ? ps->n : 1, sizeof(*out));
	if (!out)
		return devpm_fail(ENOMEM, "out of memory");
	for (i = 0; i < ps->n; i++) {
		if (fill(&out[k], ps->p[i], rules_only, ps) < 0)
			continue;	/* went away while we looked */
		if (bus && strcmp(out[k].bus, bus))
			continue;
		k++;
	}
	qsort(out, k, sizeof(*out), cmp_path);
	*list = out;
	*n = k;
	return 0;
}

static int list_of(const char *bus, bool rules_only, struct devpm_dev **list,
		   size_t *n)
{
	struct paths ps = { 0 };
	int r;

	*list = NULL;
	*n = 0;
	if (!is_dir(DEVICES))
		return devpm_fail(ENOENT, "no %s under sysfs root '%s'",
				  DEVICES, devpm_sysfs_root());
	/* A bus lists its devices: far cheaper than walking all of sysfs. */
	r = bus ? bus_paths(bus, &ps) : -ENOENT;
	if (r == -ENOENT) {
		ps.n = 0;
		r = walk(DEVICES, true, &ps);
		if (ps.n)
			qsort(ps.p, ps.n, sizeof(*ps.p), cmp_str);
		ps.sorted = true;
	}
	if (!r)
		r = build(&ps, bus, rules_only, list, n);
	free(ps.p);
	return r;
}

int devpm_dev_list(const char *bus, struct devpm_dev **list, size_t *n)
{
	return list_of(bus, false, list, n);
}

int devpm_dev_list_rpm(const char *bus, struct devpm_dev **list, size_t *n)
{
	return list_of(bus, true, list, n);
}

int devpm_dev_children(const struct devpm_dev *d, struct devpm_dev **list,
		       size_t *n)
{
	struct paths ps = { 0 };
	int r;

	*list = NULL;
	*n = 0;
	r = walk(d->path, false, &ps);
	if (!r)
		r = build(&ps, NULL, false, list, n);
	free(ps.p);
	return r;
}

/* Names the kernel numbers in the order devices come: the prefix's length. */
static size_t probe_prefix(const char *name)
{
	static const char *const prefixes[] = {
		"input", "event", "mouse", "js", "hidraw", "sg", "wakeup",
		NULL
	};
	size_t i, n;

	for (i = 0; prefixes[i]; i++) {
		n = strlen(prefixes[i]);
		if (!strncmp(name, prefixes[i], n) && isdigit((unsigned char)name[n]))
			return n;
	}
	return 0;
}

/* A HID device: BBBB:VVVV:PPPP.NNNN (drivers/hid/hid-core.c hid_add_device()). */
static bool hid_id(const char *c, size_t len)
{
	unsigned int b, v, p, k;
	int end = 0;
	char tmp[32];

	if (len >= sizeof(tmp))
		return false;
	memcpy(tmp, c, len);
	tmp[len] = '\0';
	return sscanf(tmp, "%4x:%4x:%4x.%4x%n", &b, &v, &p, &k, &end) == 4 &&
	       (size_t)end == len;
}

/* A class directory between a device and the devices of its class. */
static bool class_dir(const char *c, size_t len)
{
	static const char *const dirs[] = {
		"input", "hidraw", "scsi_generic", "wakeup", "usbmisc",
		"misc", "sound", NULL
	};
	size_t i;

	for (i = 0; dirs[i]; i++)
		if (strlen(dirs[i]) == len && !strncmp(c, dirs[i], len))
			return true;
	return false;
}

long devpm_dev_probe_number(const char *name)
{
	size_t n = probe_prefix(name);

	return n ? strtol(name + n, NULL, 10) : -1;
}

int devpm_dev_stable_name(const char *path, char *buf, size_t len)
{
	const char *leaf = strrchr(path, '/'), *rest, *end, *c;
	size_t n;

	leaf = leaf ? leaf + 1 : path;
	n = probe_prefix(leaf);
	if (!n)
		return 0;
	/* Up from the leaf's parent to a component named by place. */
	end = leaf - 1;
	while (end > path) {
		c = end;
		while (c > path && c[-1] != '/')
			c--;
		if (!probe_prefix(c) && !hid_id(c, (size_t)(end - c)) &&
		    !class_dir(c, (size_t)(end - c)))
			break;
		end = c - 1;
	}
	if (end <= path)
		return 0;
	c = end;
	while (c > path && c[-1] != '/')
		c--;
	/* The leaf without its number: input12::numlock -> input::numlock. */
	rest = leaf + n;
	while (isdigit((unsigned char)*rest))
		rest++;
	snprintf(buf, len, "%.*s/%.*s%s", (int)(end - c), c, (int)n, leaf,
		 rest);
	return 1;
}

int devpm_dev_class_path(const char *name, char *buf, size_t len)
{
	char classes[DEVPM_PATH_MAX], k[DEVPM_PATH_MAX];
	struct dirent *e;
	DIR *d;
	int r = -ENOENT;

	if (strchr(name, '/') || name[0] == '.')
		return -EINVAL;
	if (devpm_real_path(classes, sizeof(classes), "/sys/class") < 0)
		return -ENAMETOOLONG;
	d = opendir(classes);
	if (!d)
		return -errno;
	while (r == -ENOENT && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(k, sizeof(k), "/sys/class/%s/%s", e->d_name, name);
		if (devpm_exists(k))
			r = devpm_resolve(k, buf, len);
	}
	closedir(d);
	return r;
}

int devpm_dev_probe_rank(const char *kpath, int *rank, int *n)
{
	const char *leaf = strrchr(kpath, '/');
	char dir[DEVPM_PATH_MAX], real[DEVPM_PATH_MAX];
	const char *mine_rest, *rest;
	struct dirent *e;
	size_t np;
	long mine, k;
	DIR *d;

	if (!leaf)
		return -EINVAL;
	np = probe_prefix(++leaf);
	if (!np)
		return -EINVAL;
	mine = strtol(leaf + np, (char **)&mine_rest, 10);
	snprintf(dir, sizeof(dir), "%.*s", (int)(leaf - 1 - kpath), kpath);
	if (devpm_real_path(real, sizeof(real), dir) < 0)
		return -ENAMETOOLONG;
	d = opendir(real);
	if (!d)
		return -errno;
	*rank = 1;
	*n = 0;
	while ((e = readdir(d))) {
		if (probe_prefix(e->d_name) != np ||
		    strncmp(e->d_name, leaf, np))
			continue;
		k = strtol(e->d_name + np, (char **)&rest, 10);
		if (strcmp(rest, mine_rest))
			continue;
		(*n)++;
		*rank += k < mine;
	}
	closedir(d);
	return 0;
}
