/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gadget.h - a USB device made by devpm: a configfs gadget on dummy_hcd.
 *
 * dummy_hcd gives a UDC (dummy_udc.N) wired to a host controller
 * (dummy_hcd.N) of the same machine, so the gadget enumerates on the host
 * side like a plugged-in device: a mass-storage function backed by a file
 * under devpm's run directory shows up as an sd disk, a HID boot keyboard
 * as an evdev node, and the report the gadget side writes to /dev/hidgN
 * reaches it.  The configuration's bmAttributes decides whether the host
 * sees a device that can do remote wakeup (0xa0) or not (0x80).  Writing
 * 1 to /sys/class/udc/<udc>/srp calls usb_gadget_wakeup(): the remote
 * wakeup signal (f_hid does not send one by itself).
 *
 * Every file, directory and link is journaled as an undo action before it
 * is made, so restore (a case's teardown, or `devpm restore` after a
 * SIGKILL) leaves no gadget behind: unlinking a function from the
 * configuration unbinds the gadget from its UDC.
 * Needs dummy_hcd, libcomposite (configfs mounted on /sys/kernel/config),
 * usb_f_mass_storage and usb_f_hid.
 */
#ifndef DEVPM_GADGET_H
#define DEVPM_GADGET_H

#include <stdbool.h>
#include <stddef.h>
#include "core/sysfs.h"
#include "bus/usb/usb.h"

#define DEVPM_GADGET_DIR "/sys/kernel/config/usb_gadget"

struct devpm_gadget_cfg {
	bool remote_wakeup;	/* bmAttributes 0xa0, else 0x80 */
	long storage_mb;	/* mass storage of this size; 0: none */
	bool keyboard;		/* HID boot keyboard */
};

struct devpm_gadget {
	char name[64];			/* configfs name = iSerial */
	char dir[DEVPM_PATH_MAX];	/* kernel path of the gadget */
	char udc[64];			/* "dummy_udc.0" */
	char backing[DEVPM_PATH_MAX];	/* the storage file ("" none) */
	char hidg[32];			/* "hidg0" ("" none) */
	int hid_fd;			/* /dev/hidgN, -1 until opened */
};

/*
 * Create the gadget and bind it to a free dummy UDC.  -ENODEV with a
 * reason when no dummy UDC is free or configfs lacks usb_gadget.
 */
int devpm_gadget_create(const struct devpm_gadget_cfg *c,
			struct devpm_gadget *g);

/* The host side: the USB device whose serial is g->name (bounded). */
int devpm_gadget_host(const struct devpm_gadget *g, int timeout_ms,
		      struct devpm_usb *u);

/*
 * Write one 8-byte keyboard report (modifiers, 0, six usages) on the
 * gadget side; waits up to timeout_ms for the previous one to be taken
 * by the host (-ETIMEDOUT).
 */
int devpm_gadget_key_report(struct devpm_gadget *g,
			    const unsigned char report[8], int timeout_ms);

/* Signal remote wakeup to the host (usb_gadget_wakeup()). */
int devpm_gadget_remote_wakeup(const struct devpm_gadget *g);

/* Close the gadget-side files; the journal undoes the rest. */
void devpm_gadget_close(struct devpm_gadget *g);

#endif
