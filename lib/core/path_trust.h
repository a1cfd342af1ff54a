/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * path_trust.h - how devpm opens a path it did not make itself.
 */
#ifndef DEVPM_PATH_TRUST_H
#define DEVPM_PATH_TRUST_H

/*
 * Open rel below the directory dfd, every link it meets staying below dfd
 * (openat2 RESOLVE_BENEATH, no magic links): sysfs links are relative and
 * stay in /sys.  O_CLOEXEC is added.  fd, or -1 with errno set.
 */
int devpm_path_trust_beneath(int dfd, const char *rel, int flags);

#endif
