/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * set_aside.h - QEMU's controllers set aside for the sleep cycles of the
 * tests that judge only their own devices (qemu/guest/env_hook.c, the
 * environment hook of devpm's QEMU image: lib/harness/environment.h).
 *
 * Under TCG every resume of QEMU's xHCI (xhci.h), AHCI (the disks' cache
 * flush and standby, the links' reset in EH after resume, which the next
 * cycle's suspend waits for) and e1000e (60-80 ms a cycle, pm_print_times)
 * is CPU work on the one vCPU: a cycle takes ~0.35 s, ~1.7 s with the
 * USB chain, instead of ~0.1 s, and a mock callback's timer fires late.
 * Setting them aside unbinds them, journaled; the journal binds them
 * again.  A controller with a mounted disk below it stays bound.  The
 * drivers come from the profile (qemu/profiles: PROFILE_SET_ASIDE).
 */
#ifndef DEVPM_QEMU_GUEST_SET_ASIDE_H
#define DEVPM_QEMU_GUEST_SET_ASIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SET_ASIDE_MAX		16	/* controllers one window sets aside */
#define SET_ASIDE_SETTLE_MS	20000	/* bound on their devices' return */

struct bus_count {
	long usb, scsi;		/* devices on each bus, -errno unreadable */
};

struct set_aside {
	struct bus_count before;
	size_t n;
	char dev[SET_ASIDE_MAX][32];	/* "0000:00:01.0" */
	char drv[SET_ASIDE_MAX][32];	/* its driver */
	char kept[512];		/* controllers left bound, and why */
	off_t hold_mark, bind_mark;	/* journal: ports held, binds */
};

void bus_count_read(struct bus_count *c);

/*
 * Unbind every PCI device bound to one of drivers (NULL-ended), but those
 * with a mounted disk below (devpm_dev_protected(): named in q->kept).
 * First the USB ports of every xHCI are held on (xhci_hold_ports()), then
 * every bind is journaled (the xHCI's last: bound first at the end, its
 * USB devices enumerate while the others probe), then the devices are
 * unbound at once, one child process each.  The journal must be open.
 * The number unbound, or -errno with devpm_error() (what was done is
 * journaled).
 */
int set_aside_begin(struct set_aside *q, const char *const *drivers);

/*
 * Bind them again (the journal since q's binds), wait with back-off, at
 * most timeout_ms, until each has its driver back and the usb and scsi
 * buses have at least as many devices as before, then put back the
 * ports' control (their records: the new ports exist by then).  0; 1
 * with why naming the device or the counts that did not come back; or
 * -errno with devpm_error() when the journal could not restore.
 */
int set_aside_end(const struct set_aside *q, int timeout_ms, char *why,
		  size_t len);

/*
 * After a case's restore: every PCI device bound to one of drivers has as
 * many usb and scsi devices below it as the run's baseline had, waited
 * for with back-off, at most timeout_ms.  0, or 1 with why naming the
 * controller and how many are missing.
 */
int set_aside_settle(const char *const *drivers, int timeout_ms, char *why,
		     size_t len);

/*
 * The PCI devices still bound to one of drivers (those a mounted disk
 * protects aside), named in list ("0000:00:01.0 (xhci_hcd)",
 * comma-separated).  The number, or -errno.
 */
int set_aside_bound(const char *const *drivers, char *list, size_t len);

#endif
