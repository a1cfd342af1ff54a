/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * devnode.h - open the /dev node of a device that sysfs describes.
 *
 * The device number comes from <kdir>/dev ("M:m").  /dev/<name> is used
 * when it is that node; otherwise (no devtmpfs, a renamed or stale node) a
 * private node is made with mknod in devpm's run directory, opened and
 * unlinked at once, so nothing is left behind.  Under a sysfs root a
 * regular file <root>/dev/<name> stands for the node (unit tests), opened
 * without O_DIRECT.
 */
#ifndef DEVPM_DEVNODE_H
#define DEVPM_DEVNODE_H

#include <stdbool.h>

/*
 * kdir: kernel path of the device's directory, e.g. /sys/block/sdb or
 * /sys/class/i2c-dev/i2c-0; name: its node's name under /dev; block: a
 * block device (else character).  Returns an fd or -errno (devpm_error()).
 */
int devpm_devnode_open(const char *kdir, const char *name, bool block,
		       int flags);

#endif
