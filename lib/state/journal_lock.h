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

/* mkdir -p dir, each level 0700. */
int devpm_journal_lock_mkdir(const char *dir);

/*
 * The journal directory: a directory (not a link) of the user running
 * devpm that no one else can write.
 */
int devpm_journal_lock_dir(const char *dir);

/* name in the directory dfd (dir for messages): not a link, ours, one link. */
int devpm_journal_lock_file(int dfd, const char *dir, const char *name,
			    int flags);

/* flock the sysfs root (-EBUSY naming the holder's pid when held). */
int devpm_journal_lock_root(void);

/*
 * Take <dir>/lock in the directory dfd: flock'd, our pid written in it.
 * -EBUSY naming the holder when another run holds it; a lock file left by
 * a dead process is simply taken (an flock dies with its holder).
 */
int devpm_journal_lock_take(int dfd, const char *dir);

#endif
