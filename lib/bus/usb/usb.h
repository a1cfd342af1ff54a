/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usb.h - USB devices in the device model, and their usbfs handle.
 *
 * A USB device is an entry of /sys/bus/usb/devices with DEVTYPE=usb_device;
 * interfaces ("1-3:1.0") share the bus but are not devices here.  Root hubs
 * are named usbN; the host controller is a root hub's parent device.
 *
 * Non-hub devices start with control=on and a 2 s delay (usbcore.autosuspend);
 * a device autosuspends only when every interface is idle and, if one of
 * them needs remote wakeup (an open HID device), the device can do it
 * (autosuspend_check(), KERNEL-FACTS.md §10).  Below a storage device, sd
 * starts with control=on and autosuspend_delay_ms=-1.
 *
 * The usbfs handle opens /dev/bus/usb/BBB/DDD itself and hands the fd to
 * libusb (libusb_wrap_sys_device), so libusb and the usbfs PM ioctls share
 * one file: opening autoresumes the device and holds it active until
 * USBDEVFS_ALLOW_SUSPEND or close; FORBID_SUSPEND resumes and holds it again;
 * WAIT_FOR_RESUME sleeps until a resume caused elsewhere, then holds it.
 */
#ifndef DEVPM_USB_H
#define DEVPM_USB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rpm/device.h"

struct devpm_usb {
	struct devpm_dev dev;		/* dev.name: "1-3.1", "usb1" */
	int busnum, devnum;
	bool root_hub;
	bool hub;			/* bDeviceClass 09 */
	unsigned int vendor, product_id;
	char product[64];		/* "" when the device names none */
	char serial[64];
	char parent[128];		/* parent USB device; "" for a root hub */
};

/* Fill u from a device of the model; -ENODEV when it is no USB device. */
int devpm_usb_from_dev(const struct devpm_dev *d, struct devpm_usb *u);

/* Every USB device, sorted by path (parents first).  free() *list. */
int devpm_usb_list(struct devpm_usb **list, size_t *n);

/* The USB device with this name ("1-1", "usb2"). */
int devpm_usb_open(const char *name, struct devpm_usb *u);

/* The interfaces of u ("1-1:1.0", ...).  free() *list. */
int devpm_usb_interfaces(const struct devpm_usb *u, struct devpm_dev **list,
			 size_t *n);

/*
 * Why u can never autosuspend as a whole, or "" (returns 0 then, 1 with
 * a reason): an interface whose bound driver does not support autosuspend
 * keeps runtime PM disabled on an active interface.
 */
int devpm_usb_blocker(const struct devpm_usb *u, char *why, size_t len);

/* The host controller behind a root hub (its parent device). */
int devpm_usb_controller(const struct devpm_usb *root, struct devpm_dev *hc);

/* True if path lies at or below the USB device (a descendant device). */
bool devpm_usb_below(const struct devpm_usb *u, const char *path);

/*
 * True if path lies in one of u's own interfaces ("<u>/1-1:1.0/..."), not
 * below a child device of a hub.
 */
bool devpm_usb_owns(const struct devpm_usb *u, const char *path);

/*
 * Let u and the disks below it autosuspend: through the journal, write
 * autosuspend_delay_ms=delay_ms and control=auto on u, and control=auto on
 * each SCSI disk below it (sd starts with control=on and a delay of -1),
 * its target and host, with autosuspend_delay_ms=disk_delay_ms on the disk.
 * -EPERM (devpm_error() says why) for a device on the path of a mounted
 * filesystem without --allow-disk.
 */
int devpm_usb_allow_autosuspend(const struct devpm_usb *u, long delay_ms,
				long disk_delay_ms);

/*
 * Does the probe's bookkeeping explain why a PCI host controller stays
 * active with control=auto and no active child?  usb_hcd_pci_probe() keeps
 * the reference local_pci_probe() took unless pci_dev_run_wake() (PME
 * support), and xhci_pci_probe() takes one more when pci_choose_state()
 * gives D0 (no PM capability).  usage: runtime_usage, -1 when unreadable.
 * Returns 1 with the exact reason in why when the held references are
 * these and no others (usage equal to them), else 0.
 */
int devpm_usb_hcd_hold(const char *driver, bool pm_cap, bool pme, long usage,
		       char *why, size_t len);

/* Kernel path of the usbfs node: /dev/bus/usb/BBB/DDD. */
int devpm_usb_node(const struct devpm_usb *u, char *buf, size_t len);

struct devpm_usbfs;

/*
 * Open u through usbfs and libusb.  The descriptor libusb reads must name
 * the vendor and product sysfs shows (else -ESTALE: the node is another
 * device's).  Needs root.
 */
int devpm_usbfs_open(const struct devpm_usb *u, struct devpm_usbfs **h);
int devpm_usbfs_allow_suspend(struct devpm_usbfs *h);
int devpm_usbfs_forbid_suspend(struct devpm_usbfs *h);

/*
 * USBDEVFS_WAIT_FOR_RESUME in a thread of its own: start it, then ask
 * whether it returned within timeout_ms (1: yes, with the ioctl's result
 * in *ret and the CLOCK_MONOTONIC time in *at_us; 0: still waiting).
 * devpm_usbfs_close() interrupts a wait that is still pending.
 */
int devpm_usbfs_wait_start(struct devpm_usbfs *h);
int devpm_usbfs_wait_end(struct devpm_usbfs *h, int timeout_ms, int *ret,
			 uint64_t *at_us);

void devpm_usbfs_close(struct devpm_usbfs *h);

#endif
