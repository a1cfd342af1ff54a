// SPDX-License-Identifier: GPL-2.0-only
/*
 * usb.c - USB devices in the device model, and their usbfs handle (usb.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libusb.h>
#include <linux/usbdevice_fs.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "bus/usb/usb.h"
#include "core/clock.h"
#include "core/sysfs.h"
#include "rpm/device.h"
#include "rpm/devnode.h"

#define UEVENT_MAX 4096
#define USB_DEVICES "/sys/bus/usb/devices"

/* Value of KEY= in a device's uevent, "" when absent. */
static int uevent_get(const char *path, const char *key, char *val,
		      size_t len)
{
	char file[DEVPM_PATH_MAX], buf[UEVENT_MAX], *line, *save = NULL;
	size_t klen = strlen(key);
	int r;

	val[0] = '\0';
	r = devpm_fmt(file, sizeof(file), "%s/uevent", path);
	if (r)
		return r;
	r = devpm_read_str(file, buf, sizeof(buf));
	if (r)
		return r;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, key, klen) && line[klen] == '=') {
			snprintf(val, len, "%s", line + klen + 1);
			return 0;
		}
	}
	return 0;
}

static bool is_type(const char *path, const char *devtype)
{
	char val[32];

	return !uevent_get(path, "DEVTYPE", val, sizeof(val)) &&
	       !strcmp(val, devtype);
}

/* An attribute of the device directory itself (not of power/). */
static int attr_str(const char *path, const char *attr, char *buf,
		    size_t len)
{
	char file[DEVPM_PATH_MAX];
	int r;

	buf[0] = '\0';
	r = devpm_fmt(file, sizeof(file), "%s/%s", path, attr);
	return r ? r : devpm_read_str(file, buf, len);
}

static int attr_num(const char *path, const char *attr, int base,
		    unsigned long *val)
{
	char buf[32], *end;
	int r;

	r = attr_str(path, attr, buf, sizeof(buf));
	if (r)
		return r;
	errno = 0;
	*val = strtoul(buf, &end, base);
	if (errno || end == buf || *end)
		return devpm_fail(EINVAL, "%s/%s: '%s' is not a number", path,
				  attr, buf);
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int devpm_usb_from_dev(const struct devpm_dev *d, struct devpm_usb *u)
{
	unsigned long v;
	int r;

	if (strcmp(d->bus, "usb") || !is_type(d->path, "usb_device"))
		return devpm_fail(ENODEV, "%s is not a USB device", d->name);
	memset(u, 0, sizeof(*u));
	u->dev = *d;
	r = attr_num(d->path, "busnum", 10, &v);
	if (r)
		return r;
	u->busnum = (int)v;
	r = attr_num(d->path, "devnum", 10, &v);
	if (r)
		return r;
	u->devnum = (int)v;
	r = attr_num(d->path, "idVendor", 16, &v);
	if (r)
		return r;
	u->vendor = (unsigned int)v;
	r = attr_num(d->path, "idProduct", 16, &v);
	if (r)
		return r;
	u->product_id = (unsigned int)v;
	if (!attr_num(d->path, "bDeviceClass", 16, &v))
		u->hub = v == 9;
	/* Optional strings: a device need not name itself. */
	attr_str(d->path, "product", u->product, sizeof(u->product));
	attr_str(d->path, "serial", u->serial, sizeof(u->serial));
	u->root_hub = !strncmp(d->name, "usb", 3);
	if (!u->root_hub && d->parent[0] && is_type(d->parent, "usb_device"))
		snprintf(u->parent, sizeof(u->parent), "%s",
			 base_name(d->parent));
	return 0;
}

static int cmp_usb(const void *a, const void *b)
{
	return strcmp(((const struct devpm_usb *)a)->dev.path,
		      ((const struct devpm_usb *)b)->dev.path);
}

/* /sys/bus/usb/devices, not a walk of /sys/devices: that is slow. */
int devpm_usb_list(struct devpm_usb **list, size_t *n)
{
	char kp[DEVPM_PATH_MAX];
	struct devpm_usb *out = NULL, *np;
	struct devpm_dev d;
	struct dirent *de;
	size_t k = 0, cap = 0;
	DIR *dir;
	int r = 0;

	*list = NULL;
	*n = 0;
	dir = devpm_opendir(USB_DEVICES);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		/* Interfaces carry a ':' ("1-1:1.0"). */
		if (de->d_name[0] == '.' || strchr(de->d_name, ':'))
			continue;
		if (devpm_fmt(kp, sizeof(kp), "%s/%s", USB_DEVICES,
			      de->d_name) ||
		    devpm_dev_open(&d, kp))
			continue;
		if (k == cap) {
			cap = cap ? 2 * cap : 16;
			np = realloc(out, cap * sizeof(*out));
			if (!np) {
				r = -ENOMEM;
				break;
			}
			out = np;
		}
		if (!devpm_usb_from_dev(&d, &out[k]))
			k++;
	}
	closedir(dir);
	if (r) {
		free(out);
		return r;
	}
	if (k)
		qsort(out, k, sizeof(*out), cmp_usb);
	*list = out;
	*n = k;
	return 0;
}

int devpm_usb_open(const char *name, struct devpm_usb *u)
{
	struct devpm_dev d;
	int r;

	r = devpm_dev_open(&d, name);
	return r ? r : devpm_usb_from_dev(&d, u);
}

int devpm_usb_interfaces(const struct devpm_usb *u, struct devpm_dev **list,
			 size_t *n)
{
	struct devpm_dev *kids;
	size_t i, m, k = 0;
	int r;

	*list = NULL;
	*n = 0;
	r = devpm_dev_children(&u->dev, &kids, &m);
	if (r)
		return r;
	for (i = 0; i < m; i++)
		if (is_type(kids[i].path, "usb_interface"))
			kids[k++] = kids[i];
	*list = kids;
	*n = k;
	return 0;
}

int devpm_usb_blocker(const struct devpm_usb *u, char *why, size_t len)
{
	struct devpm_dev *ifs;
	char val[8];
	size_t i, n;
	int r;

	why[0] = '\0';
	r = devpm_usb_interfaces(u, &ifs, &n);
	if (r)
		return r;
	for (i = 0; i < n && !why[0]; i++) {
		if (!ifs[i].driver[0])
			continue;	/* unbound: runtime-suspended */
		if (!attr_str(ifs[i].path, "supports_autosuspend", val,
			      sizeof(val)) && !strcmp(val, "0"))
			snprintf(why, len,
				 "interface %s: driver %s does not support autosuspend",
				 ifs[i].name, ifs[i].driver);
	}
	free(ifs);
	return why[0] ? 1 : 0;
}

int devpm_usb_controller(const struct devpm_usb *root, struct devpm_dev *hc)
{
	if (!root->root_hub || !root->dev.parent[0])
		return devpm_fail(EINVAL, "%s is not a root hub", root->dev.name);
	return devpm_dev_open(hc, root->dev.parent);
}

bool devpm_usb_below(const struct devpm_usb *u, const char *path)
{
	size_t n = strlen(u->dev.path);

	return !strncmp(path, u->dev.path, n) &&
	       (path[n] == '/' || path[n] == '\0');
}

bool devpm_usb_owns(const struct devpm_usb *u, const char *path)
{
	size_t len = strlen(u->dev.path);
	const char *rest = path + len, *slash;

	if (strncmp(path, u->dev.path, len) || *rest != '/')
		return false;
	rest++;
	slash = strchr(rest, '/');
	if (!slash)
		slash = rest + strlen(rest);
	/* An interface is "<bus>-<port>:<config>.<n>"; a child has no ':'. */
	return memchr(rest, ':', slash - rest) != NULL;
}

static int allow_one(const struct devpm_dev *d, long delay_ms)
{
	char val[24];
	int r;

	if (delay_ms >= 0 && d->rpm.have_autosuspend) {
		snprintf(val, sizeof(val), "%ld", delay_ms);
		r = devpm_dev_knob_write(d, "autosuspend_delay_ms", val);
		if (r)
			return r;
	}
	if (d->rpm.have_control)
		return devpm_dev_knob_write(d, "control", "auto");
	return 0;
}

/*
 * The SCSI devices below u (usb-storage, uas): resolve the links of
 * /sys/bus/scsi/devices, which is cheaper than opening every disk.
 */
static int scsi_below(const struct devpm_usb *u, char (*paths)[DEVPM_PATH_MAX],
		      int max)
{
	char real[DEVPM_PATH_MAX], kp[DEVPM_PATH_MAX];
	struct dirent *de;
	DIR *dir;
	int n = 0;

	if (devpm_real_path(real, sizeof(real), "/sys/bus/scsi/devices"))
		return 0;
	dir = opendir(real);
	if (!dir)
		return 0;
	while ((de = readdir(dir)) && n < max) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
		    devpm_fmt(kp, sizeof(kp), "/sys/bus/scsi/devices/%s",
			      de->d_name) ||
		    devpm_resolve(kp, paths[n], DEVPM_PATH_MAX) ||
		    !devpm_usb_below(u, paths[n]))
			continue;
		n++;
	}
	closedir(dir);
	return n;
}

int devpm_usb_allow_autosuspend(const struct devpm_usb *u, long delay_ms,
				long disk_delay_ms)
{
	char paths[8][DEVPM_PATH_MAX], parent[DEVPM_PATH_MAX];
	struct devpm_dev disk, up;
	int i, n, depth, r = 0;

	/* Each disk, then its target and host (parents with power/). */
	n = scsi_below(u, paths, 8);
	for (i = 0; !r && i < n; i++) {
		r = devpm_dev_open(&disk, paths[i]);
		if (!r)
			r = allow_one(&disk, disk_delay_ms);
		up = disk;
		for (depth = 0; !r && depth < 2 && up.parent[0] &&
		     devpm_usb_below(u, up.parent) &&
		     !is_type(up.parent, "usb_interface"); depth++) {
			/* dev_open clears up before it reads the spec. */
			snprintf(parent, sizeof(parent), "%s", up.parent);
			r = devpm_dev_open(&up, parent);
			if (!r)
				r = allow_one(&up, -1);
		}
	}
	if (!r) {
		disk = u->dev;
		r = devpm_dev_snapshot(&disk);
	}
	return r ? r : allow_one(&disk, delay_ms);
}

int devpm_usb_hcd_hold(const char *driver, bool pm_cap, bool pme, long usage,
		       char *why, size_t len)
{
	bool probe_ref = !pme;
	bool xhci_ref = !strcmp(driver, "xhci_hcd") && !pm_cap;
	long held = probe_ref + xhci_ref;
	char count[96];

	why[0] = '\0';
	if (!held || (usage >= 0 && usage != held))
		return 0;
	if (usage < 0)
		snprintf(count, sizeof(count),
			 "runtime_usage unreadable (no CONFIG_PM_ADVANCED_DEBUG): expected %ld",
			 held);
	else
		snprintf(count, sizeof(count),
			 "runtime_usage %ld = exactly these", usage);
	snprintf(why, len, "%s; usb_hcd_pci_probe() keeps the probe's reference (pci_dev_run_wake() false: no PME)%s; %s",
		 pm_cap ? "PM capability without PME" : "no PCI PM capability",
		 xhci_ref ? ", xhci_pci_probe() takes another (pci_choose_state() is D0)" : "",
		 count);
	return 1;
}

int devpm_usb_node(const struct devpm_usb *u, char *buf, size_t len)
{
	return devpm_fmt(buf, len, "/dev/bus/usb/%03d/%03d", u->busnum,
			 u->devnum);
}

/* The usbfs handle. */

struct devpm_usbfs {
	int fd;
	libusb_context *ctx;
	libusb_device_handle *h;
	char name[128];
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool waiting;		/* a wait thread exists (not joined) */
	bool done;		/* it returned */
	int ret;
	uint64_t at_us;
};

/* The node as devtmpfs made it, else a private one (devnode.h). */
static int open_node(const struct devpm_usb *u)
{
	char kpath[DEVPM_PATH_MAX], real[DEVPM_PATH_MAX], val[32], name[32];
	unsigned int maj, min;
	struct stat st;
	int r, fd;

	r = devpm_usb_node(u, kpath, sizeof(kpath));
	if (!r)
		r = devpm_real_path(real, sizeof(real), kpath);
	if (!r)
		r = attr_str(u->dev.path, "dev", val, sizeof(val));
	if (r)
		return r;
	if (sscanf(val, "%u:%u", &maj, &min) != 2)
		return devpm_fail(EINVAL, "%s/dev: '%s' is not M:m",
				  u->dev.path, val);
	if (!stat(real, &st) && S_ISCHR(st.st_mode) &&
	    st.st_rdev == makedev(maj, min)) {
		fd = open(real, O_RDWR | O_CLOEXEC);
		if (fd >= 0)
			return fd;
		return devpm_fail(errno, "%s: %s", real, strerror(errno));
	}
	snprintf(name, sizeof(name), "usbdev%d.%d", u->busnum, u->devnum);
	return devpm_devnode_open(u->dev.path, name, false, O_RDWR);
}

static void no_op(int sig)
{
	(void)sig;
}

int devpm_usbfs_open(const struct devpm_usb *u, struct devpm_usbfs **out)
{
	struct libusb_device_descriptor desc;
	struct devpm_usbfs *h;
	pthread_condattr_t ca;
	int r;

	*out = NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	snprintf(h->name, sizeof(h->name), "%s", u->dev.name);
	h->fd = open_node(u);
	if (h->fd < 0) {
		r = h->fd;
		free(h);
		return r;
	}
	/* No enumeration: this context only wraps our fd. */
	libusb_set_option(NULL, LIBUSB_OPTION_NO_DEVICE_DISCOVERY);
	r = libusb_init(&h->ctx);
	if (r) {
		r = devpm_fail(EIO, "libusb_init: %s", libusb_strerror(r));
		goto fail;
	}
	r = libusb_wrap_sys_device(h->ctx, (intptr_t)h->fd, &h->h);
	if (r) {
		r = devpm_fail(EIO, "%s: libusb_wrap_sys_device: %s", u->dev.name,
			       libusb_strerror(r));
		goto fail;
	}
	r = libusb_get_device_descriptor(libusb_get_device(h->h), &desc);
	if (r) {
		r = devpm_fail(EIO, "%s: device descriptor: %s", u->dev.name,
			       libusb_strerror(r));
		goto fail;
	}
	if (desc.idVendor != u->vendor || desc.idProduct != u->product_id) {
		r = devpm_fail(ESTALE,
			       "%s: usbfs node holds %04x:%04x, sysfs says %04x:%04x",
			       u->dev.name, desc.idVendor, desc.idProduct,
			       u->vendor, u->product_id);
		goto fail;
	}
	pthread_mutex_init(&h->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->cond, &ca);
	pthread_condattr_destroy(&ca);
	*out = h;
	return 0;
fail:
	if (h->h)
		libusb_close(h->h);
	if (h->ctx)
		libusb_exit(h->ctx);
	close(h->fd);
	free(h);
	return r;
}

static int pm_ioctl(struct devpm_usbfs *h, unsigned long req,
		    const char *what)
{
	if (ioctl(h->fd, req) < 0)
		return devpm_fail(errno, "%s: %s: %s", h->name, what,
				  strerror(errno));
	return 0;
}

int devpm_usbfs_allow_suspend(struct devpm_usbfs *h)
{
	return pm_ioctl(h, USBDEVFS_ALLOW_SUSPEND, "USBDEVFS_ALLOW_SUSPEND");
}

int devpm_usbfs_forbid_suspend(struct devpm_usbfs *h)
{
	return pm_ioctl(h, USBDEVFS_FORBID_SUSPEND, "USBDEVFS_FORBID_SUSPEND");
}

static void *wait_thread(void *arg)
{
	struct devpm_usbfs *h = arg;
	int r;

	r = ioctl(h->fd, USBDEVFS_WAIT_FOR_RESUME) < 0 ? -errno : 0;
	pthread_mutex_lock(&h->lock);
	h->ret = r;
	h->at_us = devpm_now_us();
	h->done = true;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

int devpm_usbfs_wait_start(struct devpm_usbfs *h)
{
	struct sigaction sa = { .sa_handler = no_op };
	int r;

	if (h->waiting)
		return devpm_fail(EBUSY, "%s: a wait is pending", h->name);
	/* SIGUSR2 without SA_RESTART interrupts the ioctl at close. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	h->done = false;
	r = pthread_create(&h->thread, NULL, wait_thread, h);
	if (r)
		return devpm_fail(r, "%s: pthread_create: %s", h->name,
				  strerror(r));
	h->waiting = true;
	return 0;
}

int devpm_usbfs_wait_end(struct devpm_usbfs *h, int timeout_ms, int *ret,
			 uint64_t *at_us)
{
	struct timespec ts;
	bool done;

	if (!h->waiting)
		return devpm_fail(EINVAL, "%s: no wait was started", h->name);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&h->lock);
	while (!h->done &&
	       pthread_cond_timedwait(&h->cond, &h->lock, &ts) != ETIMEDOUT)
		;
	done = h->done;
	pthread_mutex_unlock(&h->lock);
	if (!done)
		return 0;
	pthread_join(h->thread, NULL);
	h->waiting = false;
	*ret = h->ret;
	*at_us = h->at_us;
	return 1;
}

void devpm_usbfs_close(struct devpm_usbfs *h)
{
	int i, ret;
	uint64_t at;

	if (!h)
		return;
	/* The signal may land before the thread enters the ioctl: repeat. */
	for (i = 0; h->waiting && i < 100; i++) {
		pthread_kill(h->thread, SIGUSR2);
		devpm_usbfs_wait_end(h, 10, &ret, &at);
	}
	if (h->waiting) {
		/* Never returned: leave the fd to it rather than free it. */
		fprintf(stderr, "# %s: WAIT_FOR_RESUME would not end\n",
			h->name);
		return;
	}
	libusb_close(h->h);
	libusb_exit(h->ctx);
	close(h->fd);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->cond);
	free(h);
}
