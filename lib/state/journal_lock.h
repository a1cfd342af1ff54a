/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal_lock.h - who owns the journal: its directory (the user's own,
 * nobody else's to write), the files in it, and the two locks an owner
 * holds: <dir>/lock (holder's pid inside) and an flock on the sysfs root
 * itself (/sys for the real system), so that one run acts on a root at a
 * time whatever its journal directory.  Each returns an fd or -errno
 * with devpm_error() naming the file and the fix.
 */
#ifndef DEVPM_JOURNAL_LOCK_H
#define DEVPM_JOURNAL_LOCK_H

#include <stdbool.h>

/*
 * The journal directory (made 0700 with its missing parents when make):
 * walked by path_trust.h's rule, not a symlink itself, and the directory
 * of the user running devpm that no one else can write.
 */
int devpm_journal_lock_dir(const char *dir, bool make);

/* name in the directory dfd (dir for messages): not a link, ours, one link. */
int devpm_journal_lock_file(int dfd, const char *dir, const char *name,
			    int flags);

/*
 * flock the sysfs root open in fd (a tree's directory, /sys for the real
 * system); -EBUSY naming the holder's pid and shown when held.
 */
int devpm_journal_lock_root(int fd, const char *shown);

/*
 * Open again the sysfs root a journal recorded (path_trust.h's walk): it
 * must be the very directory (device and inode) it was, else -EPERM.
 */
int devpm_journal_lock_recorded(const char *root, unsigned long long dev,
				unsigned long long ino);

/*
 * Take <dir>/lock in the directory dfd: flock'd, our pid written in it.
 * A lock file that holds anything but a pid is refused (-EPERM), never
 * overwritten.
 * -EBUSY naming the holder when another run holds it; a lock file left by
 * a dead process is simply taken (an flock dies with its holder).
 */
int devpm_journal_lock_take(int dfd, const char *dir);

#endif
