/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usb_suite.h - what the USB test programs share: the check that every
 * device held awake stayed active through the hold, seen both by polling
 * runtime_status (ending the hold early) and by runtime_suspended_time,
 * which a suspend between two polls would have grown.
 */
#ifndef DEVPM_USB_SUITE_H
#define DEVPM_USB_SUITE_H

#include <string.h>

#include "devpm.h"
#include "bus/usb/usb_bus.h"

/* For devpm_poll_until(): has any item still in left "active"? */
static inline bool usb_any_suspended(void *arg)
{
	struct devpm_usb_bus *b = arg;
	char st[16];
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->it[i].ok &&
		    !devpm_dev_status(&b->it[i].u.dev, st, sizeof(st)) &&
		    strcmp(st, "active"))
			return true;
	return false;
}

/*
 * After a hold of hold_ms: an item still in that suspended meanwhile
 * (status not active, or runtime_suspended_time grown from base) is taken
 * out as failed, the reason prefixed with what.
 */
static inline void usb_stayed_active(struct devpm_usb_item *it,
				     long long base, int hold_ms,
				     const char *what)
{
	if (!it->ok)
		return;
	devpm_dev_snapshot(&it->u.dev);
	if (strcmp(it->u.dev.rpm.status, "active") ||
	    it->u.dev.rpm.suspended_ms != base)
		devpm_usb_item_out(it, true,
				   "%s: status %s, runtime_suspended_time +%lld ms in %d ms",
				   what, it->u.dev.rpm.status,
				   it->u.dev.rpm.suspended_ms - base, hold_ms);
}

#endif
