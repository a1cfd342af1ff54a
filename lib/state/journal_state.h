/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal_state.h - the open journal of this process, as journal.c keeps
 * it and hands it to the restore (journal_restore.h).
 */
#ifndef DEVPM_JOURNAL_STATE_H
#define DEVPM_JOURNAL_STATE_H

#include <stdbool.h>
#include <sys/types.h>

#include "core/sysfs.h"

struct devpm_journal_state {
	int fd;			/* the journal, O_APPEND; -1: not open */
	int dir_fd;		/* its directory: ours, not group/world-writable */
	int lock_fd;		/* owner only: <dir>/lock */
	int root_lock_fd;	/* owner only: the sysfs root, flock'd */
	int root_fd;		/* the root records lie below (<root>/sys) */
	bool owner;
	pid_t pid;		/* only the opener restores at exit/signal */
	off_t hdr;		/* end of the "R <root>" line (0: none) */
	off_t base;		/* this process restores from here */
	off_t dedup_from;	/* last mark: a knob recorded since is not again */
	char root[DEVPM_PATH_MAX];	/* records lie below <root>/sys */
	/* The root's device and inode ("R <root>\t<dev>:<ino>"): a tree's. */
	bool root_ids;
	unsigned long long root_dev, root_ino;
	char dir[DEVPM_PATH_MAX];
	char path[DEVPM_PATH_MAX];
};

#endif
