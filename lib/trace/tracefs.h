/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracefs.h - where tracefs is (mounted by devpm when root and absent,
 * and left mounted: other tools may rely on it from then on), and its
 * files.  tracefs is the live kernel's, never under the sysfs root.
 */
#ifndef DEVPM_TRACEFS_H
#define DEVPM_TRACEFS_H

#include <stdbool.h>

/* Mount point of tracefs ("" if none; mounts it when root and absent). */
const char *devpm_tracefs(void);

/* The same, mounting it only when may_mount; "" when there is none. */
const char *devpm_tracefs_find(bool may_mount);

/* Does <dir>/<name> exist? */
bool devpm_tracefs_has(const char *dir, const char *name);

/* Write val to <dir>/<file>: 0, or -errno with devpm_error(). */
int devpm_tracefs_write(const char *dir, const char *file, const char *val);

/*
 * Empty a cleanly stopped instance (tracing off) of what its last user
 * left unread: reading costs less than clearing the buffer ("trace"
 * O_TRUNC resets every CPU's buffer after an RCU grace period).
 */
int devpm_tracefs_drain(const char *dir);

/* What a user killed before its stop may have left on: off, cleared. */
int devpm_tracefs_reset(const char *dir);

#endif
