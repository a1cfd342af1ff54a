/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * path_trust.h - the one rule for every path devpm opens that it did not
 * make itself: a sysfs root, an output directory, a stream, the journal's
 * directory and files, a baseline, the suites directory, any DEVPM_* path.
 *
 * The path is walked from / one component at a time with openat(2)
 * O_PATH | O_NOFOLLOW (a relative path from getcwd(), so that the working
 * directory's own components count too).  As root, a component is refused
 * when another user could have put it there or could change what it
 * leads to:
 *   - it belongs to a uid other than root's;
 *   - it is a directory writable by others (unless sticky and not the
 *     last: entries of root's in /tmp are safe), or by a group other than
 *     root's (gid 0);
 *   - it is a symlink owned by another user.  A symlink of root's in a
 *     directory that passed cannot be changed by anyone else, so it is
 *     followed, its target walked by the same rule (/var/run -> /run,
 *     results/latest).
 * Without root, nothing is refused (the user's own files are theirs to
 * point anywhere) but the walk and its descriptor are the same.
 *
 * The caller keeps the descriptor the walk ends on and opens everything
 * below it relative to it, never by name again.  On refusal devpm_error()
 * names the component and why ("/home/u/out belongs to uid 1000"); the
 * caller adds what the path was for and the fix.
 */
#ifndef DEVPM_PATH_TRUST_H
#define DEVPM_PATH_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* What devpm_path_trust_open() opens. */
enum devpm_trust_kind {
	DEVPM_TRUST_DIR,	/* a directory that exists */
	DEVPM_TRUST_MKDIR,	/* a directory, made with its missing parents */
	DEVPM_TRUST_PARENT,	/* the directory of a file; its name to *base */
	DEVPM_TRUST_CHECK,	/* only check the part that exists: 0 */
};

/* The last directory may be writable by others when sticky (--output /tmp). */
#define DEVPM_TRUST_STICKY	0x1
/* devpm_path_trust_file(): a character device will do (a serial port). */
#define DEVPM_TRUST_CHARDEV	0x2
/* The last component may not be a symlink, not even root's (-ELOOP). */
#define DEVPM_TRUST_NOLINK	0x4

/*
 * Walk path (see above) and return an fd of the directory it names (kind
 * DIR, MKDIR: missing directories made with mode, as the process's own)
 * or of the directory of the file it names (PARENT: its last component,
 * a plain name not looked up, copied to base: a link there is the file
 * open's to refuse), O_RDONLY | O_DIRECTORY | O_CLOEXEC.
 * -errno with devpm_error() set: -EPERM refused, -ENOENT, -ENOTDIR,
 * -ENAMETOOLONG (longer than PATH_MAX), -ELOOP (40 links).
 */
int devpm_path_trust_open(const char *path, enum devpm_trust_kind kind,
			  int flags, mode_t mode, char *base, size_t blen);

/*
 * Open name in the directory dfd (from devpm_path_trust_open()) with
 * oflags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC (mode if it creates it):
 * a symlink there is refused (-ELOOP), so is anything but a regular file
 * (or a character device with DEVPM_TRUST_CHARDEV: -EINVAL), and as root
 * a file another user owns or can write, or (opened for writing) with a
 * second hard link (-EPERM).  O_NONBLOCK stays set: no FIFO can hang a
 * reader, and it is cleared for a device opened for writing.
 */
int devpm_path_trust_file(int dfd, const char *name, int oflags,
			  mode_t mode, int flags);

/*
 * devpm_path_trust_file() of a whole path: its directory walked, then
 * the file opened in it.  The directory's fd is closed.
 */
int devpm_path_trust_open_file(const char *path, int oflags, mode_t mode,
			       int flags);

/*
 * Would st pass as a component (last: the end of the walk)?  0, or -EPERM
 * with devpm_error() naming shown.  Always 0 without root.
 */
int devpm_path_trust_stat(const struct stat *st, const char *shown,
			  bool last, int flags);

/*
 * The value of the environment variable name when it names a path: NULL
 * when unset or empty, and as root when the path fails the rule (what of
 * it exists is checked): then one line on stderr says it is ignored and
 * why, once per variable.
 */
const char *devpm_path_trust_env(const char *name);

/*
 * Open rel below the directory dfd, every link it meets staying below dfd
 * (openat2 RESOLVE_BENEATH, no magic links): sysfs links are relative and
 * stay in /sys.  O_CLOEXEC is added.  fd, or -1 with errno set.
 */
int devpm_path_trust_beneath(int dfd, const char *rel, int flags);

/* Does the rule refuse anything: is devpm running as root? */
bool devpm_path_trust_strict(void);

#endif
