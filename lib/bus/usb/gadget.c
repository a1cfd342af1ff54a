// SPDX-License-Identifier: GPL-2.0-only
/*
 * gadget.c - a configfs gadget on dummy_hcd, every step journaled
 * (gadget.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bus/usb/gadget.h"
#include "bus/usb/usb.h"
#include "core/poll.h"
#include "core/sysfs.h"
#include "rpm/devnode.h"
#include "state/journal.h"

/* HID boot keyboard report descriptor (HID 1.11, appendix B.1). */
static const unsigned char kbd_desc[] = {
	0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x05, 0x07, 0x19, 0xe0, 0x29,
	0xe7, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x08, 0x81, 0x02,
	0x95, 0x01, 0x75, 0x08, 0x81, 0x03, 0x95, 0x05, 0x75, 0x01, 0x05,
	0x08, 0x19, 0x01, 0x29, 0x05, 0x91, 0x02, 0x95, 0x01, 0x75, 0x03,
	0x91, 0x03, 0x95, 0x06, 0x75, 0x08, 0x15, 0x00, 0x25, 0x65, 0x05,
	0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00, 0xc0,
};

static int seq;

/* Journal the rmdir, then make the directory. */
static int make_dir(const char *kpath)
{
	char real[DEVPM_PATH_MAX];
	int r;

	r = devpm_real_path(real, sizeof(real), kpath);
	if (!r)
		r = devpm_journal_undo_rmdir(kpath);
	if (r)
		return r;
	if (mkdir(real, 0755) < 0)
		return devpm_fail(errno, "mkdir %s: %s", real, strerror(errno));
	return 0;
}

/* Journal the unlink, then make the link. */
static int make_link(const char *target, const char *kpath)
{
	char rt[DEVPM_PATH_MAX], rl[DEVPM_PATH_MAX];
	int r;

	r = devpm_real_path(rt, sizeof(rt), target);
	if (!r)
		r = devpm_real_path(rl, sizeof(rl), kpath);
	if (!r)
		r = devpm_journal_undo_unlink(kpath);
	if (r)
		return r;
	if (symlink(rt, rl) < 0)
		return devpm_fail(errno, "symlink %s: %s", rl, strerror(errno));
	return 0;
}

/* A configfs attribute of something we created: gone with it. */
static int put(const char *dir, const char *attr, const char *val)
{
	char kpath[DEVPM_PATH_MAX];
	int r;

	r = devpm_fmt(kpath, sizeof(kpath), "%s/%s", dir, attr);
	return r ? r : devpm_write_str(kpath, val);
}

static int put_bin(const char *dir, const char *attr, const void *buf,
		   size_t len)
{
	char kpath[DEVPM_PATH_MAX], real[DEVPM_PATH_MAX];
	ssize_t n;
	int fd, r;

	r = devpm_fmt(kpath, sizeof(kpath), "%s/%s", dir, attr);
	if (!r)
		r = devpm_real_path(real, sizeof(real), kpath);
	if (r)
		return r;
	fd = open(real, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", real, strerror(errno));
	n = write(fd, buf, len);
	r = n == (ssize_t)len ? 0 : devpm_fail(n < 0 ? errno : EIO,
					       "%s: writing %zu bytes: %s", real,
					       len, n < 0 ? strerror(errno) :
					       "short write");
	close(fd);
	return r;
}

/* A dummy UDC that no gadget uses yet: we never bind to real hardware. */
static int free_udc(char *buf, size_t len)
{
	char real[DEVPM_PATH_MAX], kp[DEVPM_PATH_MAX], fn[64];
	struct dirent *de;
	DIR *dir;
	int r, found = 0;

	r = devpm_real_path(real, sizeof(real), "/sys/class/udc");
	if (r)
		return r;
	dir = opendir(real);
	if (!dir)
		return devpm_fail(ENODEV,
				  "no /sys/class/udc: load dummy_hcd for a loopback UDC");
	while (!found && (de = readdir(dir))) {
		if (strncmp(de->d_name, "dummy_udc.", 10))
			continue;
		if (devpm_fmt(kp, sizeof(kp), "/sys/class/udc/%s/function",
			      de->d_name))
			continue;
		/* "function" names the bound gadget driver; empty when free. */
		if (devpm_read_str(kp, fn, sizeof(fn)) == 0 && !fn[0]) {
			snprintf(buf, len, "%s", de->d_name);
			found = 1;
		}
	}
	closedir(dir);
	return found ? 0 : devpm_fail(ENODEV,
				      "no free dummy_udc: load dummy_hcd (one UDC per gadget)");
}

static int make_storage(const struct devpm_gadget_cfg *c,
			struct devpm_gadget *g, const char *conf)
{
	char fdir[DEVPM_PATH_MAX], link[DEVPM_PATH_MAX];
	int fd, r;

	r = devpm_fmt(g->backing, sizeof(g->backing), "%s/gadget-%s.img",
		      devpm_journal_dir(), g->name);
	if (!r)
		r = devpm_journal_undo_unlink(g->backing);
	if (r)
		return r;
	mkdir(devpm_journal_dir(), 0700);
	fd = open(g->backing, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", g->backing, strerror(errno));
	r = ftruncate(fd, c->storage_mb << 20) ? -errno : 0;
	close(fd);
	if (r)
		return devpm_fail(-r, "%s: %s", g->backing, strerror(-r));
	r = devpm_fmt(fdir, sizeof(fdir), "%s/functions/mass_storage.0",
		      g->dir);
	if (!r)
		r = make_dir(fdir);
	if (!r)
		r = put(fdir, "lun.0/removable", "0");
	if (!r)
		r = put(fdir, "lun.0/file", g->backing);
	if (!r)
		r = devpm_fmt(link, sizeof(link), "%s/mass_storage.0", conf);
	return r ? r : make_link(fdir, link);
}

static int make_keyboard(struct devpm_gadget *g, const char *conf)
{
	char fdir[DEVPM_PATH_MAX], link[DEVPM_PATH_MAX];
	int r;

	r = devpm_fmt(fdir, sizeof(fdir), "%s/functions/hid.0", g->dir);
	if (!r)
		r = make_dir(fdir);
	if (!r)
		r = put(fdir, "protocol", "1");
	if (!r)
		r = put(fdir, "subclass", "1");
	if (!r)
		r = put(fdir, "report_length", "8");
	if (!r)
		r = put_bin(fdir, "report_desc", kbd_desc, sizeof(kbd_desc));
	if (!r)
		r = devpm_fmt(link, sizeof(link), "%s/hid.0", conf);
	return r ? r : make_link(fdir, link);
}

/* /dev/hidgN of our hid function: its configfs "dev" is "M:m". */
static int find_hidg(struct devpm_gadget *g)
{
	char kp[DEVPM_PATH_MAX], want[32], have[32];
	struct dirent *de;
	DIR *dir;
	int r;

	r = devpm_fmt(kp, sizeof(kp), "%s/functions/hid.0/dev", g->dir);
	if (!r)
		r = devpm_read_str(kp, want, sizeof(want));
	if (r)
		return r;
	dir = devpm_opendir("/sys/class/hidg");
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "hidg", 4) ||
		    devpm_fmt(kp, sizeof(kp), "/sys/class/hidg/%s/dev",
			      de->d_name) ||
		    devpm_read_str(kp, have, sizeof(have)) ||
		    strcmp(have, want))
			continue;
		snprintf(g->hidg, sizeof(g->hidg), "%s", de->d_name);
		break;
	}
	closedir(dir);
	if (!g->hidg[0])
		return devpm_fail(ENOENT, "no /sys/class/hidg entry with dev %s",
				  want);
	r = devpm_fmt(kp, sizeof(kp), "/sys/class/hidg/%s", g->hidg);
	if (r)
		return r;
	g->hid_fd = devpm_devnode_open(kp, g->hidg, false, O_RDWR | O_NONBLOCK);
	return g->hid_fd < 0 ? g->hid_fd : 0;
}

int devpm_gadget_create(const struct devpm_gadget_cfg *c,
			struct devpm_gadget *g)
{
	char sub[DEVPM_PATH_MAX], conf[DEVPM_PATH_MAX];
	int r;

	memset(g, 0, sizeof(*g));
	g->hid_fd = -1;
	if (!devpm_exists(DEVPM_GADGET_DIR))
		return devpm_fail(ENODEV,
				  "no %s: mount configfs and load libcomposite",
				  DEVPM_GADGET_DIR);
	r = free_udc(g->udc, sizeof(g->udc));
	if (r)
		return r;
	snprintf(g->name, sizeof(g->name), "devpm%d.%d", (int)getpid(), seq++);
	r = devpm_fmt(g->dir, sizeof(g->dir), "%s/%s", DEVPM_GADGET_DIR,
		      g->name);
	if (!r)
		r = make_dir(g->dir);
	/* Linux Foundation, multifunction composite gadget. */
	if (!r)
		r = put(g->dir, "idVendor", "0x1d6b");
	if (!r)
		r = put(g->dir, "idProduct", "0x0104");
	if (!r)
		r = put(g->dir, "bcdUSB", "0x0200");
	if (!r)
		r = devpm_fmt(sub, sizeof(sub), "%s/strings/0x409", g->dir);
	if (!r)
		r = make_dir(sub);
	if (!r)
		r = put(sub, "manufacturer", "devpm");
	if (!r)
		r = put(sub, "product", c->remote_wakeup ?
			"devpm gadget" : "devpm gadget (no remote wakeup)");
	if (!r)
		r = put(sub, "serialnumber", g->name);
	if (!r)
		r = devpm_fmt(conf, sizeof(conf), "%s/configs/c.1", g->dir);
	if (!r)
		r = make_dir(conf);
	if (!r)
		r = put(conf, "bmAttributes", c->remote_wakeup ? "0xa0" : "0x80");
	if (!r)
		r = put(conf, "MaxPower", "100");
	if (!r && c->storage_mb > 0)
		r = make_storage(c, g, conf);
	if (!r && c->keyboard)
		r = make_keyboard(g, conf);
	if (!r)
		r = put(g->dir, "UDC", g->udc);
	if (!r && c->keyboard)
		r = find_hidg(g);
	return r;
}

struct host_find {
	const struct devpm_gadget *g;
	struct devpm_usb *u;
};

static bool host_found(void *arg)
{
	struct host_find *f = arg;
	struct devpm_usb *list;
	size_t i, n;
	bool found = false;

	if (devpm_usb_list(&list, &n))
		return false;
	for (i = 0; i < n && !found; i++) {
		if (!strcmp(list[i].serial, f->g->name)) {
			*f->u = list[i];
			found = true;
		}
	}
	free(list);
	return found;
}

int devpm_gadget_host(const struct devpm_gadget *g, int timeout_ms,
		      struct devpm_usb *u)
{
	struct host_find f = { .g = g, .u = u };

	if (!devpm_poll_until(host_found, &f, timeout_ms))
		return devpm_fail(ETIMEDOUT,
				  "gadget %s on %s: no host-side USB device with serial %s after %d ms",
				  g->name, g->udc, g->name, timeout_ms);
	return 0;
}

int devpm_gadget_key_report(struct devpm_gadget *g,
			    const unsigned char report[8], int timeout_ms)
{
	struct pollfd p = { .fd = g->hid_fd, .events = POLLOUT };
	ssize_t n;
	int r;

	if (g->hid_fd < 0)
		return devpm_fail(EBADF, "gadget %s has no keyboard", g->name);
	r = poll(&p, 1, timeout_ms);
	if (r < 0)
		return devpm_fail(errno, "/dev/%s: poll: %s", g->hidg,
				  strerror(errno));
	if (r == 0)
		return devpm_fail(ETIMEDOUT,
				  "/dev/%s: the host did not take the last report in %d ms",
				  g->hidg, timeout_ms);
	n = write(g->hid_fd, report, 8);
	if (n != 8)
		return devpm_fail(n < 0 ? errno : EIO, "/dev/%s: write: %s",
				  g->hidg, n < 0 ? strerror(errno) :
				  "short write");
	return 0;
}

int devpm_gadget_remote_wakeup(const struct devpm_gadget *g)
{
	char kp[DEVPM_PATH_MAX];
	int r;

	r = devpm_fmt(kp, sizeof(kp), "/sys/class/udc/%s/srp", g->udc);
	return r ? r : devpm_write_str(kp, "1");
}

void devpm_gadget_close(struct devpm_gadget *g)
{
	if (g->hid_fd >= 0)
		close(g->hid_fd);
	g->hid_fd = -1;
}
