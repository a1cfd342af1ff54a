// SPDX-License-Identifier: GPL-2.0-only
/*
 * i2c.c - I2C adapters, controllers, clients and i2c-dev (i2c.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>

#include "bus/i2c/i2c.h"
#include "core/sysfs.h"
#include "rpm/device.h"
#include "rpm/devnode.h"
#include "state/journal.h"

static int parse_adapter(const char *name)
{
	int nr;
	char end;

	if (sscanf(name, "i2c-%d%c", &nr, &end) != 1 || nr < 0)
		return -1;
	return nr;
}

/* The nearest ancestor (from d's parent up) with runtime-PM callbacks. */
static void find_controller(const struct devpm_dev *d,
			    struct devpm_i2c_adapter *a)
{
	struct devpm_dev p;
	char next[DEVPM_PATH_MAX];

	snprintf(next, sizeof(next), "%s", d->parent);
	while (next[0]) {
		if (devpm_dev_open(&p, next) < 0)
			return;
		if (p.rpm.have_control) {
			snprintf(a->ctrl, sizeof(a->ctrl), "%s", p.path);
			snprintf(a->ctrl_name, sizeof(a->ctrl_name), "%s",
				 p.name);
			return;
		}
		snprintf(next, sizeof(next), "%s", p.parent);
	}
}

static int by_nr(const void *x, const void *y)
{
	const struct devpm_i2c_adapter *a = x, *b = y;

	return a->nr - b->nr;
}

/*
 * /sys/bus/i2c/devices lists every adapter and client: far cheaper than
 * walking /sys/devices (over a second in a TCG guest).
 */
int devpm_i2c_adapters(struct devpm_i2c_adapter **list, size_t *n)
{
	struct devpm_i2c_adapter *out = NULL, *np;
	char k[DEVPM_PATH_MAX];
	struct devpm_dev d;
	struct dirent *de;
	size_t cnt = 0;
	DIR *dir;
	int nr;

	*list = NULL;
	*n = 0;
	dir = devpm_opendir("/sys/bus/i2c/devices");
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dir))) {
		nr = parse_adapter(de->d_name);
		if (nr < 0 ||
		    devpm_fmt(k, sizeof(k), "/sys/bus/i2c/devices/%s",
			      de->d_name) ||
		    devpm_dev_open(&d, k) < 0)
			continue;
		np = realloc(out, (cnt + 1) * sizeof(*out));
		if (!np) {
			closedir(dir);
			free(out);
			return devpm_fail(ENOMEM, "out of memory");
		}
		out = np;
		memset(&out[cnt], 0, sizeof(*out));
		out[cnt].nr = nr;
		snprintf(out[cnt].path, sizeof(out[cnt].path), "%s", d.path);
		if (devpm_fmt(k, sizeof(k), "%s/name", d.path) ||
		    devpm_read_str(k, out[cnt].name, sizeof(out[cnt].name)))
			out[cnt].name[0] = '\0';
		find_controller(&d, &out[cnt]);
		cnt++;
	}
	closedir(dir);
	if (cnt)
		qsort(out, cnt, sizeof(*out), by_nr);
	*list = out;
	*n = cnt;
	return 0;
}

bool devpm_i2c_is_i801(const struct devpm_i2c_adapter *a)
{
	return !strncmp(a->name, "SMBus I801 adapter", 18);
}

int devpm_i2c_client_name(int nr, unsigned int addr, char *buf, size_t len)
{
	return devpm_fmt(buf, len, "%d-%04x", nr, addr);
}

int devpm_i2c_client(int nr, unsigned int addr, char *buf, size_t len)
{
	char name[32], link[DEVPM_PATH_MAX];
	int r;

	r = devpm_i2c_client_name(nr, addr, name, sizeof(name));
	if (r)
		return r;
	r = devpm_fmt(link, sizeof(link), "/sys/bus/i2c/devices/%s", name);
	if (r)
		return r;
	if (!devpm_exists(link))
		return devpm_fail(ENOENT, "no i2c client %s", name);
	return devpm_resolve(link, buf, len);
}

int devpm_i2c_new_device(int nr, const char *type, unsigned int addr)
{
	char path[DEVPM_PATH_MAX], del[DEVPM_PATH_MAX], val[64], a[16];
	int r;

	if (!devpm_i2c_client(nr, addr, path, sizeof(path)))
		return devpm_fail(EEXIST, "i2c-%d: address 0x%02x is taken by %s",
				  nr, addr, path);
	if (devpm_fmt(path, sizeof(path), "/sys/bus/i2c/devices/i2c-%d/new_device", nr) ||
	    devpm_fmt(del, sizeof(del), "/sys/bus/i2c/devices/i2c-%d/delete_device", nr) ||
	    devpm_fmt(val, sizeof(val), "%s 0x%02x", type, addr) ||
	    devpm_fmt(a, sizeof(a), "0x%02x", addr))
		return -ENAMETOOLONG;
	r = devpm_write_str(path, val);
	if (r)
		return r;
	/* Journal at once: from here on a kill must not leave the client. */
	r = devpm_journal_undo_write(del, a);
	if (r) {
		devpm_write_str(del, a);
		return r;
	}
	return 0;
}

int devpm_i2c_eeprom(const char *client, char *buf, size_t len)
{
	char k[DEVPM_PATH_MAX];
	const char *base = strrchr(client, '/');
	struct dirent *de;
	DIR *d;
	int r;

	base = base ? base + 1 : client;
	d = devpm_opendir(client);
	if (!d)
		return -errno;
	r = -ENOENT;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, base, strlen(base)) ||
		    !strcmp(de->d_name, base))
			continue;
		if (devpm_fmt(k, sizeof(k), "%s/%s/nvmem", client, de->d_name))
			continue;
		if (devpm_exists(k)) {
			r = devpm_fmt(buf, len, "%s", k);
			break;
		}
	}
	closedir(d);
	if (r == -ENOENT)
		return devpm_fail(ENOENT, "%s has no EEPROM (no nvmem device)",
				  base);
	return r;
}

ssize_t devpm_i2c_eeprom_read(const char *nvmem, void *buf, size_t len,
			      off_t off)
{
	char real[DEVPM_PATH_MAX];
	ssize_t got;
	int fd, r;

	r = devpm_real_path(real, sizeof(real), nvmem);
	if (r)
		return r;
	fd = open(real, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", real, strerror(errno));
	got = pread(fd, buf, len, off);
	r = errno;
	close(fd);
	if (got < 0)
		return devpm_fail(r, "read %s: %s", real, strerror(r));
	return got;
}

int devpm_i2c_dev_open(int nr)
{
	char kdir[DEVPM_PATH_MAX], name[32];

	if (devpm_fmt(kdir, sizeof(kdir), "/sys/class/i2c-dev/i2c-%d", nr) ||
	    devpm_fmt(name, sizeof(name), "i2c-%d", nr))
		return -ENAMETOOLONG;
	if (!devpm_exists(kdir))
		return devpm_fail(ENOENT, "no %s: load i2c-dev (modprobe i2c-dev)",
				  kdir);
	return devpm_devnode_open(kdir, name, false, O_RDWR);
}

unsigned long devpm_i2c_funcs(int fd)
{
	unsigned long funcs = 0;

	if (ioctl(fd, I2C_FUNCS, &funcs) < 0)
		return 0;
	return funcs;
}

int devpm_i2c_smbus_read_byte(int fd, unsigned int addr, unsigned int reg,
			      bool force)
{
	union i2c_smbus_data data = { 0 };
	struct i2c_smbus_ioctl_data args = {
		.read_write = I2C_SMBUS_READ,
		.command = (__u8)reg,
		.size = I2C_SMBUS_BYTE_DATA,
		.data = &data,
	};

	if (ioctl(fd, force ? I2C_SLAVE_FORCE : I2C_SLAVE, addr) < 0)
		return devpm_fail(errno, "i2c-dev: address 0x%02x: %s%s", addr,
				  strerror(errno), errno == EBUSY ?
				  " (a driver holds it)" : "");
	if (ioctl(fd, I2C_SMBUS, &args) < 0)
		return devpm_fail(errno, "SMBus read of 0x%02x register 0x%02x: %s",
				  addr, reg, strerror(errno));
	return data.byte;
}
