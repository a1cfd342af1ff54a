/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * safety.h - what devpm may touch on a machine it must not break.
 *
 * Default mode never enters system sleep and never writes a PM knob of a
 * device on the path of a mounted filesystem's block device (mountinfo ->
 * /sys/dev/block/M:m -> all ancestors).  --allow-sleep / --allow-disk opt in;
 * the runner passes them to test programs as DEVPM_ALLOW_SLEEP=1 and
 * DEVPM_ALLOW_DISK=1.
 */
#ifndef DEVPM_SAFETY_H
#define DEVPM_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

bool devpm_allow_sleep(void);
bool devpm_allow_disk(void);

/*
 * True if the device at devpath (a /sys/devices/... path; links are resolved)
 * is, or is an ancestor of, a block device that holds a mounted filesystem
 * or swap (also beneath device-mapper/md); why (if non-NULL) gets e.g.
 * "/dev/vda holds / (mounted)".  Read through the sysfs root.  On the real
 * system an unreadable mountinfo protects every device.  A mounted btrfs
 * protects every member of every mounted btrfs (/sys/fs/btrfs/ * /devices);
 * a filesystem whose block devices cannot be named (zfs "rpool/...", 0:N)
 * protects every block device, said once on stderr.  The set is
 * computed once per sysfs root; devpm_safety_reset() forgets it (after
 * mounting something, or in unit tests).
 */
bool devpm_dev_protected(const char *devpath, char *why, size_t len);
void devpm_safety_reset(void);

bool devpm_is_root(void);

#endif
