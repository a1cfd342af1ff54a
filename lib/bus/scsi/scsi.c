// SPDX-License-Identifier: GPL-2.0-only
/*
 * scsi.c - SCSI disks, scsi_debug, O_DIRECT pattern I/O and SCSI command
 * events (scsi.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus/scsi/scsi.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "rpm/device.h"
#include "rpm/devnode.h"
#include "state/journal.h"
#include "trace/trace.h"

static int parse_hctl(const char *name, struct devpm_scsi_disk *d)
{
	char end;

	return sscanf(name, "%u:%u:%u:%llu%c", &d->host_no, &d->channel,
		      &d->id, &d->lun, &end) == 4 ? 0 : -1;
}

static void basename_of(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');

	snprintf(buf, len, "%s", b ? b + 1 : path);
}

static void dirname_of(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');

	snprintf(buf, len, "%.*s", b ? (int)(b - path) : 0, path);
}

/* First entry of a directory (kernel path), "" when none. */
static void first_entry(const char *kdir, char *buf, size_t len)
{
	char real[DEVPM_PATH_MAX];
	struct dirent *de;
	DIR *dir;

	buf[0] = '\0';
	if (devpm_real_path(real, sizeof(real), kdir))
		return;
	dir = opendir(real);
	if (!dir)
		return;
	while ((de = readdir(dir)))
		if (de->d_name[0] != '.') {
			snprintf(buf, len, "%s", de->d_name);
			break;
		}
	closedir(dir);
}

/* Fill the libata port and the PCI controller above the host. */
static void find_ancestors(struct devpm_scsi_disk *d)
{
	char p[DEVPM_PATH_MAX], name[128], sub[DEVPM_PATH_MAX];
	char link[DEVPM_PATH_MAX];
	unsigned int n;

	dirname_of(d->host_path, p, sizeof(p));
	while (strlen(p) > strlen("/sys/devices")) {
		basename_of(p, name, sizeof(name));
		if (!d->ata_port[0] && sscanf(name, "ata%u", &n) == 1 &&
		    !strcmp(name + 3 + strspn(name + 3, "0123456789"), "")) {
			snprintf(d->ata_port, sizeof(d->ata_port), "%s", name);
			snprintf(d->ata_port_path, sizeof(d->ata_port_path),
				 "%s", p);
		}
		if (!devpm_fmt(sub, sizeof(sub), "%s/subsystem", p) &&
		    !devpm_resolve(sub, link, sizeof(link)) &&
		    !strcmp(link, "/sys/bus/pci")) {
			snprintf(d->ctrl, sizeof(d->ctrl), "%s", name);
			snprintf(d->ctrl_path, sizeof(d->ctrl_path), "%s", p);
			return;
		}
		dirname_of(p, sub, sizeof(sub));
		snprintf(p, sizeof(p), "%s", sub);
	}
}

static int fill_disk(const struct devpm_dev *dev, struct devpm_scsi_disk *d)
{
	char k[DEVPM_PATH_MAX];

	memset(d, 0, sizeof(*d));
	if (parse_hctl(dev->name, d) || strcmp(dev->driver, "sd"))
		return -1;
	snprintf(d->name, sizeof(d->name), "%s", dev->name);
	snprintf(d->path, sizeof(d->path), "%s", dev->path);
	dirname_of(d->path, d->target_path, sizeof(d->target_path));
	basename_of(d->target_path, d->target, sizeof(d->target));
	dirname_of(d->target_path, d->host_path, sizeof(d->host_path));
	basename_of(d->host_path, d->host, sizeof(d->host));
	if (strncmp(d->target, "target", 6) || strncmp(d->host, "host", 4))
		return -1;
	if (!devpm_fmt(k, sizeof(k), "%s/block", d->path))
		first_entry(k, d->block, sizeof(d->block));
	if (devpm_fmt(k, sizeof(k), "%s/scsi_host/%s/proc_name", d->host_path,
		      d->host) || devpm_read_str(k, d->proc_name,
						 sizeof(d->proc_name)))
		d->proc_name[0] = '\0';
	d->scsi_debug = !strcmp(d->proc_name, "scsi_debug");
	find_ancestors(d);
	return 0;
}

static int by_hctl(const void *x, const void *y)
{
	const struct devpm_scsi_disk *a = x, *b = y;

	if (a->host_no != b->host_no)
		return a->host_no < b->host_no ? -1 : 1;
	if (a->channel != b->channel)
		return a->channel < b->channel ? -1 : 1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->lun < b->lun ? -1 : a->lun > b->lun;
}

/* /sys/bus/scsi/devices: far cheaper than walking /sys/devices. */
int devpm_scsi_disks(struct devpm_scsi_disk **list, size_t *n)
{
	struct devpm_scsi_disk *out = NULL, *np, tmp;
	char k[DEVPM_PATH_MAX];
	struct devpm_dev d;
	struct dirent *de;
	size_t cnt = 0;
	DIR *dir;

	*list = NULL;
	*n = 0;
	dir = devpm_opendir("/sys/bus/scsi/devices");
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dir))) {
		if (parse_hctl(de->d_name, &tmp) ||
		    devpm_fmt(k, sizeof(k), "/sys/bus/scsi/devices/%s",
			      de->d_name) ||
		    devpm_dev_open(&d, k) < 0 || fill_disk(&d, &tmp))
			continue;
		np = realloc(out, (cnt + 1) * sizeof(*out));
		if (!np) {
			closedir(dir);
			free(out);
			return devpm_fail(ENOMEM, "out of memory");
		}
		out = np;
		out[cnt++] = tmp;
	}
	closedir(dir);
	if (cnt)
		qsort(out, cnt, sizeof(*out), by_hctl);
	*list = out;
	*n = cnt;
	return 0;
}

size_t devpm_scsi_disks_below(struct devpm_scsi_disk *list, size_t n,
			      const char *kpath)
{
	size_t i, k = 0, l = strlen(kpath);

	while (l > 1 && kpath[l - 1] == '/')
		l--;
	for (i = 0; i < n; i++)
		if (!strncmp(list[i].path, kpath, l) && list[i].path[l] == '/')
			list[k++] = list[i];
	return k;
}

int devpm_ata_ports(const char *ctrl, char *ports, int max)
{
	char k[DEVPM_PATH_MAX];
	struct dirent *de;
	unsigned int nr;
	int n = 0;
	DIR *dir;

	dir = devpm_opendir(ctrl);
	if (!dir)
		return -errno;
	while ((de = readdir(dir)) && n < max) {
		if (sscanf(de->d_name, "ata%u", &nr) != 1 ||
		    strspn(de->d_name + 3, "0123456789") !=
		    strlen(de->d_name + 3) ||
		    devpm_fmt(k, sizeof(k), "%s/%s/power", ctrl, de->d_name) ||
		    !devpm_exists(k))
			continue;
		snprintf(ports + (size_t)n++ * DEVPM_PATH_MAX, DEVPM_PATH_MAX,
			 "%s/%s", ctrl, de->d_name);
	}
	closedir(dir);
	return n;
}

int devpm_scsi_atapi_below(const char *kpath, char *name, size_t len)
{
	char real[DEVPM_PATH_MAX], k[DEVPM_PATH_MAX], path[DEVPM_PATH_MAX];
	size_t l = strlen(kpath);
	struct devpm_scsi_disk tmp;
	struct dirent *de;
	int found = 0;
	long type;
	DIR *dir;

	if (devpm_real_path(real, sizeof(real), "/sys/bus/scsi/devices"))
		return 0;
	dir = opendir(real);
	if (!dir)
		return 0;
	while (!found && (de = readdir(dir))) {
		if (parse_hctl(de->d_name, &tmp) ||
		    devpm_fmt(k, sizeof(k), "/sys/bus/scsi/devices/%s/type",
			      de->d_name) || devpm_read_long(k, &type) ||
		    type != 5 ||
		    devpm_fmt(k, sizeof(k), "/sys/bus/scsi/devices/%s",
			      de->d_name) ||
		    devpm_resolve(k, path, sizeof(path)))
			continue;
		if (!strncmp(path, kpath, l) && path[l] == '/') {
			snprintf(name, len, "%s", de->d_name);
			found = 1;
		}
	}
	closedir(dir);
	return found;
}

int devpm_scsi_attr(const struct devpm_scsi_disk *d, const char *attr,
		    char *buf, size_t len)
{
	if (!strncmp(attr, "scsi_disk/", 10))
		return devpm_fmt(buf, len, "%s/scsi_disk/%s/%s", d->path,
				 d->name, attr + 10);
	return devpm_fmt(buf, len, "%s/%s", d->path, attr);
}

int devpm_scsi_write_cache(const struct devpm_scsi_disk *d)
{
	char k[DEVPM_PATH_MAX], v[64];
	const char *s;
	int r;

	r = devpm_scsi_attr(d, "scsi_disk/cache_type", k, sizeof(k));
	if (!r)
		r = devpm_read_str(k, v, sizeof(v));
	if (r)
		return r;
	/* "write back", "write through", "none", "temporary ..." (writes) */
	s = !strncmp(v, "temporary ", 10) ? v + 10 : v;
	if (!strcmp(s, "write back"))
		return 1;
	if (!strcmp(s, "write through") || !strcmp(s, "none"))
		return 0;
	return devpm_fail(EINVAL, "%s: unknown cache type '%s'", k, v);
}

bool devpm_scsi_pm_ok(const struct devpm_scsi_disk *d, char *why,
		      size_t len)
{
	char mounted[256];

	if (devpm_allow_disk() ||
	    !devpm_dev_protected(d->path, mounted, sizeof(mounted)))
		return true;
	snprintf(why, len, "%s: %s: needs --allow-disk", d->name, mounted);
	return false;
}

int devpm_scsi_rpm_set(const struct devpm_scsi_disk *d, long delay_ms,
		       const char *control)
{
	char v[32];
	int r;

	snprintf(v, sizeof(v), "%ld", delay_ms);
	r = devpm_knob_writef(v, "%s/power/autosuspend_delay_ms", d->path);
	if (!r)
		r = devpm_knob_writef(control, "%s/power/control", d->path);
	return r;
}

/* Some holder (dm, md, bcache, ...) on the disk or one of its partitions. */
static bool has_holder(const struct devpm_scsi_disk *d, char *why, size_t len)
{
	char k[DEVPM_PATH_MAX], real[DEVPM_PATH_MAX], h[64];
	struct dirent *de;
	DIR *dir;
	bool held = false;

	if (devpm_fmt(k, sizeof(k), "%s/block/%s/holders", d->path, d->block))
		return true;
	first_entry(k, h, sizeof(h));
	if (h[0]) {
		snprintf(why, len, "%s is held by %s", d->block, h);
		return true;
	}
	if (devpm_fmt(k, sizeof(k), "%s/block/%s", d->path, d->block) ||
	    devpm_real_path(real, sizeof(real), k))
		return true;
	dir = opendir(real);
	if (!dir)
		return false;
	while (!held && (de = readdir(dir))) {
		if (strncmp(de->d_name, d->block, strlen(d->block)) ||
		    !strcmp(de->d_name, d->block))
			continue;
		if (devpm_fmt(k, sizeof(k), "%s/block/%s/%s/holders", d->path,
			      d->block, de->d_name))
			continue;
		first_entry(k, h, sizeof(h));
		if (h[0]) {
			snprintf(why, len, "%s is held by %s", de->d_name, h);
			held = true;
		}
	}
	closedir(dir);
	return held;
}

bool devpm_scsi_data_ok(const struct devpm_scsi_disk *d, char *why,
			size_t len)
{
	char mounted[256];

	if (!d->block[0]) {
		snprintf(why, len, "%s has no block device", d->name);
		return false;
	}
	if (devpm_dev_protected(d->path, mounted, sizeof(mounted))) {
		snprintf(why, len, "%s: never written: %s", d->block, mounted);
		return false;
	}
	if (has_holder(d, why, len))
		return false;
	if (!d->scsi_debug && !devpm_allow_disk()) {
		snprintf(why, len,
			 "%s is not scsi_debug: writing test data to it needs --allow-disk",
			 d->block);
		return false;
	}
	return true;
}

int devpm_sdebug_set(const char *attr, const char *val)
{
	return devpm_knob_writef(val, "%s/%s", DEVPM_SDEBUG_DRIVER, attr);
}

int devpm_blk_open(const char *block, bool write, struct devpm_blk *b)
{
	char k[DEVPM_PATH_MAX];
	long v;
	int r;

	memset(b, 0, sizeof(*b));
	b->fd = -1;
	snprintf(b->name, sizeof(b->name), "%s", block);
	if (devpm_fmt(k, sizeof(k), "/sys/class/block/%s/queue/logical_block_size",
		      block))
		return -ENAMETOOLONG;
	r = devpm_read_long(k, &v);
	if (r)
		return r;
	if (v < 512 || v > 65536 || (v & (v - 1)))
		return devpm_fail(EINVAL, "%s: odd logical block size %ld",
				  k, v);
	b->lbs = (unsigned int)v;
	if (devpm_fmt(k, sizeof(k), "/sys/class/block/%s/size", block))
		return -ENAMETOOLONG;
	r = devpm_read_long(k, &v);
	if (r)
		return r;
	b->bytes = (unsigned long long)v * 512;
	if (devpm_fmt(k, sizeof(k), "/sys/class/block/%s", block))
		return -ENAMETOOLONG;
	r = devpm_devnode_open(k, block, true,
			       (write ? O_RDWR | O_EXCL : O_RDONLY) | O_DIRECT);
	if (r < 0)
		return r;
	b->fd = r;
	return 0;
}

void devpm_blk_close(struct devpm_blk *b)
{
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
}

void *devpm_blk_alloc(size_t len)
{
	void *p;

	if (posix_memalign(&p, 4096, len ? len : 4096))
		return NULL;
	return p;
}

static int check_io(struct devpm_blk *b, size_t len, off_t off)
{
	if (b->fd < 0)
		return devpm_fail(EBADF, "%s is not open", b->name);
	if (!b->lbs || len % b->lbs || off % b->lbs)
		return devpm_fail(EINVAL, "%s: %zu bytes at %lld: not in %u-byte blocks",
				  b->name, len, (long long)off, b->lbs);
	if ((unsigned long long)off + len > b->bytes)
		return devpm_fail(EINVAL, "%s: %zu bytes at %lld: beyond its %llu bytes",
				  b->name, len, (long long)off, b->bytes);
	return 0;
}

int devpm_blk_read(struct devpm_blk *b, void *buf, size_t len, off_t off)
{
	ssize_t n;
	int r = check_io(b, len, off);

	if (r)
		return r;
	n = pread(b->fd, buf, len, off);
	if (n < 0)
		return devpm_fail(errno, "read %s at %lld: %s", b->name,
				  (long long)off, strerror(errno));
	if ((size_t)n != len)
		return devpm_fail(EIO, "read %s at %lld: %zd of %zu bytes",
				  b->name, (long long)off, n, len);
	return 0;
}

int devpm_blk_write(struct devpm_blk *b, const void *buf, size_t len,
		    off_t off)
{
	ssize_t n;
	int r = check_io(b, len, off);

	if (r)
		return r;
	n = pwrite(b->fd, buf, len, off);
	if (n < 0)
		return devpm_fail(errno, "write %s at %lld: %s", b->name,
				  (long long)off, strerror(errno));
	if ((size_t)n != len)
		return devpm_fail(EIO, "write %s at %lld: %zd of %zu bytes",
				  b->name, (long long)off, n, len);
	return 0;
}

/* 16 bytes per unit: the seed mixed with the offset, then the offset. */
static void pattern_unit(uint64_t seed, uint64_t off, unsigned char u[16])
{
	uint64_t a = (seed + 1) * 0x9e3779b97f4a7c15ULL ^ off, b = off;
	int i;

	for (i = 0; i < 8; i++) {
		u[i] = (unsigned char)(a >> (8 * i));
		u[8 + i] = (unsigned char)(b >> (8 * i));
	}
}

void devpm_pattern_fill(void *buf, size_t len, uint64_t seed)
{
	unsigned char u[16], *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		if (i % 16 == 0)
			pattern_unit(seed, i / 16, u);
		p[i] = u[i % 16];
	}
}

long devpm_pattern_check(const void *buf, size_t len, uint64_t seed)
{
	const unsigned char *p = buf;
	unsigned char u[16];
	size_t i;

	for (i = 0; i < len; i++) {
		if (i % 16 == 0)
			pattern_unit(seed, i / 16, u);
		if (p[i] != u[i % 16])
			return (long)i;
	}
	return -1;
}

bool devpm_scsi_op_is_write(int op)
{
	/* WRITE(6/10/12/16), WRITE AND VERIFY(10/12/16), WRITE SAME(10/16) */
	return op == 0x0a || op == 0x2a || op == 0xaa || op == 0x8a ||
	       op == 0x2e || op == 0xae || op == 0x8e || op == 0x41 ||
	       op == 0x93;
}

bool devpm_scsi_op_is_read(int op)
{
	return op == 0x08 || op == 0x28 || op == 0xa8 || op == 0x88;
}

bool devpm_scsi_op_is_sync(int op)
{
	return op == DEVPM_SCSI_SYNCHRONIZE_CACHE ||
	       op == DEVPM_SCSI_SYNCHRONIZE_CACHE_16;
}

int devpm_scsi_parse(const struct devpm_event *ev, struct devpm_scsi_cmd *c)
{
	const char *s;
	unsigned int op;

	memset(c, 0, sizeof(*c));
	c->opcode = -1;
	c->lba = -1;
	if (!strcmp(ev->event, "scsi_dispatch_cmd_start"))
		c->kind = DEVPM_SCSI_START;
	else if (!strcmp(ev->event, "scsi_dispatch_cmd_done"))
		c->kind = DEVPM_SCSI_DONE;
	else if (!strcmp(ev->event, "scsi_dispatch_cmd_timeout"))
		c->kind = DEVPM_SCSI_TIMEOUT;
	else if (!strcmp(ev->event, "scsi_dispatch_cmd_error"))
		c->kind = DEVPM_SCSI_ERROR;
	else
		return -EINVAL;
	c->ts_us = ev->ts_us;
	if (sscanf(ev->raw, "host_no=%u channel=%u id=%u lun=%llu",
		   &c->host_no, &c->channel, &c->id, &c->lun) != 4)
		return -EINVAL;
	s = strstr(ev->raw, "cmnd=(");
	if (s)
		sscanf(s, "cmnd=(%39[A-Z0-9_]", c->op);
	s = strstr(ev->raw, " raw=");
	if (s && sscanf(s, " raw=%x", &op) == 1 && op < 256)
		c->opcode = (int)op;
	s = strstr(ev->raw, " lba=");
	if (s && sscanf(s, " lba=%lld", &c->lba) != 1)
		c->lba = -1;
	s = strstr(ev->raw, " status=");
	if (s)
		sscanf(s, " status=%31[A-Za-z0-9_]", c->status);
	return 0;
}

bool devpm_scsi_cmd_is(const struct devpm_scsi_cmd *c,
		       const struct devpm_scsi_disk *d)
{
	return c->host_no == d->host_no && c->channel == d->channel &&
	       c->id == d->id && c->lun == d->lun;
}

int devpm_scsi_trace(struct devpm_trace *t, const struct devpm_scsi_disk *d,
		     size_t n)
{
	static const char *const evs[] = {
		"scsi:scsi_dispatch_cmd_start", "scsi:scsi_dispatch_cmd_done",
		"scsi:scsi_dispatch_cmd_timeout", NULL
	};
	char filter[2048], one[160];
	size_t i, used = 0;
	int r;

	filter[0] = '\0';
	for (i = 0; i < n; i++) {
		r = devpm_fmt(one, sizeof(one),
			      "%s(host_no == %u && channel == %u && id == %u && lun == %llu)",
			      i ? " || " : "", d[i].host_no, d[i].channel,
			      d[i].id, d[i].lun);
		if (r)
			return r;
		if (used + strlen(one) >= sizeof(filter))
			return devpm_fail(E2BIG, "too many disks to filter (%zu)",
					  n);
		strcpy(filter + used, one);
		used += strlen(one);
	}
	for (i = 0; evs[i]; i++) {
		r = devpm_trace_add_event(t, evs[i], n ? filter : NULL);
		if (r)
			return r;
	}
	return 0;
}
