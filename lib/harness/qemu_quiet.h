/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qemu_quiet.h - the runner's quiet window: QEMU's controllers unbound
 * once for every mock program in a row.
 *
 * The programs whose info says .quiet_devices (the mock programs,
 * wakeup/userspace) take QEMU's xHCI, AHCI and e1000e out of their sleep
 * cycles (lib/harness/qemu_xhci.h, suites/wakeup/quiet_devices.h), each for
 * itself, and bind them again at their exit: every bind costs ~2 s
 * under TCG while hub_wq and the SCSI scan enumerate the devices again.  In devpm's QEMU image the
 * runner runs those programs one after the other, unbinds the
 * controllers once before the first (journaled, as the programs do) and
 * sets DEVPM_QEMU_QUIET=1; after the last it binds them again (the
 * journal) and waits until every controller has its driver and the usb
 * and scsi buses have as many devices as before.  A program in the
 * window still walks the PCI devices itself and unbinds whatever is
 * bound (the variable is never trusted alone: devpm_qemu_quiet_bound()),
 * and run alone it does all of it itself, as before.  Never on real
 * hardware: only when the host agent answers.
 */
#ifndef DEVPM_QEMU_QUIET_H
#define DEVPM_QEMU_QUIET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define DEVPM_QEMU_QUIET_ENV	"DEVPM_QEMU_QUIET"
#define DEVPM_QEMU_QUIET_MAX	16	/* controllers one window unbinds */

/* The PCI drivers the window unbinds: xhci_hcd, ahci, e1000e; NULL-ended. */
extern const char *const devpm_qemu_quiet_drivers[];

struct devpm_bus_count {
	long usb, scsi;		/* devices on each bus, -errno unreadable */
};

struct devpm_qemu_quiet {
	struct devpm_bus_count before;
	size_t n;
	char dev[DEVPM_QEMU_QUIET_MAX][32];	/* "0000:00:01.0" */
	char drv[DEVPM_QEMU_QUIET_MAX][32];	/* its driver */
	char kept[512];		/* controllers left bound, and why */
	off_t hold_mark, bind_mark;	/* journal: ports held, binds */
};

void devpm_bus_count_read(struct devpm_bus_count *c);

/*
 * Unbind every PCI device bound to one of devpm_qemu_quiet_drivers (the
 * journal must be open: the runner's), but those with a mounted disk
 * below (devpm_dev_protected(): named in q->kept).  First the USB ports
 * of every xHCI are held on (devpm_qemu_xhci_hold_ports()), then every
 * bind is journaled (the xHCI's last: bound first at the end, its USB
 * devices enumerate while the others probe), then the devices are
 * unbound at once, one child process each.  Prints nothing.  The number
 * unbound, or -errno with devpm_error() (what was done is journaled).
 */
int devpm_qemu_quiet_begin(struct devpm_qemu_quiet *q);

/*
 * Bind them again (the journal since q's binds), wait with back-off, at
 * most timeout_ms, until each has its driver back and the usb and scsi
 * buses have at least as many devices as before, then put back the
 * ports' control (their records: the new ports exist by then).  0; 1
 * with why naming the device or the counts that did not come back; or
 * -errno with devpm_error() when the journal could not restore.
 */
int devpm_qemu_quiet_end(const struct devpm_qemu_quiet *q, int timeout_ms,
			 char *why, size_t len);

/*
 * The PCI devices still bound to one of the quiet drivers (those a
 * mounted disk protects aside), named in list ("0000:00:01.0 (xhci_hcd)",
 * comma-separated).  The number, or -errno.
 */
int devpm_qemu_quiet_bound(char *list, size_t len);

#endif
