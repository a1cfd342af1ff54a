/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xhci.h - QEMU's xHCI, set aside and brought back (qemu/guest/: the
 * environment hook of devpm's QEMU image, never on real hardware).
 *
 * QEMU's xHCI cannot restore its state, so every resume re-initialises
 * it and resets every USB device: ~1.5 s of a ~1.7 s cycle under TCG
 * (pm_print_times: usb_dev_resume 150-640 ms per device).
 */
#ifndef DEVPM_QEMU_GUEST_XHCI_H
#define DEVPM_QEMU_GUEST_XHCI_H

#include <stdbool.h>

#define XHCI_DRIVER	"/sys/bus/pci/drivers/xhci_hcd"

/*
 * Hold every USB port below the xHCI at path ctl at power/control=on
 * (journaled): those of its root hubs and of every hub below them,
 * before the controller is unbound.  A port whose hub goes away under it
 * runtime-suspends and fails with -EINVAL (drivers/usb/core/port.c:
 * usb_port_runtime_suspend(), no hub), which the verdict would blame on
 * the case.  0 or -errno.
 */
int xhci_hold_ports(const char *ctl);

/*
 * Unbind and bind again every xhci_hcd controller (ports held, as above;
 * the journal has the bind should the process die in between): a state
 * the kernel leaked in the controller's root hubs is gone with them.
 * The number rebound, or -errno with devpm_error().
 */
int xhci_reset(void);

/*
 * For one case that needs the USB devices while the controllers are set
 * aside: bind every PCI device that the run's baseline had bound to
 * xhci_hcd and that has no driver now, wait with back-off, at most
 * timeout_ms, until every usb device the baseline had below it is back,
 * hold its ports on, then journal its unbind: the case's restore sets it
 * aside again with its ports held.  The number bound, or -errno with
 * devpm_error().
 */
int xhci_bind_case(int timeout_ms);

/*
 * QEMU's xHCIs (qemu-xhci, PCI 1b36:000d): none restores its state at
 * resume (no save/restore: USBSTS.SRE, drivers/usb/host/xhci.c:
 * xhci_resume() re-initialises it, "xHC error in resume").  How many
 * there are.
 */
int xhci_qemu_count(void);

/* Is every usb device of the run's baseline below ctl back? */
bool xhci_baseline_back(void *ctl);

#endif
