/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * common.h - what the SCSI test programs include: the disks under test
 * with their targets and hosts, a trace of all of them, and I/O cycles
 * run on many disks at once (lib/bus/scsi/scsi_disk_set.h).
 */
#ifndef DEVPM_SCSI_COMMON_H
#define DEVPM_SCSI_COMMON_H

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "devpm.h"

#endif
