// SPDX-License-Identifier: GPL-2.0-only
/*
 * vfio.c - bind an unbound PCI device to vfio-pci and drive its runtime PM
 * through VFIO (vfio.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/vfio.h>

#include "bus/pci/vfio.h"
#include "core/sysfs.h"
#include "rpm/device.h"
#include "state/journal.h"
#include "state/module_load.h"

struct devpm_vfio {
	int container, group, device;
};

/* Number of d's IOMMU group, -ENOENT when it has none. */
static int group_of(const struct devpm_dev *d)
{
	char kpath[DEVPM_PATH_MAX], real[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;
	int r;

	r = devpm_fmt(kpath, sizeof(kpath), "%s/iommu_group", d->path);
	if (r < 0)
		return r;
	r = devpm_real_path(real, sizeof(real), kpath);
	if (r < 0)
		return r;
	n = readlink(real, target, sizeof(target) - 1);
	if (n <= 0)
		return -ENOENT;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	return atoi(base);
}

bool devpm_vfio_eligible(const struct devpm_dev *d, int pm_cap, bool bridge,
			 char *why, size_t len)
{
	const char *env = getenv("DEVPM_PCI_VFIO");

	if (env && !strcmp(env, "0"))
		snprintf(why, len, "DEVPM_PCI_VFIO=0: vfio-pci not used");
	else if (!strcmp(d->driver, DEVPM_VFIO_DRIVER))
		return true;
	else if (d->driver[0])
		snprintf(why, len, "bound to %s", d->driver);
	else if (!pm_cap)
		snprintf(why, len, "no PM capability");
	else if (bridge)
		snprintf(why, len, "a bridge");
	else if (group_of(d) < 0)
		snprintf(why, len,
			 "no IOMMU group: vfio-pci needs an IOMMU (intel_iommu=on; QEMU -device intel-iommu)");
	else
		return true;
	return false;
}

int devpm_vfio_bind(struct devpm_dev *d)
{
	char override[DEVPM_PATH_MAX];
	int r;

	if (!strcmp(d->driver, DEVPM_VFIO_DRIVER))
		return 0;
	if (d->driver[0])
		return devpm_fail(EBUSY,
				  "%s is bound to %s: only unbound devices are given to vfio-pci",
				  d->name, d->driver);
	r = devpm_module_load("vfio_pci", NULL);
	if (r < 0)
		return devpm_fail(-r, "vfio-pci not available: %s",
				  devpm_error());
	r = devpm_fmt(override, sizeof(override),
		      "/sys/bus/pci/devices/%s/driver_override", d->name);
	if (r < 0)
		return r;
	/* Undone backwards: unbind first, then clear the override. */
	r = devpm_journal_undo_write(override, "");
	if (r < 0)
		return r;
	r = devpm_write_str(override, DEVPM_VFIO_DRIVER);
	if (r < 0)
		return r;
	r = devpm_journal_undo_write("/sys/bus/pci/drivers/vfio-pci/unbind",
				     d->name);
	if (r < 0)
		return r;
	r = devpm_write_str("/sys/bus/pci/drivers_probe", d->name);
	if (r < 0)
		return devpm_fail(-r, "%s: vfio-pci probe failed (%s); see dmesg",
				  d->name, devpm_error());
	snprintf(override, sizeof(override), "%s", d->path);
	r = devpm_dev_open(d, override);
	if (r < 0)
		return r;
	if (strcmp(d->driver, DEVPM_VFIO_DRIVER))
		return devpm_fail(ENODEV, "%s: not bound to vfio-pci after probe (driver '%s')",
				  d->name, d->driver);
	return 0;
}

static int open_dev(const char *kpath)
{
	char path[DEVPM_PATH_MAX];
	int fd, r;

	r = devpm_real_path(path, sizeof(path), kpath);
	if (r < 0)
		return r;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", path, strerror(errno));
	return fd;
}

struct devpm_vfio *devpm_vfio_open(const struct devpm_dev *d)
{
	struct vfio_group_status st = { .argsz = sizeof(st) };
	struct devpm_vfio *v;
	char kpath[64];
	int group, r;

	group = group_of(d);
	if (group < 0) {
		devpm_fail(ENODEV, "%s: no IOMMU group", d->name);
		return NULL;
	}
	r = devpm_module_load("vfio_iommu_type1", NULL);
	if (r < 0) {
		devpm_fail(-r, "vfio_iommu_type1 not available: %s",
			   devpm_error());
		return NULL;
	}
	v = malloc(sizeof(*v));
	if (!v) {
		devpm_fail(ENOMEM, "out of memory");
		return NULL;
	}
	v->group = v->device = -1;
	v->container = open_dev("/dev/vfio/vfio");
	if (v->container < 0)
		goto fail;
	if (ioctl(v->container, VFIO_GET_API_VERSION) != VFIO_API_VERSION ||
	    ioctl(v->container, VFIO_CHECK_EXTENSION, VFIO_TYPE1_IOMMU) <= 0) {
		devpm_fail(ENODEV, "VFIO: no type1 IOMMU support");
		goto fail;
	}
	snprintf(kpath, sizeof(kpath), "/dev/vfio/%d", group);
	v->group = open_dev(kpath);
	if (v->group < 0)
		goto fail;
	if (ioctl(v->group, VFIO_GROUP_GET_STATUS, &st) < 0 ||
	    !(st.flags & VFIO_GROUP_FLAGS_VIABLE)) {
		devpm_fail(EBUSY,
			   "IOMMU group %d not viable: another device in it is bound to a host driver",
			   group);
		goto fail;
	}
	if (ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container) < 0 ||
	    ioctl(v->container, VFIO_SET_IOMMU, VFIO_TYPE1_IOMMU) < 0) {
		devpm_fail(errno, "IOMMU group %d: cannot set up a container: %s",
			   group, strerror(errno));
		goto fail;
	}
	v->device = ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, d->name);
	if (v->device < 0) {
		devpm_fail(errno, "%s: VFIO_GROUP_GET_DEVICE_FD: %s", d->name,
			   strerror(errno));
		goto fail;
	}
	return v;
fail:
	devpm_vfio_close(v);
	return NULL;
}

int devpm_vfio_low_power(struct devpm_vfio *v, bool enter)
{
	struct vfio_device_feature f = {
		.argsz = sizeof(f),
		.flags = VFIO_DEVICE_FEATURE_SET |
			 (enter ? VFIO_DEVICE_FEATURE_LOW_POWER_ENTRY :
				  VFIO_DEVICE_FEATURE_LOW_POWER_EXIT),
	};

	if (ioctl(v->device, VFIO_DEVICE_FEATURE, &f) < 0)
		return devpm_fail(errno, "VFIO low power %s: %s",
				  enter ? "entry" : "exit", strerror(errno));
	return 0;
}

void devpm_vfio_close(struct devpm_vfio *v)
{
	if (!v)
		return;
	if (v->device >= 0)
		close(v->device);
	if (v->group >= 0)
		close(v->group);
	if (v->container >= 0)
		close(v->container);
	free(v);
}
