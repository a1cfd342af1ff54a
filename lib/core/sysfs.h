/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sysfs.h - typed access to sysfs attributes, redirectable to a recorded tree.
 *
 * Every path handed to this API is the path the kernel would show
 * ("/sys/devices/pci0000:00/0000:00:1f.2/power/control").  When a sysfs root
 * is set (--sysfs-root DIR or DEVPM_SYSFS_ROOT), the same path is looked up
 * under DIR instead, so lib/ can be unit-tested against a recorded tree.
 * The redirection applies to /sys, /proc and /dev paths alike.
 */
#ifndef DEVPM_SYSFS_H
#define DEVPM_SYSFS_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

#define DEVPM_PATH_MAX 512

/*
 * Set the root under which /sys, /proc and /dev are looked up.  NULL or ""
 * means the real system.  The directory is walked by path_trust.h's rule
 * (as root: refused, -EPERM, when another user could change it) and kept
 * open: writes (and reads) below it are made beneath that descriptor.
 * Returns 0 or -errno (-ENOTDIR, -ENOENT, -EPERM) with devpm_error().
 * devpm_sysfs_root_from_env() applies DEVPM_SYSFS_ROOT if set.
 */
int devpm_set_sysfs_root(const char *dir);
int devpm_sysfs_root_from_env(void);
const char *devpm_sysfs_root(void);	/* "" for the real system */
/* The root directory, open since it was set and checked; -1: the real system. */
int devpm_sysfs_root_fd(void);

/*
 * Build the real filesystem path for a kernel path: root + path for /sys,
 * /proc and /dev paths; any other path, or one already under the root, is
 * copied unchanged.
 */
int devpm_real_path(char *buf, size_t len, const char *kpath);

/*
 * The last part of the target of the link dir/name, under the sysfs root
 * ("driver" -> "ahci"); "" when there is none.
 */
void devpm_link_base(const char *dir, const char *name, char *buf,
		     size_t len);

/*
 * Resolve every symlink in a kernel path, under the sysfs root, and give
 * back the kernel path (/sys/bus/pci/devices/X -> /sys/devices/pci.../X).
 * -ENOENT if it does not exist, -EXDEV if a link leaves the root.
 */
int devpm_resolve(const char *kpath, char *buf, size_t len);

/*
 * Reads strip one trailing newline.  All return 0 or -errno; on error
 * devpm_error() holds "<path>: <strerror>" (or a parse message).  A value
 * that does not fit in buf is -EOVERFLOW, never silently cut.  Numbers are
 * decimal; anything else in the file is -EINVAL.  Under a sysfs root a
 * read stays beneath the root's descriptor, as a write does.
 */
int devpm_read_str(const char *kpath, char *buf, size_t len);
int devpm_read_long(const char *kpath, long *val);
/* Accepts "n/a" (returns 1 and leaves *val untouched), else as read_long. */
int devpm_read_long_or_na(const char *kpath, long *val);
bool devpm_exists(const char *kpath);

/*
 * The same reads of the file name in the directory dfd, which
 * devpm_open_dir() opened (O_PATH): one path walk for a device's many
 * attributes, not one each (~1.4 ms a device under TCG).  kpath is the
 * file's kernel path, for the error.  The final component is never
 * followed when a symlink.
 */
int devpm_open_dir(const char *kpath);	/* fd, or -errno */
int devpm_read_str_at(int dfd, const char *name, const char *kpath,
		      char *buf, size_t len);
int devpm_read_long_at(int dfd, const char *name, const char *kpath,
		       long *val);
int devpm_read_long_or_na_at(int dfd, const char *name, const char *kpath,
			     long *val);
/*
 * opendir() of a kernel path.  NULL on failure with errno set (ENOENT: no
 * such directory) and devpm_error() "<path>: <strerror>".
 */
DIR *devpm_opendir(const char *kpath);

/*
 * Raw write: one write() of the whole string (O_TRUNC, no O_CREAT), never
 * through a symlink at the file itself (O_NOFOLLOW), and under a sysfs
 * root never out of it (openat2 RESOLVE_BENEATH its descriptor).  Tests
 * must not call this for PM knobs: use devpm_knob_write() (journal.h),
 * which records the old value first.  Raw writes are for action files with
 * no state to restore (e.g. drop_caches, uevent).
 */
int devpm_write_str(const char *kpath, const char *val);

/*
 * The same on a filesystem path as it is, without the sysfs root: for the
 * journal, which records the paths it really wrote.
 */
int devpm_read_file(const char *path, char *buf, size_t len);
int devpm_write_file(const char *path, const char *val);

#endif
