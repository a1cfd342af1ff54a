// SPDX-License-Identifier: GPL-2.0-only
/*
 * devnode.c - open a device's /dev node, or a private one (devnode.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rpm/devnode.h"
#include "core/sysfs.h"
#include "state/journal.h"

static int open_private(dev_t rdev, const char *name, bool block, int flags)
{
	char dir[DEVPM_PATH_MAX], node[DEVPM_PATH_MAX];
	int fd, r;

	r = devpm_fmt(dir, sizeof(dir), "%s", devpm_journal_dir());
	if (r)
		return r;
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return devpm_fail(errno, "%s: %s", dir, strerror(errno));
	r = devpm_fmt(node, sizeof(node), "%s/node-%d-%s", dir, (int)getpid(),
		      name);
	if (r)
		return r;
	unlink(node);
	if (mknod(node, (block ? S_IFBLK : S_IFCHR) | 0600, rdev) < 0)
		return devpm_fail(errno, "mknod %s (%u:%u): %s", node,
				  major(rdev), minor(rdev), strerror(errno));
	fd = open(node, flags | O_CLOEXEC);
	r = errno;
	unlink(node);
	if (fd < 0)
		return devpm_fail(r, "%s (%u:%u): %s", node, major(rdev),
				  minor(rdev), strerror(r));
	return fd;
}

int devpm_devnode_open(const char *kdir, const char *name, bool block,
		       int flags)
{
	char attr[DEVPM_PATH_MAX], val[32], kdev[DEVPM_PATH_MAX];
	char real[DEVPM_PATH_MAX];
	unsigned int maj, min;
	struct stat st;
	dev_t rdev;
	int fd, r;

	if (strchr(name, '/') || !name[0])
		return devpm_fail(EINVAL, "bad device node name '%s'", name);
	r = devpm_fmt(attr, sizeof(attr), "%s/dev", kdir);
	if (r)
		return r;
	r = devpm_read_str(attr, val, sizeof(val));
	if (r)
		return r;
	if (sscanf(val, "%u:%u", &maj, &min) != 2)
		return devpm_fail(EINVAL, "%s: '%s' is not M:m", attr, val);
	rdev = makedev(maj, min);
	r = devpm_fmt(kdev, sizeof(kdev), "/dev/%s", name);
	if (r)
		return r;
	r = devpm_real_path(real, sizeof(real), kdev);
	if (r)
		return r;
	if (devpm_sysfs_root()[0]) {
		fd = open(real, (flags & ~O_DIRECT) | O_CLOEXEC);
		if (fd < 0)
			return devpm_fail(errno, "%s: %s", real,
					  strerror(errno));
		return fd;
	}
	if (!stat(real, &st) && st.st_rdev == rdev &&
	    (block ? S_ISBLK(st.st_mode) : S_ISCHR(st.st_mode))) {
		fd = open(real, flags | O_CLOEXEC);
		if (fd >= 0)
			return fd;
		if (errno != ENXIO && errno != ENODEV)
			return devpm_fail(errno, "%s: %s", real,
					  strerror(errno));
	}
	return open_private(rdev, name, block, flags);
}
