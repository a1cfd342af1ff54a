/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usb_bus.h - every USB device made ready to autosuspend, for a test case.
 *
 * devpm_usb_bus_load() lists the USB devices, traces them (optional),
 * gives each control=auto and delay_ms through the journal (and the disks
 * below a storage device disk_delay_ms, usb.h), and waits until each that
 * can is suspended.  A disk's delay should outlast the gap between the
 * requests of a burst: with 0, a suspend attempt can meet the request that
 * is completing (-EBUSY) and nothing retries it.  An item that cannot
 * take part says why: a skip (a driver without autosuspend, a protected
 * disk, a device below it that cannot suspend) or a failure (idle,
 * allowed, and still not suspended).
 */
#ifndef DEVPM_USB_BUS_H
#define DEVPM_USB_BUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "judge/block.h"
#include "trace/trace.h"
#include "bus/usb/usb.h"

/*
 * How long past its delays a case waits for a USB device to get to a
 * state it needs: a wait bound, not a limit.  When a suspend came is
 * judged by the kernel's promise (rpm/autosuspend_timer.h) where a case
 * owns it (autosuspend.c: idle_devices_autosuspend).
 */
#define DEVPM_USB_BOUND_MS 1000

struct devpm_usb_item {
	struct devpm_usb u;
	bool ok;		/* prepared, and seen suspended */
	bool failed;		/* why is a failure, not a reason to skip */
	char why[640];
};

struct devpm_usb_bus {
	struct devpm_usb_item *it;
	size_t n;
	struct devpm_trace *t;	/* NULL: not traced (polling) */
	const char **names;	/* the device names, NULL-terminated */
	long delay_ms;
};

int devpm_usb_bus_load(struct devpm_usb_bus *b, long delay_ms,
		       long disk_delay_ms, bool trace);
void devpm_usb_bus_free(struct devpm_usb_bus *b);

/* Take the item out, with a reason (failed: a failure, else a skip). */
void devpm_usb_item_out(struct devpm_usb_item *it, bool failed,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * In the item's block (block.h): returns when the item is still in;
 * one taken out ends the block with its reason, as a failure
 * (devpm_block_abort()) or a skip (devpm_block_skip()).
 */
void devpm_usb_item_still_in(struct devpm_block *b,
			     const struct devpm_usb_item *it);

/* Write power/control of the device through the journal. */
int devpm_usb_control(const struct devpm_usb *u, const char *val);

/*
 * Wait until every item still in reaches status, by deadline
 * (devpm_now_us() time); an item that does not is taken out as failed,
 * its reason prefixed with what.
 */
void devpm_usb_bus_wait(struct devpm_usb_bus *b, const char *status,
			uint64_t deadline, const char *what);

/* Milliseconds from now until deadline, at least 1. */
int devpm_usb_left_ms(uint64_t deadline);

/*
 * Resume the devices at once and hold them awake (an open usbfs file each,
 * opened in parallel), for a case's teardown: putting control=on back
 * resumes each device in turn (~0.1 s each under TCG), unless it is awake
 * already.  Release after the journal restore.  NULL when nothing is held.
 */
struct devpm_usb_hold;
struct devpm_usb_hold *devpm_usb_hold(const struct devpm_usb *const *u,
				      size_t n);
struct devpm_usb_hold *devpm_usb_bus_hold(const struct devpm_usb_bus *b);
void devpm_usb_release(struct devpm_usb_hold *h);

#endif
