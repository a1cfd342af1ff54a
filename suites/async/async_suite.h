/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * async_suite.h - what the async test programs share: a wake source for a
 * real s2idle cycle (lib/sleep/platform_wake.h), the per-phase figures of a
 * cycle (lib/trace/sleep_phases.h), the cycles a program's cases share
 * (lib/sleep/sleep_cycle_cache.h), and the mock cases' cycles without QEMU's USB.
 */
#ifndef DEVPM_ASYNC_SUITE_H
#define DEVPM_ASYNC_SUITE_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devpm.h"
#include "core/host.h"
#include "harness/qemu_xhci.h"

/* The mock devices (devpm_mock): their cycles trace only them. */
#define MOCK_GLOB	"devpm_mock.*"

/*
 * A mock case's cycles without QEMU's USB chain: in devpm's QEMU image
 * (the host agent answers), unless DEVPM_ASYNC_KEEP_USB=1, the xHCI
 * controllers are unbound for the case (lib/harness/qemu_xhci.h: each of those
 * cycles would otherwise resume every USB device, ~1.5 s).  0 or -errno.
 */
static inline int quiet_usb(void)
{
	int r = devpm_qemu_xhci_unbind(devpm_host_available(),
				       "DEVPM_ASYNC_KEEP_USB");

	return r < 0 ? r : 0;
}

#endif
