/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * subtree.h - let a device and everything below it runtime-suspend, and put
 * it back quickly.
 *
 * A device suspends only when its children are suspended (unless it ignores
 * them), and children default to control=on (ata ports, SCSI devices) or to
 * an autosuspend delay of -1 (sd).  devpm_subtree_allow() writes, through
 * the journal, control=auto on every device below top (and top itself when
 * asked), and autosuspend_delay_ms=20 where it is negative (0 would leave
 * a disk active after I/O: see subtree.c).
 *
 * Putting control=on back resumes a device, and some resumes are slow and
 * synchronous (an ata port's runs its error handler: 0.3 s).  The journal
 * restores one knob after the other; devpm_subtree_undo() puts the same
 * values back level by level, every knob of a level at once, so that those
 * resumes overlap.  What it leaves undone the journal still restores.
 */
#ifndef DEVPM_SUBTREE_H
#define DEVPM_SUBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include "rpm/device.h"

/*
 * What devpm_subtree_allow() changed: path, old value, and depth below
 * the top it was allowed under, so that the same levels of two subtrees
 * (the ata ports of two controllers, one behind a bridge) resume together.
 */
struct devpm_subtree_knob {
	char path[DEVPM_PATH_MAX];
	char old[24];
	int depth;
};

struct devpm_subtree_undo {
	struct devpm_subtree_knob *k;
	size_t n, cap;
};

/* Devices strictly below top, each parent before its children. */
int devpm_subtree_list(const struct devpm_dev *top, struct devpm_dev **list,
		       size_t *n);

/*
 * Allow runtime suspend below top (and of top if with_top).  Refuses with
 * -EPERM, the reason in devpm_error(), when top is on the path of a mounted
 * filesystem and --allow-disk was not given.  *max_delay_ms (may be NULL)
 * gets the longest autosuspend delay in the subtree after the writes.
 * undo (may be NULL) gets each change appended.
 */
int devpm_subtree_allow(const struct devpm_dev *top, bool with_top,
			long *max_delay_ms, struct devpm_subtree_undo *undo);

/*
 * Put back what undo holds, shallowest level (below its top) first, each
 * level's writes in parallel; then empty it.  Returns 0 or the first -errno (every knob is
 * still tried).
 */
int devpm_subtree_undo(struct devpm_subtree_undo *undo);

#endif
