// SPDX-License-Identifier: GPL-2.0-only
/*
 * safety.c - which devices hold a mounted filesystem or swap (safety.h).
 *
 * The protected set is every block device named by /proc/self/mountinfo
 * (major:minor, and the source when it is a block node: btrfs shows an
 * anonymous 0:N) or /proc/swaps, plus the devices under a device-mapper/md
 * device (slaves/), each as a /sys/devices path.  A device is protected
 * when it is one of them or an ancestor of one.  A mounted btrfs adds
 * every member of every mounted btrfs (/sys/fs/btrfs/<fsid>/devices/).  A
 * filesystem on no block node devpm can name (zfs "rpool/ROOT", device
 * 0:N) protects every block device, said once on stderr: failing open
 * would let a test suspend the disk under /.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/safety.h"
#include "core/sysfs.h"

struct prot {
	char dev[DEVPM_PATH_MAX];	/* /sys/devices/.../block/vda/vda1 */
	char why[256];			/* "/dev/vda1 holds / (mounted)" */
};

static struct {
	bool valid;
	bool every_block;		/* cannot tell: all block devices */
	bool said;
	char root[DEVPM_PATH_MAX];	/* sysfs root it was computed for */
	bool all;			/* cannot tell: everything protected */
	char all_why[300];
	struct prot *p;
	size_t n, cap;
} set;

static bool env_is_1(const char *name)
{
	const char *v = getenv(name);

	return v && !strcmp(v, "1");
}

bool devpm_allow_sleep(void)
{
	return env_is_1("DEVPM_ALLOW_SLEEP");
}

bool devpm_allow_disk(void)
{
	return env_is_1("DEVPM_ALLOW_DISK");
}

bool devpm_is_root(void)
{
	return geteuid() == 0;
}

void devpm_safety_reset(void)
{
	free(set.p);
	memset(&set, 0, sizeof(set));
}

/* Filesystems that hold no block device of this machine. */
static bool diskless(const char *type)
{
	static const char *const types[] = {
		"proc", "sysfs", "tmpfs", "devtmpfs", "devpts", "cgroup",
		"cgroup2", "securityfs", "debugfs", "tracefs", "pstore", "bpf",
		"mqueue", "hugetlbfs", "configfs", "binfmt_misc", "efivarfs",
		"fusectl", "ramfs", "rpc_pipefs", "nsfs", "autofs", "overlay",
		"nfs", "nfs4", "cifs", "smb3", "9p", "virtiofs", "selinuxfs",
		"ceph", "nfsd", "functionfs", "gadgetfs", "none", "squashfs",
		"rootfs",
	};
	size_t i;

	if (!strncmp(type, "fuse", 4) && strcmp(type, "fuseblk"))
		return true;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(type, types[i]))
			return true;
	return false;
}

static void add(const char *dev, const char *why)
{
	struct prot *p;
	size_t i;

	for (i = 0; i < set.n; i++)
		if (!strcmp(set.p[i].dev, dev))
			return;
	if (set.n == set.cap) {
		set.cap = set.cap ? 2 * set.cap : 16;
		p = realloc(set.p, set.cap * sizeof(*p));
		if (!p) {
			set.all = true;
			snprintf(set.all_why, sizeof(set.all_why),
				 "out of memory listing mounted devices");
			return;
		}
		set.p = p;
	}
	snprintf(set.p[set.n].dev, sizeof(set.p[0].dev), "%s", dev);
	snprintf(set.p[set.n].why, sizeof(set.p[0].why), "%s", why);
	set.n++;
}

/* A block device (kernel path) and what lies beneath it (dm, md). */
static void add_tree(const char *dev, const char *why, int depth)
{
	char kpath[DEVPM_PATH_MAX], real[DEVPM_PATH_MAX];
	char slave[DEVPM_PATH_MAX];
	struct dirent *de;
	DIR *d;

	add(dev, why);
	if (depth > 8 || devpm_fmt(kpath, sizeof(kpath), "%s/slaves", dev) ||
	    devpm_real_path(real, sizeof(real), kpath))
		return;
	d = opendir(real);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (devpm_fmt(kpath, sizeof(kpath), "%s/slaves/%s", dev,
			      de->d_name) ||
		    devpm_resolve(kpath, slave, sizeof(slave)))
			continue;
		add_tree(slave, why, depth + 1);
	}
	closedir(d);
}

static void add_blockdev(unsigned int maj, unsigned int min, const char *why)
{
	char link[64], dev[DEVPM_PATH_MAX];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
	if (devpm_resolve(link, dev, sizeof(dev)))
		return;
	add_tree(dev, why, 0);
}

/* Every member of every mounted btrfs; how many were found. */
static int add_btrfs_members(const char *why)
{
	char path[DEVPM_PATH_MAX], kpath[DEVPM_PATH_MAX], dev[DEVPM_PATH_MAX];
	struct dirent *fs, *de;
	DIR *top, *d;
	int n = 0;

	top = devpm_opendir("/sys/fs/btrfs");
	while (top && (fs = readdir(top))) {
		if (fs->d_name[0] == '.' ||
		    devpm_fmt(path, sizeof(path), "/sys/fs/btrfs/%s/devices",
			      fs->d_name))
			continue;
		d = devpm_opendir(path);
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.' ||
			    devpm_fmt(kpath, sizeof(kpath), "%s/%s", path,
				      de->d_name) ||
			    devpm_resolve(kpath, dev, sizeof(dev)))
				continue;
			add_tree(dev, why, 0);
			n++;
		}
		if (d)
			closedir(d);
	}
	if (top)
		closedir(top);
	return n;
}

/* Cannot tell which block devices hold a filesystem: all of them. */
static void add_every_block(const char *why)
{
	char kpath[DEVPM_PATH_MAX], dev[DEVPM_PATH_MAX];
	struct dirent *de;
	DIR *d;

	set.every_block = true;
	d = devpm_opendir("/sys/class/block");
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    devpm_fmt(kpath, sizeof(kpath), "/sys/class/block/%s",
			      de->d_name) ||
		    devpm_resolve(kpath, dev, sizeof(dev)))
			continue;
		add(dev, why);
	}
	if (d)
		closedir(d);
	if (!set.said) {
		set.said = true;
		fprintf(stderr, "# devpm: %s%s\n", why, devpm_allow_disk() ?
			"" : "; pass --allow-disk to test them anyway");
	}
}

/* rdev of a /dev node (through the sysfs root), 0 if not a block node. */
static dev_t block_node(const char *node)
{
	char real[DEVPM_PATH_MAX];
	struct stat st;

	if (strncmp(node, "/dev/", 5) ||
	    devpm_real_path(real, sizeof(real), node) || stat(real, &st) ||
	    !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

static void scan_mountinfo(FILE *f)
{
	char line[4096], mnt[1024], src[1024], type[64], why[256];
	unsigned int maj, min;
	const char *sep;
	dev_t rdev;

	while (fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mountpoint opts [opt...] - type src */
		if (sscanf(line, "%*d %*d %u:%u %*s %1023s", &maj, &min,
			   mnt) != 3)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s %1023s", type, src) != 2) {
			strcpy(type, "?");
			strcpy(src, "?");
		}
		if (src[0] == '/')
			snprintf(why, sizeof(why), "%s holds %s (mounted)", src,
				 mnt);
		else
			snprintf(why, sizeof(why),
				 "block device %u:%u holds %s (mounted)", maj,
				 min, mnt);
		if (maj)
			add_blockdev(maj, min, why);
		rdev = block_node(src);
		if (rdev && rdev != makedev(maj, min))
			add_blockdev(major(rdev), minor(rdev), why);
		/* The source names one member of a multi-device btrfs. */
		if (!strcmp(type, "btrfs")) {
			if (add_btrfs_members(why) || rdev)
				continue;
		} else if (maj || rdev || diskless(type)) {
			continue;
		}
		if (set.every_block)
			continue;
		snprintf(why, sizeof(why),
			 "cannot tell which block devices hold %.200s (%.20s %.200s): every block device counts as holding it",
			 mnt, type, src);
		add_every_block(why);
	}
}

static void scan_swaps(FILE *f)
{
	char line[4096], name[1024], why[256];
	dev_t rdev;

	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%1023s", name) != 1)
			continue;
		rdev = block_node(name);
		if (!rdev)
			continue;	/* header, or a swap file */
		snprintf(why, sizeof(why), "%s holds swap", name);
		add_blockdev(major(rdev), minor(rdev), why);
	}
}

static void compute(void)
{
	char path[DEVPM_PATH_MAX];
	FILE *f;

	devpm_safety_reset();
	set.valid = true;
	snprintf(set.root, sizeof(set.root), "%s", devpm_sysfs_root());
	devpm_real_path(path, sizeof(path), "/proc/self/mountinfo");
	f = fopen(path, "re");
	if (f) {
		scan_mountinfo(f);
		fclose(f);
	} else if (!set.root[0]) {
		/* On a real machine not knowing means not touching. */
		set.all = true;
		snprintf(set.all_why, sizeof(set.all_why),
			 "cannot read %s (%s): every device counts as holding a filesystem",
			 path, strerror(errno));
		return;
	}
	/* A recorded tree without mountinfo has nothing mounted. */
	devpm_real_path(path, sizeof(path), "/proc/swaps");
	f = fopen(path, "re");
	if (f) {
		scan_swaps(f);
		fclose(f);
	}
}

/* path is dir or lies below it. */
static bool at_or_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

bool devpm_dev_protected(const char *devpath, char *why, size_t len)
{
	char dev[DEVPM_PATH_MAX];
	size_t i;

	if (!set.valid || strcmp(set.root, devpm_sysfs_root()))
		compute();
	if (devpm_resolve(devpath, dev, sizeof(dev)))
		snprintf(dev, sizeof(dev), "%s", devpath);
	if (set.all) {
		if (why && len)
			snprintf(why, len, "%s", set.all_why);
		return true;
	}
	for (i = 0; i < set.n; i++) {
		if (at_or_below(set.p[i].dev, dev)) {
			if (why && len)
				snprintf(why, len, "%s", set.p[i].why);
			return true;
		}
	}
	if (why && len)
		why[0] = '\0';
	return false;
}
