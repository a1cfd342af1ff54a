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
 * True if the device at kpath (a /sys/devices/... path) is, or is an
 * ancestor of, a block device that holds a mounted filesystem; why (if
 * non-NULL) gets e.g. "/dev/vda holds / (mounted)".
 */
bool devpm_dev_protected(const char *devpath, char *why, size_t len);

bool devpm_is_root(void);

#endif
