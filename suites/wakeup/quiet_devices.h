/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * quiet_devices.h - the wakeup programs take QEMU's controllers out of
 * their suspend cycles, once for the whole program.
 *
 * Their events come from devpm_mock, uinput and timers (userspace's USB
 * key case binds the xHCI back for itself: devpm_qemu_xhci_bind_case());
 * every other device only makes each cycle longer under TCG: the
 * xHCI's reset-resume (~1.5 s a cycle, lib/harness/qemu_xhci.h), and AHCI's
 * (the disks' cache flush and standby, the links' reset in EH after
 * resume, which the next cycle's suspend waits for) and e1000e's
 * callbacks (60-80 ms a cycle, pm_print_times) make a full cycle ~0.35
 * s instead of ~0.1 s.  In devpm's QEMU image only (the
 * host agent answers), wk_quiet_devices(), called in FIXTURE_SETUP before
 * devpm_case_setup(), unbinds them with their journal records before the
 * case's mark: the case's restore leaves them unbound and the next case
 * finds nothing to unbind (each bind costs ~2 s while hub_wq enumerates
 * the USB devices again).  The program's own restore at exit binds them
 * again (journal.c: the process that attached restores all it attached
 * for), and wk_devices_back() then waits until the usb and scsi buses
 * have as many devices as when the program started.  The cases' verdicts
 * leave the unbound devices alone (verdict.c: a device gone, or with
 * another driver, is not judged); the run's final recheck judges them
 * all back.  A controller with a mounted disk below it stays bound.
 * DEVPM_WAKEUP_KEEP_USB=1 keeps the xHCI, DEVPM_WAKEUP_KEEP_DEVICES=1 the
 * others.  Under `devpm run` the runner's quiet window (lib/harness/qemu_quiet.h)
 * has unbound them already: wk_quiet_devices() then finds nothing bound,
 * and the exit hook nothing to wait for.
 */
#ifndef QUIET_DEVICES_H
#define QUIET_DEVICES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devpm.h"
#include "core/host.h"
#include "harness/qemu_quiet.h"
#include "harness/qemu_xhci.h"

#define WK_KEEP_DEVICES	"DEVPM_WAKEUP_KEEP_DEVICES"

static const char *const wk_quiet_drivers[] = { "ahci", "e1000e" };

static pid_t wk_main_pid;
/* The usb and scsi buses' device counts when the program started. */
static struct devpm_bus_count wk_at_start = { -1, -1 };

static inline bool wk_all_back(void *arg)
{
	struct devpm_bus_count *w = arg;

	devpm_bus_count_read(w);
	return w->usb >= wk_at_start.usb && w->scsi >= wk_at_start.scsi;
}

/* atexit: in the program's own process, after its journal restore. */
static inline void wk_devices_back(void)
{
	struct devpm_bus_count w;

	if (getpid() != wk_main_pid || wk_all_back(&w))
		return;
	if (!devpm_poll_until(wk_all_back, &w, DEVPM_XHCI_SETTLE_MS))
		printf("# at exit, %d ms after the controllers' bind: %ld usb devices (want %ld), %ld scsi (want %ld)\n",
		       DEVPM_XHCI_SETTLE_MS, w.usb, wk_at_start.usb, w.scsi,
		       wk_at_start.scsi);
}

/*
 * Registered before main(), so before the journal's own exit hook
 * (devpm_journal_attach()): atexit runs the hooks in reverse order.
 */
__attribute__((constructor)) static void wk_devices_back_register(void)
{
	wk_main_pid = getpid();
	devpm_bus_count_read(&wk_at_start);
	atexit(wk_devices_back);
}

/* Unbind every PCI device bound to drv, journaled.  0 or -errno. */
static inline int wk_unbind_pci(const char *drv)
{
	char p[DEVPM_PATH_MAX], why[256];
	struct devpm_dev *d = NULL;
	size_t n, i;
	int r = 0;

	if (devpm_dev_list("pci", &d, &n))
		return 0;
	for (i = 0; i < n && !r; i++) {
		if (strcmp(d[i].driver, drv))
			continue;
		if (devpm_dev_protected(d[i].path, why, sizeof(why))) {
			devpm_note("%s stays bound: %s", d[i].name, why);
			continue;
		}
		r = devpm_fmt(p, sizeof(p), "/sys/bus/pci/drivers/%s/bind",
			      drv);
		if (!r)
			r = devpm_journal_undo_write(p, d[i].name);
		if (!r)
			r = devpm_fmt(p, sizeof(p),
				      "/sys/bus/pci/drivers/%s/unbind", drv);
		if (!r)
			r = devpm_write_str(p, d[i].name);
		if (!r)
			devpm_note("QEMU: %s (%s) unbound until the program exits (%s=1 keeps it)",
				   d[i].name, drv, WK_KEEP_DEVICES);
	}
	free(d);
	return r;
}

/* Before devpm_case_setup(), see above.  0 or -errno. */
static inline int wk_quiet_devices(void)
{
	const char *keep = getenv(WK_KEEP_DEVICES);
	bool qemu = devpm_host_available();
	size_t i;
	int r = devpm_qemu_xhci_unbind(qemu, "DEVPM_WAKEUP_KEEP_USB");

	if (r > 0)
		devpm_note("QEMU: the xHCI stays unbound until the program exits");
	if (r < 0 || !qemu || (keep && !strcmp(keep, "1")))
		return r < 0 ? r : 0;
	for (i = 0, r = 0; i < sizeof(wk_quiet_drivers) /
		     sizeof(wk_quiet_drivers[0]) && !r; i++)
		r = wk_unbind_pci(wk_quiet_drivers[i]);
	return r;
}

#endif
