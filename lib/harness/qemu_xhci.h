/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qemu_xhci.h - taking QEMU's xHCI out of the mock cases' sleep cycles.
 *
 * QEMU's xHCI cannot restore its state, so every resume re-initialises it
 * and resets every USB device: ~1.5 s of a ~1.7 s cycle under TCG
 * (pm_print_times: usb_dev_resume 150-640 ms per device).  A case whose
 * events come from mock devices unbinds the controllers for the case (a
 * journaled bind puts them back); only in devpm's QEMU image, never on
 * real hardware.
 */
#ifndef DEVPM_QEMU_XHCI_H
#define DEVPM_QEMU_XHCI_H

#include <stdbool.h>
#include <stddef.h>

#define DEVPM_XHCI_DRIVER	"/sys/bus/pci/drivers/xhci_hcd"
#define DEVPM_XHCI_SETTLE_MS	20000	/* bound on the USB chain's return */

/*
 * When in_qemu (the caller knows it is devpm's QEMU image: the host agent
 * answers) and the environment variable keep_var is not "1": unbind every
 * xhci_hcd PCI device, journaling its bind first.  Its USB ports are held
 * at power/control=on (journaled) first: a port whose child goes away
 * while the hub is being removed runtime-suspends and fails with -EINVAL
 * (drivers/usb/core/port.c: usb_port_runtime_suspend(), no hub), which the
 * verdict would blame on the case.  A controller with a mounted disk below
 * it stays (devpm_dev_protected()).  Each unbind and each controller kept
 * is said on a "# " line.  The number unbound, or -errno with
 * devpm_error().
 */
int devpm_qemu_xhci_unbind(bool in_qemu, const char *keep_var);

/*
 * Unbind and bind again every xhci_hcd controller (ports held, as above;
 * the journal has the bind should the process die in between): a state
 * the kernel leaked in the controller's root hubs is gone with them.
 * Only when in_qemu.  Call devpm_qemu_xhci_settle() after it.  The
 * number rebound, or -errno with devpm_error().
 */
int devpm_qemu_xhci_reset(bool in_qemu);

/*
 * Hold every USB port below the xHCI at path ctl at power/control=on
 * (journaled): those of its root hubs and of every hub below them, before
 * the controller is unbound (above).  0 or -errno.
 */
int devpm_qemu_xhci_hold_ports(const char *ctl);

/*
 * For one case that needs the USB devices while its program runs with
 * the controllers unbound (the runner's quiet window, or the program's
 * own: suites/wakeup/quiet_devices.h).  Only when in_qemu: bind every
 * PCI device that the run's baseline had bound to xhci_hcd and that has
 * no driver now, wait with back-off, at most timeout_ms, until every usb
 * device the baseline had below it is back, hold its ports on, then
 * journal its unbind: the case's restore takes it out again with its
 * ports held (their records are then gone with them, journal.h), and a
 * process that dies before the record leaves it bound, as the earlier
 * bind record wants it.  The number bound, or -errno with devpm_error().
 */
int devpm_qemu_xhci_bind_case(bool in_qemu, int timeout_ms);

/* Devices on the usb bus (hubs, devices, interfaces), or -errno. */
long devpm_usb_dev_count(void);

/*
 * After the case's restore bound the controllers again, before the
 * verdict: when this process unbound any, wait with back-off, at most
 * timeout_ms, until the usb bus has as many devices as before the unbind
 * (hub_wq enumerates them after xhci_pci_probe() returns).  0, or
 * -ETIMEDOUT with devpm_error() naming the count.
 */
int devpm_qemu_xhci_settle(int timeout_ms);

#endif
